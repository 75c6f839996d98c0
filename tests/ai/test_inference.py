"""Reading an opponent's turns this round: bars, tests of their plays, colour odds, deals."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.ai import NormalStrategy, Strategy
from bot.ai.knowledge import HandReading, candidate_fronts, prob_holds_color, read_hand
from bot.ai.montecarlo import Sampler
from bot.engine import Color, Face, Game, Kind, RuleSet, Side, view_for
from bot.engine.decks import deck_for
from bot.engine.moves import DRAW, PASS, ChooseColor, PlayCard
from bot.engine.notation import faces, setup
from bot.engine.view import OpponentView
from tests.ai.helpers import decisions
from tests.engine import play

CLASSIC = RuleSet(variant="classic")
CLASSIC_FACES = frozenset(card.face(Side.LIGHT) for card in deck_for(CLASSIC))
# ann holds nothing for a red 5, so her turn there is a draw.
STUCK = {"ann": "B1 G2 Y3 B4 G6 Y8", "ben": "R3 Y4 G5", "cid": "G7 B7 Y7"}


def _opponent(game: Game, viewer: str, player: str) -> OpponentView:
    """``player`` as ``viewer`` sees them."""
    (found,) = [o for o in view_for(game, viewer).opponents if o.player == player]
    return found


def _after_wild(hand: str, color: Color = Color.BLUE) -> OpponentView:
    """ann, seen by ben, after playing a Wild from ``hand`` on a red 5 and naming ``color``."""
    game = setup({"ann": hand, "ben": "Y4 Y5 Y6", "cid": "G7 B7 B8"}, "R5", rules=CLASSIC)
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


def _reading(opponent: OpponentView) -> HandReading:
    reading = read_hand(opponent, "classic")
    assert reading is not None
    return reading


def _excluded(opponent: OpponentView) -> Callable[[Face], bool]:
    """What ``opponent``'s latest bar rules out."""
    return _reading(opponent).bars[-1].rules_out


def _play_three(hand: str = "R3 B1 G2 Y3 B4 G6") -> OpponentView:
    """ann, seen by ben, after playing her red 3 on a red 5 from ``hand``."""
    game = setup({"ann": hand, "ben": "Y4 Y5 Y6", "cid": "G7 B7 B8"}, "R5", rules=CLASSIC)
    game.apply("ann", PlayCard(next(c for c in game.hand("ann") if game.face(c).number == 3)))
    return _opponent(game, "ben", "ann")


# ------------------------------------------------------------------ bars


@pytest.mark.parametrize(
    ("top", "color"), [("R5", Color.RED), ("GS", Color.GREEN), ("W", Color.BLUE)]
)
def test_draw_bars_exactly_the_faces_playable_on_what_was_faced(top: str, color: Color) -> None:
    """After a draw, every face that could have gone on the top and colour faced is ruled out."""
    (faced,) = faces(top)
    game = _after_draw(top, color=color if faced.color is None else None)
    excluded = _excluded(_opponent(game, "ben", "ann"))

    def playable(face: Face) -> bool:
        same_symbol = face.kind is faced.kind and faced.color is not None
        same_number = face.kind is not Kind.NUMBER or face.number == faced.number
        return face.color is None or face.color is color or (same_symbol and same_number)

    assert {f for f in CLASSIC_FACES if excluded(f)} == {f for f in CLASSIC_FACES if playable(f)}


def test_mid_round_wild_bars_the_coloured_cards_that_would_have_fitted() -> None:
    """With a big hand and nobody close to out, normal plays a wild only with no coloured play."""
    excluded = _excluded(_after_wild("W B1 G2 Y3 B4 G6"))
    assert {f for f in CLASSIC_FACES if excluded(f)} == {
        f
        for f in CLASSIC_FACES
        if f.color is Color.RED or (f.kind is Kind.NUMBER and f.number == 5)
    }


def test_a_wild_from_a_small_hand_proves_nothing() -> None:
    """Near the end of a round a normal player spends wilds freely."""
    assert read_hand(_after_wild("W B1 G2"), "classic") is None


def test_play_of_a_coloured_card_bars_nothing() -> None:
    """A coloured card played says nothing certain about the other cards held."""
    reading = _reading(_play_three())
    assert reading.bars == ()
    assert len(reading.tests) == 1


def test_every_turn_of_the_round_is_read_over_the_cards_it_covers() -> None:
    """An older draw covers only the cards held then; later cards are free of it."""
    hands = {"ben": "R+2 R3 R6", "ann": "B1 G2 G4", "cid": "B3 B4 B6"}
    game = setup(hands, "R5", rules=CLASSIC, draw="Y7 Y8 Y9 G8 G9 B8 B9")
    play(game, "ben", "R3")
    game.apply("ann", DRAW)  # on a red 3: no red, no 3, no wild
    game.apply("cid", DRAW)
    play(game, "ben", "R6")
    game.apply("ann", DRAW)  # on a red 6
    ann = _opponent(game, "cid", "ann")
    reading = _reading(ann)
    assert [bar.cards for bar in reading.bars] == [4, 5]
    (red_three,) = faces("G3")
    (six,) = faces("B6")
    assert reading.first_slot(red_three) == 4  # a 3 only from her fifth card on
    assert reading.first_slot(six) == 5
    assert reading.first_slot(faces("B2")[0]) == 0


