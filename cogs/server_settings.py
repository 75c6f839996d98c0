"""/uno-settings: a server's defaults for new games, offered only to members with Manage Server.

A command of its own rather than ``/uno settings``: Discord applies a command's default member
permissions to top-level commands only, so only a top-level command can be hidden from members
who may not use it. The panel still checks Manage Server itself on every control
(bot/settings_panel.py), since a server's admins can grant the command to anyone.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import UnoBot
from bot.settings_panel import show_panel
from bot.ui.i18n import t
from bot.ui.respond import Interaction, reply


class ServerSettingsCog(commands.Cog):
    """The /uno-settings command; the panel's controls are registered by the /uno cog."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="uno-settings", description="Manage Server: this server's defaults for new games"
    )
    @app_commands.describe(reset="Set every setting back to the bot's defaults first")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(self, interaction: Interaction, reset: bool = False) -> None:
        """This server's settings with controls to change them (only to the caller)."""
        if not isinstance(reset, bool):
            lang = self.bot.sessions.reader(interaction)
            await reply(interaction, t(lang, "options.true_false", option="reset"))
            return
        await show_panel(interaction, self.bot.settings, reset=reset)


async def setup(bot: UnoBot) -> None:
    """Extension entry point."""
    await bot.add_cog(ServerSettingsCog(bot))
