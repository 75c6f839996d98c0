"""Saving live games after every change and bringing them back after a restart.

The engine state goes to the store as its own JSON; everything the Discord side needs to carry
on (the session id in every custom_id, the table message, seats, turn serial, log) goes beside
it as the ``ui`` blob. Round results are recorded exactly once, in order, each in the same
transaction as the snapshot that follows it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from bot.ai import Difficulty
from bot.engine import Game, Phase, RuleSet
from bot.store import LiveGame, RoundRecord, Store, StoreError
from bot.store.models import store_player_id

if TYPE_CHECKING:
    from bot.sessions import GameSession, SessionManager

log = logging.getLogger(__name__)

UI_VERSION = 1


class SeatSnapshot(BaseModel):
    """One seat as saved."""

    model_config = ConfigDict(extra="forbid")

    player_id: str
    name: str
    ai: Difficulty | None = None


class SessionSnapshot(BaseModel):
    """Everything of a session that is not in the engine state."""

    model_config = ConfigDict(extra="forbid")

    version: int = UI_VERSION
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
    serial: int
    log: list[str]
    timeouts_in_row: dict[str, int]
    recorded_rounds: int


def dump_session(session: GameSession, recorded_rounds: int) -> str:
    """The ``ui`` blob for a session."""
    return SessionSnapshot(
        session_id=session.id,
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        host_id=session.host_id,
        rules=session.rules,
        turn_timeout=session.turn_timeout,
        next_round_delay=session.next_round_delay,
        ai_difficulty=session.ai_difficulty,
        ai_takeover=session.ai_takeover,
        seats=[SeatSnapshot(player_id=s.player_id, name=s.name, ai=s.ai) for s in session.seats],
        message_id=session.message_id,
        serial=session.serial,
        log=list(session.log),
        timeouts_in_row=dict(session.timeouts_in_row),
        recorded_rounds=recorded_rounds,
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
        """Create the game's row when the host starts it."""
        game = session.game
        assert game is not None and session.guild_id is not None
        record = await self.store.games.create_game(
            session.guild_id,
            session.channel_id,
            session.rules.variant,
            session.rules.model_dump_json(),
            [(store_player_id(p), session.name(p)) for p in game.players],
        )
        session.db_game_id = record.id

    async def save(self, session: GameSession) -> None:
        """Record any newly scored round (with the snapshot), else save the snapshot."""
        game = session.game
        if game is None:
            return
        try:
            if session.db_game_id is None:
                await self.start_game(session)
            await self._save(session, game)
        except StoreError:
            # The game goes on in memory; the next change saves the whole state again and
            # records any round still missing, so nothing is lost while the store recovers.
            log.exception("session %s: saving failed; it will be retried", session.id)

    async def _save(self, session: GameSession, game: Game) -> None:
        game_id = session.db_game_id
        assert game_id is not None
        state = game.model_dump_json()
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
        elif not recorded_now and game.phase is not Phase.MATCH_OVER:
            ui = dump_session(session, session.recorded_rounds)
            await self.store.snapshots.save_snapshot(game_id, state, ui)

    async def finished(self, session: GameSession) -> None:
        """A game ended early (/uno end, no players left): mark it abandoned, rounds kept."""
        if session.db_game_id is None:
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


def _parse(live: LiveGame) -> tuple[SessionSnapshot, Game]:
    if live.state_json is None or live.ui_json is None:
        raise ValueError("the game never saved a state")
    snapshot = SessionSnapshot.model_validate_json(live.ui_json)
    game = Game.model_validate_json(live.state_json)
    if snapshot.channel_id != live.game.channel_id:
        raise ValueError("the saved session belongs to another channel")
    return snapshot, game
