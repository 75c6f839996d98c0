"""Reading an opponent's last turn: excluded faces, fitting hands, colour odds, sampled deals."""

from __future__ import annotations

import random

import pytest

from bot.ai import NormalStrategy, Strategy
from bot.ai.knowledge import (
    candidate_fronts,
    excluded_faces,
    hand_fits,
    old_card_count,
    prob_holds_color,
)
from bot.ai.montecarlo import Sampler
from bot.engine import Color, Face, Game, Kind, RuleSet, Side
from bot.engine.decks import classic_deck
from bot.engine.moves import DRAW, PASS, ChooseColor, PlayCard
from bot.engine.notation import faces, setup
from bot.engine.view import OpponentView
from tests.ai.helpers import decisions

CLASSIC = RuleSet(variant="classic")
CLASSIC_FACES = frozenset(card.face(Side.LIGHT) for card in classic_deck())
# ann holds nothing for a red 5, so her turn there is a draw.
STUCK = {"ann": "B1 G2 Y3 B4 G6 Y8", "ben": "R3 Y4 G5", "cid": "G7 B7 Y7"}


def _opponent(game: Game, viewer: str, player: str) -> OpponentView:
    """``player`` as ``viewer`` sees them."""
    (found,) = [o for o in game.view_for(viewer).opponents if o.player == player]
    return found


def _after_wild(hand: str, color: Color = Color.BLUE) -> OpponentView:
    """ann, seen by ben, after playing a Wild from ``hand`` on a red 5 and naming ``color``."""
    game = setup({"ann": hand, "ben": "Y4 Y5", "cid": "G7 B7"}, "R5", rules=CLASSIC)
    wild = next(c for c in game.hand("ann") if game.face(c).kind is Kind.WILD)
    game.apply("ann", PlayCard(wild))
    game.apply("ann", ChooseColor(color))
    return _opponent(game, "ben", "ann")


def _after_draw(top: str, color: Color | None = None, keep: bool = False) -> Game:
    """STUCK after ann drew on ``top`` (keeping a playable drawn card when ``keep``)."""
    drawn = "W" if keep else "Y0"
    game = setup(STUCK, top, rules=CLASSIC, color=color, draw=drawn)
    game.apply("ann", DRAW)
    if keep:
        game.apply("ann", PASS)
    return game


# ------------------------------------------------------------------ excluded faces


@pytest.mark.parametrize(
    ("top", "color"), [("R5", Color.RED), ("GS", Color.GREEN), ("W", Color.BLUE)]
)
def test_draw_excludes_exactly_the_faces_playable_on_what_was_faced(top: str, color: Color) -> None:
    """After a draw, every face that could have gone on the top and colour faced is excluded."""
    (faced,) = faces(top)
    game = _after_draw(top, color=color if faced.color is None else None)
    excluded = excluded_faces(_opponent(game, "ben", "ann"))
    assert excluded is not None

    def playable(face: Face) -> bool:
        same_symbol = face.kind is faced.kind and faced.color is not None
        same_number = face.kind is not Kind.NUMBER or face.number == faced.number
        return face.color is None or face.color is color or (same_symbol and same_number)

    assert {f for f in CLASSIC_FACES if excluded(f)} == {f for f in CLASSIC_FACES if playable(f)}


def test_a_wild_excludes_nothing() -> None:
    """Near the end of a round a normal player spends wilds freely, so a wild proves nothing."""
    assert excluded_faces(_after_wild("W B1 G2 Y3 B4 G6")) is None
    assert excluded_faces(_after_wild("W B1 G2")) is None


def test_play_of_a_coloured_card_excludes_nothing() -> None:
    """A coloured card played says nothing certain about the other cards held."""
    game = setup({"ann": "R3 B1 G2 Y3 B4 G6", "ben": "Y4 Y5", "cid": "G7 B7"}, "R5", rules=CLASSIC)
    game.apply("ann", PlayCard(next(c for c in game.hand("ann") if game.face(c).number == 3)))
    assert excluded_faces(_opponent(game, "ben", "ann")) is None


# ------------------------------------------------------------------ fitting hands


def test_hand_fits_a_wild_when_the_named_colour_is_held_most() -> None:
    """After naming blue, a hand with most blues fits and one with more yellows does not."""
    fits = hand_fits(_after_wild("W B1 G2 Y3 B4 G6"), "classic")
    assert fits is not None
    assert fits(faces("B1 B2 G3 Y4 G5"))
    assert not fits(faces("B1 Y2 Y3 Y4 G5"))


def test_hand_fits_the_best_scoring_play() -> None:
    """After a red 3 on a red 5, a hand holding a red 9 does not fit (normal would shed the 9)."""
    game = setup({"ann": "R3 B1 G2 Y3 B4 G6", "ben": "Y4 Y5", "cid": "G7 B7"}, "R5", rules=CLASSIC)
    game.apply("ann", PlayCard(next(c for c in game.hand("ann") if game.face(c).number == 3)))
    fits = hand_fits(_opponent(game, "ben", "ann"), "classic")
    assert fits is not None
    assert fits(faces("B1 G2 Y3 B4 G6"))
    assert fits(faces("R1 G2 Y3 B4 G6"))
    assert not fits(faces("R9 G2 Y3 B4 G6"))
    assert not fits(faces("B5 G2 Y3 B4 G6"))


