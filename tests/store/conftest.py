"""Fixtures for the store tests: an in-memory store and a store on a file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    """A fresh in-memory store."""
    opened = await Store.open(":memory:")
    yield opened
    await opened.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where a file-backed test database lives."""
    return tmp_path / "uno.sqlite3"


@pytest.fixture
async def file_store(db_path: Path) -> AsyncIterator[Store]:
    """A fresh store on a file (WAL), for tests that need a second connection."""
    opened = await Store.open(db_path)
    yield opened
    await opened.close()
