"""Each server's settings, read from the store once and kept in memory until they change.

Every saved row is read at start-up (few servers change their settings, and a row is small),
so a sync caller such as a leaderboard's language sees the server's own from the first
interaction. A change through ``/uno-settings`` is written first and replaces the kept value
only once the store has it, so memory never shows what a restart would lose. A server belongs
to one shard, so one process at a time keeps (and changes) its settings.
"""

from __future__ import annotations

import logging

from bot.server_settings import ServerSettings, parse
from bot.store import Store, StoreError

log = logging.getLogger(__name__)


class ServerSettingsBook:
    """The servers' settings this process has read (without a store: the defaults)."""

    def __init__(self, store: Store | None = None) -> None:
        """An empty book reading ``store`` (None: every server has the defaults)."""
        self.store = store
        self._kept: dict[int, ServerSettings] = {}
        # Set once every saved row is in memory: a server not kept then has no row.
        self._complete = False

    async def load_all(self) -> int:
        """Keep every server's saved settings at once (start-up); how many servers have some."""
        if self.store is None:
            return 0
        for guild_id, text in (await self.store.server_settings.load_all()).items():
            self._kept[guild_id] = _read(guild_id, text)
        self._complete = True
        return len(self._kept)

    def peek(self, guild_id: int | None) -> ServerSettings:
        """The settings kept in memory (defaults if not read): for callers that cannot wait."""
        return self._kept.get(guild_id or 0, ServerSettings())

    async def get(self, guild_id: int | None) -> ServerSettings:
        """A server's settings: from memory, else read once from the store.

        A row the store cannot give or this version cannot read gives the defaults (and a log
        line); a failed read is not kept, so the next lobby asks again.
        """
        if guild_id is None:
            return ServerSettings()
        kept = self._kept.get(guild_id)
        if kept is not None:
            return kept
        if self.store is None or self._complete:
            return ServerSettings()
        try:
            text = await self.store.server_settings.load(guild_id)
        except StoreError:
            log.exception("server %s: settings could not be read; using the defaults", guild_id)
            return ServerSettings()
        settings = self._kept[guild_id] = _read(guild_id, text)
        return settings

    async def save(self, guild_id: int, settings: ServerSettings) -> None:
        """Write a server's new settings, then keep them (StoreError: nothing changed)."""
        if self.store is not None:
            if settings.official():
                await self.store.server_settings.delete(guild_id)
            else:
                await self.store.server_settings.save(guild_id, settings.model_dump_json())
        self._kept[guild_id] = settings


def _read(guild_id: int, text: str | None) -> ServerSettings:
    """A stored row as settings; the defaults (and a log line) if it cannot be read."""
    try:
        return parse(text)
    except ValueError:
        log.exception("server %s: saved settings are unreadable; using the defaults", guild_id)
        return ServerSettings()
