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

import logging
from typing import TYPE_CHECKING, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict

from bot.ai import Difficulty
from bot.engine import Game, Phase, RuleSet, dumps, loads
from bot.store import LiveGame, RoundRecord, SavedLobby, Store, StoreError
from bot.store.models import store_player_id

if TYPE_CHECKING:
    from bot.sessions import GameSession, SessionManager

log = logging.getLogger(__name__)

UI_VERSION = 1
LOBBY_VERSION = 1


class SeatSnapshot(BaseModel):
    """One seat as saved."""

    model_config = ConfigDict(extra="forbid")

    player_id: str
    name: str
    ai: Difficulty | None = None


class TableSnapshot(BaseModel):
    """What a lobby and a game both keep: the table's place, people, rules and settings."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    guild_id: int | None
    channel_id: int
    host_id: int
    rules: RuleSet
    turn_timeout: int
    next_round_delay: int
    ai_difficulty: Difficulty
    ai_takeover: bool
    seats: list[SeatSnapshot]
    message_id: int | None


class SessionSnapshot(TableSnapshot):
    """Everything of a running game's session that is not in the engine state."""

    version: int = UI_VERSION
    serial: int
    log: list[str]
    timeouts_in_row: dict[str, int]
    recorded_rounds: int
    # The turn reminder still up when this was saved (older snapshots have none).
    reminder_id: int | None = None


class LobbySnapshot(TableSnapshot):
    """An open lobby, and when its idle timer runs out (a wall-clock time, kept over restarts)."""

    version: int = LOBBY_VERSION
    idle_until: AwareDatetime


def _table_fields(session: GameSession) -> dict[str, Any]:
    return {
        "session_id": session.id,
        "guild_id": session.guild_id,
        "channel_id": session.channel_id,
        "host_id": session.host_id,
        "rules": session.rules,
        "turn_timeout": session.turn_timeout,
        "next_round_delay": session.next_round_delay,
        "ai_difficulty": session.ai_difficulty,
        "ai_takeover": session.ai_takeover,
        "seats": [SeatSnapshot(player_id=s.player_id, name=s.name, ai=s.ai) for s in session.seats],
        "message_id": session.message_id,
    }


def dump_session(session: GameSession, recorded_rounds: int) -> str:
    """The ``ui`` blob for a session."""
    return SessionSnapshot(
        **_table_fields(session),
        serial=session.serial,
        log=list(session.log),
        timeouts_in_row=dict(session.timeouts_in_row),
        recorded_rounds=recorded_rounds,
        reminder_id=session.reminder_id,
    ).model_dump_json()


def dump_lobby(session: GameSession) -> str:
    """The saved form of an open lobby."""
    return LobbySnapshot(
        **_table_fields(session), idle_until=session.lobby_idle_until
    ).model_dump_json()