def test_hand_fits_tests_nothing_without_a_play() -> None:
    """A draw is read by excluded_faces alone; there is no play to fit."""
    assert hand_fits(_opponent(_after_draw("R5"), "ben", "ann"), "classic") is None


# ------------------------------------------------------------------ older cards


def test_old_card_count_is_zero_without_a_turn() -> None:
    """Nothing remembered: none of their cards is known to be old."""
    game = setup(STUCK, "R5", rules=CLASSIC)
    assert old_card_count(_opponent(game, "ben", "ann")) == 0


def test_old_card_count_leaves_out_cards_received_since() -> None:
    """After a draw with the playable card kept, every card but that one is old."""
    ann = _opponent(_after_draw("R5", keep=True), "ben", "ann")
    assert (ann.card_count, ann.received_since, old_card_count(ann)) == (7, 1, 6)


# ------------------------------------------------------------------ colour odds


def test_drawing_on_a_colour_shows_they_lack_it_in_classic() -> None:
    """A normal player who drew on red holds no red, where without a record it was likely."""
    unknown = setup({**STUCK, "ann": STUCK["ann"] + " R0"}, "R5", rules=CLASSIC, current=1)
    before = prob_holds_color(unknown.view_for("ben"), _opponent(unknown, "ben", "ann"), Color.RED)
    game = _after_draw("R5")
    after = prob_holds_color(game.view_for("ben"), _opponent(game, "ben", "ann"), Color.RED)
    assert before > 0.5
    assert after == 0.0


def test_kept_card_after_a_draw_could_be_the_colour() -> None:
    """The card kept after the draw is unknown, so the colour is possible again, if unlikely."""
    game = _after_draw("R5", keep=True)
    chance = prob_holds_color(game.view_for("ben"), _opponent(game, "ben", "ann"), Color.RED)
    assert 0.0 < chance < 0.5


# ------------------------------------------------------------------ sampled deals


@pytest.mark.parametrize("keep", [False, True])
def test_sampler_never_deals_cards_that_contradict_a_draw(keep: bool) -> None:
    """Over many deals, ann's hand holds at most her received cards that fit the red 5."""
    game = _after_draw("R5", keep=keep)
    view = game.view_for("ben")
    ann = _opponent(game, "ben", "ann")
    excluded = excluded_faces(ann)
    assert excluded is not None
    sampler = Sampler(view)
    for seed in range(200):
        sample = sampler.sample(random.Random(seed))
        hand = [sample.face(c) for c in sample.hand("ann")]
        assert len(hand) == ann.card_count
        assert sum(map(excluded, hand)) <= ann.received_since


def test_flip_sampler_never_deals_cards_that_contradict_a_draw() -> None:
    """In Flip, where the backs already narrow each card, a draw still excludes what fits."""
    # Each of ann's first four backs also sits on a red or a 5 front that the draw rules out.
    hands = {"ann": "Y9|T5 GR|P7 Y6|W+C G4|P8 Y2|T1", "ben": "Y3|U1 G7|O6", "cid": "Y9|U4 B8|T4"}
    game = setup(hands, "R5|P2", rules=RuleSet(variant="flip"), draw="Y8|P1")
    game.apply("ann", DRAW)
    ann = _opponent(game, "ben", "ann")
    excluded = excluded_faces(ann)
    assert excluded is not None and ann.backs is not None
    view = game.view_for("ben")
    ruled_out = [any(map(excluded, candidate_fronts(view, back))) for back in ann.backs]
    assert ruled_out == [True, True, True, True, False, False]
    sampler = Sampler(view)
    for seed in range(200):
        sample = sampler.sample(random.Random(seed))
        hand = sample.hand("ann")
        assert not any(excluded(sample.face(c)) for c in hand)
        assert tuple(sample.face(c, Side.DARK) for c in hand) == ann.backs


def _older_cards_against_exclusions(variant: str) -> tuple[int, int]:
    """Over seeded normal games: exclusions checked after draws, and how many failed.

    The older cards are the first ``old_card_count`` of the true hand: cards received since
    are appended after them, and a card played starts a new record.
    """
    normal: Strategy = NormalStrategy()
    checked = failed = 0
    for seed in range(4):
        for game, view, _, _ in decisions(RuleSet(variant=variant), seed, [normal] * 4, 300):
            for opponent in view.opponents:
                excluded = excluded_faces(opponent)
                if excluded is None:
                    continue
                older = game.hand(opponent.player)[: old_card_count(opponent)]
                checked += 1
                failed += any(excluded(game.face(c)) for c in older)
    return checked, failed


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_normal_players_older_cards_never_fit_what_they_drew_on(variant: str) -> None:
    """Over seeded normal games, after every draw the true older cards were all unplayable."""
    checked, failed = _older_cards_against_exclusions(variant)
    assert checked > 300
    assert failed == 0
