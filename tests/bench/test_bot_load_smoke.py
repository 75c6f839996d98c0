"""Smoke test for bench/bot_load.py: its core runs two tiny games end to end."""

from __future__ import annotations

import pytest

from bench.bot_load import run_load, seat_range, summary
from bot.engine.variants import VARIANTS

# A bench's smoke run builds its whole world: the full run (CI) only, not the quick run.
pytestmark = pytest.mark.slow


async def test_two_games_are_played_by_clicks_and_every_click_is_answered() -> None:
    """Each timed click gets exactly one interaction response, and the summary renders."""
    result = await run_load(games=2, clicks_per_game=6, seed=3)
    assert len(result.samples) == 12
    assert result.requests["interaction response"] == 12
    assert result.moves > 0
    assert result.requests["table edit"] <= result.moves
    assert result.errors == 0
    assert any(line.startswith("REST calls") for line in summary(result))


async def test_table_edits_and_memory_per_game_are_reported() -> None:
    """Every table edit is seen by the budget's hook, within the budget, and the memory
    walk finds objects for the bot's sessions and for the simulator."""
    # Text-only tables: an edit waiting for its picture across the start of the timed phase
    # would be sent in it but started before it.
    result = await run_load(games=2, clicks_per_game=4, seed=5, memory=True, pictures=False)
    assert len(result.edits.starts) == result.requests["table edit"]
    assert result.edits.most_in_one_second() <= result.edit_budget
    assert all(wait >= 0 for wait in result.edits.waits_s)
    assert result.memory is not None
    assert all(count > 0 for count, _ in result.memory.shares.values())
    assert result.memory.frozen_garbage >= 0
    lines = summary(result)
    assert any(line.startswith("Table edits:") for line in lines)
    assert any(line.startswith("Memory with 2 live games") for line in lines)


async def test_the_turn_timer_is_the_hosts_and_resident_memory_is_reported() -> None:
    """A run with the longest turn a host may set: every game is started before the timed
    clicks (each lobby from its slash command to Start), the summary names the timer and
    resident memory at the run's three points."""
    result = await run_load(games=3, clicks_per_game=1, seed=6, pictures=False, turn_timeout=600)
    assert result.turn_timeout == 600
    assert not any(sample.kind.startswith(("slash", "lobby")) for sample in result.samples)
    assert len(result.rss) == 3
    lines = summary(result)
    assert any("Turn timer 600 s" in line for line in lines)
    assert any(line.startswith("Resident memory") for line in lines)


async def test_a_hand_click_can_be_followed_at_once_by_its_move() -> None:
    """With hand_then_move, every timed Hand click is followed by a click of the same game."""
    result = await run_load(games=2, clicks_per_game=3, seed=4, hand_then_move=True)
    kinds = [sample.kind for sample in result.samples]
    assert "hand" in kinds and result.moves > 0
    assert all(kinds[i + 1] != "hand" for i, kind in enumerate(kinds) if kind == "hand")


async def test_counted_requests_meet_a_windowed_stand_in_and_staleness_is_measured() -> None:
    """With the windowed stand-in and a computer player at one table of two, the run refuses
    no counted request and times the clicks' moves until the table shows them."""
    result = await run_load(
        games=2, clicks_per_game=6, seed=6, pictures=False, discord_window=True, ai_every=2
    )
    assert result.window is not None and result.window.refused == 0
    assert result.staleness.clicks_s  # (the computer players' moves depend on the machine's pace)
    assert all(wait >= 0 for wait in result.staleness.clicks_s + result.staleness.others_s)
    assert any(line.startswith("| by clicks |") for line in summary(result))


async def test_every_game_can_be_a_no_mercy_game() -> None:
    """With variant "nomercy", every lobby is opened by /uno nomercy start and its clicks are
    answered."""
    result = await run_load(games=2, clicks_per_game=6, seed=7, pictures=False, variant="nomercy")
    assert len(result.samples) == result.requests["interaction response"] == 12
    assert result.moves > 0
    assert result.errors == 0
    assert set(result.live_variants) == {"nomercy"}
    assert any(line.startswith("Hands at the end:") for line in summary(result))
    assert summary(result)[0].startswith("**2 games** (")


def test_a_variant_seats_two_to_four_within_its_player_range() -> None:
    """Junior (2-4 players) keeps a seat free for a computer player; No Mercy seats 2-4."""
    assert seat_range(VARIANTS["junior"], ai=True) == (2, 3)
    assert seat_range(VARIANTS["nomercy"], ai=True) == (2, 4)
    assert seat_range(VARIANTS["nomercy"], ai=False) == (2, 4)
