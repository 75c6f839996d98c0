"""Answering Discord: short ephemeral replies, edits in place, button views, the moderator
check, and names made safe for message text. Every UI room answers through these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from .i18n import Lang

# The rooms below the client cannot name ``UnoBot``: they read ``interaction.client`` through
# the protocols they declare (``Answering`` here), which ``UnoBot`` satisfies.
Interaction = discord.Interaction[Any]


class Answering(Protocol):
    """Who says which language answers a person (the bot's ``SessionManager``)."""

    def reader(self, interaction: Interaction) -> Lang:
        """The language of an answer only ``interaction``'s user sees."""
        ...


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


def safe_name(name: str) -> str:
    """A user-chosen name made safe for message text: no markdown, links or mentions."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))
