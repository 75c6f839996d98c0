"""A match played at the table keeps its seed and moves; the replay plays every round again."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.engine import Phase, RuleSet
from bot.engine import events as ev
from bot.engine.replay import MoveLog, ReplayError, replay_steps
from bot.engine.simulate import RandomAgent
from bot.options import TableOptions
from bot.persistence import SessionSnapshot, session_snapshot, table_from_snapshot
from bot.table import Seat, TableState

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PEOPLE = (101, 102, 103)


def play_match(seed: int, rules: RuleSet) -> tuple[TableState, list[list[tuple[ev.Event, ...]]]]:
    """A match of three people to its end through the table (moves, timeouts, a removal at
    one seed); every round's events, step by step, as the live game produced them."""
    state = TableState("t1", 1, 2, Seat(str(PEOPLE[0]), "anna"), TableOptions(rules=rules), NOW)
    for person in PEOPLE[1:]:
        state.join(person, f"p{person}")
    names = {s.player_id: s.name for s in state.seats}
    rounds: list[list[tuple[ev.Event, ...]]] = [[tuple(state.start(PEOPLE[0], seed, names))]]
    agent = RandomAgent(seed, patience=200)
    rng = random.Random(seed)
    game = state.game
    assert game is not None
    removed = False
    while game.phase not in (Phase.MATCH_OVER, Phase.ABANDONED):
        if game.phase is Phase.ROUND_OVER:
            agent.moves_this_round = 0
            rounds.append([tuple(state.next_round())])
            continue
        roll = rng.random()
        current = game.current_player
        assert current is not None
        if roll < 0.03:
            events = state.timed_out(current, state.auto_play(current))
        elif roll < 0.035 and not removed and len(game.players) > 2:
            removed = True
            events = state.remove(current, "left")
        else:
            player, move = agent.choose(game)
            agent.moves_this_round += 1
            events = state.play(player, move)
        rounds[-1].append(tuple(events))
    return state, rounds


# Every game the bot plays, each with its own moves (All Wild's targeted draw, No Mercy's
# 7 swap and Roulette colour): a short match of each.
MATCHES = [
    *((seed, RuleSet(variant="flip" if seed % 2 else "classic", target=100)) for seed in range(6)),
    *((seed, RuleSet(variant="nomercy")) for seed in range(2)),
    *((seed, RuleSet(variant="allwild", target=100)) for seed in range(2)),
    *((seed, RuleSet(variant="junior")) for seed in range(2)),
]


@pytest.mark.parametrize(("seed", "rules"), MATCHES)
def test_every_replayed_step_has_the_live_games_events(seed: int, rules: RuleSet) -> None:
    """Replaying each stored round gives, in order, every event the live game gave."""
    state, live = play_match(seed, rules)
    log = state.moves
    assert log is not None
    stored = MoveLog.loads(log.dumps())
    texts = [stored.round_text(n) for n in range(1, len(stored.rounds) + 1)]
    assert len(texts) == len(live)
    for round_no, live_steps in enumerate(live, start=1):
        steps = replay_steps(stored.players, rules, stored.seed, texts, round_no)
        # A timeout that removes its player is one live change and two stored steps.
        assert [e for step in steps for e in step.events] == [e for s in live_steps for e in s]
        assert len(steps) >= len(live_steps)


def test_each_finished_round_knows_the_card_it_ended_on() -> None:
    """The log names the card every scored round's winner went out on."""
    state, _ = play_match(1, RuleSet(variant="flip", target=100))
    log = state.moves
    assert log is not None and state.game is not None
    assert all(log.endings[: len(state.game.history)])


def test_a_move_the_engine_refuses_stops_the_replay() -> None:
    """A stored log with a move that is not legal raises ReplayError, never a wrong game."""
    state, _ = play_match(2, RuleSet(target=100))
    log = state.moves
    assert log is not None
    broken = [f"0p{999}"] + log.rounds[0]
    with pytest.raises(ReplayError):
        replay_steps(log.players, RuleSet(target=100), log.seed, [" ".join(broken)], 1)


def test_the_log_survives_a_save_and_restore() -> None:
    """A running game's snapshot keeps its move log, so a restart mid-match loses no move."""
    state, _ = play_match(3, RuleSet(target=100))
    saved = SessionSnapshot.model_validate_json(session_snapshot(state).model_dump_json())
    assert state.game is not None
    restored = table_from_snapshot(saved, state.game)
    assert restored.moves == state.moves
