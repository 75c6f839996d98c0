"""The engine behaves exactly as it did when the fingerprints were recorded (see fingerprint.py).

The hashes were recorded from the engine before the import-circle and speed work (commit
53f9d72). A change that alters any event, legal-move list, view, refusal or saved state changes
them; if a rule change is meant to, record the new hashes in the same commit and say why.

Re-recorded when the view gained ``challenge`` and ``stackable`` (issue 15: the hand shows a
challenge's stakes, and says "stack" only when it is allowed). With those two fields left out
of each view's repr, both runs still give the hashes recorded before, so no rule changed.

Re-recorded when games changed generator (issue 29, compact saves): new games draw from PCG32
(bot/engine/rng.py, two integers of state) instead of the Mersenne Twister (625 integers, 6.7 KB
of every save), so every seed deals other cards; no rule changed. Games saved before play on
with their Mersenne Twister (tests/engine/test_saved_states.py still passes unchanged).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot
from bot.compiled import describe_engine

from .fingerprint import fingerprint

ROOT = Path(__file__).resolve().parents[2]

QUICK_MATCHES = 6
QUICK_HASH = "572a5db101543dc99667de2c7ec15a20776af924c27df84144a4a8963f135808"
FULL_MATCHES = 200
FULL_HASH = "7d9ee1a0de6c53753902e3e6d3f09b85d9c87aed451d6bcd6841d07c3e34be34"
FULL_MOVES = 126_855


def test_first_matches_play_exactly_as_recorded() -> None:
    """Six seeded matches hash to the recorded fingerprint."""
    assert fingerprint(QUICK_MATCHES).hexdigest() == QUICK_HASH


@pytest.mark.slow
def test_two_hundred_matches_play_exactly_as_recorded() -> None:
    """All 200 seeded matches (about 125,000 moves) hash to the recorded fingerprint."""
    result = fingerprint(FULL_MATCHES)
    assert (result.moves, result.hexdigest()) == (FULL_MOVES, FULL_HASH)


def test_the_engine_plays_as_recorded_from_its_source_too() -> None:
    """Where the compiled wheel runs, the same six matches from the checkout's Python source
    (what an editable install runs) hash alike."""
    if not describe_engine().compiled:
        pytest.skip("the engine runs from source here, so the test above covered the source")
    if Path(bot.__file__).resolve().parent == ROOT / "bot":
        pytest.skip("the checkout itself is compiled (UNOFLIP_COMPILE=1): it has no source run")
    # From the checkout's folder, its own source comes first on the import path.
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    printed = subprocess.run(
        [sys.executable, "-m", "tests.engine.fingerprint", str(QUICK_MATCHES)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed.startswith("engine: Python source"), printed
    assert printed.rstrip().endswith(QUICK_HASH), printed