# ------------------------------------------------------------------ tests of plays


def test_named_colour_test_wants_it_held_most() -> None:
    """After naming blue, a hand with most blues passes and one with more yellows does not."""
    reading = _reading(_after_wild("W B1 G2 Y3 B4 G6"))
    assert reading.misses(faces("B1 B2 G3 Y4 G6")) == 0
    assert reading.misses(faces("B1 Y2 Y3 Y4 G6")) == 1


def test_best_play_test() -> None:
    """After a red 3 on a red 5, a hand holding a red 9 fails (normal would shed the 9)."""
    reading = _reading(_play_three())
    assert reading.misses(faces("B1 G2 Y3 B4 G6")) == 0
    assert reading.misses(faces("R1 G2 Y3 B4 G6")) == 0
    assert reading.misses(faces("R9 G2 Y3 B4 G6")) == 1
    assert reading.misses(faces("B5 G2 Y3 B4 G6")) == 1


def test_nothing_is_read_without_a_turn() -> None:
    """Nothing remembered: nothing known."""
    game = setup(STUCK, "R5", rules=CLASSIC)
    assert read_hand(_opponent(game, "ben", "ann"), "classic") is None


def test_a_kept_drawn_card_is_not_covered_by_the_draw() -> None:
    """After a draw with the playable card kept, every card but that one is barred."""
    ann = _opponent(_after_draw("R5", keep=True), "ben", "ann")
    assert (ann.card_count, ann.received_since, _reading(ann).covered) == (7, 1, 6)


# ------------------------------------------------------------------ colour odds


def test_drawing_on_a_colour_shows_they_lack_it_in_classic() -> None:
    """A normal player who drew on red holds no red, where without a record it was likely."""
    unknown = setup({**STUCK, "ann": STUCK["ann"] + " R0"}, "R5", rules=CLASSIC, current=1)
    before = prob_holds_color(view_for(unknown, "ben"), _opponent(unknown, "ben", "ann"), Color.RED)
    game = _after_draw("R5")
    after = prob_holds_color(view_for(game, "ben"), _opponent(game, "ben", "ann"), Color.RED)
    assert before > 0.5
    assert after == 0.0


def test_kept_card_after_a_draw_could_be_the_colour() -> None:
    """The card kept after the draw is unknown, so the colour is possible again, if unlikely."""
    game = _after_draw("R5", keep=True)
    chance = prob_holds_color(view_for(game, "ben"), _opponent(game, "ben", "ann"), Color.RED)
    assert 0.0 < chance < 0.5


# ------------------------------------------------------------------ sampled deals


@pytest.mark.parametrize("keep", [False, True])
def test_sampler_never_deals_cards_that_contradict_a_draw(keep: bool) -> None:
    """Over many deals, ann's hand holds at most her received cards that fit the red 5."""
    game = _after_draw("R5", keep=keep)
    view = view_for(game, "ben")
    ann = _opponent(game, "ben", "ann")
    excluded = _excluded(ann)
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
    excluded = _excluded(ann)
    assert ann.backs is not None
    view = view_for(game, "ben")
    ruled_out = [any(map(excluded, candidate_fronts(view, back))) for back in ann.backs]
    assert ruled_out == [True, True, True, True, False, False]
    sampler = Sampler(view)
    for seed in range(200):
        sample = sampler.sample(random.Random(seed))
        hand = sample.hand("ann")
        assert not any(excluded(sample.face(c)) for c in hand)
        assert tuple(sample.face(c, Side.DARK) for c in hand) == ann.backs


def _readings_against_true_hands(variant: str) -> tuple[int, int, int, int]:
    """Over seeded normal games: bars checked and failed, tests checked and failed.

    A turn's cards are the first ones of the true hand: cards received since are added
    behind them, and cards played leave the order of the others as it was.
    """
    normal: Strategy = NormalStrategy()
    bars = bars_failed = tests = tests_failed = 0
    for seed in range(4):
        for game, view, _, _ in decisions(RuleSet(variant=variant), seed, [normal] * 4, 300):
            for opponent in view.opponents:
                reading = read_hand(opponent, "flip" if variant == "flip" else "classic")
                if reading is None:
                    continue
                hand = [game.face(c) for c in game.hand(opponent.player)]
                for bar in reading.bars:
                    bars += 1
                    bars_failed += any(map(bar.rules_out, hand[: bar.cards]))
                tests += len(reading.tests)
                tests_failed += reading.misses(hand)
    return bars, bars_failed, tests, tests_failed


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_normal_players_true_hands_never_break_a_bar(variant: str) -> None:
    """Over seeded normal games, no bar ever rules out a card the player really held."""
    bars, failed, _, _ = _readings_against_true_hands(variant)
    assert bars > 1000
    assert failed == 0


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_normal_players_true_hands_rarely_fail_a_test(variant: str) -> None:
    """The tests of plays are read from part of the hand held then, so a few true hands fail
    them; far fewer than the roughly 30% of random hands that do (measured)."""
    _, _, tests, failed = _readings_against_true_hands(variant)
    assert tests > 1000
    assert failed / tests < 0.05
