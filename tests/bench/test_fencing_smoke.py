"""Smoke test for bench/fencing.py: a few interleaved writes, reported per store."""

from __future__ import annotations

import pytest

from bench.fencing import main
from tests.store.conftest import SERVER_URL, postgres_server  # noqa: F401 (fixture)

# A bench's smoke run builds its whole world: the full run (CI) only, not the quick run.
pytestmark = pytest.mark.slow


@pytest.mark.usefixtures("postgres_server")
async def test_both_stores_report_both_writes() -> None:
    """The plain and the fenced store each report snapshot and round times."""
    lines = await main(["--samples", "5", "--postgres", SERVER_URL])
    assert [line.split(":")[0] for line in lines] == [
        "fenced round",
        "fenced snapshot",
        "plain round",
        "plain snapshot",
    ]
