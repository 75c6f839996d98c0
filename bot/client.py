"""UnoBot: opens the store, restores the tables, loads the cogs (which register their own
restart-safe buttons), syncs the commands."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

import discord
from discord.ext import commands

from .config import Settings
from .persistence import Persistence
from .sessions import SessionManager
from .store import ConnectionSettings, Store
from .ui.i18n import CommandTranslator, language_of

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.uno", "cogs.leaderboard")


class UnoBot(commands.AutoShardedBot):
    """The unoflip bot: slash commands and buttons only, no message content needed."""

    def __init__(self, settings: Settings, shard_count: int | None = None) -> None:
        """A bot configured by ``settings``; Discord picks the shard count unless given."""
        super().__init__(
            shard_count=shard_count,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.sessions = SessionManager(self, settings)
        self._store: Store | None = None

    @property
    def store(self) -> Store:
        """The SQLite store, open from setup_hook until close."""
        if self._store is None:
            raise RuntimeError("the store is not open (setup_hook has not run)")
        return self._store

    async def setup_hook(self) -> None:
        """Open the store, restore games and lobbies, load the cogs, sync the commands."""
        db_path = Path(self.settings.db_path)
        if str(db_path) != ":memory:":
            db_path.parent.mkdir(parents=True, exist_ok=True)
        self._store = await Store.open(
            db_path, ConnectionSettings(synchronous=self.settings.db_synchronous)
        )
        log.info("store open at %s", db_path)
        persistence = Persistence(self._store)
        self.sessions.persistence = persistence
        games, lobbies = await self.sessions.restore(persistence)
        log.info("resumed %d live games and %d open lobbies", games, lobbies)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.language and language_of(self.settings.language) is None:
            log.warning(
                "no catalog for language %r: each server's own is used", self.settings.language
            )
        # Command names, descriptions and choices in every catalog's language (reads them all).
        await self.tree.set_translator(CommandTranslator())
        await self.sync_commands()
        # Everything loaded so far lives as long as the process: keep it out of the cyclic
        # collector's full passes, which otherwise grow with it and stall clicks.
        gc.freeze()

    async def sync_commands(self) -> None:
        """Sync to the development guild when one is set (instant), else globally."""
        if self.settings.guild_id is not None:
            guild = discord.Object(id=self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        """Log who we are once connected."""
        log.info(
            "logged in as %s (%s) in %d servers",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )

    async def close(self) -> None:
        """Answer the clicks in flight, stop the timers, then disconnect."""
        await self.sessions.shutdown()
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None
