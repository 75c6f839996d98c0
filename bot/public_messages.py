"""The messages of one table that everyone in its channel sees: the public message (the lobby,
the table, the round's results, why it closed) and the turn reminder.

The table is kept current without spending Discord's global limit where a click allows it
(docs/fresh_tables.md): a click on the table is answered by an update of the table itself, and
the token of such an answer (or of the slash command that posted the lobby) edits the table for
its 14 minutes, within the channel's allowance of token requests (``TokenAllowance``). A move
made from a hand renews that token before it runs out by posting the table as the click's public
follow-up and deleting the old one. Whatever no live token can carry (no click for 14 minutes,
the channel's allowance spent, a token refused) is a counted edit within the bot's budget of
REST calls (``bot.edits``), coalesced. Every update is drawn when it goes out, so one update
shows every change made until then; one update of a table is on its way at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Protocol

import discord

from bot.edits import EditBudget, TokenAllowance
from bot.engine import public_view
from bot.engine.game import TERMINAL_PHASES, Phase
from bot.table import TableState
from bot.ui import render
from bot.ui.i18n import Lang, t
from bot.ui.pictures import PICTURE_URL, LastPicture, Pictures, picture_file
from bot.ui.respond import Interaction, edit_in_place

log = logging.getLogger(__name__)

# The phases whose picture is the round's end (the hands counted), not the live table.
ROUND_END_PHASES = frozenset({Phase.ROUND_OVER, Phase.MATCH_OVER})

# The public message pings the players it names (whose turn it is), nobody else; one object
# for every send (discord.py only reads it).
PLAYER_MENTIONS = discord.AllowedMentions(users=True)

# An interaction's token edits what it posted for 15 minutes; a minute less, so an edit never
# races the token's end.
TOKEN_LIFETIME = 14 * 60.0
# A move made from a hand reposts the table through its own token once the table's token has
# less than this left: the token lives on, and a game goes on without counted edits.
TOKEN_RENEW_BEFORE = 5 * 60.0
# Seconds a request through a token may take. discord.py sleeps through a 429 inside the call,
# so a longer one was refused: the table falls back to the counted edit and the channel's
# tokens rest for TOKEN_REST seconds.
TOKEN_TIMEOUT = 3.0
# Seconds an update through a token waits before it is drawn, so the answer to the click that
# made the change goes out first (bench/bot_load.py: a click's first response).
ANSWER_FIRST = 0.05
TOKEN_REST = 30.0
UNKNOWN_MESSAGE = 10008  # Discord's error code for a message that no longer exists
# Discord's error codes when the game's thread is gone (deleted), out of the bot's reach (it
# lost access), or archived by someone: the game goes back to its channel, or the thread is
# reopened (``_rescue_thread``).
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013  # e.g. Send Messages in Threads taken away mid-game
ARCHIVED_THREAD = 50083
THREAD_TROUBLE = (UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS, ARCHIVED_THREAD)
NO_MENTIONS = discord.AllowedMentions.none()
# Table messages a click may still come from after the table was posted anew (its old buttons
# keep working until Discord has deleted the old message).
PREVIOUS_TABLES = 4

# Told of every update of a public message that reached Discord: the session id, the loop
# time its drawing began (it shows every change made before) and the time it was done.
ShownHook = Callable[[Hashable, float, float], None]


@dataclass(slots=True)
class TableEditor:
    """An interaction whose token may edit the public message: the one that posted it (its
    response, or a follow-up) or answered a click on it in place."""

    interaction: Interaction
    message_id: int
    original: bool  # the message is the interaction's response (else one of its follow-ups)
    until: float  # loop time the token is used until

    async def edit(self, **changes: Any) -> None:
        """Edit the message through the token."""
        if self.original:
            await self.interaction.edit_original_response(**changes)
        else:
            await self.interaction.followup.edit_message(self.message_id, **changes)

    async def delete(self) -> None:
        """Delete the message through the token."""
        if self.original:
            await self.interaction.delete_original_response()
        else:
            await self.interaction.followup.delete_message(self.message_id)


class Messenger(Protocol):
    """The part of the bot a session talks to Discord through (``UnoBot`` is one)."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable:
        """A channel to send to and edit in, by id."""
        ...

    @property
    def http(self) -> discord.http.HTTPClient:
        """Discord's REST calls (a game's thread: read, reopened, archived)."""
        ...


