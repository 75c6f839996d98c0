"""One GameSession per channel: a ``TableState`` plus its lock, timers and Discord messages.

Every click and command of a channel runs under that session's lock, one at a time. The table
decides what a change means (or refuses it with a ``TableError``); the engine decides the
rules; the session only schedules, saves and shows. A click's answer goes out after the lock
is released and the change is saved, so nothing ever waits for the store under the lock.
Each session owns its computer players (``bot.computer_turns``) and its messages that everyone
in the channel sees (``bot.public_messages``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections.abc import Callable, Coroutine
from datetime import timedelta
from functools import partial
from typing import Any, Literal, NoReturn

import discord

from bot.ai.thinking import Thinker
from bot.computer_turns import ComputerTurns
from bot.config import Settings
from bot.edits import EditBudget, TokenAllowance, process_share
from bot.engine import (
    CallUno,
    Catch,
    IllegalMove,
    Phase,
    view_for,
)
from bot.engine import events as ev
from bot.engine.game import TERMINAL_PHASES
from bot.options import TableOptions, public_language
from bot.persistence import Persistence
from bot.public_messages import Messenger, PublicMessages
from bot.servers import ServerSettingsBook
from bot.store import LiveGame, SavedLobby
from bot.table import Seat, TableError, TableState
from bot.ui import render, words
from bot.ui.buttons import Click, HandClick, LobbyClick, TableClick
from bot.ui.i18n import Lang, resolve, t, tn
from bot.ui.kinds import MISPLACED_CLICK
from bot.ui.pictures import Pictures
from bot.ui.respond import Interaction, can_moderate, edit_in_place, reply, safe_name

log = logging.getLogger(__name__)

# An ephemeral hand can be deleted through its interaction's token for 15 minutes; a little
# less, so a delete never races the token's end.
HAND_DELETABLE_FOR = 14 * 60.0
UNKNOWN_MESSAGE = 10008  # Discord's error code for a message that is gone
CATCH_COOLDOWN = 3.0  # seconds between two missed catches by the same player
# Seconds a click's answer waits for its save before it goes out anyway (Discord allows 3):
# a slow or locked store never costs an answer; the change is written when the store is free.
SAVE_WAIT = 1.5
SHUTDOWN_SAVE_WAIT = 5.0  # seconds a shutdown waits for the last changes to reach the store
# Seconds of restoring saved tables at start-up between two chances for clicks to be answered.
RESTORE_SLICE = 0.01
# Seconds the Start click waits for its game's thread to be made before it plays in the channel.
THREAD_WAIT = 2.0
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440  # a thread idle for a day is archived by Discord
# What the bot needs in a channel to play a game in a thread of it (issue 32).
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
# The channels whose threads a game may go on in (not a thread, forum, voice channel or DM).
THREAD_PARENTS = {
    discord.ChannelType.text: discord.ChannelType.public_thread,
    discord.ChannelType.news: discord.ChannelType.news_thread,
}

# What a click answers, sent once the session's lock is released and its save is written.
Answer = Callable[[], Coroutine[Any, Any, None]]

# Message keys. The answer to a button whose session is gone: closed, or not restored after a
# restart.
STALE_CLICK = "click.stale"
# The answers to a click that failed unexpectedly: they say what is true.
UNCHANGED_AND_FAILED = "error.unchanged"
CHANGED_BUT_FAILED = "error.shown_failed"


class SavingLock(asyncio.Lock):
    """A session's lock whose every release first runs the session's save point (``settle``),
    so no change made under it can forget to be saved."""

    def __init__(self, settle: Callable[[], None]) -> None:
        """A lock that calls ``settle`` just before each release."""
        super().__init__()
        self._settle = settle

    def release(self) -> None:
        """Save if the table moved, then release (also when saving raised)."""
        try:
            self._settle()
        finally:
            super().release()


class GameSession:
    """A lobby that becomes a game, in one channel: the table and everything that moves it."""

    def __init__(self, manager: SessionManager, state: TableState) -> None:
        """A session for ``state``; no timer runs until it is opened or resumed."""
        self.manager = manager
        self.state = state
        # Releasing the lock is the one save point: the table is handed to the store when it
        # moved since the last save (a restored table is saved already).
        self.lock = SavingLock(self.settle)
        self._saved_revision = state.revision
        # The public revision the public message was last asked to show, and whether the
        # answer on its way (a click answered in place, /uno start's post) shows the table.
        self._drawn_revision = state.public_revision
        self._shown_by_answer = False
        self.forgotten = False  # dropped by the manager: its rows are ended, nothing more saved
        self.computer_turns = ComputerTurns(self, manager.thinker, manager.settings, manager.spawn)
        self.public_messages = PublicMessages(
            self, manager.bot, manager.edits, manager.pictures, manager.tokens
        )
        self._missed_catch: dict[int, float] = {}
        self._turn_task: asyncio.Task[None] | None = None
        self._lobby_task: asyncio.Task[None] | None = None
        self._round_task: asyncio.Task[None] | None = None
        self._saved: asyncio.Future[bool] | None = None
        # Each player's latest hand opened by Hand, and when: the next one replaces it.
        self._hands: dict[str, tuple[Interaction, float]] = {}
        self._thread_closed = False  # the game's thread is being (or was) archived

    @property
    def id(self) -> str:
        """The session id that every one of its custom_ids carries."""
        return self.state.id

    @property
    def channel_id(self) -> int:
        """The channel the table is in."""
        return self.state.channel_id

    @property
    def channels(self) -> tuple[int, ...]:
        """Where its clicks may come from: its channel, and the thread its game is played in."""
        thread_id = self.state.thread_id
        return (self.channel_id,) if thread_id is None else (self.channel_id, thread_id)

    def name(self, player: str) -> str:
        """A player's name, safe for message text."""
        return safe_name(self.state.name(player))

    @property
    def lang(self) -> Lang:
        """The language of the table's public messages (chosen when the lobby opened)."""
        return Lang(self.state.options.language)

    def reader(self, interaction: Interaction) -> Lang:
        """The language of an answer only the clicking person sees: theirs, else the table's."""
        return resolve(interaction.locale, self.state.options.language)

    def ai_name(self, first_name: str) -> str:
        """A computer player's seat name in the table's language ("Cara 🤖")."""
        return words.ai_name(self.lang, first_name)

    @property
    def jump_url(self) -> str:
        """A link to the session's public message (to its channel or thread while it is being
        posted anew)."""
        guild = self.state.guild_id or "@me"
        where = f"https://discord.com/channels/{guild}/{self.state.posts_in}"
        message_id = self.state.message_id
        return where if message_id is None else f"{where}/{message_id}"

    # ------------------------------------------------------------------ restarts

    def resume_lobby(self) -> None:
        """Carry on after a restart: the idle timer keeps its deadline and the lobby says so.

        A lobby whose idle time ran out while the bot was down closes at once. The time left
        never exceeds today's lobby_timeout (a lowered setting, a clock set back).
        """
        left = (self.state.lobby_idle_until - discord.utils.utcnow()).total_seconds()
        left = min(left, self.state.options.lobby_timeout)
        self.touch_lobby(left)
        if left > 0:
            self.state.note(t(self.lang, "log.restarted_lobby"))
            self.redraw()

    def resume(self) -> None:
        """Carry on after a restart: timers start afresh and the table says so."""
        game = self.state.game
        assert game is not None
        self.state.note(t(self.lang, "log.restarted_game"))
        # The turn timer starts afresh, and with it the reminder.
        self.public_messages.clear_reminder()
        if game.phase is Phase.ROUND_OVER:
            self._schedule_next_round()
        elif game.phase not in TERMINAL_PHASES:
            self._restart_turn_timer()
        if self.state.thread_id is not None:
            # Archived or deleted by someone while the bot was away: reopened, or the game
            # goes on in the channel (before the table's edit, which it may redirect).
            self.manager.edits.call(self.public_messages.check_thread)
        self.redraw()

    # ------------------------------------------------------------------ rendering

    def render_public(self, lang: Lang | None = None) -> render.Rendered:
        """The public message as it should look now (lobby, table or round results), in the
        table's language unless ``lang`` is given."""
        return render.public_message(self.state, lang or self.lang)

    def render_hand(
        self, player: str, lang: Lang, page: int = 0, notice: str | None = None
    ) -> render.Rendered:
        """The ephemeral hand of ``player``, in ``lang``."""
        game = self.state.game
        assert game is not None
        view = view_for(game, player)
        emoji = self.manager.pictures.card_emoji(self.state.options.palette, view.variant)
        return render.hand_message(
            self.state, view, self.state.serial, page, notice, lang, card_emoji=emoji
        )

    async def _respond_hand(
        self, interaction: Interaction, player: str, *, edit: bool, page: int = 0, notice: str = ""
    ) -> None:
        shown = self.render_hand(player, self.reader(interaction), page, notice or None)
        if edit:
            await self._in_place_of_hand(interaction, player, shown.embed, shown.view)
        else:
            assert shown.view is not None
            await interaction.response.send_message(
                embed=shown.embed, view=shown.view, ephemeral=True
            )
            self._replace_hand(player, interaction)

    async def _in_place_of_hand(
        self,
        interaction: Interaction,
        player: str,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None:
        """Show ``embed`` and ``view`` on the hand that was clicked; if the bot deleted that
        hand as the click came (one hand at a time), in a new private hand instead."""
        try:
            await edit_in_place(interaction, embed=embed, view=view)
            return
        except discord.NotFound as missing:
            if missing.code != UNKNOWN_MESSAGE:
                raise  # an interaction that ran out, say: nothing else can answer it
            log.info("session %s: a click came from a hand just deleted: answered anew", self.id)
        shown = view or discord.utils.MISSING
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, view=shown, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=shown, ephemeral=True)
            self._replace_hand(player, interaction)

    def _replace_hand(self, player: str, interaction: Interaction) -> None:
        """Delete the hand this player opened before ``interaction``'s, while its token lasts:
        a player who presses Hand every turn keeps one hand, not a pile of old ones."""
        now = asyncio.get_running_loop().time()
        previous = self._hands.get(player)
        self._hands[player] = (interaction, now)
        # A token request of the channel's allowance, when the table can spare it.
        fresh = previous is not None and now - previous[1] < HAND_DELETABLE_FOR
        if previous is not None and fresh and self.public_messages.spare_token_request():
            self.manager.spawn(self._delete_hand(previous[0]), f"unhand-{self.id}")

    async def _delete_hand(self, interaction: Interaction) -> None:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            # Dismissed by its owner already, or the token ran out: nothing is left to do.
            log.info("session %s: could not delete an old hand: %s", self.id, exc)

    # ------------------------------------------------------------------ saving

    def settle(self) -> None:
        """The one save and redraw point (the lock runs it on every release): request the
        public message's update if a change it shows was made (``public_revision``), and hand
        the table as it is now to the store's writer if it moved since the last save; never
        waits for the store.

        A slow, locked or failing store holds up nothing: play goes on in memory and the
        newest state is written when it can be.
        """
        state = self.state
        shown_by_answer, self._shown_by_answer = self._shown_by_answer, False
        # A message that says why the session closed was drawn by whoever closed it.
        shows_closed = self.public_messages.shows_closed
        if state.public_revision != self._drawn_revision and not shows_closed:
            self._drawn_revision = state.public_revision
            if not shown_by_answer:
                self.public_messages.request_update()
        if self.forgotten or state.revision == self._saved_revision:
            return
        self._saved_revision = state.revision
        self._saved = self.manager.persist(state)

    def redraw(self) -> None:
        """Request the public message's update now (a restored table, outside the lock)."""
        self._drawn_revision = self.state.public_revision
        self.public_messages.request_update()

    def shown_by_the_answer(self) -> None:
        """The answer on its way shows the public message as the table stands (a click on it
        answered in place, /uno start's post): the lock's release requests no update."""
        self._shown_by_answer = True

    def _answer_in_place(self, interaction: Interaction) -> Answer:
        """Answer a click on the public message by editing it in place, after the release."""
        self.shown_by_the_answer()
        return lambda: self.public_messages.answer_in_place(interaction)

    async def saved(self, timeout: float | None = SAVE_WAIT) -> bool:
        """Wait (outside the lock), at most ``timeout`` s, for the last change to be written;
        whether it was."""
        pending = self._saved
        if pending is None:
            return True
        if not pending.done():
            await asyncio.wait({pending}, timeout=timeout)
        return pending.done() and pending.result()

    # ------------------------------------------------------------------ the lobby

    def touch_lobby(self, seconds: float | None = None) -> None:
        """(Re)start the idle timer that closes a lobby nobody starts (default: the full time)."""
        delay = self.state.options.lobby_timeout if seconds is None else max(0.0, seconds)
        self.state.lobby_idle_until = discord.utils.utcnow() + timedelta(seconds=delay)
        self._cancel(self._lobby_task)
        self._lobby_task = self.manager.spawn(self._expire_lobby(delay), f"lobby-{self.id}")

    async def _expire_lobby(self, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if self.state.game is None and not self.state.closed:
                minutes = self.state.options.lobby_timeout // 60
                lang = self.lang
                await self.close_with(
                    t(lang, "closed.lobby_idle.title"), tn(lang, "closed.lobby_idle", minutes)
                )

    async def on_lobby(self, interaction: Interaction, click: LobbyClick) -> Answer | None:
        """Join, Leave, Start, Cancel, Add AI or Remove AI on the lobby message."""
        state = self.state
        user = interaction.user
        if state.started:
            raise TableError("lobby.already_started")
        if click.action == "join":
            state.join(user.id, user.display_name)
        elif click.action == "leave":
            await self._leave_lobby(interaction)
            if state.closed:
                return None
        elif click.action == "start":
            self.start_game(user.id)
            if state.options.thread:
                return await self._into_thread(interaction)
            return self._answer_in_place(interaction)
        elif click.action == "addai":
            state.host_adds_ai(user.id, self.ai_name)
        elif click.action == "dropai":
            state.drop_ai(user.id)
        elif click.action == "cancel":
            role = self.manager.servers.peek(state.guild_id).moderator_role
            if user.id != state.host_id and not can_moderate(interaction, role):
                raise TableError("lobby.cancel.not_allowed")
            await self.close(t(self.lang, "lobby.cancelled", name=safe_name(user.display_name)))
            await self.public_messages.show_closed(interaction)
            return None
        self.touch_lobby()
        return self._answer_in_place(interaction)

    async def _leave_lobby(self, interaction: Interaction) -> None:
        seat = self.state.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("lobby.not_in")
        if not await self.leave_lobby(seat, t(self.lang, "lobby.left", name=safe_name(seat.name))):
            await self.public_messages.show_closed(interaction)

    async def leave_lobby(self, seat: Seat, text: str) -> bool:
        """Take a player out of the lobby (``text`` says so in the table's language); False if
        that closed it (its message is the caller's to edit)."""
        closing = self.state.leave(seat)
        if closing is not None:
            await self.close(f"{text} {t(self.lang, closing)}")
            return False
        return True

    def start_game(self, user_id: int) -> None:
        """The host deals the first round of a new match with the seated players."""
        state = self.state
        names = {s.player_id: safe_name(s.name) for s in state.seats}
        events = state.start(user_id, secrets.randbits(63), names)
        self._cancel(self._lobby_task)
        state.note(*words.narrate(self.lang, events, self.name))
        self._after_state_change()

    async def _into_thread(self, interaction: Interaction) -> Answer:
        """The game just started goes on in a thread of the lobby's channel, named after it:
        the lobby's message says where, and the table is posted there. If the bot may not
        open one there, or opening it fails, the game plays in the channel and says why."""
        lang = self.lang
        refusal = thread_refusal(interaction, lang)
        if refusal is None:
            # Making the thread is a request or two: the click is answered in time.
            await interaction.response.defer()
            try:
                thread_id = await asyncio.wait_for(self._open_thread(interaction), THREAD_WAIT)
            except (discord.HTTPException, TimeoutError) as exc:
                log.warning("session %s: could not open its thread: %r", self.id, exc)
                refusal = t(lang, "thread.failed")
        if refusal is not None:
            self.state.note(refusal)
            return self._answer_in_place(interaction)
        state = self.state
        state.thread_id = thread_id
        state.message_id = None  # the table is posted in the thread
        self.manager.register(self)  # clicks and commands in the thread find the game
        self.shown_by_the_answer()  # the lobby's message shows where; the post shows the table
        self.public_messages.post_in_thread()
        pointer = render.thread_pointer(state, lang, thread_id)
        # Edited through the Start click's token, which is not adopted: it belongs to the
        # lobby's channel, and a follow-up through it would land there, not in the thread.
        return lambda: edit_in_place(interaction, embed=pointer.embed, view=None)

    async def _open_thread(self, interaction: Interaction) -> int:
        """Open the game's public thread in the interaction's channel; its id."""
        channel = interaction.channel
        assert channel is not None and channel.type in THREAD_PARENTS
        made = await self.manager.bot.http.start_thread_without_message(
            channel.id,
            name=render.thread_name(self.state, self.lang),
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=THREAD_PARENTS[channel.type].value,  # type: ignore[arg-type]
        )
        return int(made["id"])

    def close_thread(self) -> None:
        """A game in a thread ended: the lobby's channel is told how, and the thread is
        archived once its last table is shown."""
        thread_id = self.state.thread_id
        if thread_id is None or self._thread_closed:
            return
        self._thread_closed = True
        self.public_messages.close_thread(render.thread_result(self.state, self.lang, thread_id))

    # ------------------------------------------------------------------ table buttons

    async def on_table(self, interaction: Interaction, click: TableClick) -> Answer | None:
        """Hand, UNO!, Catch or Next round on the public table."""
        state = self.state
        player = state.player(interaction.user.id)
        game = state.game
        assert game is not None
        if click.action == "hand":
            if state.round_over:
                raise TableError("table.hand.round_over")
            await self._respond_hand(interaction, player, edit=False)
            return None
        lang = self.reader(interaction)
        if click.action == "uno":
            return self._table_move(interaction, player, CallUno(), t(lang, "table.uno.done"))
        if click.action == "catch":
            target = game.catchable()
            if target is None or target == player:
                self._missed_a_catch(interaction.user.id)
            done = t(lang, "table.catch.done", name=self.name(target))
            return self._table_move(interaction, player, Catch(target), done)
        self._begin_next_round()
        return self._answer_in_place(interaction)

    def _missed_a_catch(self, user_id: int) -> NoReturn:
        """Refuse a catch with nobody to catch; one in quick succession is told to wait."""
        now = asyncio.get_running_loop().time()
        if now - self._missed_catch.get(user_id, -CATCH_COOLDOWN) < CATCH_COOLDOWN:
            raise TableError("table.catch.cooldown")
        self._missed_catch[user_id] = now
        raise TableError("table.catch.nobody")

    def _table_move(
        self, interaction: Interaction, player: str, move: CallUno | Catch, done: str
    ) -> Answer:
        # An IllegalMove goes up to ``SessionManager.run``, which says it in the reader's language.
        events = self.state.play(player, move)
        self.record(events, player, turn_move=False)
        return lambda: reply(interaction, done)

    # ------------------------------------------------------------------ hand buttons

    async def on_hand(self, interaction: Interaction, click: HandClick) -> Answer | None:
        """A button on someone's ephemeral hand: a move, paging or refresh."""
        state = self.state
        try:
            player = state.player(interaction.user.id)
        except TableError:
            raise TableError("table.not_playing") from None
        lang = self.reader(interaction)
        if state.round_over:
            over = discord.Embed(description=t(lang, "hand.round_over"))
            await self._in_place_of_hand(interaction, player, over, None)
            return None
        if click.move is None:
            await self._respond_hand(interaction, player, edit=True, page=click.page or 0)
            return None
        if click.serial != state.serial:
            await self._respond_hand(
                interaction, player, edit=True, notice=t(lang, "hand.out_of_date")
            )
            return None
        move = click.move
        try:
            events = state.play(player, move)
        except IllegalMove as exc:
            notice = words.illegal_move_text(lang, str(exc))
            await self._respond_hand(interaction, player, edit=True, notice=notice)
            return None
        self.record(events, player, turn_move=not isinstance(move, CallUno | Catch))
        notice = words.private_notice(lang, events, player, self.name)
        return lambda: self._answer_move(interaction, player, notice)

    async def _answer_move(self, interaction: Interaction, player: str, notice: str) -> None:
        """The hand after its owner's move, drawn as the game stands when the answer goes out."""
        game = self.state.game
        if game is None or game.phase in TERMINAL_PHASES or player not in game.players:
            shown = render.hand_over_message(self.state, player, notice, self.reader(interaction))
            await self._in_place_of_hand(interaction, player, shown.embed, None)
        else:
            await self._respond_hand(interaction, player, edit=True, notice=notice)
        await self.public_messages.renew_through(interaction)

    # ------------------------------------------------------------------ state changes

    def record(self, events: list[ev.Event], actor: str | None, *, turn_move: bool) -> None:
        """Narrate events, move the turn serial and reset timers (the lock's release saves the
        table and requests its edit)."""
        lines = words.narrate(self.lang, events, self.name)
        self.state.record(lines, actor, turn_move=turn_move, events=events)
        if turn_move:
            self._after_state_change()
        self.computer_turns.watch_for_forgotten_uno()

    def _after_state_change(self) -> None:
        game = self.state.game
        assert game is not None
        self.public_messages.clear_reminder()
        if game.phase is Phase.ROUND_OVER:
            self._cancel(self._turn_task)
            self._schedule_next_round()
        elif game.phase in (Phase.MATCH_OVER, Phase.ABANDONED):
            self.manager.finish(self)
        else:
            self._restart_turn_timer()

    def _restart_turn_timer(self) -> None:
        self._cancel(self._turn_task)
        game = self.state.game
        assert game is not None
        if self.state.is_ai(game.current_player):
            self.state.start_turn_timer(None)
            turn = self.computer_turns.play_turn(self.state.serial)
        else:
            # The table shows when the timer fires (Discord counts it down on the reader's side).
            ends = discord.utils.utcnow() + timedelta(seconds=self.state.options.turn_timeout)
            self.state.start_turn_timer(ends)
            turn = self._turn_timer(self.state.serial)
        self._turn_task = self.manager.spawn(turn, f"turn-{self.id}")

    def _begin_next_round(self) -> None:
        events = self.state.next_round()
        self._cancel(self._round_task)
        self.state.note(*words.narrate(self.lang, events, self.name))
        self._after_state_change()

    async def remove_player(self, player: str, reason: str) -> None:
        """Take a player out of the running game (leave, kick; ``reason`` a ``words.REMOVED_*``
        code); the engine decides the rest."""
        self.record(self.state.remove(player, reason), None, turn_move=True)

    async def remove_ai(self, seat: Seat, user_id: int) -> None:
        """The host takes a computer player out of the lobby, or out of the running game."""
        if self.state.game is None:
            self.state.drop_ai(user_id, seat)
            self.touch_lobby()
        else:
            await self.remove_player(seat.player_id, words.REMOVED_KICKED)

    # ------------------------------------------------------------------ timers

    async def _turn_timer(self, serial: int) -> None:
        loop = asyncio.get_running_loop()
        timeout = self.state.options.turn_timeout
        deadline = loop.time() + timeout
        reminder = self.state.options.turn_reminder
        if 0 < reminder < timeout:
            await asyncio.sleep(reminder)
            # Sent within the bot's budget of REST calls, drawn when it goes out.
            self.manager.edits.call(partial(self.public_messages.remind, serial, deadline))
        await asyncio.sleep(max(0.0, deadline - loop.time()))
        async with self.lock:
            player = self.state.turn_due(serial)
            game = self.state.game
            if player is None or game is None:
                return
            if self.state.options.ai_takeover:
                events = await self.computer_turns.take_over(player)
            else:
                events = self.state.auto_play(player)
            self.state.note(t(self.lang, "log.timed_out", name=self.name(player)))
            self.record(self.state.timed_out(player, events), None, turn_move=True)

    def _schedule_next_round(self) -> None:
        self._cancel(self._round_task)
        game = self.state.game
        assert game is not None
        self._round_task = self.manager.spawn(
            self._next_round_later(game.round_no), f"round-{self.id}"
        )

    async def _next_round_later(self, round_no: int) -> None:
        await asyncio.sleep(self.state.options.next_round_delay)
        async with self.lock:
            game = self.state.game
            if self.state.closed or game is None or game.phase is not Phase.ROUND_OVER:
                return
            if game.round_no == round_no:
                self._begin_next_round()

    # ------------------------------------------------------------------ closing

    async def close_with(self, title: str, text: str) -> None:
        """Close the session and edit its public message to say why (a game in a thread then
        archives it)."""
        await self.close(text, title)
        await self.public_messages.show_closed()
        self.close_thread()

    async def close(self, text: str, title: str | None = None) -> None:
        """Stop timers and forget the session (the public message is the caller's to edit);
        ``text`` and ``title`` are in the table's language."""
        title = t(self.lang, "closed.title") if title is None else title
        self.public_messages.closed_render = render.closed_message(
            title, text, self.state, self.lang
        )
        self.stop_timers()
        await self.manager.forget(self)

    def stop_timers(self) -> None:
        """Mark the session closed and cancel its turn, lobby and next-round timers."""
        self.state.close()
        self._cancel_timers()
        self.public_messages.clear_reminder()

    def _cancel_timers(self) -> None:
        for task in (self._turn_task, self._lobby_task, self._round_task):
            self._cancel(task)

    @staticmethod
    def _cancel(task: asyncio.Task[None] | None) -> None:
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def shutdown(self) -> None:
        """Wait for the click in flight, then stop every timer (the game stays saved)."""
        async with self.lock:
            self._cancel_timers()


def parent_of(interaction: Interaction) -> int | None:
    """The channel of the thread an interaction came from (None: not from a thread)."""
    parent: int | None = getattr(interaction.channel, "parent_id", None)
    return parent


def thread_refusal(interaction: Interaction, lang: Lang) -> str | None:
    """Why a game cannot go on in a thread of the interaction's channel, in ``lang`` (the
    channel holds no threads; the bot lacks a permission, named), or None when it can."""
    channel = interaction.channel
    if interaction.guild_id is None or channel is None or channel.type not in THREAD_PARENTS:
        return t(lang, "thread.not_here")
    granted = interaction.app_permissions
    missing = [name for name in THREAD_PERMISSIONS if not getattr(granted, name)]
    if missing:
        names = ", ".join(t(lang, f"permission.{name}") for name in missing)
        return t(lang, "thread.no_permission", permissions=names)
    return None


def _on_its_message(session: GameSession, interaction: Interaction, click: Click) -> bool:
    """Whether a click's id belongs on the message it came from: hand buttons live on
    ephemeral hands, lobby and table buttons on the session's public message (the kind of
    message each answers is checked before, in ``bot.ui.kinds``; this is the session's part)."""
    message = interaction.message
    if message is None:
        return False
    if isinstance(click, HandClick):
        return message.flags.ephemeral
    shown = message.id == session.state.message_id or message.id in session.public_messages.previous
    return not message.flags.ephemeral and shown


def _what(interaction: Interaction) -> str:
    """The click or command an interaction was, for a log line."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return f"click {data.get('custom_id', '?')}"


class SessionManager:
    """Every session of this bot, by channel and by id; spawns their background tasks."""

    def __init__(
        self,
        bot: Messenger,
        settings: Settings,
        persistence: Persistence | None,
        servers: ServerSettingsBook,
    ) -> None:
        """An empty manager that talks to Discord through ``bot``, saves through
        ``persistence`` (None: nothing is saved) and reads each server's settings from
        ``servers``."""
        self.bot = bot
        self.settings = settings
        self.persistence = persistence
        self.servers = servers
        self.by_channel: dict[int, GameSession] = {}
        self.by_id: dict[str, GameSession] = {}
        # The sessions whose game went on in a thread, by the thread (``by_channel`` keeps
        # them by the lobby's channel: one session per channel, its thread included).
        self.by_thread: dict[int, GameSession] = {}
        # Rows read at start-up and not restored yet, by channel, the newest saved last.
        self._unrestored_games: dict[int, LiveGame] = {}
        self._unrestored_lobbies: dict[int, SavedLobby] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.thinker = Thinker()
        # Every table edit of this process goes through one budget (Discord's global limit),
        # the share of its shards when it is one process of a shard cluster.
        shards = settings.shard_id_list
        share = process_share(
            settings.table_edits_per_second,
            len(shards) if shards else 1,
            settings.shard_count if shards and settings.shard_count else 1,
        )
        self.edits = EditBudget(share, self.settings.table_edit_interval)
        # The channels' allowances of requests through interaction tokens (not counted).
        self.tokens = TokenAllowance()
        # Card art cached beside the database (also when the store is PostgreSQL: db_path's
        # folder is the bot's data folder).
        self.pictures = Pictures(settings.db_path.parent / "card-art")

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

    @staticmethod
    def server_locale(interaction: Interaction) -> discord.Locale | None:
        """The server's own Discord language (its preferred locale)."""
        guild = interaction.guild
        return guild.preferred_locale if guild is not None else interaction.guild_locale

    def server_language(self, interaction: Interaction) -> Lang:
        """The language of the server's public messages: the server's own setting, else the
        host's ``language`` setting, else the server's preferred locale, else English."""
        chosen = self.servers.peek(interaction.guild_id).shown("language", self.settings)
        return Lang(public_language(chosen, self.server_locale(interaction)))

    def reader(self, interaction: Interaction) -> Lang:
        """The language of a private answer (the bot's one rule): the user's, else the
        channel's table's (or the server's), else English."""
        session = self.here(interaction.channel_id)
        server = session.lang if session else self.server_language(interaction)
        return resolve(interaction.locale, server)

    def open_lobby(self, interaction: Interaction, options: TableOptions) -> GameSession:
        """A new lobby in the interaction's channel, hosted by the user, started with
        ``options`` (``ServerSettings.table_options``)."""
        assert interaction.channel_id is not None
        host = Seat(str(interaction.user.id), interaction.user.display_name)
        state = TableState(
            self.new_id(),
            interaction.guild_id,
            interaction.channel_id,
            host,
            options,
            discord.utils.utcnow(),
        )
        session = GameSession(self, state)
        self.register(session)
        session.touch_lobby()
        return session

    async def forget(self, session: GameSession) -> None:
        """Drop a closed session so the channel is free again, and end its saved rows."""
        self._drop(session)

    def _drop(self, session: GameSession) -> None:
        """Make a session unreachable by its channel and id, and end its saved rows."""
        session.forgotten = True
        if self.by_channel.get(session.channel_id) is session:
            del self.by_channel[session.channel_id]
        if session.state.options.thread:
            # Also a thread the game left for its channel (gone, out of reach).
            for thread_id in [k for k, held in self.by_thread.items() if held is session]:
                del self.by_thread[thread_id]
        self.by_id.pop(session.id, None)
        if self.persistence is not None:
            self.persistence.finished(session.state)

    def finish(self, session: GameSession) -> None:
        """A match ended or was abandoned: free the channel once the table is updated."""
        session.stop_timers()
        session.settle()  # the last state (the match's result) is saved before the rows end
        session.close_thread()
        self.spawn(self.forget(session), f"finish-{session.id}")

    def register(self, session: GameSession) -> None:
        """Make a session reachable by its channel and by its id."""
        self.by_channel[session.channel_id] = session
        self.by_id[session.id] = session
        if session.state.thread_id is not None:
            self.by_thread[session.state.thread_id] = session

    def here(self, channel_id: int | None) -> GameSession | None:
        """The session of a channel, or of the thread its game is played in."""
        if channel_id is None:
            return None
        session = self.by_channel.get(channel_id)
        if session is None:
            session = self.by_thread.get(channel_id)
            if session is not None and session.state.thread_id != channel_id:
                return None  # the game left that thread for its channel
        return session

    async def read_saved(self) -> tuple[int, int]:
        """Read every saved game and lobby (restored later by ``restore_saved``, or at once
        when its channel is used); returns how many of each.

        A lobby saved for a channel that has a live game lost the channel to it: dropped.
        """
        persistence = self.persistence
        assert persistence is not None, "a bot without a store has nothing saved"
        saved = await persistence.read_saved()
        # The most recently saved games first: the likeliest to be clicked soon.
        games = sorted(saved.games, key=lambda live: live.saved_at or live.game.updated_at)
        for live in games:
            self._unrestored_games[live.game.channel_id] = live
        for row in saved.lobbies:
            if row.channel_id in self._unrestored_games:
                log.warning(
                    "lobby %s dropped: a live game holds its channel %s",
                    row.session_id,
                    row.channel_id,
                )
                await persistence.forget_lobby(row.channel_id, row.session_id)
            else:
                self._unrestored_lobbies[row.channel_id] = row
        return len(self._unrestored_games), len(self._unrestored_lobbies)

    @property
    def restoring(self) -> bool:
        """Some saved game or lobby read at start-up is not restored yet."""
        return bool(self._unrestored_games or self._unrestored_lobbies)

    async def restore_saved(self, slice_seconds: float = RESTORE_SLICE) -> None:
        """Restore every saved game, then every lobby, still waiting, giving the event loop
        back every ``slice_seconds``: clicks are answered while thousands of tables come back
        (a click on a table not back yet restores that one first, see ``in_channel``)."""
        loop = asyncio.get_running_loop()
        for pending in (self._unrestored_games, self._unrestored_lobbies):
            until = loop.time() + slice_seconds
            while pending:
                # Newest first: dicts pop their last-inserted item.
                channel_id = next(reversed(pending))
                self._restore_channel(channel_id)
                if loop.time() >= until:
                    # The tables just restored live on: out of every later collection (a
                    # full one through thousands of them stalls clicks for 100 ms and more).
                    gc.freeze()
                    await asyncio.sleep(0)
                    until = loop.time() + slice_seconds

    def in_channel(
        self, channel_id: int | None, parent_id: int | None = None
    ) -> GameSession | None:
        """The session of a channel or of its game's thread (``parent_id``: the thread's
        channel), restoring it first if start-up has not got to it yet."""
        if channel_id is None:
            return None
        session = self.here(channel_id)
        if session is None and self.restoring:
            session = self._restore_channel(channel_id)
            if session is None and parent_id is not None:
                self._restore_channel(parent_id)
                session = self.here(channel_id)
        return session

    def _restore_channel(self, channel_id: int) -> GameSession | None:
        """Bring back the channel's saved game, else its saved lobby, if either waits."""
        persistence = self.persistence
        assert persistence is not None, "read_saved comes first"
        live = self._unrestored_games.pop(channel_id, None)
        if live is not None:
            state = persistence.restore_game(live)
            if state is None:
                self.spawn(persistence.abandon(live.game.id), f"abandon-{live.game.id}")
                text = t(Lang(public_language(self.settings.language)), "restore.failed")
                self.edits.call(partial(self.announce, channel_id, text))
                return None
            if state.id in self.by_id:
                self._drop_restored_lobby(self.by_id[state.id])
            session = GameSession(self, state)
            self.register(session)
            session.resume()
            return session
        row = self._unrestored_lobbies.pop(channel_id, None)
        if row is None:
            return None
        state = None if row.session_id in self.by_id else persistence.restore_lobby(row)
        if state is None:
            # Unreadable, or its id belongs to a live game already back.
            self.spawn(
                persistence.forget_lobby(row.channel_id, row.session_id), f"unlobby-{channel_id}"
            )
            return None
        session = GameSession(self, state)
        self.register(session)
        session.resume_lobby()
        return session

    def _drop_restored_lobby(self, lobby: GameSession) -> None:
        """A live game restored after a lobby (in another channel) that carries its id: the
        game keeps the id, the lobby row goes (the order of a full restore would have dropped
        it)."""
        log.warning("lobby %s dropped: a live game has its id", lobby.id)
        lobby.stop_timers()
        self._drop(lobby)

    async def announce(self, channel_id: int, text: str) -> None:
        """Post a short notice in a channel (used when a game cannot be resumed)."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(text)
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", channel_id, exc)

    def persist(self, state: TableState) -> asyncio.Future[bool]:
        """Hand a table's state to the store's writer; done once it is written."""
        if self.persistence is None:
            nothing: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            nothing.set_result(True)
            return nothing
        return self.persistence.save(state)

    async def click(self, interaction: Interaction, click: Click) -> None:
        """Route a button click to its session; always answer (see ``run``)."""
        if self.restoring:
            # A table not back yet comes back first.
            self.in_channel(interaction.channel_id, parent_of(interaction))
        session = self.by_id.get(click.session)
        here = interaction.channel_id
        if session is None or here is None or here not in session.channels:
            await reply(interaction, t(self.reader(interaction), STALE_CLICK))
            return
        if not _on_its_message(session, interaction, click):
            await reply(interaction, t(session.reader(interaction), MISPLACED_CLICK))
            return
        await self.run(interaction, session, lambda: self._dispatch(session, interaction, click))

    async def run(
        self,
        interaction: Interaction,
        session: GameSession,
        work: Callable[[], Coroutine[Any, Any, Answer | None]],
    ) -> None:
        """Do a click's or command's ``work`` under the session's lock; always answer.

        A ``TableError`` or the engine's ``IllegalMove`` is answered here, once, as a short
        private line in the reader's language. The answer to a
        change goes out after the lock is released and the change is saved (or after
        SAVE_WAIT, if the store is slow), so nothing waits for the store under the lock.
        """
        before = session.state.revision
        try:
            async with session.lock:
                if session.state.closed:
                    raise TableError(STALE_CLICK)
                answer = await work()
            if answer is not None:
                await session.saved()
                await answer()
        except TableError as refusal:
            await reply(interaction, t(session.reader(interaction), refusal.key, **refusal.params))
        except IllegalMove as refusal:
            await reply(
                interaction, words.illegal_move_text(session.reader(interaction), str(refusal))
            )
        except Exception:
            log.exception("session %s: %s failed", session.id, _what(interaction))
            changed = session.state.revision != before
            text = CHANGED_BUT_FAILED if changed else UNCHANGED_AND_FAILED
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, t(session.reader(interaction), text))

    @staticmethod
    async def _dispatch(
        session: GameSession, interaction: Interaction, click: Click
    ) -> Answer | None:
        if isinstance(click, LobbyClick):
            return await session.on_lobby(interaction, click)
        if isinstance(click, TableClick):
            return await session.on_table(interaction, click)
        return await session.on_hand(interaction, click)

    async def shutdown(self) -> None:
        """Let in-flight clicks finish, stop every timer and the thinking thread, then give
        the store a moment to take the last changes."""
        # Nothing more comes back (the restore task is cancelled with the others below).
        self._unrestored_games.clear()
        self._unrestored_lobbies.clear()
        for session in list(self.by_id.values()):
            await session.shutdown()
        await self.edits.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self.thinker.shutdown()
        await self.pictures.close()
        if self.persistence is not None:
            await self.persistence.flush(SHUTDOWN_SAVE_WAIT)
