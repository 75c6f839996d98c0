"""Property tests: random legal matches under every variant, edition and house rule.

A random agent picks uniformly among the legal moves of *every* player (UNO calls, catches and
jump-ins are legal out of turn) and deals the next round until the match ends. Hypothesis picks
the rules, player count and seed; ``derandomize`` keeps the examples the same on every run so a
failure reproduces, and seeds come from a fixed range.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st

from bot.engine import Game, IllegalMove, Phase, RuleSet, Side, dumps, loads, view_for
from bot.engine import events as ev
from bot.engine.moves import (
    Move,
    PlayCard,
)
from bot.engine.simulate import RandomAgent, all_legal_moves
from bot.engine.snapshot import dump_state, load_state

from .fingerprint import illegal_moves

DECK_SIZES = {("flip", "standard"): 112, ("classic", "standard"): 108}
EDITION_DECK_SIZE = 112
MAX_STATE_BYTES = 64 * 1024
# Shrinking replays whole matches many times; the failing example is printed as found.
NO_SHRINKING = [HypothesisPhase.explicit, HypothesisPhase.reuse, HypothesisPhase.generate]
SEEDS = st.integers(min_value=0, max_value=9_999)
QUICK = settings(
    max_examples=min(30, settings().max_examples),  # the quick run caps it
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=NO_SHRINKING,
)


@st.composite
def rulesets(draw: st.DrawFn, target: int | None = None) -> RuleSet:
    """Any valid RuleSet: variant, classic edition, scoring and every house rule on or off."""
    variant = draw(st.sampled_from(["flip", "classic"]))
    classic = variant == "classic"
    stacking = draw(st.booleans())
    return RuleSet(
        variant=variant,
        edition=draw(st.sampled_from(["standard", "shuffle_hands", "swap_hands"]))
        if classic
        else "standard",
        target=target if target is not None else draw(st.sampled_from([50, 100, 200])),
        scoring=draw(st.sampled_from(["standard", "alternative"])),
        stacking=stacking,
        stack_wild_draw_four_on_draw_two=classic and stacking and draw(st.booleans()),
        seven_o=classic and draw(st.booleans()),
        jump_in=draw(st.booleans()),
        draw_until_playable=draw(st.booleans()),
        forced_play=draw(st.booleans()),
    )


def new_game(rules: RuleSet, players: int, seed: int) -> tuple[Game, RandomAgent]:
    """A dealt game and a random agent seeded from the same seed."""
    return Game.new([f"p{i}" for i in range(players)], rules, seed), RandomAgent(seed)


def walk(game: Game, agent: RandomAgent) -> Iterator[tuple[str, Move, list[ev.Event]]]:
    """Every random move until the match ends (StuckGame fails the test if a round never ends)."""
    return agent.walk(game)


def deck_size(rules: RuleSet) -> int:
    """How many physical cards the game must hold."""
    return DECK_SIZES.get((rules.variant, rules.edition), EDITION_DECK_SIZE)


def assert_cards_conserved(game: Game, size: int) -> None:
    """Hands, draw pile and discard pile hold every card of the deck exactly once."""
    cards = [c for hand in game.hands for c in hand] + game.draw_pile + game.discard
    assert len(cards) == size, f"{len(cards)} cards in play, deck has {size}"
    assert sorted(cards) == list(range(size)), "a card is duplicated or lost"


def assert_view_hides_other_sides(game: Game, player: str) -> None:
    """``player``'s view carries only their own cards and the inactive faces of others."""
    view = view_for(game, player)
    seat = game.seat_of(player)
    own = game.hands[seat]
    back = Side.DARK if game.side is Side.LIGHT else Side.LIGHT
    flip = game.rules.variant == "flip"
    assert [h.card for h in view.hand] == own
    assert all(h.face == game.face(h.card) for h in view.hand)
    assert view.drawn_card is None or view.drawn_card in own
    for move in view.legal_moves:
        assert not isinstance(move, PlayCard) or move.card in own
    others = [(s, p) for s, p in enumerate(game.players) if s != seat]
    assert [o.player for o in view.opponents] == [p for _, p in others]
    for (s, _), opponent in zip(others, view.opponents, strict=True):
        assert opponent.card_count == len(game.hands[s])
        expected = tuple(game.face(c, back) for c in game.hands[s]) if flip else None
        assert opponent.backs == expected
    top_back = game.face(game.draw_pile[-1], back) if flip and game.draw_pile else None
    assert view.draw_pile_back == top_back
    assert view.top == game.top_face()


