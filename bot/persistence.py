"""Saving lobbies and live games after every change and bringing them back after a restart.

The engine state goes to the store as its own JSON; everything the Discord side needs to carry
on (the session id in every custom_id, the table message, seats, turn serial, log) goes beside
it as the ``ui`` blob. Round results are recorded exactly once, in order, each in the same
transaction as the snapshot that follows it.

An open lobby has no engine state yet: it is saved as one ``LobbySnapshot`` per channel. Its
row ends when the lobby closes, or in the transaction that creates its game, so after a crash
the channel comes back as its lobby or as its game, never both and never neither.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, ValidationInfo, model_validator

from bot.engine import Game, Phase, dumps, loads
from bot.engine.players import Difficulty
from bot.engine.replay import MoveLog
from bot.options import OPTIONS, TableOptions, fallback
from bot.store import LiveGame, RoundRecord, SavedLobby, Store, StoreError
from bot.store.models import Variant, store_player_id
from bot.store.repositories.history import FinishedMatch
from bot.table import SavedTable, Seat, TableState

log = logging.getLogger(__name__)

UI_VERSION = 1
LOBBY_VERSION = 1


class SeatSnapshot(BaseModel):
    """One seat as saved."""

    model_config = ConfigDict(extra="forbid")

    player_id: str
    name: str
    ai: Difficulty | None = None


# The options that saves before ``TableOptions`` kept as fields of their own, and what such a
# save means by a missing one (None: the host's config then, see ``_older_options``).
FLAT_OPTIONS: dict[str, Any] = {
    "rules": None,
    "turn_timeout": None,
    "next_round_delay": None,
    "ai_difficulty": None,
    "ai_takeover": None,
    "language": "en",  # saved before tables had a language: English, as then
    "turn_reminder": None,
    "lobby_timeout": None,
    "ai_catch_rate": None,
    "pictures": True,
    "palette": "standard",
}


class TableSnapshot(BaseModel):
    """What a lobby and a game both keep: the table's place, people, message and options."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    guild_id: int | None
    channel_id: int
    host_id: int
    options: TableOptions
    seats: list[SeatSnapshot]
    message_id: int | None

    @model_validator(mode="before")
    @classmethod
    def _older_options(cls, data: Any, info: ValidationInfo) -> Any:
        """A save from before ``TableOptions`` kept each option as a field: gathered into
        one value. What it left to the host (None, or a field it predates) follows the
        config given as the ``config`` context (else the declared defaults): the one place
        an old save falls back to the config."""
        if not isinstance(data, dict) or "options" in data:
            return data
        data = dict(data)
        config = (info.context or {}).get("config")
        options: dict[str, Any] = {}
        for name, missing in FLAT_OPTIONS.items():
            value = data.pop(name, missing)
            options[name] = fallback(name, config) if value is None and name in OPTIONS else value
        return data | {"options": options}


class SessionSnapshot(TableSnapshot):
    """Everything of a running game's session that is not in the engine state."""

    version: int = UI_VERSION
    serial: int
    log: list[str]
    timeouts_in_row: dict[str, int]
    recorded_rounds: int
    # The turn reminder still up when this was saved (older snapshots have none).
    reminder_id: int | None = None
    # The match's seed and moves (``MoveLog.dumps``) for the history; older snapshots: none.
    moves: str | None = None
    # The thread the game is played in (None: the channel; older snapshots: none).
    thread_id: int | None = None


class LobbySnapshot(TableSnapshot):
    """An open lobby, and when its idle timer runs out (a wall-clock time, kept over restarts)."""

    version: int = LOBBY_VERSION
    idle_until: AwareDatetime


def _table_fields(table: TableState) -> dict[str, Any]:
    return {
        "session_id": table.id,
        "guild_id": table.guild_id,
        "channel_id": table.channel_id,
        "host_id": table.host_id,
        "options": table.options,
        "seats": [SeatSnapshot(player_id=s.player_id, name=s.name, ai=s.ai) for s in table.seats],
        "message_id": table.message_id,
    }


