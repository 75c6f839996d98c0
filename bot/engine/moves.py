"""Moves a player can make. Value objects: equal moves compare equal, so ``move in legal``."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Color


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play the physical card ``card`` (its index in the deck) from your hand."""

    card: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the draw pile instead of playing."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Keep the playable card you just drew and end your turn."""


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Name the colour play continues in after a wild."""

    color: Color


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the draw-wild just played on you."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Take the pending draw penalty and lose your turn."""


@dataclass(frozen=True, slots=True)
class SwapWith:
    """Choose whose hand to swap with (Seven-O's 7, Wild Swap Hands)."""

    target: str


@dataclass(frozen=True, slots=True)
class TargetDraw:
    """Choose who draws two (All Wild's Wild Targeted Draw Two); they keep their turn."""

    target: str


@dataclass(frozen=True, slots=True)
class CallUno:
    """Call UNO for yourself (safe with two cards or fewer)."""


@dataclass(frozen=True, slots=True)
class Catch:
    """Catch ``target``, who is down to one card without having called UNO."""

    target: str


Move = (
    PlayCard
    | Draw
    | Pass
    | ChooseColor
    | Challenge
    | Accept
    | SwapWith
    | TargetDraw
    | CallUno
    | Catch
)

# Shared instances of the field-less moves: equal to fresh ones, cheaper in the hot path.
DRAW = Draw()
PASS = Pass()
CHALLENGE = Challenge()
ACCEPT = Accept()
CALL_UNO = CallUno()