class ShownAt(Protocol):
    """What the public messages need of their session (``GameSession`` is one)."""

    @property
    def state(self) -> TableState: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def id(self) -> str: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def lang(self) -> Lang: ...
    @property
    def jump_url(self) -> str: ...
    def render_public(self, lang: Lang | None = None) -> render.Rendered: ...


class PublicMessages:
    """Edits, reposts and reminds through one session's messages in its channel."""

    __slots__ = (
        "_again",
        "_editor",
        "_edits",
        "_farewell",
        "_last_click",
        "_messenger",
        "_picture",
        "_pictures",
        "_renewal",
        "_sending",
        "_session",
        "_shows_closed",
        "_tokens",
        "closed_render",
        "previous",
    )

    # The benchmark's hook (bench/bot_load.py): every update that reached Discord.
    on_shown: ClassVar[ShownHook | None] = None

    def __init__(
        self,
        session: ShownAt,
        messenger: Messenger,
        edits: EditBudget,
        pictures: Pictures,
        tokens: TokenAllowance,
    ) -> None:
        """The messages of ``session``, sent through ``messenger`` within ``edits``' budget
        (or through a click's token within ``tokens``), with table pictures from ``pictures``."""
        self._session = session
        self._messenger = messenger
        self._edits = edits
        self._pictures = pictures
        self._tokens = tokens
        self._picture = LastPicture()
        self._editor: TableEditor | None = None
        # An update is on its way (through a token or counted); another waits behind it.
        self._sending = False
        self._again = False
        # A hand move's click whose token is to renew the table once the update on its way is
        # done (a renewal waits for none: its token lives 15 minutes).
        self._renewal: Interaction | None = None
        # The latest click from a hand and when: its token can post the table anew if someone
        # deletes it.
        self._last_click: tuple[Interaction, float] | None = None
        self.previous: deque[int] = deque(maxlen=PREVIOUS_TABLES)
        # What the public message says once the session closed, set by the session's ``close``
        # (with the reason). Not made ahead: an embed for every live table would cost start-up
        # time and memory for a message most tables show once, at their end.
        self.closed_render: render.Rendered | None = None
        self._shows_closed = False  # the public message says why the session closed
        # A game in a thread that ended: its thread and the line its channel gets, sent
        # (and the thread archived) once no update is on its way or waiting: an archived
        # thread takes no edit, so the last table goes first.
        self._farewell: tuple[int, str] | None = None

    @property
    def _where(self) -> int:
        """The channel the public messages are in: the game's thread, else its channel."""
        return self._session.state.posts_in

    def _from_here(self, interaction: Interaction) -> bool:
        """Whether ``interaction`` happened where the public messages are: a follow-up goes
        to the channel its interaction came from, so a token of a click in the lobby's
        channel never posts or edits the table in the game's thread (nor the reverse)."""
        return interaction.channel_id == self._where

    def _check_quiet(self) -> None:
        """When no update is on its way or waiting: say farewell to an ended game's thread."""
        if self._farewell is None or self._sending or self._edits.waiting(self._session.id):
            return
        (thread_id, result), self._farewell = self._farewell, None
        self._edits.call(partial(self._say_result, result))
        self._edits.call(partial(self._archive, thread_id))

    def adopt(self, interaction: Interaction) -> None:
        """``interaction``'s response is the public message (the lobby it posted, or a click
        on it answered in place): its token edits the table from now on."""
        message_id = self._session.state.message_id
        if message_id is not None and self._from_here(interaction):
            until = asyncio.get_running_loop().time() + TOKEN_LIFETIME
            self._editor = TableEditor(interaction, message_id, True, until)

    def request_update(self) -> None:
        """Update the public message soon: through a live token within the channel's
        allowance, else a counted edit within the bot's budget; changes made before the update
        goes out are shown by that one update."""
        now = asyncio.get_running_loop().time()
        if self._sending:
            self._again = True  # once the update on its way is done
        elif not self._update_through_token(now):
            self._edits.request(self._session.id, self.edit_now)

    def _update_through_token(self, now: float) -> bool:
        """Start an update through the table's token, if one lives and the channel may."""
        editor = self._live_editor(now)
        if editor is None or not self._tokens.take(self._where):
            return False
        self._edits.discard(self._session.id)  # this update shows what a waiting edit would
        self._sending = True
        self._edits.track(partial(self._edit_through, editor))
        return True

    def _live_editor(self, now: float) -> TableEditor | None:
        editor = self._editor
        if editor is None or now >= editor.until:
            return None
        if editor.message_id != self._session.state.message_id:
            return None
        if not self._from_here(editor.interaction):
            return None  # the game moved to its thread (or back): the token posts elsewhere
        return editor

    async def _edit_through(self, editor: TableEditor) -> None:
        """Edit the public message through ``editor``'s token; on refusal, the counted edit."""
        fallback = False
        try:
            # The click that made the change answers first: its save and answer are on their
            # way, and this update would otherwise draw and send in between. Changes made
            # meanwhile are drawn into this update.
            await asyncio.sleep(ANSWER_FIRST)
            drawn_at, (shown, png) = self._drawing_begins(), await self._drawn_now()
            changes = self._changes(shown, png)
            await asyncio.wait_for(editor.edit(**changes), TOKEN_TIMEOUT)
            self._shown(drawn_at)
        except (discord.HTTPException, TimeoutError) as exc:
            log.info("session %s: table edit through a token failed: %r", self._session.id, exc)
            if self._editor is editor:
                self._editor = None
            if isinstance(exc, TimeoutError) or getattr(exc, "status", 0) == 429:
                self._tokens.close(self._where, TOKEN_REST)
            fallback = True
            if getattr(exc, "code", 0) == UNKNOWN_MESSAGE:
                # Someone deleted the table: a click waiting to renew the token posts it anew
                # through its own, else the next click does, or a counted post if none comes.
                self._session.state.message_id = None
                self._renewal = self._renewal or self._recent_click()
                if self._renewal is None:
                    self._edits.call(self._post_anew)
                fallback = False
        finally:
            if fallback:
                # Asked before this update is done, so a game's thread is not archived in
                # between (``_check_quiet``); the counted edit runs after it anyway.
                self._edits.request(self._session.id, self.edit_now)
            self._update_done()

    def _update_done(self) -> None:
        """The update on its way is done: renew the table's token if a click waits to, else
        send the update waiting behind it."""
        self._sending = False
        renewal, self._renewal = self._renewal, None
        if renewal is not None:
            self._edits.track(partial(self._renew_then_update, renewal))
        elif self._again:
            self._again = False
            self.request_update()
        self._check_quiet()

    def _recent_click(self) -> Interaction | None:
        """The latest click from a hand, while its token may still post."""
        if self._last_click is None:
            return None
        interaction, at = self._last_click
        if not self._from_here(interaction):
            return None
        return interaction if asyncio.get_running_loop().time() - at < TOKEN_LIFETIME else None

    async def _renew_then_update(self, interaction: Interaction) -> None:
        """The renewal a click waited for, then the update waiting behind it (if the renewal
        did not go, or did not send it itself)."""
        await self.renew_through(interaction)
        if self._again and not self._sending:
            self._again = False
            self.request_update()

    @staticmethod
    def _drawing_begins() -> float:
        """The loop time an update's drawing begins: it shows every change made before."""
        return asyncio.get_running_loop().time()

    def _shown(self, drawn_at: float) -> None:
        hook = PublicMessages.on_shown
        if hook is not None:
            hook(self._session.id, drawn_at, asyncio.get_running_loop().time())

    async def edit_now(self) -> None:
        """Edit the public message at once (a counted edit), drawn as the table stands now."""
        if self._sending:
            self._again = True  # an update through a token is on its way: this one follows
            return
        if self._session.state.message_id is None:
            self._check_quiet()  # posted anew soon, drawn then
            return
        self._sending = True
        try:
            # Drawn when the budget sends it, so it shows every change made until then.
            drawn_at, drawn = self._drawing_begins(), await self._drawn_now()
            if await self._edit(*drawn):
                self._shown(drawn_at)
        finally:
            self._update_done()

    async def answer_in_place(self, interaction: Interaction) -> None:
        """Answer a click on the public message by editing it in place, at once (a response:
        not counted); its token edits the table from now on."""
        message = interaction.message
        if message is not None and message.id in self.previous:
            # A click on a table posted anew since: the current one shows the change.
            await interaction.response.defer()
            self.request_update()
            return
        # Without the picture (drawing it would hold up the answer); a table that shows one
        # gets it by the next update.
        drawn_at = self._drawing_begins()
        shown = self._session.render_public()
        await edit_in_place(
            interaction,
            content=shown.content,
            embed=shown.embed,
            view=shown.view,
            attachments=[],
            allowed_mentions=PLAYER_MENTIONS,
        )
        self._shown(drawn_at)
        self.adopt(interaction)
        if self._sending:
            self._again = True  # an update drawn before this answer may land after it
        elif not self._shows_picture():
            self._edits.discard(self._session.id)  # the response showed the table as it is now
            self._check_quiet()
        else:
            self.request_update()

    async def renew_through(self, interaction: Interaction) -> None:
        """After a click from a hand was answered: if the table's token runs out soon, post
        the table anew as the click's public follow-up (its token then edits the table for
        14 minutes) and delete the old one, through its own token while that lives."""
        state = self._session.state
        now = asyncio.get_running_loop().time()
        if not self._from_here(interaction):
            return  # a hand opened in the lobby's channel: its follow-up would land there
        self._last_click = (interaction, now)
        editor = self._live_editor(now)
        if editor is not None and editor.until - now > TOKEN_RENEW_BEFORE:
            return
        old_id = state.message_id  # None: someone deleted it
        if self._shows_closed or state.closed or state.game is None:
            return
        if self._sending:
            self._renewal = interaction  # once the update on its way is done
            return
        channel_id = self._where
        if not self._tokens.take(channel_id, keep=1 if old_id is not None else 0):
            return
        self._sending = True
        try:
            drawn_at, (shown, png) = self._drawing_begins(), await self._drawn_now()
            posted = await asyncio.wait_for(
                interaction.followup.send(
                    content=shown.content or discord.utils.MISSING,
                    embed=shown.embed,
                    view=shown.view or discord.utils.MISSING,
                    files=[picture_file(png)] if png is not None else discord.utils.MISSING,
                    allowed_mentions=PLAYER_MENTIONS,
                    wait=True,
                ),
                TOKEN_TIMEOUT,
            )
        except (discord.HTTPException, TimeoutError) as exc:
            log.info("session %s: could not post the table anew: %r", self._session.id, exc)
            self._tokens.close(channel_id, TOKEN_REST)
            self._update_done()
            return
        self._shown(drawn_at)
        editor_of_new = TableEditor(interaction, posted.id, False, now + TOKEN_LIFETIME)
        moved = await self._move_to(posted.id, editor_of_new, instead_of=old_id)
        if moved and old_id is not None:
            self._retire(old_id, editor)
        self._update_done()  # an update waiting behind this one goes to the new table

    async def _move_to(
        self, message_id: int, editor: TableEditor, *, instead_of: int | None
    ) -> bool:
        """The table is now ``message_id``, edited through ``editor``, if it still was
        ``instead_of`` (else it was posted anew meanwhile: someone deleted it). Called outside
        the session's lock, never under it."""
        async with self._session.lock:  # its release saves the new message's id
            if self._session.state.message_id != instead_of:
                return False
            self._session.state.message_id = message_id
        self._editor = editor
        self._edits.discard(self._session.id)  # a waiting edit would go to the old message
        return True

    def _retire(self, old_id: int, editor: TableEditor | None) -> None:
        """Delete a table posted anew: through its own token while that lives (not counted),
        else by a counted delete once no table edit waits. Its buttons answer until then."""
        self.previous.append(old_id)
        if editor is not None and self._tokens.take(self._where):
            self._edits.track(partial(self._delete_through, editor, old_id))
        else:
            self._delete(old_id, last=True)

    async def _delete_through(self, editor: TableEditor, message_id: int) -> None:
        """Delete an old table through the token that posted it; else a counted delete."""
        try:
            await asyncio.wait_for(editor.delete(), TOKEN_TIMEOUT)
        except (discord.HTTPException, TimeoutError) as exc:
            log.info("session %s: old table not deleted by its token: %r", self._session.id, exc)
            self._delete(message_id, last=True)

    @property
    def shows_closed(self) -> bool:
        """Whether the public message says why the session closed (nothing redraws it after)."""
        return self._shows_closed

    def spare_token_request(self) -> bool:
        """Spend one of the channel's token requests on something the table can do without
        (an old hand's delete) only when the table keeps a few for itself."""
        return self._tokens.take(self._where, keep=2)

    async def show_closed(self, interaction: Interaction | None = None) -> None:
        """Show why the session closed on its public message (in place when clicked there)."""
        self._shows_closed = True
        if interaction is None:
            self.request_update()  # within the budget, like every table edit
        else:
            await edit_in_place(interaction, content=None, embed=self._closed().embed, view=None)

    def _closed(self) -> render.Rendered:
        """Why the session closed, as its public message says it (a plain "it is over" if
        the session gave no reason)."""
        if self.closed_render is None:
            lang = self._session.lang
            title, text = t(lang, "closed.title"), t(lang, "closed.over")
            self.closed_render = render.closed_message(title, text)
        return self.closed_render

    async def _drawn_now(self) -> tuple[render.Rendered, bytes | None]:
        """What the public message should show now, and its picture (None: no picture): why
        the session closed, once that is shown, else the lobby or table. The picture is drawn
        off the event loop from the same moment's view as the words."""
        if self._shows_closed:
            return self._closed(), None
        session = self._session
        shown = session.render_public()
        if not self._shows_picture():
            return shown, None
        state = session.state
        assert state.game is not None
        view = public_view(state.game)
        if state.game.phase in ROUND_END_PHASES:
            # The hands left, face up and counted, in place of the live table.
            png = await self._pictures.round_end_png(
                view,
                state.final_hands(),
                state.name,
                state.options.palette,
                self._picture,
                session.lang,
            )
        else:
            png = await self._pictures.table_png(
                view,
                state.name,
                state.options.palette,
                self._picture,
                session.lang,
                state.last_events,
            )
        if png is not None:
            shown.embed.set_image(url=PICTURE_URL)
        return shown, png

    def _shows_picture(self) -> bool:
        """Whether the public message shows a picture now: the table, or at a round's end the
        hands counted (not with pictures off, in a lobby, or once a game was abandoned). A plain
        check: the click's in-place answer asks it, and building the public view there would
        be wasted."""
        state = self._session.state
        game = state.game
        if not state.options.pictures or game is None:
            return False
        return game.phase not in TERMINAL_PHASES or game.phase in ROUND_END_PHASES

    @staticmethod
    def _changes(shown: render.Rendered, png: bytes | None) -> dict[str, Any]:
        """An edit of the public message to ``shown``: the picture replaces the last one in
        the same request; none removes it."""
        return {
            "content": shown.content,
            "embed": shown.embed,
            "view": shown.view,
            "attachments": [picture_file(png)] if png is not None else [],
            "allowed_mentions": PLAYER_MENTIONS,
        }

    async def _edit(self, shown: render.Rendered, png: bytes | None = None) -> bool:
        """A counted edit of the public message; whether it reached Discord."""
        state = self._session.state
        channel = self._messenger.get_partial_messageable(self._where)
        try:
            if state.message_id is None:
                raise discord.NotFound  # type: ignore[call-arg]
            await channel.get_partial_message(state.message_id).edit(**self._changes(shown, png))
            return True
        except discord.HTTPException as exc:
            if self._thread_trouble(exc):
                self._edits.call(self._rescue_thread)
            elif isinstance(exc, discord.NotFound):
                # Someone deleted the table: post a new one (a request of its own, so within
                # the budget too) rather than lose the game.
                state.message_id = None
                self._edits.call(self._post_anew)
            else:
                log.warning("session %s: table edit failed: %s", self._session.id, exc)
        return False

    def _thread_trouble(self, exc: Exception) -> bool:
        """Whether a failed request says the game's thread is gone, out of reach or archived."""
        code = getattr(exc, "code", 0)
        return self._session.state.thread_id is not None and code in THREAD_TROUBLE

    async def _post_anew(self) -> None:
        """Post the public message anew (drawn now), where the old one was deleted."""
        state = self._session.state
        if state.message_id is not None:
            return  # posted meanwhile
        drawn = state.public_revision
        shown, png = await self._drawn_now()
        if state.message_id is not None:
            return  # posted while the picture was drawn
        channel = self._messenger.get_partial_messageable(self._where)
        try:
            message = await channel.send(
                content=shown.content,
                embed=shown.embed,
                view=shown.view or discord.ui.View(),
                files=[picture_file(png)] if png is not None else discord.utils.MISSING,
                allowed_mentions=PLAYER_MENTIONS,
            )
        except discord.HTTPException as exc:
            if not self._thread_trouble(exc):
                raise
            self._edits.call(self._rescue_thread)
            return
        async with self._session.lock:  # its release saves the new message's id
            state.message_id = message.id
        if state.public_revision != drawn and not state.closed:
            # Changes made while it was drawn and sent asked for an edit of no message.
            self.request_update()

    def post_in_thread(self) -> None:
        """Post the table in the game's new thread soon (drawn then), within the budget."""
        self._edits.call(self._post_anew)

    async def check_thread(self) -> None:
        """After a restart: the game's thread is read once, reopened if someone archived it,
        or left for the channel if it is gone; then the table is updated."""
        if self._session.state.thread_id is None:
            return
        await self._rescue_thread(failed=False)

    async def _rescue_thread(self, *, failed: bool = True) -> None:
        """The game's thread failed a request (``failed``; else a restart checks it): reopen
        it if it is archived (Send Messages in Threads allows that while it is not locked),
        else, when it is gone or failed for no reason seen, play on in the channel, where the
        table is posted anew and says why."""
        state = self._session.state
        thread_id = state.thread_id
        if thread_id is None or state.closed:
            return
        http = self._messenger.http
        try:
            found = await http.get_channel(thread_id)
            metadata: Any = found.get("thread_metadata") or {}
            if metadata.get("archived"):
                await http.edit_channel(thread_id, archived=False)
                log.info("session %s: reopened its archived thread %s", self._session.id, thread_id)
            elif failed:
                raise discord.ClientException("the thread refused a request")
            self.request_update()
            return
        except (discord.HTTPException, discord.ClientException) as exc:
            log.warning(
                "session %s: its thread %s is out of reach (%s): back to the channel",
                self._session.id,
                thread_id,
                exc,
            )
        async with self._session.lock:  # its release saves and asks for the update
            if state.thread_id != thread_id or state.closed:
                return
            state.thread_id = None
            state.message_id = None
            state.reminder_id = None  # it was in the thread
            state.note(t(self._session.lang, "thread.lost"))
        self._editor = None
        self._edits.call(self._post_anew)

    def close_thread(self, result: str) -> None:
        """A game in a thread ended: once its last table is shown there, say ``result`` (who
        won, or that it is over) in the lobby's channel and archive the thread, each a request
        within the budget. A failure is logged; the game is over either way."""
        thread_id = self._session.state.thread_id
        if thread_id is not None:
            self._farewell = (thread_id, result)
            self._check_quiet()

    async def _say_result(self, result: str) -> None:
        parent = self._messenger.get_partial_messageable(self._session.state.channel_id)
        try:
            await parent.send(result, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("session %s: could not post the result: %s", self._session.id, exc)

    async def _archive(self, thread_id: int) -> None:
        try:
            # Archived, not locked: players may still talk there (which reopens it), and
            # locking would need Manage Threads.
            await self._messenger.http.edit_channel(thread_id, archived=True)
        except discord.HTTPException as exc:
            log.warning(
                "session %s: could not archive thread %s: %s", self._session.id, thread_id, exc
            )

    async def remind(self, serial: int, deadline: float) -> None:
        """Ping the person whose turn it still is (it ends at loop time ``deadline``), in a
        message of its own: Discord does not notify for a mention added to the table by an
        edit."""
        session = self._session
        state = session.state
        player = state.turn_due(serial)
        seat = None if player is None else state.seat_of_player(player)
        left = deadline - asyncio.get_running_loop().time()
        if seat is None or seat.user_id is None or state.reminder_id or left <= 0:
            return
        channel = self._messenger.get_partial_messageable(self._where)
        text = t(
            session.lang,
            "reminder",
            mention=f"<@{seat.user_id}>",
            seconds=round(left),
            url=session.jump_url,
        )
        # Sent without the session lock: a slow or rate-limited send must not hold up clicks.
        try:
            message = await channel.send(
                text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)])
            )
        except discord.HTTPException as exc:
            log.warning("session %s: turn reminder failed: %s", session.id, exc)
            if self._thread_trouble(exc):
                self._edits.call(self._rescue_thread)
            return
        async with session.lock:
            if state.turn_due(serial) != player or state.reminder_id is not None:
                # The turn ended while the reminder was on its way.
                self._delete(message.id)
                return
            # Saved as the lock is released, so a restart in the middle of the turn still
            # deletes it.
            state.reminder_id = message.id

    def clear_reminder(self) -> None:
        """Delete the turn reminder, if one is up (its turn is over)."""
        state = self._session.state
        message_id = state.reminder_id
        if message_id is None:
            return
        state.reminder_id = None
        self._delete(message_id)

    def _delete(self, message_id: int, *, last: bool = False) -> None:
        """Delete one of the session's messages soon, within the bot's budget (``last``: once
        no table edit waits; the old table's buttons answer until then)."""
        self._edits.call(partial(self._send_delete, message_id), last=last)

    async def _send_delete(self, message_id: int) -> None:
        channel = self._messenger.get_partial_messageable(self._where)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            # Already deleted by someone, or no permission: nothing is left to do.
            log.info(
                "session %s: could not delete message %s: %s", self._session.id, message_id, exc
            )