def assert_match_reached_target(game: Game) -> None:
    """The match ended at its target, won by the right player for the scoring mode."""
    assert game.phase is Phase.MATCH_OVER
    target = game.rules.target
    scores = game.scores
    assert max(scores.values()) >= target
    assert game.match_winner is not None
    if game.rules.scoring == "standard":
        assert scores[game.match_winner] >= target
        assert scores[game.match_winner] == max(scores.values())
    else:
        assert scores[game.match_winner] == min(scores.values())


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_cards_are_conserved_at_every_step(rules: RuleSet, players: int, seed: int) -> None:
    """After every move and every deal, the table holds exactly the deck."""
    game, agent = new_game(rules, players, seed)
    size = deck_size(rules)
    assert_cards_conserved(game, size)
    for _ in walk(game, agent):
        assert_cards_conserved(game, size)
    assert_cards_conserved(game, size)


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_every_legal_move_applies(rules: RuleSet, players: int, seed: int) -> None:
    """Every move legal_moves offers, to any player, applies cleanly on a copy of the game."""
    game, agent = new_game(rules, players, seed)
    size = deck_size(rules)
    for step, _ in enumerate(walk(game, agent)):
        if step % 29 or game.phase is Phase.ROUND_OVER or game.phase is Phase.MATCH_OVER:
            continue
        snapshot = dump_state(game)
        for player, move in all_legal_moves(game):
            trial = load_state(snapshot)
            trial.apply(player, move)
            assert_cards_conserved(trial, size)


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_illegal_moves_raise_and_change_nothing(rules: RuleSet, players: int, seed: int) -> None:
    """Every move outside legal_moves raises IllegalMove and leaves the state untouched."""
    game, agent = new_game(rules, players, seed)
    for step, _ in enumerate(walk(game, agent)):
        if step % 97:
            continue
        before = dump_state(game)
        legal_before = {p: game.legal_moves(p) for p in game.players}
        for player in game.players:
            for move in illegal_moves(game, player):
                with pytest.raises(IllegalMove):
                    game.apply(player, move)
            assert dump_state(game) == before, f"an illegal move by {player} changed the state"
        assert {p: game.legal_moves(p) for p in game.players} == legal_before


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_moves_between_rounds_are_illegal(rules: RuleSet, players: int, seed: int) -> None:
    """Once a round is over nobody has a legal move and every move raises IllegalMove."""
    game, agent = new_game(rules, players, seed)
    for _ in walk(game, agent):
        if game.phase is Phase.ROUND_OVER:
            break
    before = dump_state(game)
    for player in game.players:
        assert game.legal_moves(player) == []
        for move in illegal_moves(game, player):
            with pytest.raises(IllegalMove):
                game.apply(player, move)
    assert dump_state(game) == before


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_match_terminates_at_its_target(rules: RuleSet, players: int, seed: int) -> None:
    """Random play always ends every round and the match at its target."""
    game, agent = new_game(rules, players, seed)
    ended = [
        e for _, _, events in walk(game, agent) for e in events if isinstance(e, ev.MatchEnded)
    ]
    assert len(ended) == 1
    assert ended[0].winner == game.match_winner
    assert_match_reached_target(game)


