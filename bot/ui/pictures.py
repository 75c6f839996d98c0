"""The card art at work in Discord: table pictures drawn off the event loop, and card emoji.

One ``Pictures`` per bot holds the card art of each palette (cached in memory and on disk), a
thread that draws table pictures one at a time, and the application emoji of each palette for
the hand's card buttons. A picture that fails to draw leaves a text-only table (one warning);
it never costs a move.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import discord

from bot.config import PaletteName
from bot.engine.cards import Face, Side
from bot.engine.view import PlayerView

from .cards import COLOR_BLIND, STANDARD, CardArt, Palette, TablePicture, table_picture, table_png
from .cards.emoji import CardEmojis, EmojiHost

# The file name the table's embed shows its picture by (``attachment://table.png``).
PICTURE_FILE = "table.png"
PICTURE_URL = f"attachment://{PICTURE_FILE}"
ART_PALETTES: dict[PaletteName, Palette] = {"standard": STANDARD, "colour_blind": COLOR_BLIND}

# What a hand button shows for a card: an application emoji, or a colour emoji as text.
CardEmoji = Callable[[Face, Side], "discord.PartialEmoji | str"]

log = logging.getLogger(__name__)


def picture_file(png: bytes) -> discord.File:
    """A table picture as the attachment its embed shows (a File is spent by one request)."""
    return discord.File(io.BytesIO(png), PICTURE_FILE)


@dataclass(slots=True)
class LastPicture:
    """A table's latest picture and what it shows: an edit that changes only the words (a log
    line, a mention) sends the same bytes without drawing them again."""

    shows: tuple[PaletteName, TablePicture] | None = None
    png: bytes = b""


class Pictures:
    """Card art per palette, table pictures drawn on one worker thread, card emoji."""

    def __init__(self, directory: Path | None = None) -> None:
        """Card art cached in ``directory`` (memory only when None)."""
        self.art = {name: CardArt(directory, palette) for name, palette in ART_PALETTES.items()}
        self.emojis = {name: CardEmojis(art) for name, art in self.art.items()}
        # One thread: pictures never take more than one core from the event loop, and a burst
        # of edits queues here instead of crowding the default executor.
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="table-pictures")
        self._warned = False
        self._ensured: set[PaletteName] = set()
        self.drawn = 0

    async def table_png(
        self, view: PlayerView, name: Callable[[str], str], palette: PaletteName, last: LastPicture
    ) -> bytes | None:
        """The table picture of ``view`` as PNG bytes, or None when it could not be drawn
        (logged once; the table shows its text alone). Drawn on the pictures' thread, and
        only when it shows something other than ``last``."""
        shows = (palette, table_picture(view, name))
        if last.shows != shows:
            art = self.art[palette]
            try:
                png = await asyncio.get_running_loop().run_in_executor(
                    self._thread, table_png, shows[1], art
                )
            except Exception as error:  # any drawing failure: the table still goes out
                self._warn(error)
                return None
            last.shows, last.png = shows, png
            self.drawn += 1
        return last.png

    def card_emoji(self, palette: PaletteName) -> CardEmoji:
        """What the hand's buttons show for a card in ``palette``."""
        return self.emojis[palette].emoji_for

    async def ensure_emoji(self, client: EmojiHost, palettes: Iterable[PaletteName]) -> None:
        """Create (or find by name) the card emoji of each of ``palettes``, each once per run
        and one after another; a failure falls back to colour emoji with one warning for the
        whole bot (see ``CardEmojis.ensure``)."""
        for palette in palettes:
            if palette in self._ensured or any(e.failed for e in self.emojis.values()):
                continue
            self._ensured.add(palette)
            await self.emojis[palette].ensure(client)

    def close(self) -> None:
        """Stop the drawing thread once the pictures in progress are done."""
        self._thread.shutdown(wait=False, cancel_futures=True)

    def _warn(self, error: Exception) -> None:
        if not self._warned:
            log.warning("table picture failed, showing the table as text: %r", error)
        else:
            log.debug("table picture failed again: %r", error)
        self._warned = True