def session_snapshot(table: TableState) -> SessionSnapshot:
    """The ``ui`` blob's content for a running game (the writer sets ``recorded_rounds``)."""
    return SessionSnapshot(
        **_table_fields(table),
        serial=table.serial,
        log=list(table.log),
        timeouts_in_row=dict(table.timeouts_in_row),
        recorded_rounds=0,
        reminder_id=table.reminder_id,
        moves=None if table.moves is None else table.moves.dumps(),
        thread_id=table.thread_id,
    )


def dump_lobby(table: TableState) -> str:
    """The saved form of an open lobby."""
    return LobbySnapshot(
        **_table_fields(table), idle_until=table.lobby_idle_until
    ).model_dump_json()


@dataclass(frozen=True, slots=True)
class LobbySave:
    """An open lobby as it was when the change was handed over."""

    channel_id: int
    session_id: str
    guild_id: int | None
    lobby_json: str
    closed: bool


@dataclass(frozen=True, slots=True)
class GameSave:
    """A running game as it was when the change was handed over: everything a write needs,
    captured at once under the session's lock, so a write never reads a session that has
    moved on meanwhile."""

    guild_id: int
    channel_id: int
    session_id: str
    variant: Variant
    rules_json: str
    players: tuple[tuple[int, str], ...]
    state: str
    ui: SessionSnapshot
    # (history index, record) of every round not yet confirmed written when this was taken.
    rounds: tuple[tuple[int, RoundRecord], ...]
    history_len: int
    phase: Phase
    # The finished match for the history, once the match is over.
    finished: FinishedMatch | None = None

    def ui_json(self, recorded_rounds: int) -> str:
        """The ``ui`` blob saved beside the state, with how many rounds are then recorded."""
        return self.ui.model_copy(update={"recorded_rounds": recorded_rounds}).model_dump_json()


Save = LobbySave | GameSave

# Back-off between two attempts at a save the store refused (a locked, full or read-only
# database); a newer change wakes the writer at once.
RETRY_FIRST = 30.0
RETRY_MAX = 300.0


@dataclass(frozen=True, slots=True)
class _Ending:
    """A closed session's last step: end its rows once its last save is written."""

    phase: Phase | None  # the game's phase when the session closed; None for a lobby
    then: Callable[[], None]