@pytest.mark.parametrize(
    ("variant", "players", "seed"), [("flip", 2, 500), ("flip", 6, 501), ("classic", 4, 502)]
)
def test_default_target_match_terminates(variant: str, players: int, seed: int) -> None:
    """A match to the default 500 points ends with a winner at or over 500."""
    game, agent = new_game(RuleSet(variant=variant), players, seed)
    for _ in walk(game, agent):
        pass
    assert_match_reached_target(game)
    assert game.rules.target == 500


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS, cut=st.integers(0, 400))
@QUICK
def test_json_round_trip_mid_game_continues_identically(
    rules: RuleSet, players: int, seed: int, cut: int
) -> None:
    """A game restored from JSON mid-game equals the original and plays on identically."""
    game, agent = new_game(rules, players, seed)
    for step, _ in enumerate(walk(game, agent)):
        if step == cut:
            break
    restored = loads(dumps(game))
    assert restored == game
    twin_agent = RandomAgent(seed)
    twin_agent.rng.setstate(agent.rng.getstate())
    twin_agent.moves_this_round = agent.moves_this_round
    original = list(walk(game, agent))
    replayed = list(walk(restored, twin_agent))
    assert replayed == original
    assert restored == game


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_same_seed_and_moves_replay_the_same_game(rules: RuleSet, players: int, seed: int) -> None:
    """Replaying the recorded moves on a new game with the same seed gives the same game."""
    game, agent = new_game(rules, players, seed)
    record: list[tuple[int, str, Move, list[ev.Event]]] = [
        (game.round_no, player, move, events) for player, move, events in walk(game, agent)
    ]
    replay = Game.new(list(game.players), rules, seed)
    for round_no, player, move, events in record:
        if replay.phase is Phase.ROUND_OVER:
            replay.start_next_round()
        assert replay.round_no == round_no
        assert replay.apply(player, move) == events
    assert replay == game


@given(rules=rulesets(), players=st.integers(2, 10), seed=SEEDS)
@QUICK
def test_views_never_show_another_players_active_side(
    rules: RuleSet, players: int, seed: int
) -> None:
    """No player's view carries another player's cards in play, only counts and backs."""
    game, agent = new_game(rules, players, seed)
    for step, _ in enumerate(walk(game, agent)):
        if step % 13 == 0:
            for player in game.players:
                assert_view_hides_other_sides(game, player)


@pytest.mark.slow
@given(seed=SEEDS)
@settings(max_examples=5, derandomize=True, deadline=None, phases=NO_SHRINKING)
def test_ten_player_flip_state_fits_in_64_kb(seed: int) -> None:
    """A 10-player Flip match's serialised state stays within 64 KB at every step."""
    game, agent = new_game(RuleSet(variant="flip"), 10, seed)
    largest = len(dumps(game).encode())
    for step, _ in enumerate(walk(game, agent)):
        if step % 5 == 0:
            largest = max(largest, len(dumps(game).encode()))
    largest = max(largest, len(dumps(game).encode()))
    assert largest <= MAX_STATE_BYTES


@pytest.mark.slow
@given(
    rules=rulesets(),
    players=st.integers(2, 10),
    seed=st.integers(min_value=10_000, max_value=99_999),
)
@settings(
    max_examples=1000,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=NO_SHRINKING,
)
def test_soak_thousands_of_games(rules: RuleSet, players: int, seed: int) -> None:
    """Soak: 1,000 short matches (thousands of rounds) keep the deck whole, end, round-trip.

    Full 500-point matches are covered by the quick suite; short targets keep this soak to a
    minute or two of CI time while still playing thousands of rounds.
    """
    game, agent = new_game(rules, players, seed)
    size = deck_size(rules)
    for _ in walk(game, agent):
        assert_cards_conserved(game, size)
    assert_match_reached_target(game)
    assert loads(dumps(game)) == game


def every_offered_move_applies(game: Game, agent: RandomAgent) -> None:
    """Play ``game`` to its end; before every move, every move offered to anyone applies on a
    copy, the view offers the same moves, and the saved JSON restores an equal game."""
    while game.phase is not Phase.MATCH_OVER:
        if game.phase is Phase.ROUND_OVER:
            agent.next_round(game)
            continue
        for player in game.players:
            view = view_for(game, player)
            assert list(view.legal_moves) == game.legal_moves(player)
            for move in view.legal_moves:
                try:
                    game.fork().apply(player, move)
                except IllegalMove as refused:  # pragma: no cover - the failure's message
                    raise AssertionError(f"{move} offered to {player} but refused") from refused
        assert loads(dumps(game)) == game
        agent.step(game)
