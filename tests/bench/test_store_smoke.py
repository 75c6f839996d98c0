"""Smoke test for bench/store.py: a tiny build and every figure, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bench.store import main
from tests.store.conftest import SERVER_URL, postgres_server  # noqa: F401 (fixture)

# A bench's smoke run builds its whole world: the full run (CI) only, not the quick run.
pytestmark = pytest.mark.slow

TINY = ["--rows", "2000", "--servers", "5", "--samples", "20", "--writers", "2"]
FIGURES = (
    "guild leaderboard page: p50",
    "global leaderboard page: p50",
    "snapshot write",
    "record_round with snapshot: p50",
    "writes per second:",
)


def check(lines: list[str]) -> None:
    """Every figure is reported and the data has the rows asked for."""
    for figure in FIGURES:
        assert any(line.startswith(figure) for line in lines), figure
    assert any("'round_scores': 2000" in line for line in lines)


async def test_sqlite_run_reports_every_figure() -> None:
    """The SQLite benchmark builds, migrates and reports every figure."""
    check(await main([*TINY, "--write-seconds", "0.5"]))


@pytest.mark.usefixtures("postgres_server")
async def test_postgres_run_reports_every_figure() -> None:
    """The PostgreSQL benchmark builds in its own database, reports, and drops it."""
    lines = await main(
        [*TINY, "--write-seconds", "0.5", "--backend", "postgres", "--postgres", SERVER_URL]
    )
    check(lines)
    assert any(line.startswith("backend: PostgreSQL") for line in lines)


@pytest.mark.usefixtures("postgres_server")
async def test_postgres_run_as_shard_processes_reports_every_figure() -> None:
    """With --shards the timing process claims a shard and writes its own server's games."""
    no_writers = [*TINY[:-2], "--writers", "0"]
    lines = await main([*no_writers, "--backend", "postgres", "--postgres", SERVER_URL, "--shards"])
    for figure in FIGURES[:-1]:  # all but the writers' figure
        assert any(line.startswith(figure) for line in lines), figure
    assert any(line.endswith("each process claiming a shard of 1") for line in lines)
