"""SIGKILL a process in a burst of rounds: nothing committed is lost, nothing is half-written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store, open_store

from .burst_writer import GUILD, PLAYERS
from .factories import query

WRITER = Path(__file__).with_name("burst_writer.py")
REPO = Path(__file__).resolve().parents[2]


def run_and_kill(url: str, rounds_before_kill: int) -> tuple[int, list[int]]:
    """Run the burst writer, SIGKILL it after that many committed rounds; (game, printed)."""
    process = subprocess.Popen(
        [sys.executable, str(WRITER), url],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert process.stdout is not None
    try:
        game_id = int(process.stdout.readline().split()[1])
        printed = [int(process.stdout.readline()) for _ in range(rounds_before_kill)]
        process.send_signal(signal.SIGKILL)
        rest = process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=60)
        process.stdout.close()
    assert process.returncode == -signal.SIGKILL
    # The last line may be cut short by the kill: only complete lines were committed-and-told.
    printed += [int(line) for line in rest.decode().split("\n")[:-1]]
    return game_id, printed


async def recorded_rounds(store: Store, game_id: int) -> dict[int, int]:
    """round_no -> number of score rows."""
    rows = await query(
        store,
        "SELECT r.round_no, COUNT(s.player_id) FROM rounds AS r"
        " LEFT JOIN round_scores AS s ON s.round_id = r.id WHERE r.game_id = ?"
        " GROUP BY r.id, r.round_no",
        (game_id,),
    )
    return {int(str(round_no)): int(str(count)) for round_no, count in rows}


async def totals_mismatches(store: Store) -> list[tuple[object, ...]]:
    """Players whose aggregate totals differ from the sum of their round rows."""
    return await query(
        store,
        "SELECT s.player_id, SUM(s.points_awarded), COUNT(*),"
        " SUM(CASE WHEN r.winner_id = s.player_id THEN 1 ELSE 0 END)"
        " FROM round_scores AS s JOIN rounds AS r ON r.id = s.round_id GROUP BY s.player_id"
        " EXCEPT"
        " SELECT player_id, points, rounds_played, rounds_won FROM player_totals"
        " WHERE scope = ? AND variant = 'all'",
        (GUILD,),
    )


@pytest.mark.parametrize("rounds_before_kill", [3, 60])
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_killed_writer_keeps_every_committed_round_once(
    request: pytest.FixtureRequest, db_path: Path, backend: str, rounds_before_kill: int
) -> None:
    """After SIGKILL every round it reported is stored once, whole, with matching totals."""
    url = f"sqlite:///{db_path}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    game_id, printed = run_and_kill(url, rounds_before_kill)
    store = await open_store(url)  # recovers the WAL like a restarted bot would
    try:
        (live,) = await store.snapshots.load_live_games()
        rounds = await recorded_rounds(store, game_id)
        mismatches = await totals_mismatches(store)
    finally:
        await store.close()
    last = max(rounds)
    # Rounds are contiguous; at most one more than reported (killed between commit and print).
    assert sorted(rounds) == list(range(1, last + 1))
    assert printed == list(range(1, len(printed) + 1))
    assert last in (len(printed), len(printed) + 1)
    assert set(rounds.values()) == {len(PLAYERS)}
    assert mismatches == []
    seats = {p.player_id: p.rounds_played for p in live.game.players}
    assert set(seats.values()) == {last}
    assert live.state_json is not None
