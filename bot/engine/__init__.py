"""The pure rules engine for UNO Flip and classic UNO: no Discord, asyncio or I/O."""

from .cards import Card, Color, Face, Kind, Side
from .game import Game, IllegalMove, Phase, RoundResult
from .moves import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Move,
    Pass,
    PlayCard,
    SwapWith,
    TargetDraw,
)
from .rules import RuleSet
from .snapshot import dumps, loads
from .view import OpponentView, PlayerView, public_view, view_for

__all__ = [
    "Accept",
    "CallUno",
    "Card",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Color",
    "Draw",
    "Face",
    "Game",
    "IllegalMove",
    "Kind",
    "Move",
    "OpponentView",
    "Pass",
    "Phase",
    "PlayCard",
    "PlayerView",
    "RoundResult",
    "RuleSet",
    "Side",
    "SwapWith",
    "TargetDraw",
    "dumps",
    "loads",
    "public_view",
    "view_for",
]
