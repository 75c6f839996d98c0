"""The card art at work in Discord: table pictures drawn off the event loop, and card emoji.

One ``Pictures`` per bot holds the card art of each palette (cached in memory and on disk), a
process that draws table pictures one at a time, and the application emoji of each palette for
the hand's card buttons. A picture that fails to draw leaves a text-only table (one warning);
it never costs a move.

Table pictures are drawn in a separate, lower-priority process rather than a thread: a picture
is 10-40 ms of mostly Python work that holds the GIL, and drawn on a thread of the bot's own
process it delayed the answers to clicks (bench/bot_load.py at 1,000 games: first-response p99
85 ms with a thread). In its own process the event loop keeps the GIL, and on a shared core the
operating system runs the loop first.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import io
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import discord

from bot.config import PaletteName
from bot.engine import events as ev
from bot.engine.cards import Face, Side
from bot.engine.variants import variant as variant_entry
from bot.engine.view import PlayerView

from .cards import (
    COLOR_BLIND,
    STANDARD,
    CardArt,
    CardWords,
    Family,
    Palette,
    PictureWords,
    RoundEndPicture,
    RoundEndWords,
    TablePicture,
    round_end_picture,
    round_end_png,
    table_picture,
    table_png,
    warm,
)
from .cards.emoji import CardEmojis, EmojiHost
from .i18n import ENGLISH, Lang
from .words import card_words, picture_words, round_end_words

# The file name the table's embed shows its picture by (``attachment://table.png``).
PICTURE_FILE = "table.png"
PICTURE_URL = f"attachment://{PICTURE_FILE}"
ART_PALETTES: dict[PaletteName, Palette] = {"standard": STANDARD, "colour_blind": COLOR_BLIND}

# What a picture shows, and its words: the live table, or the hands counted at a round's end.
Drawing = TablePicture | RoundEndPicture
DrawingWords = PictureWords | RoundEndWords

# What a hand button shows for a card: an application emoji, or a colour emoji as text.
CardEmoji = Callable[[Face, Side], "discord.PartialEmoji | str"]

# Tables whose last picture stays in memory, the most recently drawn first.
KEPT_PICTURES = 64

log = logging.getLogger(__name__)


class PicturesBehind(Exception):
    """The drawing process has more pictures waiting than it can draw in time."""


def palette_name(value: str) -> PaletteName:
    """A table's ``palette`` as a palette this art has (anything unknown: standard)."""
    return "colour_blind" if value == "colour_blind" else "standard"


def picture_file(png: bytes) -> discord.File:
    """A table picture as the attachment its embed shows (a File is spent by one request)."""
    return discord.File(io.BytesIO(png), PICTURE_FILE)


@dataclass(slots=True)
class LastPicture:
    """A table's latest picture and what it shows (its words, in the table's language,
    included): an edit that changes only the message's words (a log line, a mention) sends the
    same bytes without drawing them again. Only the most recent
    tables keep their bytes (``KEPT_PICTURES``): at 1,000 games, pictures of every table would
    hold 50 MB for the rare edit that changes words alone."""

    shows: tuple[PaletteName, Drawing, DrawingWords] | None = None
    png: bytes = b""


T = TypeVar("T")

# The drawing process's niceness: below the bot's, so a shared core runs the event loop first.
DRAWING_NICENESS = 10
# The drawing process's own card art, by palette (it shares the disk cache with the bot).
_process_art: dict[tuple[PaletteName, Path | None], CardArt] = {}
# The one drawing process of this Python process, started with the first picture and ended
# with the interpreter (concurrent.futures joins it at exit); shared by every bot in it.
_drawing: Executor | None = None


def drawing_process() -> Executor:
    """The process that draws table pictures (started on first use). "spawn": forking the
    bot's process (its event loop, threads and sockets) would be unsafe."""
    global _drawing
    if _drawing is None:
        _drawing = ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_drawing_process,
            initargs=(os.getpid(),),
        )
    return _drawing


def _start_drawing_process(parent: int, death_signal: bool = True) -> None:
    """Runs first in the drawing process: lower its priority below the bot's, and end with
    the bot (``parent``); ``death_signal`` False leaves only the portable watch (tests)."""
    # Where that is not allowed, the pictures still come, at the bot's own priority.
    with contextlib.suppress(OSError):
        os.nice(DRAWING_NICENESS)
    end_with_parent(parent, death_signal)


# Seconds between two looks at whether the bot is still this process's parent.
PARENT_WATCH_INTERVAL = 1.0
PR_SET_PDEATHSIG = 1  # prctl(2) option: the signal this process gets when its parent ends