class Persistence:
    """The store side of the sessions: save after each change, record rounds, restore."""

    def __init__(self, store: Store) -> None:
        """Persistence through ``store``."""
        self.store = store

    def install(self, manager: SessionManager) -> None:
        """Hook into the session manager's save and finish points."""
        manager.persist_hooks.append(self.save)
        manager.finish_hooks.append(self.finished)

    async def start_game(self, session: GameSession) -> None:
        """Create the game's row with its first snapshot when the host starts it.

        The same transaction deletes the lobby's row: a crash before it commits restores the
        lobby, a crash after it restores the game.
        """
        game = session.game
        assert game is not None and session.guild_id is not None
        record = await self.store.games.create_game(
            session.guild_id,
            session.channel_id,
            session.rules.variant,
            session.rules.model_dump_json(),
            [(store_player_id(p), session.name(p)) for p in game.players],
            snapshot=(dumps(game), dump_session(session, session.recorded_rounds)),
            lobby_session_id=session.id,
        )
        session.db_game_id = record.id

    async def save(self, session: GameSession) -> None:
        """Save the lobby; in a game, record any newly scored round, else save the snapshot."""
        game = session.game
        try:
            if game is None:
                await self._save_lobby(session)
            elif session.db_game_id is None:
                await self.start_game(session)
                await self._save(session, game, snapshot_saved=True)
            else:
                await self._save(session, game)
        except StoreError:
            # The session goes on in memory; the next change saves the whole state again and
            # records any round still missing, so nothing is lost while the store recovers.
            log.exception("session %s: saving failed; it will be retried", session.id)

    async def _save_lobby(self, session: GameSession) -> None:
        # A closed lobby's row is gone for good: a late save (its notice reposted after the
        # message was deleted) must not bring it back. Lobbies open in server channels only.
        if session.closed or session.guild_id is None:
            return
        await self.store.lobbies.save(
            session.channel_id, session.id, session.guild_id, dump_lobby(session)
        )

    async def _save(
        self, session: GameSession, game: Game, *, snapshot_saved: bool = False
    ) -> None:
        game_id = session.db_game_id
        assert game_id is not None
        state = dumps(game)
        recorded_now = False
        while session.recorded_rounds < len(game.history):
            index = session.recorded_rounds
            last = index == len(game.history) - 1
            winner = game.match_winner if last and game.phase is Phase.MATCH_OVER else None
            record = RoundRecord.from_engine(game.history[index], game.rules.scoring, winner)
            snapshot = (state, dump_session(session, index + 1)) if last else None
            await self.store.games.record_round(game_id, record, snapshot=snapshot)
            session.recorded_rounds = index + 1
            recorded_now = True
        if game.phase is Phase.ABANDONED:
            await self.store.games.abandon_game(game_id)
        elif not (recorded_now or snapshot_saved) and game.phase is not Phase.MATCH_OVER:
            ui = dump_session(session, session.recorded_rounds)
            await self.store.snapshots.save_snapshot(game_id, state, ui)

    async def finished(self, session: GameSession) -> None:
        """A session closed: forget its lobby, or mark a game that ended early abandoned."""
        if session.db_game_id is None:
            # A lobby closed (cancel, idle, empty), or a game whose row was never created
            # while the store was failing: either way its lobby must not come back.
            await self._forget_lobby(session.channel_id, session.id)
            return
        game = session.game
        if game is not None and game.phase in (Phase.MATCH_OVER, Phase.ABANDONED):
            return  # save() already finished or abandoned it in the store
        try:
            await self.store.games.abandon_game(session.db_game_id)
        except StoreError:
            log.exception("session %s: could not mark the game abandoned", session.id)

    async def restore(self, manager: SessionManager) -> list[GameSession]:
        """Bring back every live game; one that cannot be read is ended on its own."""
        from bot.sessions import GameSession

        restored: list[GameSession] = []
        for live in await self.store.snapshots.load_live_games():
            try:
                session = GameSession.from_snapshot(manager, live.game.id, *_parse(live))
            except Exception:
                log.exception("game %s could not be restored; ending it", live.game.id)
                await self.store.games.abandon_game(live.game.id)
                manager.spawn(
                    manager.announce(
                        live.game.channel_id,
                        "A game in this channel could not be resumed after the bot restarted, "
                        "so it has ended. Rounds already scored still count.",
                    ),
                    f"announce-{live.game.id}",
                )
                continue
            restored.append(session)
        return restored

    async def restore_lobbies(self, manager: SessionManager) -> list[GameSession]:
        """Bring back every saved lobby whose channel is free; drop the rest with a log line.

        Call it after the live games are registered: a lobby row beside a live game in the same
        channel lost the channel to that game.
        """
        from bot.sessions import GameSession

        try:
            saved = await self.store.lobbies.load_all()
        except StoreError:
            log.exception("the saved lobbies could not be read; none are restored")
            return []
        restored: list[GameSession] = []
        for row in saved:
            if row.channel_id in manager.by_channel or row.session_id in manager.by_id:
                log.warning(
                    "lobby %s dropped: a live game holds its channel %s or its id",
                    row.session_id,
                    row.channel_id,
                )
                await self._forget_lobby(row.channel_id, row.session_id)
                continue
            try:
                session = GameSession.from_lobby(manager, _parse_lobby(row))
            except Exception:
                log.exception("lobby %s could not be restored; dropping it", row.session_id)
                await self._forget_lobby(row.channel_id, row.session_id)
                continue
            restored.append(session)
        return restored

    async def _forget_lobby(self, channel_id: int, session_id: str) -> None:
        try:
            await self.store.lobbies.delete(channel_id, session_id)
        except StoreError:
            # The row stays: at worst a restart brings the lobby back until its idle time ends.
            log.exception("lobby %s: could not delete its saved row", session_id)


def _parse_lobby(row: SavedLobby) -> LobbySnapshot:
    snapshot = LobbySnapshot.model_validate_json(row.lobby_json)
    if (snapshot.channel_id, snapshot.session_id) != (row.channel_id, row.session_id):
        raise ValueError("the saved lobby belongs to another channel or session")
    return snapshot


def _parse(live: LiveGame) -> tuple[SessionSnapshot, Game]:
    if live.state_json is None or live.ui_json is None:
        raise ValueError("the game never saved a state")
    snapshot = SessionSnapshot.model_validate_json(live.ui_json)
    game = loads(live.state_json)
    if snapshot.channel_id != live.game.channel_id:
        raise ValueError("the saved session belongs to another channel")
    return snapshot, game
