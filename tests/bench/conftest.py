"""Settings for the benchmark smoke tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_outside_config(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """The benchmarks' settings cannot pick up a real token or config file."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("UNO_CONFIG", f"{tmp_path}/absent.toml")
