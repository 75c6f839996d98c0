"""A killed bot leaves no picture process behind: the drawing process (and multiprocessing's
resource tracker with it) ends when its parent is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Seconds a process may take to notice its parent is gone (the watch looks every second).
GONE_WITHIN = 30.0

# The bot's own drawing process (the kernel's parent-death signal and the watch), or one with
# the watch alone; prints the drawing process's and the resource tracker's ids, then waits.
PARENT = """
import os, sys
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from multiprocessing import resource_tracker
from bot.ui import pictures
if sys.argv[1] == "bot":
    drawing = pictures.drawing_process()
else:
    drawing = ProcessPoolExecutor(
        1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=pictures._start_drawing_process,
        initargs=(os.getpid(), False),
    )
child = drawing.submit(os.getpid).result(timeout=120)
print(child, resource_tracker._resource_tracker._pid or 0, flush=True)
sys.stdin.read()
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie waiting for its reaper is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_until_gone(pids: list[int]) -> list[int]:
    """Poll until none of ``pids`` runs, at most GONE_WITHIN seconds; those still running."""
    deadline = time.monotonic() + GONE_WITHIN
    while (running := [pid for pid in pids if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)  # a poll's pause, not the wait: the loop ends when they are gone
    return running


@pytest.mark.parametrize("how", ["bot", pytest.param("watch_only", marks=pytest.mark.slow)])
def test_the_drawing_process_ends_when_the_bot_is_killed(how: str) -> None:
    """SIGKILL the process that started the drawing process: neither the drawing process nor
    the resource tracker is left running."""
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, how],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        child, tracker = (int(word) for word in parent.stdout.readline().split())
        pids = [pid for pid in (child, tracker) if pid]
        assert all(alive(pid) for pid in pids)
    finally:
        parent.kill()
        parent.wait()
    left = wait_until_gone(pids)
    for pid in left:  # leave nothing behind, also when the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == []
