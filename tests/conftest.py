"""Run-wide test settings: the quick run (``pytest -m "not slow"``) plays fewer random examples.

The full run (``pytest``, what CI runs) keeps every property test's own example count. The quick
run loads the hypothesis profile "quick", which caps them (tests read the cap through
``settings().max_examples``); ``--hypothesis-profile`` still chooses explicitly.

Every run also makes SimCord look for quiet sooner (``SETTLE_POLL``, below).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import pytest
import simcord.env
from hypothesis import settings

from bot.compiled import describe_engine

QUICK_EXAMPLES = 4
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)
# Seconds SimCord's settle waits between two looks at the bot's work (its default, 0.05 s, is
# the interval of every look after a click or command: most of a behaviour test's time went to
# those waits while the bot had long finished, about 7 times the test's own work). The settle
# still returns only when the bot's work is done and has stayed done for two looks.
SETTLE_POLL = 0.002


def _settle_polls_sooner() -> None:
    """Make every SimCord settle (the ones after each actor's click and command included, which
    take SimCord's default) look at the bot's work every SETTLE_POLL seconds."""
    settle = simcord.env.Env._settle_internal
    if "idle" not in inspect.signature(settle).parameters:
        return  # a SimCord without the parameter: its own interval stays

    @functools.wraps(settle)
    async def polling_sooner(self: simcord.env.Env, *args: Any, **kwargs: Any) -> None:
        kwargs["idle"] = min(kwargs.get("idle", SETTLE_POLL), SETTLE_POLL)
        await settle(self, *args, **kwargs)

    simcord.env.Env._settle_internal = polling_sooner  # type: ignore[method-assign]


def pytest_configure(config: pytest.Config) -> None:
    """Load the "quick" profile when the slow tests are deselected and no profile was named."""
    quick = "not slow" in (config.option.markexpr or "")
    if quick and config.getoption("hypothesis_profile", None) is None:
        settings.load_profile("quick")
    _settle_polls_sooner()


def pytest_report_header() -> str:
    """Which copy of the engine the run tests: compiled, or its Python source (and why)."""
    return describe_engine().describe()
