"""Answering Discord: short ephemeral replies, edits in place, button views, the moderator
check, and names made safe for message text. Every UI room answers through these.

Nothing a user typed reaches a message except through ``safe_name`` (markdown and mentions
escaped, cut to ``NAME_LIMIT``, bidi controls dropped and right-to-left text isolated) or
``plain_name`` (the same without the escaping, for button labels and code blocks), and
``reply`` and ``edit_in_place`` cut their text to what Discord accepts.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from .i18n import Lang
from .text import fit

# The rooms below the client cannot name ``UnoBot``: they read ``interaction.client`` through
# the protocols they declare (``Answering`` here), which ``UnoBot`` satisfies.
Interaction = discord.Interaction[Any]

MESSAGE_LIMIT = 2000  # characters of a message's content Discord accepts
# The longest name Discord gives (a server's name; display names are at most 32): anything
# longer came from a modified client, and is cut.
NAME_LIMIT = 100
# Explicit bidi formatting (embeddings, overrides, isolates) and the directional marks: a
# right-to-left override left open in a name would reverse the bot's own words after it.
BIDI_CONTROLS = dict.fromkeys(
    map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
)
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"
ISOLATE_MARKS = FIRST_STRONG_ISOLATE + POP_DIRECTIONAL_ISOLATE
RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})  # the bidi classes that reorder their neighbours


class Answering(Protocol):
    """Who says which language answers a person (the bot's ``SessionManager``)."""

    def reader(self, interaction: Interaction) -> Lang:
        """The language of an answer only ``interaction``'s user sees."""
        ...


class AnsweringHost(Protocol):
    """The part of ``interaction.client`` every private answer reads (``UnoBot`` is one)."""

    @property
    def sessions(self) -> Answering:
        """The bot's sessions, which know each channel's table."""
        ...


def reader(interaction: Interaction) -> Lang:
    """The language of an answer only ``interaction``'s user sees: the bot's one rule
    (``SessionManager.reader``: theirs, else the channel's table's or server's, else English)."""
    host: AnsweringHost = interaction.client
    return host.sessions.reader(interaction)


async def reply(interaction: Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already (cut to
    the 2,000 characters Discord accepts)."""
    text = fit(text, MESSAGE_LIMIT)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def edit_in_place(interaction: Interaction, **changes: Any) -> None:
    """Edit the message the button is on, also after a deferral (its text cut to fit)."""
    if isinstance(changes.get("content"), str):
        changes["content"] = fit(changes["content"], MESSAGE_LIMIT)
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


def button_view(buttons: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A timeout-less view holding ``buttons`` (callbacks come through the DynamicItem)."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    # Clicks reach the buttons through their registered DynamicItem, never through this
    # object, so it is stopped at once: discord.py then does not keep it (and a 15-minute
    # timeout task per ephemeral hand) alive, which would pile up over a busy evening.
    view.stop()
    return view


def can_moderate(interaction: Interaction, role_id: int | None = None) -> bool:
    """Manage Channels or Manage Server in this channel, or the server's moderator role
    (``role_id``, from its settings)."""
    perms = interaction.permissions
    if perms.manage_channels or perms.manage_guild:
        return True
    roles = getattr(interaction.user, "roles", ())  # a Member's; none outside a server
    return role_id is not None and any(role.id == role_id for role in roles)


def plain_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A user-chosen name for text without markdown (button labels, code blocks): cut to
    ``limit``, its bidi controls dropped, and isolated if it has right-to-left letters."""
    return _isolated(fit(name.translate(BIDI_CONTROLS), limit))


def safe_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A user-chosen name made safe for message text: no markdown, links or mentions, cut to
    ``limit``, and never reordering the words around it."""
    text = fit(name.translate(BIDI_CONTROLS), limit)
    return _isolated(discord.utils.escape_markdown(discord.utils.escape_mentions(text)))


def _isolated(text: str) -> str:
    # An isolate keeps right-to-left letters from reordering the bot's words beside them.
    # Around a name without any it would change nothing on screen, so plain names stay as
    # they are (also for search and logs).
    if any(unicodedata.bidirectional(char) in RIGHT_TO_LEFT for char in text):
        return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
    return text
