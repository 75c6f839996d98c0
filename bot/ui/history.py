"""The history's buttons (their custom_id codec) and the replay's picture of one step.

    uno:hp:<server>:<player or 0>:<page>     a /uno history page (0: everyone's matches)
    uno:hm:<match>                           open a match from a history page
    uno:ho:<match>:<round>                   open a round's replay from a match
    uno:hr:<match>:<round>:<step>:<f|p|n|l>  a replay step (⏮ ◀ ▶ ⏭: the letter keeps the
                                             four ids of one message apart)

Each id is parsed once into a typed click; numbers longer than any real one are refused by
the patterns, and the handler checks every value again (a server's own matches only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.engine import Face, Game, PlayerView, RuleSet, public_view
from bot.engine.players import is_computer
from bot.options import TableOptions

from .i18n import Lang, t
from .kinds import REPLAY_COLOUR
from .render import add_field, short_faces, table_message, within_limits
from .respond import safe_name
from .words import narrate

# Discord ids have at most 20 digits; a match id, round, page or step far fewer.
HISTORY_PAGE_ID = r"uno:hp:(?P<guild>\d{1,20}):(?P<player>\d{1,20}):(?P<page>\d{1,6})"
MATCH_ID = r"uno:hm:(?P<match>\d{1,18})"
REPLAY_ID = (
    r"uno:h(?:o:(?P<match>\d{1,18}):(?P<round>\d{1,4})"
    r"|r:(?P<smatch>\d{1,18}):(?P<sround>\d{1,4}):(?P<step>\d{1,6}):(?P<nav>[fpnl]))"
)
REPLAY_LOG_LINES = 6


@dataclass(frozen=True, slots=True)
class HistoryPageClick:
    """A page of a server's history, of everyone's matches (player 0) or one member's."""

    guild_id: int
    player_id: int
    page: int

    @property
    def custom_id(self) -> str:
        """The id of a button showing this page."""
        return f"uno:hp:{self.guild_id}:{self.player_id}:{self.page}"

    @classmethod
    def from_match(cls, found: re.Match[str]) -> HistoryPageClick:
        """The click a matched id stands for."""
        return cls(int(found["guild"]), int(found["player"]), int(found["page"]))


@dataclass(frozen=True, slots=True)
class MatchClick:
    """Open one match of the history."""

    game_id: int

    @property
    def custom_id(self) -> str:
        """The id of a button opening this match."""
        return f"uno:hm:{self.game_id}"

    @classmethod
    def from_match(cls, found: re.Match[str]) -> MatchClick:
        """The click a matched id stands for."""
        return cls(int(found["match"]))


@dataclass(frozen=True, slots=True)
class ReplayClick:
    """A step of a round's replay; ``opening`` for the button on a match that starts it."""

    game_id: int
    round_no: int
    step: int = 0
    # Which of the four step buttons ("f", "p", "n", "l"); "" for the button that opens it.
    nav: str = ""

    @property
    def opening(self) -> bool:
        """The button on a match that opens the replay (not a step of one)."""
        return not self.nav

    @property
    def custom_id(self) -> str:
        """The id of a button showing this step (or opening the replay)."""
        if self.opening:
            return f"uno:ho:{self.game_id}:{self.round_no}"
        return f"uno:hr:{self.game_id}:{self.round_no}:{self.step}:{self.nav}"

    @classmethod
    def from_match(cls, found: re.Match[str]) -> ReplayClick:
        """The click a matched id (``REPLAY_ID``) stands for."""
        if found["match"] is not None:
            return cls(int(found["match"]), int(found["round"]))
        return cls(int(found["smatch"]), int(found["sround"]), int(found["step"]), found["nav"])


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """A seat as the table drawing reads it."""

    name: str
    ai: str | None
    user_id: int | None


@dataclass(slots=True)
class ReplayTable:
    """A stored round at one step, drawn as the live table was (``render.Table``)."""

    id: str
    rules: RuleSet
    game: Game
    names: dict[str, str]
    log: list[str] = field(default_factory=list)
    host_id: int = 0
    # A replay has no clock: the table's text as it was.
    turn_deadline: datetime | None = None

    @property
    def options(self) -> TableOptions:
        """The match's rules, with no timers and no picture (a replay is drawn as text)."""
        return TableOptions(rules=self.rules, turn_timeout=0, next_round_delay=0, pictures=False)

    @property
    def seats(self) -> list[ReplaySeat]:
        """The players as seats."""
        return [
            ReplaySeat(self.names.get(p, p), "normal" if is_computer(p) else None, _user_id(p))
            for p in self.game.players
        ]

    def name(self, player: str) -> str:
        """The name the player had in the match."""
        return self.names.get(player, player)

    def is_ai(self, player: str | None) -> bool:
        """Whether an engine id is a computer player's."""
        return is_computer(player)

    def final_hands(self) -> list[tuple[str, list[Face], int]]:
        """Every hand face up with its points."""
        game = self.game
        return [
            (p, [game.face(c) for c in game.hands[s]], game.hand_points(p))
            for s, p in enumerate(game.players)
        ]


def _user_id(player: str) -> int | None:
    return int(player) if player.isdigit() else None


def narrated(lang: Lang, table: ReplayTable, events: Any) -> list[str]:
    """The public sentences of a step's events, names made safe."""
    return narrate(lang, events, lambda player: safe_name(table.name(player)))


def replay_embed(
    lang: Lang, table: ReplayTable, game_id: int, round_no: int, step: int, steps: int
) -> discord.Embed:
    """One replay step: the table as it was, its last sentences, every hand face up."""
    view: PlayerView = public_view(table.game)
    embed = table_message(table, view, lang).embed
    embed.colour = discord.Colour(REPLAY_COLOUR)
    embed.set_author(name=t(lang, "replay.title", match=game_id, round=round_no))
    hands = [
        f"{safe_name(table.name(player))} ({points}): {short_faces(faces) or '—'}"
        for player, faces, points in table.final_hands()
    ]
    add_field(embed, t(lang, "replay.hands"), "\n".join(hands))
    embed.set_footer(text=t(lang, "replay.footer", step=step + 1, steps=steps))
    return within_limits(embed)
