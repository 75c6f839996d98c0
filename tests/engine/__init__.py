"""Helpers for the engine tests: find cards by notation, play them, rig the shuffles."""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any

from bot.engine import Game, RuleSet, Side
from bot.engine.events import Event
from bot.engine.moves import PlayCard
from bot.engine.notation import parse_face

PLAYERS = ("ann", "ben", "cid")


def card(game: Game, player: str, token: str) -> int:
    """The index of a card showing ``token`` on the side in play in ``player``'s hand."""
    wanted = parse_face(token)
    for held in game.hand(player):
        if game.face(held) == wanted:
            return held
    raise AssertionError(f"{player} holds no {token}")


def play(game: Game, player: str, token: str) -> list[Event]:
    """Play the card ``token`` from ``player``'s hand."""
    return game.apply(player, PlayCard(card(game, player, token)))


def deck_card(game: Game, token: str, side: Side = Side.LIGHT, skip: int = 0) -> int:
    """The index of a deck card showing ``token`` on ``side`` (``L|D`` pins both Flip faces)."""
    if "|" in token:
        light, dark = (parse_face(part) for part in token.split("|"))
        matches = [
            c
            for c in range(len(game.deck))
            if game.face(c, Side.LIGHT) == light and game.face(c, Side.DARK) == dark
        ]
    else:
        wanted = parse_face(token)
        matches = [c for c in range(len(game.deck)) if game.face(c, side) == wanted]
    return matches[skip]


def of_type(events: Sequence[Event], kind: type[Any]) -> list[Any]:
    """The events of one class, in order."""
    return [event for event in events if isinstance(event, kind)]


class ScriptedRandom(random.Random):
    """A seeded RNG whose next shuffles end with chosen cards at chosen positions."""

    def __init__(self, seed: int, script: Sequence[Mapping[int, int]]) -> None:
        super().__init__(seed)
        self.script = list(script)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle as usual, then move the scripted cards to their positions."""
        super().shuffle(x)
        if not self.script:
            return
        for position, wanted in self.script.pop(0).items():
            here = list(x).index(wanted)
            there = position % len(x)
            x[here], x[there] = x[there], x[here]


def dealt_with(
    starters: str,
    rules: RuleSet | None = None,
    players: Sequence[str] = PLAYERS,
    dealer: int = 0,
) -> tuple[Game, list[Event]]:
    """A first round dealt by ``dealer`` whose turned-over cards are ``starters`` in order.

    Each token after the first is the card turned after the previous one was put back.
    """
    game = Game(players, rules or RuleSet(), seed=7)
    tokens = starters.split()
    # The deal takes cards from the end of the pile, so the first starter sits under the hands.
    below_hands = -(7 * len(players)) - 1
    script = [{below_hands: deck_card(game, tokens[0])}]
    script += [{-1: deck_card(game, token)} for token in tokens[1:]]
    game.rng = ScriptedRandom(7, script)
    game.dealer = dealer
    game.round_no = 1
    out: list[Event] = []
    game._deal_round(out)
    return game, out