class SessionWriter:
    """One session's saves, written in order by one task; the newest state replaces an older
    one still waiting, so a slow store never builds a queue.

    It owns what the store told us: the game's row id and how many rounds are recorded.
    """

    def __init__(
        self, store: Store, channel_id: int, session_id: str, game_id: int | None, recorded: int
    ) -> None:
        """A writer for ``session_id``, resuming a game row (or none yet) and its rounds."""
        self.store = store
        self.channel_id = channel_id
        self.session_id = session_id
        self.game_id = game_id
        self.recorded_rounds = recorded
        self.failures = 0
        self._pending: Save | None = None
        self._ending: _Ending | None = None
        self._submitted = 0
        self._written = 0
        self._waiters: list[tuple[int, asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.Task[None] | None = None
        self._retry_delay = RETRY_FIRST

    @property
    def idle(self) -> bool:
        """Nothing waits to be written."""
        return self._pending is None and self._ending is None

    def submit(self, save: Save) -> asyncio.Future[bool]:
        """Write ``save`` soon; the future says True once it (or a newer one) is written, False
        if the store refused it for now (it is retried)."""
        self._pending = save
        self._submitted += 1
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiters.append((self._submitted, waiter))
        self._start()
        return waiter

    def finish(self, phase: Phase | None, then: Callable[[], None]) -> None:
        """After the pending save, end the session's rows: forget its lobby, or mark a game
        that stopped before its end abandoned (``phase`` is the game's, None for a lobby);
        ``then`` runs once that is written."""
        self._ending = _Ending(phase, then)
        self._start()

    async def wait_idle(self) -> None:
        """Return once everything handed over so far is written (or the writer gave up)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"save-{self.session_id}"
            )
            self._task.add_done_callback(_report_writer_failure)

    async def _run(self) -> None:
        while not self.idle:
            try:
                await self._write_pending()
            except Exception as error:
                # Whatever the kind (the store's own errors, or a bug below it), the newest
                # state is kept and tried again: a writer that stopped would never save again.
                self._failed(error)
                self._answer_waiters(False)
                self._retry_later()
                return
            if self.failures:
                log.info(
                    "session %s: saved again after %d failures", self.session_id, self.failures
                )
                self.failures = 0
                self._retry_delay = RETRY_FIRST

    def _retry_later(self) -> None:
        """Try the newest state again after a back-off, even if nothing changes meanwhile."""
        if self._retry is not None and not self._retry.done():
            return
        delay, self._retry_delay = self._retry_delay, min(RETRY_MAX, self._retry_delay * 2)

        async def retry() -> None:
            await asyncio.sleep(delay)
            if not self.idle:
                self._start()

        self._retry = asyncio.get_running_loop().create_task(
            retry(), name=f"resave-{self.session_id}"
        )

    async def _write_pending(self) -> None:
        save, number = self._pending, self._submitted
        if save is not None:
            await self._write(save)
            if self._pending is save:
                self._pending = None
            self._written = number
            self._answer_waiters(True)
        ending = self._ending
        if ending is not None and self._pending is None:
            await self._end_rows(ending.phase)
            self._ending = None
            ending.then()

    def _failed(self, error: Exception) -> None:
        self.failures += 1
        if self.failures == 1:
            log.error(
                "session %s: saving failed (%s); play goes on and the newest state is saved "
                "as soon as the store accepts it",
                self.session_id,
                error,
                # Not the store's error: a bug, whose traceback is worth a look.
                exc_info=None if isinstance(error, StoreError) else error,
            )
        else:
            log.warning(
                "session %s: saving failed again (%d times): %s",
                self.session_id,
                self.failures,
                error,
            )

    def _answer_waiters(self, written: bool) -> None:
        still: list[tuple[int, asyncio.Future[bool]]] = []
        for number, waiter in self._waiters:
            if waiter.done():
                continue
            if not written or number <= self._written:
                waiter.set_result(written)
            else:
                still.append((number, waiter))
        self._waiters = still

    async def _write(self, save: Save) -> None:
        if isinstance(save, LobbySave):
            # A closed lobby's row is gone for good: a late save (its notice reposted after
            # the message was deleted) must not bring it back. Lobbies live in servers only.
            if not save.closed and save.guild_id is not None:
                await self.store.lobbies.save(
                    save.channel_id, save.session_id, save.guild_id, save.lobby_json
                )
            return
        snapshot_saved = False
        if self.game_id is None:
            record = await self.store.games.create_game(
                save.guild_id,
                save.channel_id,
                save.variant,
                save.rules_json,
                list(save.players),
                snapshot=(save.state, save.ui_json(self.recorded_rounds)),
                lobby_session_id=save.session_id,
            )
            self.game_id = record.id
            snapshot_saved = True
        recorded_now = False
        for index, result in save.rounds:
            if index < self.recorded_rounds:
                continue  # written by an earlier save meanwhile
            last = index == save.history_len - 1
            snapshot = (save.state, save.ui_json(index + 1)) if last else None
            await self.store.games.record_round(self.game_id, result, snapshot=snapshot)
            self.recorded_rounds = index + 1
            recorded_now = True
        if save.finished is not None:
            await self.store.history.record(self.game_id, save.finished)
        if save.phase is Phase.ABANDONED:
            await self.store.games.abandon_game(self.game_id)
        elif not (recorded_now or snapshot_saved) and save.phase is not Phase.MATCH_OVER:
            await self.store.snapshots.save_snapshot(
                self.game_id, save.state, save.ui_json(self.recorded_rounds)
            )

    async def _end_rows(self, phase: Phase | None) -> None:
        if self.game_id is None:
            # A lobby closed (cancel, idle, empty), or a game whose row was never created
            # while the store was failing: either way its lobby must not come back.
            await self.store.lobbies.delete(self.channel_id, self.session_id)
            return
        if phase in (Phase.MATCH_OVER, Phase.ABANDONED):
            return  # its last save already finished or abandoned it in the store
        await self.store.games.abandon_game(self.game_id)


def _report_writer_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a save writer stopped", exc_info=task.exception())


@dataclass(frozen=True, slots=True)
class Saved:
    """What start-up read from the store, still unparsed: the live games' and open lobbies'
    rows."""

    games: list[LiveGame]
    lobbies: list[SavedLobby]


class Persistence:
    """The store side of the tables: hand each change to its table's writer, restore."""

    def __init__(self, store: Store, config: object = None) -> None:
        """Persistence through ``store``; a save older than the table options follows
        ``config`` (``bot.config.Settings``; None: the declared defaults) where it kept no
        value of its own."""
        self.store = store
        self.config = config
        self._writers: dict[str, SessionWriter] = {}

    def _writer(self, table: TableState) -> SessionWriter:
        writer = self._writers.get(table.id)
        if writer is None:
            writer = SessionWriter(self.store, table.channel_id, table.id, None, 0)
            self._writers[table.id] = writer
        return writer

    def game_id(self, session_id: str) -> int | None:
        """The store's row id of a table's game, once it has one."""
        writer = self._writers.get(session_id)
        return None if writer is None else writer.game_id

    def save(self, table: TableState) -> asyncio.Future[bool]:
        """Take the table's state now and have it written soon; never waits for the store.

        Call it under the session's lock, right after a change. The future says whether the
        store has it (True) or refused it for now (False: play goes on in memory, the
        newest state is retried and any round still missing is recorded then).
        """
        writer = self._writer(table)
        return writer.submit(_capture(table, writer.recorded_rounds))

    def finished(self, table: TableState) -> None:
        """A table closed: after its last save, forget its lobby or mark an unfinished game
        abandoned; then forget its writer."""
        writer = self._writer(table)
        game = table.game
        writer.finish(None if game is None else game.phase, lambda: self._forget_writer(writer))

    def _forget_writer(self, writer: SessionWriter) -> None:
        if self._writers.get(writer.session_id) is writer:
            del self._writers[writer.session_id]

    async def flush(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for every pending save; False if some are still waiting."""
        busy = [writer.wait_idle() for writer in self._writers.values() if not writer.idle]
        if not busy:
            return True
        _, pending = await asyncio.wait(
            [asyncio.ensure_future(wait) for wait in busy], timeout=timeout
        )
        for task in pending:
            task.cancel()
        if pending:
            log.warning("%d sessions still had unsaved changes at shutdown", len(pending))
        return not pending

    async def read_saved(self) -> Saved:
        """Every live game's and open lobby's saved row, unparsed (one query each): what
        start-up restores, a channel at a time, with ``restore_game`` and ``restore_lobby``."""
        games = await self.store.snapshots.load_live_games()
        try:
            lobbies = await self.store.lobbies.load_all()
        except StoreError:
            log.exception("the saved lobbies could not be read; none are restored")
            lobbies = []
        return Saved(games, lobbies)

    def restore_game(self, live: LiveGame) -> TableState | None:
        """A live game's table from its saved row, its writer ready; None if the row cannot be
        read (the caller ends that game with ``abandon``)."""
        try:
            saved, game = _parse(live, self.config)
            table = table_from_snapshot(saved, game)
        except Exception:
            log.exception("game %s could not be restored; ending it", live.game.id)
            return None
        self._writers[table.id] = SessionWriter(
            self.store, table.channel_id, table.id, live.game.id, saved.recorded_rounds
        )
        return table

    async def abandon(self, game_id: int) -> None:
        """End a live game that cannot be restored."""
        try:
            await self.store.games.abandon_game(game_id)
        except StoreError:
            # The row stays live: the next start-up tries (and ends) it again.
            log.exception("game %s: could not mark it abandoned", game_id)

    def restore_lobby(self, row: SavedLobby) -> TableState | None:
        """An open lobby's table from its saved row; None if the row cannot be read (the
        caller drops it with ``forget_lobby``)."""
        try:
            return table_from_lobby(_parse_lobby(row, self.config))
        except Exception:
            log.exception("lobby %s could not be restored; dropping it", row.session_id)
            return None

    async def forget_lobby(self, channel_id: int, session_id: str) -> None:
        """Delete a saved lobby row that is not restored."""
        try:
            await self.store.lobbies.delete(channel_id, session_id)
        except StoreError:
            # The row stays: at worst a restart brings the lobby back until its idle time ends.
            log.exception("lobby %s: could not delete its saved row", session_id)


def _saved_table(saved: TableSnapshot, idle_until: datetime, **running: Any) -> SavedTable:
    """A snapshot's parts as the table takes them back (``running``: a game's own parts)."""
    return SavedTable(
        session_id=saved.session_id,
        guild_id=saved.guild_id,
        channel_id=saved.channel_id,
        host_id=saved.host_id,
        options=saved.options,
        seats=[Seat(s.player_id, s.name, s.ai) for s in saved.seats],
        message_id=saved.message_id,
        lobby_idle_until=idle_until,
        **running,
    )


def table_from_snapshot(saved: SessionSnapshot, game: Game) -> TableState:
    """A running game's table as saved."""
    running = _saved_table(
        saved,
        datetime.now(UTC),
        serial=saved.serial,
        log=saved.log,
        timeouts_in_row=saved.timeouts_in_row,
        reminder_id=saved.reminder_id,
        moves=None if saved.moves is None else MoveLog.loads(saved.moves),
        thread_id=saved.thread_id,
    )
    return TableState.restore(running, game)


def table_from_lobby(saved: LobbySnapshot) -> TableState:
    """An open lobby's table as saved, with the instant its idle time runs out."""
    return TableState.restore(_saved_table(saved, saved.idle_until))


def _capture(table: TableState, recorded_rounds: int) -> Save:
    """The table's state as one value, for a write that happens later."""
    game = table.game
    if game is None:
        return LobbySave(
            table.channel_id, table.id, table.guild_id, dump_lobby(table), table.closed
        )
    assert table.guild_id is not None, "games are played in server channels"
    last = len(game.history) - 1
    rounds = tuple(
        (
            index,
            RoundRecord.from_engine(
                game.history[index],
                game.rules.scoring,
                game.match_winner if index == last and game.phase is Phase.MATCH_OVER else None,
            ),
        )
        for index in range(recorded_rounds, len(game.history))
    )
    return GameSave(
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        session_id=table.id,
        variant=table.rules.variant,
        rules_json=table.rules.model_dump_json(),
        players=tuple((store_player_id(p), table.name(p)) for p in game.players),
        state=dumps(game),
        ui=session_snapshot(table),
        rounds=rounds,
        history_len=len(game.history),
        phase=game.phase,
        finished=FinishedMatch.from_engine(
            game,
            table.moves,
            {s.player_id: s.name for s in table.seats},
            table.guild_id,
            table.channel_id,
        )
        if game.phase is Phase.MATCH_OVER
        else None,
    )


def _parse_lobby(row: SavedLobby, config: object) -> LobbySnapshot:
    snapshot = LobbySnapshot.model_validate_json(row.lobby_json, context={"config": config})
    if (snapshot.channel_id, snapshot.session_id) != (row.channel_id, row.session_id):
        raise ValueError("the saved lobby belongs to another channel or session")
    return snapshot


def _parse(live: LiveGame, config: object) -> tuple[SessionSnapshot, Game]:
    if live.state_json is None or live.ui_json is None:
        raise ValueError("the game never saved a state")
    snapshot = SessionSnapshot.model_validate_json(live.ui_json, context={"config": config})
    game = loads(live.state_json)
    if snapshot.channel_id != live.game.channel_id:
        raise ValueError("the saved session belongs to another channel")
    return snapshot, game
