"""UnoBot: opens the store, restores the tables, loads the cogs (which register their own
restart-safe buttons), syncs the commands."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from .config import Settings
from .memory import (
    freeze_after_full_collections,
    freeze_long_lived,
    reclaim_frozen,
    stop_freezing,
)
from .metrics import Metrics
from .persistence import Persistence
from .preflight import postgres_settings
from .rest_gate import RequestGate
from .servers import ServerSettingsBook
from .sessions import SessionManager
from .store import Store, StoreError, describe_url, open_store, process_shards
from .store.shards import describe_shards

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.uno", "cogs.leaderboard", "cogs.server_settings", "cogs.history")
INVITE_SCOPES = ("bot", "applications.commands")
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    read_message_history=True,
    attach_files=True,
    # A game in a thread of its own (the ``thread`` option).
    create_public_threads=True,
    send_messages_in_threads=True,
)


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the scopes and permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES
    )


class UnoBot(commands.AutoShardedBot):
    """The unoflip bot: slash commands and buttons only, no message content needed."""

    def __init__(
        self, settings: Settings, shard_count: int | None = None, metrics: Metrics | None = None
    ) -> None:
        """A bot configured by ``settings``; Discord picks the shard count unless given. It
        reports to ``metrics`` (the process's, which outlive a failed login) or its own."""
        # Before the HTTP client exists: it reports every REST request to the metrics' trace,
        # and every counted request on the wire (retries and emoji uploads too) takes a slot
        # of the sessions' one budget through the gate, hooked into the same trace (discord.py
        # takes one).
        self.metrics = metrics or Metrics()
        self.gate = RequestGate(config=self.metrics.http_trace())
        super().__init__(
            http_trace=self.gate.config,
            shard_count=shard_count or settings.shard_count,
            shard_ids=settings.shard_id_list,  # type: ignore[arg-type]  # None: every shard
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        # Built once the store is open (setup_hook), each handed what it needs.
        self._store: Store | None = None
        self._servers: ServerSettingsBook | None = None
        self._sessions: SessionManager | None = None
        self._invite_logged = False
        # Why this process stopped serving its shards (another process took one), or None.
        self.shards_lost: str | None = None
        self._stopping: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        """The store (SQLite or PostgreSQL), open from setup_hook until close."""
        if self._store is None:
            raise RuntimeError("the store is not open (setup_hook has not run)")
        return self._store

    @property
    def servers(self) -> ServerSettingsBook:
        """Each server's /uno settings, read once and kept (from setup_hook on)."""
        if self._servers is None:
            raise RuntimeError("the settings book needs the store (setup_hook has not run)")
        return self._servers

    @property
    def sessions(self) -> SessionManager:
        """Every table of this process (from setup_hook on)."""
        if self._sessions is None:
            raise RuntimeError("the sessions need the store (setup_hook has not run)")
        return self._sessions

    def build_services(self, store: Store) -> SessionManager:
        """The services over an open ``store``, each built once and handed what it needs:
        the settings book, persistence and the session manager."""
        self._store = store
        self._servers = ServerSettingsBook(store)
        persistence = Persistence(store, self.settings)  # an old save follows the config
        sessions = SessionManager(self, self.settings, persistence, self._servers)
        # Every button click reaches the session manager here: counted and timed on its way.
        sessions.click = self.metrics.timed_click(sessions.click)  # type: ignore[method-assign]
        # Every counted request on the wire takes a slot of the sessions' one budget.
        self.gate.window = sessions.edits.window
        self._sessions = sessions
        return sessions

    async def setup_hook(self) -> None:
        """Open the store, restore games and lobbies, load the cogs, sync the commands."""
        url = self.settings.store_url
        store = self._store = await open_store(
            url,
            synchronous=self.settings.db_synchronous,
            postgres=postgres_settings(self.settings),
        )
        log.info("store open: %s", describe_url(url))
        self.metrics.time_store(store.database)
        shard_ids = self.settings.shard_id_list
        if shard_ids is not None or store.shared:
            # Without shard_ids on a shared database this process claims every shard, so no
            # other process, nor a cluster of another shard_count, runs its servers meanwhile.
            shards = process_shards(self.settings.shard_count, shard_ids)
            # ShardTakenError: another process runs them; ClusterShapeError: another count.
            await store.claim_shards(
                shards,
                lease_timeout=self.settings.shard_lease_timeout,
                on_lost=self._shards_taken,
            )
            log.info("running %s", describe_shards(shards))
        sessions = self.build_services(store)
        self.metrics.watch(self)  # its gauges read the sessions
        kept = await self.servers.load_all()
        log.info("%d servers have settings of their own", kept)
        # Only the rows are read here; the tables come back in the background once the bot is
        # connected, so clicks are answered from the start (one on a table not back yet
        # restores that table first).
        games, lobbies = await sessions.read_saved()
        log.info("resuming %d live games and %d open lobbies", games, lobbies)
        # The hand's card emoji: found by name or created in the background (a REST call per
        # missing one); until then, or if Discord refuses, buttons show colour emoji. Other
        # palettes' emoji are made when a table with one starts or comes back.
        self.sessions.spawn(self.sessions.pictures.ensure_emoji(self, ["standard"]), "card-emoji")
        if self.settings.pictures:
            self.sessions.pictures.start_drawing()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        # Everything loaded so far lives as long as the process: keep it out of the cyclic
        # collector's full passes, which otherwise grow with it and stall clicks.
        freeze_long_lived()
        freeze_after_full_collections()  # and so on, for what outlives each full collection
        self.sessions.spawn(self._restore_saved(games, lobbies), "restore")
        if self.settings.memory_reclaim_hours:
            self.sessions.spawn(self._reclaim_periodically(), "memory-reclaim")
        self.sessions.spawn(self._prune_history_daily(), "history-prune")

    async def _restore_saved(self, games: int, lobbies: int) -> None:
        started = asyncio.get_running_loop().time()
        await self.sessions.restore_saved()
        seconds = asyncio.get_running_loop().time() - started
        log.info("resumed %d live games and %d open lobbies in %.1f s", games, lobbies, seconds)
        palettes = {session.state.options.palette for session in self.sessions.by_id.values()}
        if palettes - {"standard"}:  # restored tables in another palette need its card emoji
            self.sessions.spawn(self.sessions.pictures.ensure_emoji(self, palettes), "card-emoji")
        freeze_long_lived()  # the restored tables live on: out of the full collections too

    async def _reclaim_periodically(self) -> None:
        # Freezing keeps the cyclic garbage of objects that were alive at a freeze; give it back
        # now and then, in one pause, instead of letting it grow for the process's lifetime.
        while True:
            await asyncio.sleep(self.settings.memory_reclaim_hours * 3600)
            started = asyncio.get_running_loop().time()
            freed = reclaim_frozen()
            seconds = asyncio.get_running_loop().time() - started
            log.info("reclaimed %d frozen objects in %.0f ms", freed, seconds * 1000)

    async def _prune_history_daily(self) -> None:
        # Old matches leave /uno history after history_days: now, then once a day.
        while True:
            try:
                pruned = await self.store.history.prune(self.settings.history_days)
            except StoreError:
                log.exception("pruning the match history failed; trying again tomorrow")
            else:
                if pruned:
                    log.info("pruned %d matches from the history", pruned)
            await asyncio.sleep(86_400)

    def _shards_taken(self, reason: str) -> None:
        """Another process took one of our shards while the lease was down: it restored
        their games from the database, so this process must not serve or save them again.
        The store already refuses writes; stop, and ``python -m bot`` exits with the reason."""
        log.error("%s; this process stops and saves nothing more", reason)
        self.shards_lost = reason
        self._stopping = asyncio.get_running_loop().create_task(
            self.close(), name="stop-after-shards-lost"
        )

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
        if not self._invite_logged and self.application_id is not None:
            self._invite_logged = True
            log.info("invite link: %s", invite_url(self.application_id))

    def health(self) -> dict[str, bool]:
        """What the heartbeat reports: ready, every gateway shard connected, store open (and
        in a shard cluster, its lease on this process's shards held)."""
        shards = self.shards.values()
        return {
            "ready": self.is_ready() and not self.is_closed(),
            "gateway": bool(shards) and not any(shard.is_closed() for shard in shards),
            "store": self._store is not None
            and (self._store.lease is None or self._store.lease.held),
        }

    def scrape(self) -> dict[str, float]:
        """The gauges the metrics read at each scrape (bot/metrics.py)."""
        sessions = list(self.sessions.by_id.values())
        live = sum(1 for session in sessions if session.state.started)
        edits = self.sessions.edits
        values: dict[str, float] = {
            "live_games": live,
            "open_lobbies": len(sessions) - live,
            "table_edits": edits.started,
            "table_edits_pending": edits.pending,
            "table_edit_staleness_seconds": edits.oldest_pending_age(),
            "table_edits_per_second_budget": edits.rate / edits.per,
        }
        lease = self._store.lease if self._store is not None else None
        if lease is not None:
            values["shard_lease_held"] = float(lease.held)
        return values

    async def close(self) -> None:
        """Answer the clicks in flight, stop the timers, then disconnect."""
        if self._stopping is not None and self._stopping is not asyncio.current_task():
            await asyncio.shield(self._stopping)  # already stopping: its shards were taken
            return
        if self._sessions is not None:
            await self._sessions.shutdown()
        stop_freezing()
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None


# An interaction with this bot: ``interaction.client`` is the ``UnoBot`` (the cogs' type; the
# rooms below the client read it through protocols of their own).
UnoInteraction = discord.Interaction[UnoBot]
