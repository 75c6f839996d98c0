"""Which kind of message a click came from, and the one check every component makes.

A modified client can send any custom_id from any message: a leaderboard page id on a game's
table, a hand's id on the settings panel. What it cannot change is the message Discord hands
over with the click as the bot sent it: whether it is ephemeral, and its embed. So every kind
of message that carries components has its own embed colours, and every component declares
the kind of message it answers (``answers``). ``KindChecked.interaction_check``, which
discord.py runs before any component's callback, compares the two and refuses privately,
touching nothing, when they differ. A session then also checks that a table button is on
its own table (``bot/sessions.py``).
"""

from __future__ import annotations

from enum import Enum

import discord

from bot.engine.cards import Side

from .i18n import t
from .respond import Interaction, reader, reply


class MessageKind(Enum):
    """The kinds of message the bot puts components on."""

    TABLE = "table"  # a session's public message: its lobby, table or round results
    HAND = "hand"  # a player's ephemeral hand
    LEADERBOARD = "leaderboard"  # a public /leaderboard page
    SETTINGS = "settings"  # an ephemeral /uno-settings panel
    HISTORY = "history"  # an ephemeral /uno history page
    MATCH = "match"  # an ephemeral match of the history, its rounds
    REPLAY = "replay"  # an ephemeral /uno replay step


# Each kind's embed colours. A table and a hand share the side's colour (the hand shows the
# table's side): one is public and the other ephemeral.
TABLE_COLOURS: dict[Side, int] = {Side.LIGHT: 0xF5C842, Side.DARK: 0x6B2FA0}
LEADERBOARD_COLOUR = 0xF1C40F
SETTINGS_COLOUR = 0x5865F2
HISTORY_COLOUR = 0x1ABC9C
MATCH_COLOUR = 0x16A085
REPLAY_COLOUR = 0x2C3E50

_BY_COLOUR: dict[tuple[bool, int], MessageKind] = {
    **{(False, colour): MessageKind.TABLE for colour in TABLE_COLOURS.values()},
    **{(True, colour): MessageKind.HAND for colour in TABLE_COLOURS.values()},
    (False, LEADERBOARD_COLOUR): MessageKind.LEADERBOARD,
    (True, SETTINGS_COLOUR): MessageKind.SETTINGS,
    (True, HISTORY_COLOUR): MessageKind.HISTORY,
    (True, MATCH_COLOUR): MessageKind.MATCH,
    (True, REPLAY_COLOUR): MessageKind.REPLAY,
}

# The answer to a component whose message is not of the kind it answers (a forged or
# replayed id).
MISPLACED_CLICK = "click.misplaced"


def kind_of(message: discord.Message | None) -> MessageKind | None:
    """The kind of a message the bot sent, by its first embed's colour and whether it is
    ephemeral; None for any other message."""
    if message is None or not message.embeds:
        return None
    colour = message.embeds[0].colour
    if colour is None:
        return None
    return _BY_COLOUR.get((message.flags.ephemeral, colour.value))


class KindChecked:
    """Mixed into every DynamicItem of the bot (before ``DynamicItem``): the component
    answers only on its kind of message."""

    def answers(self) -> MessageKind | None:
        """The kind of message this component belongs on (None: any, its callback refuses
        it anyway, as an id nobody can read)."""
        raise NotImplementedError

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Whether the click came from a message of the kind this component answers; if not,
        the clicker is told so privately and the message stays as it was."""
        wanted = self.answers()
        if wanted is None or kind_of(interaction.message) is wanted:
            return True
        await reply(interaction, t(reader(interaction), MISPLACED_CLICK))
        return False
