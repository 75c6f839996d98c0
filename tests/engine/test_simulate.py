"""The random-match simulator and its command line."""

from __future__ import annotations

import pytest

from bot.engine import Game, Phase, PlayCard, RuleSet
from bot.engine.simulate import (
    MAX_MOVES_PER_ROUND,
    RandomAgent,
    StuckGame,
    main,
    play_match,
    simulate,
)


def test_main_prints_a_flip_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI prints matches, rounds, moves, flips, points, rounds per match and time."""
    code = main(["--variant", "flip", "--players", "3", "--games", "2", "--seed", "7"])
    out = capsys.readouterr().out
    assert code == 0
    for label in (
        "flip UNO, 3 players, target 500",
        "matches:          2",
        "moves per round:  mean",
        "flips per round:  mean",
        "points per round: mean",
        "rounds per match to 500: mean",
        "time taken:",
    ):
        assert label in out


def test_main_leaves_out_flips_for_classic(capsys: pytest.CaptureFixture[str]) -> None:
    """Classic UNO has no Flip cards, so the summary has no flips line."""
    main(
        ["--variant", "classic", "--players", "2", "--games", "1", "--seed", "3", "--target", "50"]
    )
    out = capsys.readouterr().out
    assert "classic UNO, 2 players, target 50" in out
    assert "flips" not in out


def test_main_rejects_too_many_players(capsys: pytest.CaptureFixture[str]) -> None:
    """More than ten players is a usage error."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--players", "11", "--games", "1"])
    assert exit_info.value.code == 2
    assert "--players must be between 2 and 10" in capsys.readouterr().err


def test_simulate_counts_every_match_and_round() -> None:
    """The summary counts the matches asked for and at least one round each."""
    summary = simulate("classic", players=4, games=3, seed=11, target=100)
    assert summary.matches == 3
    assert summary.rounds >= 3
    assert sum(summary.wins.values()) == 3
    assert summary.flips_per_round is None
    assert summary.rounds_per_match.maximum * 3 >= summary.rounds


def test_simulate_is_reproducible() -> None:
    """The same arguments give the same summary."""
    assert simulate("flip", 4, 2, seed=5, target=100) == simulate("flip", 4, 2, seed=5, target=100)


def test_play_match_plays_to_the_target() -> None:
    """A simulated match ends with a winner at or over the target."""
    game, stats = play_match(RuleSet(variant="flip", target=150), players=5, seed=2)
    assert game.phase is Phase.MATCH_OVER
    assert stats.winner == game.match_winner
    assert stats.winner is not None and stats.scores[stats.winner] >= 150
    assert len(stats.rounds) == game.round_no


def test_agent_turns_eager_after_its_patience() -> None:
    """Past its patience the agent never draws when it could play a card instead."""
    game = Game.new(["a", "b", "c"], RuleSet(variant="classic"), seed=4)
    agent = RandomAgent(4, patience=0)
    for _ in range(200):
        if game.phase is not Phase.PLAY:
            break
        player, move = agent.choose(game)
        playable = [m for m in game.legal_moves(player) if isinstance(m, PlayCard)]
        assert not playable or isinstance(move, PlayCard)
        agent.step(game)


def test_agent_reports_a_round_that_never_ends() -> None:
    """An agent whose round has run past the move cap raises StuckGame instead of looping."""
    game = Game.new(["a", "b"], RuleSet(variant="flip"), seed=1)
    agent = RandomAgent(1)
    agent.moves_this_round = MAX_MOVES_PER_ROUND
    with pytest.raises(StuckGame):
        agent.step(game)
