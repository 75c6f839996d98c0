"""Run-wide test settings: the quick run (``pytest -m "not slow"``) plays fewer random examples.

The full run (``pytest``, what CI runs) keeps every property test's own example count. The quick
run loads the hypothesis profile "quick", which caps them (tests read the cap through
``settings().max_examples``); ``--hypothesis-profile`` still chooses explicitly.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from bot.compiled import describe_engine

QUICK_EXAMPLES = 4
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)


def pytest_configure(config: pytest.Config) -> None:
    """Load the "quick" profile when the slow tests are deselected and no profile was named."""
    quick = "not slow" in (config.option.markexpr or "")
    if quick and config.getoption("hypothesis_profile", None) is None:
        settings.load_profile("quick")


def pytest_report_header() -> str:
    """Which copy of the engine the run tests: compiled, or its Python source (and why)."""
    return describe_engine().describe()
