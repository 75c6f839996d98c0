"""Keeping the long-lived heap out of Python's full garbage collections.

A full (generation 2) collection visits every object the collector tracks, with the event loop
stopped. With thousands of live games that is millions of objects: 0.2 to 1.7 s at 1,000 games
and over 6 s at 10,000 (docs/benchmarks.md), and every click that meets one waits that long.

``gc.freeze()`` moves every tracked object to a permanent generation that collections skip.
Doing it after each full collection freezes exactly the objects that survived one, so the next
full collection only visits what was allocated, and survived, since: its cost follows the rate
of change, not the number of live games.

The price: a frozen object that later becomes garbage in a reference cycle is not reclaimed
(reference counting still frees every frozen object that is not in a cycle): about half an object
per click in the load benchmark (discord.py views and interactions in flight during a full
collection). ``reclaim_frozen`` gives that back at a time of the bot's choosing: one full
collection over the whole heap (one long pause) every ``memory_reclaim_hours``.
"""

from __future__ import annotations

import gc
from typing import Any


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    # Called by the collector itself, after its work, on whichever thread ran it.
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


def freeze_long_lived() -> None:
    """Freeze everything alive now (it lives as long as the process), then collect what is
    left once.

    That collection finds no old generation (all of it is frozen), so the collector's count of
    long-lived objects starts again from zero. Without it the next full collection waits
    until a quarter as many new objects as were counted before the freeze have survived, and
    then visits them all at once (80 ms against 11 ms in a test with 1.5 million objects
    frozen); with it, full collections come at the pace of what survives anew.
    """
    gc.freeze()
    gc.collect()


def reclaim_frozen() -> int:
    """Unfreeze, collect everything once (the cyclic garbage freezing kept is freed), freeze the
    survivors again; returns how many objects were freed. One long pause: run it rarely."""
    gc.unfreeze()
    freed = gc.collect()
    freeze_long_lived()
    return freed


# Young (generation 1) collections between two full ones while freezing (Python's default:
# 10). A full collection then visits only what survived since the last one, so the same work
# comes in more, shorter pauses: in a test that keeps 1.5 million objects frozen while new ones
# survive, 2 gave 115 full collections of at most 13 ms (563 ms in all) against 32 of up to
# 38 ms (816 ms in all) with 10.
FULL_EVERY = 2
_default_threshold: tuple[int, int, int] | None = None


def freeze_after_full_collections() -> None:
    """From now on, freeze the survivors of every full collection, and collect fully every
    FULL_EVERY young collections (idempotent)."""
    global _default_threshold
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)
        _default_threshold = gc.get_threshold()
        young, middle, _ = _default_threshold
        gc.set_threshold(young, middle, FULL_EVERY)


def stop_freezing() -> None:
    """Stop freezing after full collections (what is frozen stays frozen); the collector's
    thresholds are as before."""
    global _default_threshold
    if _freeze_survivors in gc.callbacks:
        gc.callbacks.remove(_freeze_survivors)
    if _default_threshold is not None:
        gc.set_threshold(*_default_threshold)
        _default_threshold = None
