"""One GameSession per channel: the lobby, the engine game, its lock, timers and messages.

Every click and command of a channel runs under that session's lock, one at a time. The
session asks the engine what is legal and what happened; it never decides a rule itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.ai import Difficulty, Strategy, strategy_for, wants_to_catch
from bot.engine import CallUno, Catch, Face, Game, IllegalMove, Move, Phase, PlayerView, RuleSet
from bot.engine import events as ev
from bot.thinking import Thinker
from bot.ui import render
from bot.ui.text import card_text, faces_text, narrate, safe_name

if TYPE_CHECKING:
    from bot.client import UnoBot
    from bot.persistence import LobbySnapshot, Persistence, SessionSnapshot, TableSnapshot

log = logging.getLogger(__name__)

MAX_SEATS = 10
LOG_LINES = 6
TIMEOUTS_BEFORE_REMOVAL = 3
CATCH_COOLDOWN = 3.0  # seconds between two missed catches by the same player
# Seconds a click's answer waits for its save before it goes out anyway (Discord allows 3):
# a slow or locked store never costs an answer; the change is written when the store is free.
SAVE_WAIT = 1.5
SHUTDOWN_SAVE_WAIT = 5.0  # seconds a shutdown waits for the last changes to reach the store
TERMINAL = (Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.ABANDONED)

Interaction = discord.Interaction[Any]
# What a click answers, sent once the session's lock is released and its save is written.
Answer = Callable[[], Coroutine[Any, Any, None]]


# The answer to a button whose session is gone: closed, or not restored after a restart.
STALE_CLICK = (
    "This lobby or game has ended. Start a new one with /uno flip start or /uno classic start."
)
# A button id that does not belong on the message it was clicked on (a forged or replayed id).
MISPLACED_CLICK = "That button does not belong on this message."
# The answers to a click that failed unexpectedly: they say what is true.
UNCHANGED_AND_FAILED = "Something went wrong, and nothing was changed. Please try again."
CHANGED_BUT_FAILED = (
    "That went through, but showing the result failed. Press Hand on the table "
    "(or Refresh) to see the game as it is now."
)

AI_NAMES = ("Anna", "Ben", "Cara", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo")


@dataclass(slots=True)
class Seat:
    """Someone at the table: a Discord user (id as text) or a computer player."""

    player_id: str
    name: str
    ai: Difficulty | None = None

    @classmethod
    def human(cls, user: discord.abc.User) -> Seat:
        """The seat of a Discord user (the name as they chose it; escaped where it is shown)."""
        return cls(str(user.id), user.display_name)

    @property
    def user_id(self) -> int | None:
        """The Discord user id, or None for a computer player."""
        return None if self.ai else int(self.player_id)


async def reply(interaction: Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def edit_in_place(interaction: Interaction, **changes: Any) -> None:
    """Edit the message the button is on, also after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