def end_with_parent(parent: int, death_signal: bool = True) -> None:
    """End this process when ``parent`` ends, however it ends (a ``kill -9``, out of memory).

    A drawing process outliving the bot sleeps on its pipe forever (about 116 MB each), and
    keeps multiprocessing's resource tracker alive with it. On Linux the kernel sends SIGTERM
    when the parent goes (``PR_SET_PDEATHSIG``; it follows the parent's thread that started
    this process, which is the event loop's, alive as long as the bot). Everywhere a thread
    also looks every ``PARENT_WATCH_INTERVAL`` s whether the parent is still the parent (an
    orphan is adopted by another process)."""
    if death_signal and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    # Also right away: the parent may have gone before the signal above was asked for.
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_INTERVAL)
    os._exit(0)  # nothing of this process is worth finishing without the bot


def _art(palette: PaletteName, directory: Path | None) -> CardArt:
    """The drawing process's card art of ``palette`` (cached in ``directory``)."""
    art = _process_art.get((palette, directory))
    if art is None:
        art = _process_art[palette, directory] = CardArt(directory, ART_PALETTES[palette])
    return art


def _draw_table(
    picture: Drawing, words: DrawingWords, palette: PaletteName, directory: Path | None
) -> bytes:
    """The table picture (or the round end's) as PNG bytes, in the drawing process (cards
    cached there)."""
    art = _art(palette, directory)
    if isinstance(picture, RoundEndPicture):
        assert isinstance(words, RoundEndWords)
        return round_end_png(picture, art, words)
    assert isinstance(words, PictureWords)
    return table_png(picture, art, words)


def _warm(palette: PaletteName, directory: Path | None, words: CardWords, part: int) -> int:
    """Draw (or read from disk) share ``part`` of the cards a table picture uses, in the
    drawing process."""
    return warm(_art(palette, directory), words, part, WARM_PARTS)


# The warm-up's pieces (see Pictures.close): each a few tenths of a second of drawing.
WARM_PARTS = 8


