"""Application emoji of the card art, one per face, for the hand's card buttons.

Created once from the art (reused by name after a restart, created only when missing). The art
is wordless (symbols, shapes and numbers), so one set per palette serves every server and
language. When Discord refuses (no permission, the per-application limit, an outage), buttons
fall back to the colour emoji of bot/ui/text.py and one warning is logged.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from typing import Protocol, TypeVar

import aiohttp
import discord

from bot.engine.cards import Face, Kind, Side

from ..text import COLOR_EMOJI
from .cache import CardArt
from .catalog import all_family_faces, face_name
from .draw import Family

# Discord allows 2,000 emoji per application; every emoji version and palette needs a set.
APP_EMOJI_LIMIT = 2000
NAME_RE = re.compile(r"[A-Za-z0-9_]{2,32}")
# Names this module makes: "uf", the emoji version, the palette key, "_", the face and, for a
# face redrawn since, "_r" and its revision.
OURS_RE = re.compile(r"uf(?P<version>[0-9]+)(?P<palette>[a-z]+)_[a-z0-9_]+")
# The emoji's own version, apart from the card art's DESIGN_VERSION: a change to the faces
# (their words, the table's language) leaves the emoji as they are. Raising it replaces every
# emoji of every palette, one REST call each (about 120 per palette). Version 2 (issue 31): every
# emoji redrawn for the 22 px Discord shows it at (big signs, no small marks), and the standard
# palette's pink and teal changed.
EMOJI_VERSION = 2
# Faces whose emoji art changed within EMOJI_VERSION: a new name replaces only these (the old
# emoji is deleted as retired), and every other emoji keeps its name and is found after a
# restart. Revision 2: the letters "S" and "C" on these wilds became symbols, so no emoji
# shows an English initial.
EMOJI_REVISIONS: dict[Kind, int] = {Kind.WILD_SHUFFLE_HANDS: 2, Kind.WILD_CUSTOMIZABLE: 2}
# No Mercy's and Junior's faces (issues 26, 27) carry their family's prefix ("nm_", "jr_")
# after the palette: new names, so the classic-framed emoji they had before are no longer
# wanted and are deleted as retired, and the classic and Flip emoji keep their names.

log = logging.getLogger(__name__)

T = TypeVar("T")


def retry_after(error: Exception) -> float | None:
    """Seconds a rate-limited call was told to wait, or None when ``error`` is no 429."""
    if isinstance(error, discord.RateLimited):
        return error.retry_after
    if isinstance(error, discord.HTTPException) and error.status == 429:
        headers = getattr(error.response, "headers", None) or {}
        try:
            return float(headers.get("Retry-After", RATE_LIMITED_WAIT))
        except ValueError:
            return RATE_LIMITED_WAIT
    return None


async def patiently(call: Callable[[], Awaitable[T]]) -> T:
    """``call()``, made again after each 429 once its wait is over (at most
    ``RATE_LIMITED_TRIES`` times in all): a busy start-up is slowed, never refused."""
    for _ in range(RATE_LIMITED_TRIES - 1):
        try:
            return await call()
        except FAILURES as error:
            wait = retry_after(error)
            if wait is None:
                raise
            log.info("card emoji rate-limited, trying again in %.1f s", wait)
            await asyncio.sleep(wait)
    return await call()


class AppEmoji(Protocol):
    """What this module reads of a ``discord.Emoji``."""

    @property
    def name(self) -> str: ...

    @property
    def id(self) -> int: ...

    @property
    def animated(self) -> bool: ...

    async def delete(self) -> None: ...


class EmojiHost(Protocol):
    """The two calls of ``discord.Client`` (2.5+) that manage application emoji."""

    async def fetch_application_emojis(self) -> Sequence[AppEmoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> AppEmoji: ...


# A 429 (Discord's rate limit) never ends creation: the call waits as told and is made again,
# up to this many times in all, before it counts as a failure.
RATE_LIMITED_TRIES = 8
# Seconds to wait after a 429 that says nothing of when to come back (one global window).
RATE_LIMITED_WAIT = 1.0

# Failures that end creation for this run: Discord refusing (Forbidden, the limit, any HTTP
# error or a missing application id) or the network failing.
FAILURES = (discord.DiscordException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def emoji_name(
    face: Face, side: Side | None, palette_key: str, family: Family = Family.CLASSIC
) -> str:
    """The application emoji name of a face, e.g. ``uf1std_red_5``, ``uf2std_nm_red_5`` (No
    Mercy's) or, for a redrawn face, ``uf1std_wild_shuffle_hands_r2`` (valid for Discord)."""
    revision = EMOJI_REVISIONS.get(face.kind, 1)
    suffix = f"_r{revision}" if revision > 1 else ""
    name = f"uf{EMOJI_VERSION}{palette_key}_{face_name(face, side, family)}{suffix}"
    if not NAME_RE.fullmatch(name):
        raise ValueError(f"not a valid emoji name: {name!r}")
    return name


class CardEmojis:
    """One application emoji per card face in ``art``'s palette, with a text fallback."""

    def __init__(self, art: CardArt) -> None:
        self.art = art
        self.created = 0
        self.deleted = 0
        self._emoji: dict[str, discord.PartialEmoji] = {}
        self._warned = False

    @property
    def names(self) -> list[str]:
        """Every emoji name this set needs (one per distinct face, side and family)."""
        key = self.art.palette.key
        return [emoji_name(face, side, key, family) for face, side, family in all_family_faces()]

    @property
    def failed(self) -> bool:
        """Whether creating or listing the emoji failed this run (buttons show colour emoji)."""
        return self._warned

    async def ensure(self, client: EmojiHost) -> None:
        """Reuse the emoji that exist by name, delete those of older versions and retired
        revisions and create the missing ones; Discord or network failures never raise
        (buttons fall back to colour emoji, with one warning). Takes a REST call per missing
        emoji: run it as a task."""
        try:
            listed = await patiently(client.fetch_application_emojis)
            existing = {emoji.name: emoji for emoji in listed}
        except FAILURES as error:
            self._warn(f"could not list the application's emoji ({error})")
            return
        key = self.art.palette.key
        wanted = {emoji_name(f, s, key, fam): (f, s, fam) for f, s, fam in all_family_faces()}
        existing = await self._prune_stale(existing, wanted.keys())
        for name in wanted.keys() & existing.keys():
            self._keep(existing[name])
        missing = [name for name in wanted if name not in existing]
        if len(existing) + len(missing) > APP_EMOJI_LIMIT:
            self._warn(
                f"{len(missing)} card emoji are missing but the application already has "
                f"{len(existing)} of its {APP_EMOJI_LIMIT}"
            )
            return
        for name in missing:
            face, side, family = wanted[name]
            # Drawing takes milliseconds per face: off the event loop.
            image = await asyncio.to_thread(self.art.emoji_png, face, side, family=family)
            try:
                emoji = await patiently(
                    partial(client.create_application_emoji, name=name, image=image)
                )
            except FAILURES as error:
                self._warn(f"could not create the card emoji {name} ({error})")
                return
            self.created += 1
            self._keep(emoji)

    async def _prune_stale(
        self, existing: dict[str, AppEmoji], wanted: Iterable[str]
    ) -> dict[str, AppEmoji]:
        # Each emoji version makes a new set, each revision a new emoji: the old ones would
        # otherwise eat into the 2,000-emoji limit. Stale: ours and of another version, or of
        # this palette and version but no longer wanted (a face's older revision); another
        # palette's current set is left alone. A failed delete is left for the next start.
        kept, wanted = dict(existing), set(wanted)
        for name, emoji in existing.items():
            match = OURS_RE.fullmatch(name)
            if match is None:
                continue
            current = int(match["version"]) == EMOJI_VERSION
            if current and (match["palette"] != self.art.palette.key or name in wanted):
                continue
            try:
                await patiently(emoji.delete)
            except FAILURES as error:
                log.info("could not delete the old card emoji %s (%s)", name, error)
                continue
            self.deleted += 1
            del kept[name]
        return kept

    def emoji_for(
        self, face: Face, side: Side | None = None, family: Family = Family.CLASSIC
    ) -> discord.PartialEmoji | str:
        """The card's application emoji in ``family``'s look, or its colour emoji when there
        is none."""
        found = self._emoji.get(emoji_name(face, side, self.art.palette.key, family))
        return found if found is not None else COLOR_EMOJI[face.color]

    def _keep(self, emoji: AppEmoji) -> None:
        self._emoji[emoji.name] = discord.PartialEmoji(
            name=emoji.name, id=emoji.id, animated=emoji.animated
        )

    def _warn(self, reason: str) -> None:
        if not self._warned:
            log.warning("card buttons use colour emoji instead of card pictures: %s", reason)
        self._warned = True
