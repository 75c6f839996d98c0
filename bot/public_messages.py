"""The messages of one table that everyone in its channel sees: the public message (the lobby,
the table, the round's results, why it closed) and the turn reminder.

Every edit, post and delete outside an interaction goes through the bot's budget of REST calls
(``bot.edits``); a table edit is drawn when the budget sends it, so one edit shows every change
made until then.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Protocol

import discord

from bot.edits import EditBudget
from bot.engine import public_view
from bot.engine.game import TERMINAL_PHASES
from bot.table import TableState
from bot.ui import render
from bot.ui.i18n import Lang, t
from bot.ui.pictures import PICTURE_URL, LastPicture, Pictures, picture_file
from bot.ui.respond import Interaction, edit_in_place

log = logging.getLogger(__name__)

# The public message pings the players it names (whose turn it is), nobody else; one object
# for every send (discord.py only reads it).
PLAYER_MENTIONS = discord.AllowedMentions(users=True)


class Messenger(Protocol):
    """The part of the bot a session talks to Discord through (``UnoBot`` is one)."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable:
        """A channel to send to and edit in, by id."""
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
    def saving(self) -> None: ...


class PublicMessages:
    """Edits, reposts and reminds through one session's messages in its channel."""

    __slots__ = (
        "_edits",
        "_messenger",
        "_picture",
        "_pictures",
        "_session",
        "_shows_closed",
        "closed_render",
    )

    def __init__(
        self, session: ShownAt, messenger: Messenger, edits: EditBudget, pictures: Pictures
    ) -> None:
        """The messages of ``session``, sent through ``messenger`` within ``edits``' budget,
        with table pictures from ``pictures``."""
        self._session = session
        self._messenger = messenger
        self._edits = edits
        self._pictures = pictures
        self._picture = LastPicture()
        # What the public message says once the session closed, set by the session's ``close``
        # (with the reason). Not made ahead: an embed for every live table would cost start-up
        # time and memory for a message most tables show once, at their end.
        self.closed_render: render.Rendered | None = None
        self._shows_closed = False  # the public message says why the session closed

    def request_update(self) -> None:
        """Edit the public message soon, within the bot's edit budget; changes made before the
        edit goes out are shown by that one edit."""
        self._edits.request(self._session.id, self.edit_now)

    async def edit_now(self) -> None:
        """Edit the public message at once, drawn as the table stands now."""
        # Drawn when the budget sends it, so it shows every change made until then.
        if self._session.state.message_id is not None:
            await self._edit(*await self._drawn_now())

    async def answer_in_place(self, interaction: Interaction) -> None:
        """Answer a click on the public message by editing it in place, at once."""
        # Without the picture (drawing it would hold up the answer); a table that shows one
        # gets it by the next coalesced edit.
        shown = self._session.render_public()
        await edit_in_place(
            interaction,
            content=shown.content,
            embed=shown.embed,
            view=shown.view,
            attachments=[],
            allowed_mentions=PLAYER_MENTIONS,
        )
        if not self._shows_picture():
            self._edits.discard(self._session.id)  # the response showed the table as it is now
        else:
            self.request_update()

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
        png = await self._pictures.table_png(
            public_view(state.game),
            state.name,
            state.palette,
            self._picture,
            session.lang,
            state.last_events,
        )
        if png is not None:
            shown.embed.set_image(url=PICTURE_URL)
        return shown, png

    def _shows_picture(self) -> bool:
        """Whether the public message shows a table picture now (not with pictures off, in a
        lobby, at a round's or game's end). A plain check: the click's in-place answer asks
        it, and building the public view there would be wasted."""
        state = self._session.state
        game = state.game
        return state.pictures and game is not None and game.phase not in TERMINAL_PHASES

    async def _edit(self, shown: render.Rendered, png: bytes | None = None) -> None:
        state = self._session.state
        channel = self._messenger.get_partial_messageable(self._session.channel_id)
        try:
            if state.message_id is None:
                raise discord.NotFound  # type: ignore[call-arg]
            # The picture replaces the last one in the same request; none removes it.
            await channel.get_partial_message(state.message_id).edit(
                content=shown.content,
                embed=shown.embed,
                view=shown.view,
                attachments=[picture_file(png)] if png is not None else [],
                allowed_mentions=PLAYER_MENTIONS,
            )
        except discord.NotFound:
            # Someone deleted the table: post a new one (a request of its own, so within the
            # budget too) rather than lose the game.
            state.message_id = None
            self._edits.call(self._post_anew)
        except discord.HTTPException as exc:
            log.warning("session %s: table edit failed: %s", self._session.id, exc)

    async def _post_anew(self) -> None:
        """Post the public message anew (drawn now), where the old one was deleted."""
        state = self._session.state
        if state.message_id is not None:
            return  # posted meanwhile
        shown, png = await self._drawn_now()
        if state.message_id is not None:
            return  # posted while the picture was drawn
        channel = self._messenger.get_partial_messageable(self._session.channel_id)
        message = await channel.send(
            content=shown.content,
            embed=shown.embed,
            view=shown.view or discord.ui.View(),
            files=[picture_file(png)] if png is not None else discord.utils.MISSING,
            allowed_mentions=PLAYER_MENTIONS,
        )
        state.message_id = message.id
        self._session.saving()

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
        channel = self._messenger.get_partial_messageable(session.channel_id)
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
            return
        async with session.lock:
            if state.turn_due(serial) != player or state.reminder_id is not None:
                # The turn ended while the reminder was on its way.
                self._delete(message.id)
                return
            state.reminder_id = message.id
            # Saved, so a restart in the middle of the turn still deletes it.
            session.saving()

    def clear_reminder(self) -> None:
        """Delete the turn reminder, if one is up (its turn is over)."""
        state = self._session.state
        message_id = state.reminder_id
        if message_id is None:
            return
        state.reminder_id = None
        self._delete(message_id)

    def _delete(self, message_id: int) -> None:
        """Delete one of the session's messages soon, within the bot's budget."""
        self._edits.call(partial(self._send_delete, message_id))

    async def _send_delete(self, message_id: int) -> None:
        channel = self._messenger.get_partial_messageable(self._session.channel_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            # Already deleted by someone, or no permission: nothing is left to do.
            log.info(
                "session %s: could not delete message %s: %s", self._session.id, message_id, exc
            )