class Pictures:
    """Card art per palette, table pictures drawn in one worker process, card emoji."""

    # Seconds a table edit waits for its picture. A picture takes tens of milliseconds; when
    # the machine is so busy that it takes longer, the edit goes out with its words alone
    # (bench/bot_load.py on one shared core left tables minutes behind waiting for pictures).
    draw_timeout: float | None = 2.0
    # Pictures asked for and not drawn yet, at most. Past that the process is behind (a busy
    # machine, hundreds of edits a second): more would only wait and time out, every one of
    # them, so the edit goes out with its words and the queue stays short.
    max_waiting = 3

    def __init__(self, directory: Path | None = None) -> None:
        """Card art cached in ``directory`` (memory only when None)."""
        self.directory = directory
        # Made on first use: the disk cache's folder appears only once the bot draws (a bot
        # that fails to log in leaves no folder behind).
        self._emojis: dict[PaletteName, CardEmojis] = {}
        self._warned = False
        self._ensured: set[PaletteName] = set()
        self._kept: OrderedDict[int, LastPicture] = OrderedDict()
        self._waiting = 0
        self.drawn = 0
        # Work this bot gave the drawing process and that has not ended: close() waits for it,
        # so nothing writes into the bot's folder after the bot has stopped.
        self._unfinished: set[Future[Any]] = set()

    async def table_png(
        self,
        view: PlayerView,
        name: Callable[[str], str],
        palette: str,
        last: LastPicture,
        lang: Lang,
        events: Sequence[ev.Event] = (),
    ) -> bytes | None:
        """The table picture of ``view`` with its words in ``lang`` as PNG bytes, or None when
        it could not be drawn (logged once; the table shows its text alone); ``events``, the
        last move's, are marked on it. Drawn in the drawing process, and only when it shows
        something other than ``last``."""
        picture = table_picture(view, name, events)
        return await self._drawn(
            (palette_name(palette), picture, picture_words(lang, picture)), last
        )

    async def round_end_png(
        self,
        view: PlayerView,
        hands: Iterable[tuple[str, Sequence[Face], int]],
        name: Callable[[str], str],
        palette: str,
        last: LastPicture,
        lang: Lang,
    ) -> bytes | None:
        """The round-end picture (every hand left face up, each card's points, the totals) of
        ``view`` at a round's end, with ``hands`` as the table's ``final_hands()``; like
        ``table_png``, drawn in the drawing process, None when it could not be drawn."""
        picture = round_end_picture(view, hands, name)
        words = round_end_words(lang, picture)
        return await self._drawn((palette_name(palette), picture, words), last)

    async def _drawn(
        self, shows: tuple[PaletteName, Drawing, DrawingWords], last: LastPicture
    ) -> bytes | None:
        """The PNG of ``shows``: ``last``'s when it shows the same, else drawn (None when it
        could not be)."""
        if last.shows != shows:
            try:
                png = await self._draw(shows[1], shows[2], shows[0])
            except Exception as error:  # any drawing failure: the table still goes out
                self._warn(error)
                return None
            last.shows, last.png = shows, png
            self.drawn += 1
        self._keep(last)
        return last.png

    def start_drawing(self) -> None:
        """Start the drawing process now and have it load every card of the standard palette,
        so the first pictures wait for neither (a new process takes a second or more to start;
        the cards take 2 s of its CPU the first time, 0.2 s from the disk cache after). Faces
        are warmed in English only; another language's are drawn as its tables first show
        them (a few ms a card), so warm-up costs the same however many languages exist."""
        warm_words = card_words(ENGLISH)
        drawing = drawing_process()
        for part in range(WARM_PARTS):
            self._track(drawing.submit(_warm, "standard", self.directory, warm_words, part))

    def _track(self, work: Future[T]) -> Future[T]:
        self._unfinished.add(work)
        work.add_done_callback(self._unfinished.discard)
        return work

    async def close(self, timeout: float = 10.0) -> None:
        """Call off the drawing this bot asked for and that has not started, then wait (at
        most ``timeout`` s, off the event loop) for what has: it writes cards into the bot's
        folder. The warm-up is in pieces for this: on a busy machine all of it could take
        longer than the timeout (a bench or test would then remove a folder still written to)."""
        for work in list(self._unfinished):
            work.cancel()  # False for work already running; it is waited for below
        unfinished = set(self._unfinished)
        if unfinished:
            await asyncio.to_thread(wait_for_futures, unfinished, timeout)

    async def _draw(self, picture: Drawing, words: DrawingWords, palette: PaletteName) -> bytes:
        """Draw a table picture in the drawing process: one process, so pictures never take
        more than one core, and a burst of edits queues there."""
        global _drawing
        if self._waiting >= self.max_waiting:
            raise PicturesBehind(f"{self._waiting} table pictures are waiting to be drawn")
        loop = asyncio.get_running_loop()
        self._waiting += 1
        try:
            work = drawing_process().submit(_draw_table, picture, words, palette, self.directory)
            drawing = asyncio.wrap_future(self._track(work), loop=loop)
            # On timeout the picture is cancelled: if it has not started, it leaves the queue.
            return await asyncio.wait_for(drawing, self.draw_timeout)
        except BrokenProcessPool:
            _drawing = None  # the process died (killed, out of memory): the next one restarts it
            raise
        finally:
            self._waiting -= 1

    def _keep(self, last: LastPicture) -> None:
        self._kept[id(last)] = last
        self._kept.move_to_end(id(last))
        while len(self._kept) > KEPT_PICTURES:
            _, oldest = self._kept.popitem(last=False)
            oldest.shows, oldest.png = None, b""

    def card_emoji(self, palette: str, variant: str) -> CardEmoji:
        """What the hand's buttons show for a card in ``palette`` (a table's palette), in the
        art family of ``variant`` (a registry key)."""
        family = Family(variant_entry(variant).art)
        return partial(self.emojis(palette_name(palette)).emoji_for, family=family)

    def emojis(self, palette: PaletteName) -> CardEmojis:
        """The card emoji of ``palette`` (their art cached in the bot's folder)."""
        emojis = self._emojis.get(palette)
        if emojis is None:
            art = CardArt(self.directory, ART_PALETTES[palette])
            emojis = self._emojis[palette] = CardEmojis(art)
        return emojis

    async def ensure_emoji(self, client: EmojiHost, palettes: Iterable[str]) -> None:
        """Create (or find by name) the card emoji of each of ``palettes``, each once per run
        and one after another; a failure falls back to colour emoji with one warning for the
        whole bot (see ``CardEmojis.ensure``)."""
        for palette in map(palette_name, palettes):
            if palette in self._ensured or any(e.failed for e in self._emojis.values()):
                continue
            self._ensured.add(palette)
            await self.emojis(palette).ensure(client)

    def _warn(self, error: Exception) -> None:
        if not self._warned:
            log.warning("table picture failed, showing the table as text: %r", error)
        else:
            log.debug("table picture failed again: %r", error)
        self._warned = True