class GameSession:
    """A lobby that becomes a game, in one channel."""

    def __init__(
        self,
        manager: SessionManager,
        session_id: str,
        guild_id: int | None,
        channel_id: int,
        host: Seat,
        rules: RuleSet,
        turn_timeout: int,
    ) -> None:
        """A new lobby with its host seated."""
        self.manager = manager
        self.id = session_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        assert host.user_id is not None
        self.host_id = host.user_id
        self.rules = rules
        self.turn_timeout = turn_timeout
        self.ai_difficulty: Difficulty = "normal"
        self.ai_takeover = False
        self.ai_rng = random.Random(secrets.randbits(63))
        self.next_round_delay = manager.settings.next_round_delay
        self.seats: list[Seat] = [host]
        self.game: Game | None = None
        self.message_id: int | None = None
        # The message that pinged the person whose turn is running late (deleted when it ends).
        self.reminder_id: int | None = None
        self.serial = 0
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.lock = asyncio.Lock()
        self.timeouts_in_row: dict[str, int] = {}
        self.closed = False
        self._names: dict[str, str] = {host.player_id: host.name}
        # Moves on with every change of the table, so a failed click can tell whether it
        # changed anything before it failed.
        self.revision = 0
        self._saved: asyncio.Future[bool] | None = None
        self._missed_catch: dict[int, float] = {}
        self._turn_task: asyncio.Task[None] | None = None
        self._lobby_task: asyncio.Task[None] | None = None
        # Wall-clock, not loop time: it is saved with the lobby and must mean the same instant
        # to the process that restores it.
        self.lobby_idle_until: datetime = discord.utils.utcnow()
        self._round_task: asyncio.Task[None] | None = None
        self._table_task: asyncio.Task[None] | None = None
        self._table_dirty = False
        self._closed_render = render.closed_message("UNO", "This game is over.")

    @classmethod
    def _from_saved(cls, manager: SessionManager, saved: TableSnapshot) -> GameSession:
        """A session seated and set up as saved, lobby or game, with no timer running yet."""
        seats = [Seat(s.player_id, s.name, s.ai) for s in saved.seats]
        host = next((s for s in seats if s.user_id == saved.host_id), seats[0])
        session = cls(
            manager,
            saved.session_id,
            saved.guild_id,
            saved.channel_id,
            host,
            saved.rules,
            saved.turn_timeout,
        )
        session.host_id = saved.host_id
        for seat in seats:
            if seat is not host:
                session.add_seat(seat)
        session.seats = seats
        session.next_round_delay = saved.next_round_delay
        session.ai_difficulty = saved.ai_difficulty
        session.ai_takeover = saved.ai_takeover
        session.message_id = saved.message_id
        return session

    @classmethod
    def from_snapshot(
        cls, manager: SessionManager, saved: SessionSnapshot, game: Game
    ) -> GameSession:
        """A running game rebuilt from the store after a restart."""
        session = cls._from_saved(manager, saved)
        session.serial = saved.serial
        session.log.extend(saved.log)
        session.timeouts_in_row = dict(saved.timeouts_in_row)
        session.reminder_id = saved.reminder_id
        session.game = game
        return session

    @classmethod
    def from_lobby(cls, manager: SessionManager, saved: LobbySnapshot) -> GameSession:
        """An open lobby rebuilt from the store after a restart."""
        session = cls._from_saved(manager, saved)
        session.lobby_idle_until = saved.idle_until
        return session

    def resume_lobby(self) -> None:
        """Carry on after a restart: the idle timer keeps its deadline and the lobby says so.

        A lobby whose idle time ran out while the bot was down closes at once. The time left
        never exceeds today's lobby_timeout (a lowered setting, a clock set back).
        """
        left = (self.lobby_idle_until - discord.utils.utcnow()).total_seconds()
        left = min(left, self.manager.settings.lobby_timeout)
        self.touch_lobby(left)
        if left > 0:
            self.log.append("♻️ The bot restarted: this lobby is still open.")
            self.request_table_update()

    def resume(self) -> None:
        """Carry on after a restart: timers start afresh and the table says so."""
        game = self.game
        assert game is not None
        self.log.append("♻️ The bot restarted: the game goes on. Press Hand for your cards.")
        # The turn timer starts afresh, and with it the reminder.
        self._clear_reminder()
        if game.phase is Phase.ROUND_OVER:
            self._schedule_next_round()
        elif game.phase not in TERMINAL:
            self._restart_turn_timer()
        self.request_table_update()

    # ------------------------------------------------------------------ facts

    def name(self, player: str) -> str:
        """The display name of an engine player id, safe for message text."""
        chosen = self._names.get(player)
        return f"<@{player}>" if chosen is None else safe_name(chosen)

    def plain_name(self, player: str) -> str:
        """The display name as chosen, for button labels and the store (never markdown)."""
        return self._names.get(player, player)

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat of a Discord user, if they are at this table."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def is_ai(self, player: str | None) -> bool:
        """Whether an engine player id belongs to a computer player."""
        return player is not None and player.startswith("ai")

    @property
    def humans_in_game(self) -> list[str]:
        """The human players still in the running game."""
        return [p for p in self.game.players if not self.is_ai(p)] if self.game else []

    def add_ai(self, difficulty: Difficulty) -> Seat:
        """Seat a computer player with a clear name such as "AI Cara (hard)"."""
        taken = {s.player_id for s in self.seats}
        number = next(n for n in range(1, MAX_SEATS + 1) if f"ai{n}" not in taken)
        seat = Seat(f"ai{number}", f"AI {AI_NAMES[number - 1]} ({difficulty})", difficulty)
        self.add_seat(seat)
        return seat

    @property
    def ai_seats(self) -> list[Seat]:
        """Computer players still at the table: lobby seats, or those left in the game."""
        ais = [s for s in self.seats if s.ai]
        if self.game is None:
            return ais
        return [s for s in ais if s.player_id in self.game.players]

    async def remove_ai(self, seat: Seat) -> None:
        """Take a computer player out of the lobby, or out of the running game."""
        if self.game is None:
            self.seats.remove(seat)
            self.revision += 1
            self.touch_lobby()
            self.saving()
            self.request_table_update()
        else:
            await self.remove_player(seat.player_id, "was removed by the host")

    def in_game(self, user_id: int) -> bool:
        """Whether the user is still playing in the running game."""
        return self.game is not None and str(user_id) in self.game.players

    def final_hands(self) -> list[tuple[str, list[Face], int]]:
        """Every seated player's hand faces and points on the side the round ended on."""
        game = self.game
        assert game is not None
        return [
            (p, [game.face(c) for c in game.hands[s]], game.hand_points(p))
            for s, p in enumerate(game.players)
        ]

    @property
    def jump_url(self) -> str:
        """A link to the session's public message."""
        guild = self.guild_id or "@me"
        return f"https://discord.com/channels/{guild}/{self.channel_id}/{self.message_id}"

    # ------------------------------------------------------------------ rendering

    def render_public(self) -> render.Rendered:
        """The public message as it should look now (lobby, table or round results)."""
        game = self.game
        if game is None:
            return render.lobby_message(self)
        view = game.public_view()
        if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return render.round_over_message(self, view, game.phase is Phase.MATCH_OVER)
        return render.table_message(self, view)

    def render_hand(self, player: str, page: int = 0, notice: str | None = None) -> render.Rendered:
        """The ephemeral hand of ``player``."""
        assert self.game is not None
        return render.hand_message(self, self.game.view_for(player), self.serial, page, notice)

    async def _respond_hand(
        self, interaction: Interaction, player: str, *, edit: bool, page: int = 0, notice: str = ""
    ) -> None:
        shown = self.render_hand(player, page, notice or None)
        if edit:
            await edit_in_place(interaction, embed=shown.embed, view=shown.view)
        else:
            assert shown.view is not None
            await interaction.response.send_message(
                embed=shown.embed, view=shown.view, ephemeral=True
            )

    async def _respond_public(self, interaction: Interaction) -> None:
        # The click came from the public message itself: the response edits it in place.
        shown = self.render_public()
        await edit_in_place(
            interaction,
            content=shown.content,
            embed=shown.embed,
            view=shown.view,
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        self._table_dirty = False

    # ------------------------------------------------------------------ table edits

    def request_table_update(self) -> None:
        """Edit the public message soon; bursts of moves are coalesced into one edit."""
        self._table_dirty = True
        if self._table_task is None or self._table_task.done():
            self._table_task = self.manager.spawn(self._flush_table(), f"table-{self.id}")

    async def _flush_table(self) -> None:
        interval = self.manager.settings.table_edit_interval
        while self._table_dirty and self.message_id is not None:
            self._table_dirty = False
            await self._edit_public(self.render_public())
            if interval:
                await asyncio.sleep(interval)

    async def _edit_public(self, shown: render.Rendered) -> None:
        channel = self.manager.bot.get_partial_messageable(self.channel_id)
        mentions = discord.AllowedMentions(users=True)
        try:
            if self.message_id is None:
                raise discord.NotFound  # type: ignore[call-arg]
            await channel.get_partial_message(self.message_id).edit(
                content=shown.content, embed=shown.embed, view=shown.view, allowed_mentions=mentions
            )
        except discord.NotFound:
            # Someone deleted the table: post a new one rather than lose the game.
            view = shown.view or discord.ui.View()
            message = await channel.send(
                content=shown.content, embed=shown.embed, view=view, allowed_mentions=mentions
            )
            self.message_id = message.id
            self.saving()
        except discord.HTTPException as exc:
            log.warning("session %s: table edit failed: %s", self.id, exc)

    # ------------------------------------------------------------------ lobby

    def touch_lobby(self, seconds: float | None = None) -> None:
        """(Re)start the idle timer that closes a lobby nobody starts (default: the full time)."""
        delay = self.manager.settings.lobby_timeout if seconds is None else max(0.0, seconds)
        self.lobby_idle_until = discord.utils.utcnow() + timedelta(seconds=delay)
        self._cancel(self._lobby_task)
        self._lobby_task = self.manager.spawn(self._expire_lobby(delay), f"lobby-{self.id}")

    async def _expire_lobby(self, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if self.game is None and not self.closed:
                minutes = self.manager.settings.lobby_timeout // 60
                await self.close_with(
                    "Lobby closed", f"Nobody started the game for {minutes} minutes."
                )

    async def lobby_click(self, interaction: Interaction, action: str) -> Answer | None:
        """Join, Leave, Start or Cancel on the lobby message; returns the answer to send."""
        if self.game is not None:
            await reply(interaction, "This game has already started.")
            return None
        user = interaction.user
        seat = self.seat_of(user.id)
        if action == "join":
            if seat is not None:
                await reply(interaction, "You are already in this lobby.")
                return None
            if len(self.seats) >= MAX_SEATS:
                await reply(interaction, "The table is full: 10 players at most.")
                return None
            self.add_seat(Seat.human(user))
        elif action == "leave":
            if seat is None:
                await reply(interaction, "You are not in this lobby.")
                return None
            if not await self.remove_seat(seat, f"{safe_name(seat.name)} left the lobby."):
                await self.show_closed(interaction)
                return None
        elif action == "start":
            if user.id != self.host_id:
                await reply(interaction, f"Only the host, {self.host_name}, can start the game.")
                return None
            if len(self.seats) < 2:
                await reply(interaction, "You need at least 2 players to start.")
                return None
            self.start_game()
            self.saving()
            return lambda: self._respond_public(interaction)
        elif action in ("addai", "dropai"):
            if user.id != self.host_id:
                await reply(interaction, "Only the host can add or remove computer players.")
                return None
            ais = self.ai_seats
            if action == "addai" and len(self.seats) >= MAX_SEATS:
                await reply(interaction, "The table is full: 10 players at most.")
                return None
            if action == "dropai" and not ais:
                await reply(interaction, "There is no computer player to remove.")
                return None
            if action == "addai":
                self.add_ai(self.ai_difficulty)
            else:
                self.seats.remove(ais[-1])
                self.revision += 1
        elif action == "cancel":
            if user.id != self.host_id and not can_moderate(interaction):
                await reply(interaction, "Only the host or a moderator can cancel the lobby.")
                return None
            await self.close(f"Lobby cancelled by {safe_name(user.display_name)}.")
            await self.show_closed(interaction)
            return None
        else:
            await reply(interaction, "That button is not in use any more.")
            return None
        self.touch_lobby()
        self.saving()
        return lambda: self._respond_public(interaction)

    @property
    def host_name(self) -> str:
        """The host's display name."""
        return self.name(str(self.host_id))

    def add_seat(self, seat: Seat) -> None:
        """Seat a player in the lobby."""
        self.seats.append(seat)
        self._names[seat.player_id] = seat.name
        self.revision += 1

    async def remove_seat(self, seat: Seat, text: str) -> bool:
        """Take a player out of the lobby; False if that closed the lobby."""
        self.seats.remove(seat)
        self.revision += 1
        if not self.seats:
            await self.close(f"{text} The lobby is empty and closed.")
            return False
        humans = [s for s in self.seats if s.user_id is not None]
        if not humans:
            await self.close(f"{text} Only computer players were left, so the lobby closed.")
            return False
        if seat.user_id == self.host_id:
            assert humans[0].user_id is not None
            self.host_id = humans[0].user_id
        return True

    def start_game(self) -> None:
        """Deal the first round of a new match with the seated players."""
        players = [s.player_id for s in self.seats]
        self.game, events = Game.start(
            players, self.rules, secrets.randbits(63), names={p: self.name(p) for p in players}
        )
        self.revision += 1
        self._cancel(self._lobby_task)
        self.serial += 1
        self.log.clear()
        self.log.extend(narrate(events, self.name))
        self.timeouts_in_row = dict.fromkeys(players, 0)
        self._after_state_change()

    # ------------------------------------------------------------------ table buttons

    async def table_click(self, interaction: Interaction, action: str) -> Answer | None:
        """Hand, UNO!, Catch or Next round on the public table; returns the answer to send."""
        game = self.game
        player = str(interaction.user.id)
        if game is None:
            await reply(interaction, "The game has not started yet.")
            return None
        if player not in game.players:
            await reply(interaction, "You are not playing in this game.")
            return None
        if action == "hand":
            if game.phase in TERMINAL:
                await reply(interaction, "The round is over: your hand is on the table.")
                return None
            await self._respond_hand(interaction, player, edit=False)
        elif action == "uno":
            return await self._table_move(interaction, player, CallUno(), "📣 You called UNO!")
        elif action == "catch":
            target = game.catchable()
            now = asyncio.get_running_loop().time()
            if target is None or target == player:
                if (
                    now - self._missed_catch.get(interaction.user.id, -CATCH_COOLDOWN)
                    < CATCH_COOLDOWN
                ):
                    await reply(interaction, "Easy there: wait a moment before catching again.")
                    return None
                self._missed_catch[interaction.user.id] = now
                await reply(interaction, "Nobody can be caught right now.")
                return None
            return await self._table_move(
                interaction, player, Catch(target), f"🚨 You caught {self.name(target)}!"
            )
        elif action == "next":
            if game.phase is not Phase.ROUND_OVER:
                await reply(interaction, "The round is still being played.")
                return None
            self._begin_next_round()
            self.saving()
            return lambda: self._respond_public(interaction)
        else:
            await reply(interaction, "That button is not in use any more.")
        return None

    async def _table_move(
        self, interaction: Interaction, player: str, move: CallUno | Catch, done: str
    ) -> Answer | None:
        assert self.game is not None
        try:
            events = self.game.apply(player, move)
        except IllegalMove as exc:
            await reply(interaction, str(exc))
            return None
        self._record(events, player, turn_move=False)
        self.saving()
        return lambda: reply(interaction, done)

    # ------------------------------------------------------------------ hand buttons

    async def hand_click(self, interaction: Interaction, rest: str) -> Answer | None:
        """A button on someone's ephemeral hand: a move, paging or refresh."""
        game = self.game
        player = str(interaction.user.id)
        if game is None or player not in game.players:
            await reply(interaction, "You are not playing in this game.")
            return None
        serial_text, _, code = rest.partition(":")
        if game.phase in TERMINAL:
            await edit_in_place(
                interaction,
                embed=discord.Embed(description="The round is over: see the table."),
                view=None,
            )
            return None
        page = render.parse_page(code)
        if page is not None:
            await self._respond_hand(interaction, player, edit=True, page=page)
            return None
        if code == "r":
            await self._respond_hand(interaction, player, edit=True)
            return None
        if serial_text != str(self.serial):
            await self._respond_hand(
                interaction, player, edit=True, notice="That hand was out of date: here it is now."
            )
            return None
        move = render.parse_move(code)
        if move is None:
            await self._respond_hand(interaction, player, edit=True, notice="Unknown button.")
            return None
        try:
            events = game.apply(player, move)
        except IllegalMove as exc:
            await self._respond_hand(interaction, player, edit=True, notice=str(exc))
            return None
        turn_move = not isinstance(move, CallUno | Catch)
        self._record(events, player, turn_move=turn_move)
        self.saving()
        notice = private_notice(events, player, self.name)
        return lambda: self._answer_move(interaction, player, notice)

    async def _answer_move(self, interaction: Interaction, player: str, notice: str) -> None:
        """The hand after its owner's move, drawn as the game stands when the answer goes out."""
        game = self.game
        if game is None or game.phase in TERMINAL or player not in game.players:
            await edit_in_place(
                interaction,
                embed=discord.Embed(
                    title="Round over", description=notice or "See the table for the scores."
                ),
                view=None,
            )
        else:
            await self._respond_hand(interaction, player, edit=True, notice=notice)

    # ------------------------------------------------------------------ saving

    def saving(self) -> None:
        """Hand the state as it is now to the store's writer; never waits for the store.

        Call it under the lock after every change. A slow, locked or failing store holds up
        nothing: play goes on in memory and the newest state is written when it can be.
        """
        self.revision += 1
        self._saved = self.manager.persist(self)

    async def saved(self, timeout: float | None = SAVE_WAIT) -> bool:
        """Wait (outside the lock), at most ``timeout`` s, for the last change to be written;
        whether it was."""
        pending = self._saved
        if pending is None:
            return True
        if not pending.done():
            await asyncio.wait({pending}, timeout=timeout)
        return pending.done() and pending.result()

    # ------------------------------------------------------------------ state changes

    def _record(self, events: list[ev.Event], actor: str | None, *, turn_move: bool) -> None:
        """Narrate events, move the turn serial, reset timers and schedule the table edit."""
        self.revision += 1
        self.log.extend(narrate(events, self.name))
        if actor is not None:
            self.timeouts_in_row[actor] = 0
        if turn_move:
            self.serial += 1
            self._after_state_change()
        self._watch_for_forgotten_uno()
        self.request_table_update()

    def _after_state_change(self) -> None:
        game = self.game
        assert game is not None
        self._clear_reminder()
        if game.phase is Phase.ROUND_OVER:
            self._cancel(self._turn_task)
            self._schedule_next_round()
        elif game.phase in (Phase.MATCH_OVER, Phase.ABANDONED):
            self.manager.finish(self)
        else:
            self._restart_turn_timer()

    def _restart_turn_timer(self) -> None:
        self._cancel(self._turn_task)
        assert self.game is not None
        if self.is_ai(self.game.current_player):
            turn = self._ai_turn(self.serial)
        else:
            turn = self._turn_timer(self.serial)
        self._turn_task = self.manager.spawn(turn, f"turn-{self.id}")

    def _strategy(self, player: str) -> Strategy:
        seat = next((s for s in self.seats if s.player_id == player), None)
        difficulty: Difficulty = seat.ai if seat is not None and seat.ai else "normal"
        return strategy_for(difficulty, self.manager.settings.ai_catch_rate)

    async def _play_for(self, player: str, strategy: Strategy) -> list[ev.Event]:
        """Let ``strategy`` make ``player``'s decision (UNO calls and catches come first).

        The strategy thinks on the computer players' thread, on a snapshot of the view (a hard
        decision takes up to 50 ms), so the event loop keeps answering clicks meanwhile; the
        session lock, held by the caller, keeps this game unchanged until the move lands.
        """
        game = self.game
        assert game is not None
        events: list[ev.Event] = []
        for _ in range(4):
            move = await self._think(strategy, game.view_for(player))
            events += game.apply(player, move)
            if not isinstance(move, CallUno | Catch):
                break
        return events

    async def _play_or_fall_back(self, player: str, strategy: Strategy) -> list[ev.Event]:
        """``_play_for``; if the strategy fails, the timeout move, so the table never stalls."""
        try:
            return await self._play_for(player, strategy)
        except Exception:
            log.exception("session %s: computer player %s failed", self.id, player)
            game = self.game
            assert game is not None
            return game.auto_play(player)

    async def _think(self, strategy: Strategy, view: PlayerView) -> Move:
        """The strategy's move for ``view``, worked out on the computer players' thread."""
        return await self.manager.thinker.decide(strategy, view, self.ai_rng)

    async def _ai_turn(self, serial: int) -> None:
        delay = self.manager.settings.ai_delay
        if delay:
            await asyncio.sleep(delay)
        async with self.lock:
            game, player = self._turn_due(serial)
            if game is None or player is None:
                return
            events = await self._play_or_fall_back(player, self._strategy(player))
            self._record(events, player, turn_move=True)
            self.saving()

    def _turn_due(self, serial: int) -> tuple[Game | None, str | None]:
        """The game and the player whose turn a timer started at ``serial`` is still for."""
        game = self.game
        if self.closed or game is None or serial != self.serial or game.phase in TERMINAL:
            return None, None
        return game, game.current_player

    def _watch_for_forgotten_uno(self) -> None:
        game = self.game
        if game is None or not any(self.is_ai(p) for p in game.players):
            return
        target = game.catchable()
        if target is not None and not self.is_ai(target):
            self.manager.spawn(self._ai_catch(target), f"catch-{self.id}")

    async def _ai_catch(self, target: str) -> None:
        # Faster than an AI's own turn, so a human can be caught before the window closes.
        delay = self.manager.settings.ai_delay / 2
        if delay:
            await asyncio.sleep(delay)
        async with self.lock:
            game = self.game
            if self.closed or game is None or game.catchable() != target:
                return
            for player in [p for p in game.players if self.is_ai(p)]:
                catch = wants_to_catch(
                    game.view_for(player), self.ai_rng, self.manager.settings.ai_catch_rate
                )
                if catch is not None:
                    self._record(game.apply(player, catch), player, turn_move=False)
                    self.saving()
                    return

    async def _turn_timer(self, serial: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.turn_timeout
        reminder = self.manager.settings.turn_reminder
        if 0 < reminder < self.turn_timeout:
            await asyncio.sleep(reminder)
            left = self.turn_timeout - reminder
            self.manager.spawn(self._remind(serial, left), f"remind-{self.id}")
        await asyncio.sleep(max(0.0, deadline - loop.time()))
        async with self.lock:
            game, player = self._turn_due(serial)
            if game is None or player is None:
                return
            if self.ai_takeover:
                events = await self._play_or_fall_back(player, strategy_for("normal", 0.0))
            else:
                events = game.auto_play(player)
            count = self.timeouts_in_row.get(player, 0) + 1
            self.log.append(f"⏰ {self.name(player)} ran out of time.")
            if count >= TIMEOUTS_BEFORE_REMOVAL and game.phase not in TERMINAL:
                events += game.remove_player(player, "was removed after 3 timeouts in a row")
            self._record(events, None, turn_move=True)
            self.timeouts_in_row[player] = count
            self.saving()

    async def _remind(self, serial: int, left: float) -> None:
        """Ping the person whose turn it still is, in a message of its own: Discord does not
        notify for a mention added to the table by an edit."""
        game, player = self._turn_due(serial)
        seat = next((s for s in self.seats if s.player_id == player), None)
        if game is None or seat is None or seat.user_id is None or self.reminder_id:
            return
        channel = self.manager.bot.get_partial_messageable(self.channel_id)
        text = (
            f"⏰ <@{seat.user_id}>, it's your turn in UNO: {round(left)} s left before the "
            f"bot moves for you. Press **Hand** on the table: {self.jump_url}"
        )
        # Sent without the session lock: a slow or rate-limited send must not hold up clicks.
        try:
            message = await channel.send(
                text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)])
            )
        except discord.HTTPException as exc:
            log.warning("session %s: turn reminder failed: %s", self.id, exc)
            return
        async with self.lock:
            if self._turn_due(serial)[1] != player or self.reminder_id is not None:
                # The turn ended while the reminder was on its way.
                self.manager.spawn(self._delete_message(message.id), f"unremind-{self.id}")
                return
            self.reminder_id = message.id
            # Saved, so a restart in the middle of the turn still deletes it.
            self.saving()

    def _clear_reminder(self) -> None:
        """Delete the turn reminder, if one is up (its turn is over)."""
        if self.reminder_id is None:
            return
        message_id, self.reminder_id = self.reminder_id, None
        self.manager.spawn(self._delete_message(message_id), f"unremind-{self.id}")

    async def _delete_message(self, message_id: int) -> None:
        channel = self.manager.bot.get_partial_messageable(self.channel_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            # Already deleted by someone, or no permission: nothing is left to do.
            log.info("session %s: could not delete message %s: %s", self.id, message_id, exc)

    def _schedule_next_round(self) -> None:
        self._cancel(self._round_task)
        assert self.game is not None
        round_no = self.game.round_no
        self._round_task = self.manager.spawn(self._next_round_later(round_no), f"round-{self.id}")

    async def _next_round_later(self, round_no: int) -> None:
        await asyncio.sleep(self.next_round_delay)
        async with self.lock:
            game = self.game
            if self.closed or game is None or game.phase is not Phase.ROUND_OVER:
                return
            if game.round_no == round_no:
                self._begin_next_round()
                self.request_table_update()
                self.saving()

    def _begin_next_round(self) -> None:
        assert self.game is not None
        self._cancel(self._round_task)
        self.revision += 1
        events = self.game.start_next_round()
        self.log.clear()
        self.log.extend(narrate(events, self.name))
        self.serial += 1
        self._after_state_change()

    async def remove_player(self, player: str, reason: str) -> None:
        """Take a player out of the running game (leave, kick); the engine decides the rest."""
        assert self.game is not None
        events = self.game.remove_player(player, reason)
        if not self.humans_in_game and self.game.phase is not Phase.ABANDONED:
            for ai in list(self.game.players)[:-1]:
                events += self.game.remove_player(ai, "left: no people are playing any more")
        self._record(events, None, turn_move=True)
        self.saving()

    # ------------------------------------------------------------------ closing

    async def show_closed(self, interaction: Interaction | None = None) -> None:
        """Show why the session closed on its public message (in place when clicked there)."""
        if interaction is None:
            await self._edit_public(self._closed_render)
        else:
            await edit_in_place(
                interaction, content=None, embed=self._closed_render.embed, view=None
            )

    async def close_with(self, title: str, text: str) -> None:
        """Close the session and edit its public message to say why."""
        await self.close(text, title)
        await self.show_closed()

    async def close(self, text: str, title: str = "UNO") -> None:
        """Stop timers and forget the session (the public message is the caller's to edit)."""
        self._closed_render = render.closed_message(title, text)
        self.stop_timers()
        await self.manager.forget(self)

    def stop_timers(self) -> None:
        """Mark the session closed and cancel its turn, lobby and next-round timers."""
        self.closed = True
        for task in (self._turn_task, self._lobby_task, self._round_task):
            self._cancel(task)
        self._clear_reminder()

    @staticmethod
    def _cancel(task: asyncio.Task[None] | None) -> None:
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def shutdown(self) -> None:
        """Wait for the click in flight, then stop every timer (the game stays saved)."""
        async with self.lock:
            for task in (self._turn_task, self._lobby_task, self._round_task, self._table_task):
                self._cancel(task)


def _on_its_message(session: GameSession, interaction: Interaction, scope: str) -> bool:
    """Whether a click's id belongs on the message it came from: hand buttons live on
    ephemeral hands, lobby and table buttons on the session's public message."""
    message = interaction.message
    if message is None:
        return False
    if scope == "h":
        return message.flags.ephemeral
    return not message.flags.ephemeral and message.id == session.message_id


def can_moderate(interaction: Interaction) -> bool:
    """Manage Channels or Manage Server in this channel."""
    perms = interaction.permissions
    return perms.manage_channels or perms.manage_guild


def private_notice(events: list[ev.Event], player: str, name: Callable[[str], str]) -> str:
    """What only ``player`` learns from their move: the cards they drew, a revealed hand."""
    notes: list[str] = []
    for event in events:
        if isinstance(event, ev.CardsDrawn) and event.player == player and event.faces:
            notes.append("You drew " + faces_text(event.faces, 300) + ".")
        elif isinstance(event, ev.ChallengeResolved) and event.challenger == player:
            verdict = "bluffed" if event.guilty else "played it legally"
            hand = faces_text(event.hand, 600) or "no cards"
            notes.append(f"{name(event.challenged)} {verdict}. Their hand: {hand}.")
        elif isinstance(event, ev.CardPlayed) and event.player == player:
            notes.append(f"You played {card_text(event.face)}.")
    return " ".join(notes)[:2000]


class SessionManager:
    """Every session of this bot, by channel and by id; spawns their background tasks."""

    def __init__(self, bot: UnoBot) -> None:
        """An empty manager for ``bot``."""
        self.bot = bot
        self.settings = bot.settings
        self.by_channel: dict[int, GameSession] = {}
        self.by_id: dict[str, GameSession] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Installed by the bot once the store is open; without it nothing is saved.
        self.persistence: Persistence | None = None
        self.thinker = Thinker()

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """A background task whose failure is logged, never silently lost."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    def new_id(self) -> str:
        """A short unique session id for custom_ids."""
        while True:
            session_id = format(secrets.randbits(40), "x")
            if session_id not in self.by_id:
                return session_id

    def open_lobby(
        self, interaction: Interaction, rules: RuleSet, turn_timeout: int
    ) -> GameSession:
        """A new lobby in the interaction's channel, hosted by the user."""
        assert interaction.channel_id is not None
        host = Seat.human(interaction.user)
        session = GameSession(
            self,
            self.new_id(),
            interaction.guild_id,
            interaction.channel_id,
            host,
            rules,
            turn_timeout,
        )
        self.register(session)
        session.touch_lobby()
        return session

    async def forget(self, session: GameSession) -> None:
        """Drop a closed session so the channel is free again, and end its saved rows."""
        if self.by_channel.get(session.channel_id) is session:
            del self.by_channel[session.channel_id]
        self.by_id.pop(session.id, None)
        if self.persistence is not None:
            self.persistence.finished(session)

    def finish(self, session: GameSession) -> None:
        """A match ended or was abandoned: free the channel once the table is updated."""
        session.stop_timers()
        self.spawn(self.forget(session), f"finish-{session.id}")

    def register(self, session: GameSession) -> None:
        """Make a session reachable by its channel and by its id."""
        self.by_channel[session.channel_id] = session
        self.by_id[session.id] = session

    async def restore(self, persistence: Persistence) -> tuple[int, int]:
        """Bring back the live games, then the open lobbies; returns how many of each."""
        games = await persistence.restore(self)
        for session in games:
            self.register(session)
            session.resume()
        # After the games: a lobby saved for a channel that has a live game is dropped.
        lobbies = await persistence.restore_lobbies(self)
        for session in lobbies:
            self.register(session)
            session.resume_lobby()
        return len(games), len(lobbies)

    async def announce(self, channel_id: int, text: str) -> None:
        """Post a short notice in a channel (used when a game cannot be resumed)."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(text)
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", channel_id, exc)

    def persist(self, session: GameSession) -> asyncio.Future[bool]:
        """Hand the session's state to the store's writer; done once it is written."""
        if self.persistence is None:
            nothing: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            nothing.set_result(True)
            return nothing
        return self.persistence.save(session)

    async def handle_click(self, interaction: Interaction, scope: str, gid: str, rest: str) -> None:
        """Route a button click to its session under the session's lock; always answer.

        The answer goes out after the lock is released and the change is saved (or after
        SAVE_WAIT, if the store is slow), so no click ever waits for the store under the lock.
        """
        session = self.by_id.get(gid)
        if session is None or session.channel_id != interaction.channel_id:
            await reply(interaction, STALE_CLICK)
            return
        if not _on_its_message(session, interaction, scope):
            await reply(interaction, MISPLACED_CLICK)
            return
        before = session.revision
        try:
            async with session.lock:
                answer: Answer | None = None
                if session.closed:
                    await reply(interaction, STALE_CLICK)
                elif scope == "l":
                    answer = await session.lobby_click(interaction, rest)
                elif scope == "t":
                    answer = await session.table_click(interaction, rest)
                else:
                    answer = await session.hand_click(interaction, rest)
            if answer is not None:
                await session.saved()
                await answer()
        except Exception:
            log.exception("session %s: click %s:%s failed", gid, scope, rest)
            changed = session.revision != before
            text = CHANGED_BUT_FAILED if changed else UNCHANGED_AND_FAILED
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, text)

    async def shutdown(self) -> None:
        """Let in-flight clicks finish, stop every timer and the thinking thread, then give
        the store a moment to take the last changes."""
        for session in list(self.by_id.values()):
            await session.shutdown()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self.thinker.shutdown()
        if self.persistence is not None:
            await self.persistence.flush(SHUTDOWN_SAVE_WAIT)
