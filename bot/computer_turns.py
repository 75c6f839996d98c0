"""The computer players of one table: their turns, UNO calls and catches, and the takeover of
a person whose time ran out.

A decision is worked out on the computer players' thread (``bot.ai.thinking``) while the session's
lock keeps the game unchanged; the move then lands through the session like a click would.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from bot.ai import Strategy, strategy_for, wants_to_catch
from bot.ai.thinking import Thinker
from bot.config import Settings
from bot.engine import CallUno, Catch, Move, PlayerView, view_for
from bot.engine import events as ev
from bot.engine.players import Difficulty
from bot.table import TableState

log = logging.getLogger(__name__)

# Starts a background task whose failure is logged (``SessionManager.spawn``).
Spawn = Callable[[Coroutine[Any, Any, None], str], asyncio.Task[None]]


class PlayedAt(Protocol):
    """What the computer players need of the session they sit at (``GameSession`` is one)."""

    @property
    def state(self) -> TableState: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def id(self) -> str: ...
    def record(self, events: list[ev.Event], actor: str | None, *, turn_move: bool) -> None: ...


class ComputerTurns:
    """Plays the computer players' turns and catches at one table, under its session's lock."""

    __slots__ = ("_rng", "_session", "_settings", "_spawn", "_thinker")

    def __init__(
        self, session: PlayedAt, thinker: Thinker, settings: Settings, spawn: Spawn
    ) -> None:
        """Computer players for ``session``, thinking on ``thinker`` with the delays of
        ``settings`` (read when each turn starts)."""
        self._session = session
        self._thinker = thinker
        self._settings = settings
        self._spawn = spawn
        # Made at the first computer player's decision: most tables have none, and a Random
        # holds 2.5 KB of state (25 MB at 10,000 live games).
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The computer players' randomness at this table."""
        if self._rng is None:
            self._rng = random.Random(secrets.randbits(63))
        return self._rng

    @property
    def catch_rate(self) -> float:
        """How often a computer player catches a forgotten UNO: the table's own rate, fixed
        when its lobby opened."""
        return self._session.state.options.ai_catch_rate

    def _strategy(self, player: str) -> Strategy:
        seat = self._session.state.seat_of_player(player)
        difficulty: Difficulty = seat.ai if seat is not None and seat.ai else "normal"
        return strategy_for(difficulty, self.catch_rate)

    async def _play_for(self, player: str, strategy: Strategy) -> list[ev.Event]:
        """Let ``strategy`` make ``player``'s decision (UNO calls and catches come first).

        The strategy thinks on the computer players' thread, on a snapshot of the view (a hard
        decision takes up to 50 ms), so the event loop keeps answering clicks meanwhile; the
        session lock, held by the caller, keeps this game unchanged until the move lands.
        """
        state = self._session.state
        game = state.game
        assert game is not None
        events: list[ev.Event] = []
        for _ in range(4):
            move = await self._think(strategy, view_for(game, player))
            events += state.play(player, move)
            if not isinstance(move, CallUno | Catch):
                break
        return events

    async def _play_or_fall_back(self, player: str, strategy: Strategy) -> list[ev.Event]:
        """``_play_for``; if the strategy fails, the timeout move, so the table never stalls."""
        try:
            return await self._play_for(player, strategy)
        except Exception:
            log.exception("session %s: computer player %s failed", self._session.id, player)
            return self._session.state.auto_play(player)

    async def _think(self, strategy: Strategy, view: PlayerView) -> Move:
        """The strategy's move for ``view``, worked out on the computer players' thread."""
        return await self._thinker.decide(strategy, view, self.rng)

    async def take_over(self, player: str) -> list[ev.Event]:
        """Play the turn of a person whose time ran out, as the normal computer player would
        (it catches nobody); the caller holds the lock."""
        return await self._play_or_fall_back(player, strategy_for("normal", 0.0))

    async def play_turn(self, serial: int) -> None:
        """After the computer players' delay, play the turn started at ``serial`` if it is
        still due (the turn timer of a computer player's turn)."""
        delay = self._settings.ai_delay
        if delay:
            await asyncio.sleep(delay)
        session = self._session
        async with session.lock:
            player = session.state.turn_due(serial)
            if player is None:
                return
            events = await self._play_or_fall_back(player, self._strategy(player))
            session.record(events, player, turn_move=True)

    def watch_for_forgotten_uno(self) -> None:
        """After a change: if a person can be caught for a forgotten UNO, let the computer
        players at the table try."""
        state = self._session.state
        game = state.game
        if game is None or not any(state.is_ai(p) for p in game.players):
            return
        target = game.catchable()
        if target is not None and not state.is_ai(target):
            self._spawn(self._catch(target), f"catch-{self._session.id}")

    async def _catch(self, target: str) -> None:
        # Faster than an AI's own turn, so a human can be caught before the window closes.
        delay = self._settings.ai_delay / 2
        if delay:
            await asyncio.sleep(delay)
        session = self._session
        async with session.lock:
            state = session.state
            game = state.game
            if state.closed or game is None or game.catchable() != target:
                return
            for player in [p for p in game.players if state.is_ai(p)]:
                catch = wants_to_catch(view_for(game, player), self.rng, self.catch_rate)
                if catch is not None:
                    session.record(state.play(player, catch), player, turn_move=False)
                    return
