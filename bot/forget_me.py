"""/uno forget-me: a player erases their own standings and stats, after a confirm button.

The confirmation is a private message with one button; pressing it erases the presser's own
data (``store.standings.forget``), never anyone else's: the custom_id names only the action,
and who is forgotten comes from the interaction. A game in progress keeps the player's seat
until it ends (its rounds still count then).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.store import StoreError
from bot.ui.buttons import FORGET_ME_ID, RETIRED_BUTTON
from bot.ui.i18n import Lang, t
from bot.ui.respond import Interaction, button_view, edit_in_place, reply
from bot.ui.respond import reader as answer_reader

log = logging.getLogger(__name__)


def reader(interaction: Interaction) -> Lang:
    """The language of the answer: the bot's one rule (``bot.ui.respond.reader``)."""
    return answer_reader(interaction)


async def offer_to_forget(interaction: Interaction) -> None:
    """Answer /uno forget-me privately: what is erased, and the button that erases it."""
    lang = reader(interaction)
    button = ForgetMeButton(t(lang, "forget.button"))
    await interaction.response.send_message(
        t(lang, "forget.confirm"), view=button_view([button]), ephemeral=True
    )


FORGET_ME_TEMPLATE = re.escape(FORGET_ME_ID)


class ForgetMeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FORGET_ME_TEMPLATE):
    """The confirm button of /uno forget-me (restart-safe: found again by its custom_id)."""

    def __init__(self, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(custom_id=FORGET_ME_ID, label=label, style=discord.ButtonStyle.danger)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetMeButton:
        """Rebuild the button from a click on any confirmation, old ones included."""
        return cls()

    async def callback(self, interaction: Interaction) -> None:
        """Erase the presser's standings and stats; the confirmation then says it is done."""
        lang = reader(interaction)
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            # Only the private confirmation carries this button: a forged one elsewhere
            # changes nothing.
            await reply(interaction, t(lang, RETIRED_BUTTON))
            return
        try:
            erased = await interaction.client.store.standings.forget(interaction.user.id)
        except StoreError as error:
            log.warning("forget-me for %s failed: %s", interaction.user.id, error)
            await reply(interaction, t(lang, "forget.failed"))
            return
        log.info("forgot player %s at their request (%d rows)", interaction.user.id, erased)
        await edit_in_place(interaction, content=t(lang, "forget.done"), view=None)
