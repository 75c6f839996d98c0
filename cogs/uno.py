"""/uno commands: open a lobby, hand, status, rules, leave, kick, remove-ai, end, settings."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.client import UnoBot, UnoInteraction
from bot.engine.variants import VARIANTS, Variant, VariantKey
from bot.forget_me import ForgetMeButton, offer_to_forget
from bot.options import OPTIONS, Option
from bot.sessions import Answer, GameSession, SessionManager, parent_of
from bot.settings_panel import SettingsControl
from bot.table import TableError
from bot.ui import words
from bot.ui.buttons import TableClick, UnoButton
from bot.ui.i18n import ENGLISH, CommandTranslator, Lang, language_of, t, variant_choices
from bot.ui.render import add_field
from bot.ui.respond import Interaction, can_moderate, plain_name, reply, safe_name

log = logging.getLogger(__name__)

MAX_AI_NAME = 100  # longer than any computer player's name or id
StartGame = Callable[[UnoInteraction, str, dict[str, Any]], Awaitable[None]]


def start_refusal(lang: Lang, given: Mapping[str, Any]) -> str | None:
    """Why these start options (by start name; None: not given, the server's default) cannot
    open a lobby, in ``lang``, or None when every one is in range. Discord checks ranges and
    choices too, but a modified client or a direct API call can send anything."""
    for option in OPTIONS.values():
        name = option.start_name
        value = None if name is None else given.get(name)
        if name is None or value is None or option.accepts(value):
            continue
        if option.kind is bool:
            return t(lang, "options.true_false", option=name)
        if option.choices:
            return t(lang, "options.one_of", option=name, allowed=", ".join(option.choices))
        key = "options.seconds" if option.unit == "seconds" else "options.whole_number"
        return t(lang, key, option=name, min=option.low or 0, max=option.high or 0)
    return None


def _annotation(entry: Variant, option: Option) -> Any:
    """The start option's type as discord.py reads it (synced with its range or choices): an
    ``entry`` game's rule offers only the choices that variant permits."""
    if option.kind is bool:
        return bool | None
    if option.choices:
        choices = option.choices
        if option.rule:
            choices = tuple(c for c in choices if entry.permits(option.name, c))
        return Literal[choices] | None
    return app_commands.Range[option.kind, option.low, option.high] | None


def start_options(entry: Variant) -> list[Option]:
    """The start options of an ``entry`` game, in declaration order: every declared option
    offered at the start, less the rules the variant does not have."""
    return [
        option
        for option in OPTIONS.values()
        if option.start_name is not None and (not option.rule or entry.offers(option.name))
    ]


def start_command(
    entry: Variant, start: StartGame, on_error: Any
) -> app_commands.Command[Any, ..., None]:
    """``/uno <variant> start``, its options read from the declarations (``bot.options``)."""
    options = start_options(entry)
    by_start_name = {option.start_name: option.name for option in options}

    async def open_lobby(interaction: Interaction, /, **given: Any) -> None:
        await start(interaction, entry.key, {by_start_name[n]: v for n, v in given.items()})

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_ONLY),
        *(
            inspect.Parameter(
                str(option.start_name),
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=_annotation(entry, option),
            )
            for option in options
        ),
    ]
    open_lobby.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    open_lobby.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        str(option.start_name): option.description for option in options
    }
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="start",
        description=t(ENGLISH, f"cmd.uno.{entry.command}.start.description"),
        callback=open_lobby,
    )
    command.on_error = on_error
    return command


@app_commands.guild_only()  # games live in server channels; in a DM the commands are not offered
class UnoCog(commands.GroupCog, group_name="uno", group_description="Play UNO Flip or UNO"):
    """The /uno command group; every command delegates to the channel's session."""

    def __init__(self, bot: UnoBot) -> None:
        """The cog for ``bot``, with ``/uno <variant> start`` for every registered variant."""
        self.bot = bot
        super().__init__()
        uno = self.__cog_app_commands_group__
        assert uno is not None
        others = list(uno.commands)
        for entry in VARIANTS.values():
            group = app_commands.Group(name=entry.command, description=entry.description)
            group.add_command(start_command(entry, self._start, self.cog_app_command_error))
            uno.add_command(group)
        for command in others:  # the games first, as /uno lists its subcommands
            uno.remove_command(command.name)
            uno.add_command(command)

    @property
    def sessions(self) -> SessionManager:
        """The bot's session manager."""
        return self.bot.sessions

    async def cog_load(self) -> None:
        """Register the table's buttons and the settings panel's controls, so clicks on any
        of their messages reach us (also messages from before a restart), and translate the
        commands before they sync."""
        self.bot.add_dynamic_items(UnoButton, SettingsControl, ForgetMeButton)
        language = self.bot.settings.language
        if language and language_of(language) is None:
            log.warning("no catalog for language %r: each server's own is used", language)
        # Command names, descriptions and choices in every catalog's language (reads them all).
        await self.bot.tree.set_translator(CommandTranslator())

    async def cog_unload(self) -> None:
        """Stop routing the table's buttons here, and drop the command translator."""
        self.bot.remove_dynamic_items(UnoButton, SettingsControl, ForgetMeButton)
        await self.bot.tree.set_translator(None)

    def _session(self, interaction: UnoInteraction) -> GameSession | None:
        # During start-up's restore, the channel's saved table comes back first.
        return self.sessions.in_channel(interaction.channel_id, parent_of(interaction))

    def _reader(self, interaction: UnoInteraction) -> Lang:
        """The language of a private answer to ``interaction``."""
        return self.sessions.reader(interaction)

    async def _hosted_session(self, interaction: UnoInteraction, action: str) -> GameSession | None:
        """The channel's session if the user hosts it; else None, and the user is told why
        (``action``: the ``cmd.reply.only_host.*`` key's last part)."""
        session = self._session(interaction)
        if session is None:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.no_game"))
        elif interaction.user.id != session.state.host_id:
            await reply(interaction, t(self._reader(interaction), f"cmd.reply.only_host.{action}"))
        else:
            return session
        return None

    # ------------------------------------------------------------------ start

    async def _start(
        self, interaction: UnoInteraction, variant: VariantKey, given: dict[str, Any]
    ) -> None:
        """Open a ``variant`` lobby with the start options ``given`` (by option name; None:
        not given, the server's setting)."""
        lang = self._reader(interaction)
        if interaction.channel_id is None or interaction.guild_id is None:
            await reply(interaction, t(lang, "cmd.reply.start.not_in_server"))
            return
        refusal = start_refusal(lang, {str(OPTIONS[n].start_name): v for n, v in given.items()})
        if refusal is not None:
            await reply(interaction, refusal)
            return
        existing = self._session(interaction)
        if existing is not None:
            await reply(interaction, t(lang, "cmd.reply.start.already_open", url=existing.jump_url))
            return
        server = await self.bot.servers.get(interaction.guild_id)
        # A thread counts as its channel.
        parent = getattr(interaction.channel, "parent_id", None)
        if server.channels and not {interaction.channel_id, parent} & set(server.channels):
            channels = " ".join(f"<#{channel}>" for channel in server.channels)
            await reply(interaction, t(lang, "cmd.reply.start.channel", channels=channels))
            return
        locale = self.sessions.server_locale(interaction)
        try:
            options = server.table_options(variant, given, self.bot.settings, locale)
        except ValidationError as exc:
            await reply(interaction, words.settings_error_text(lang, exc.errors()[0]["msg"]))
            return
        session = self.sessions.open_lobby(interaction, options)
        state = session.state
        if options.palette != "standard":
            # The palette's card emoji, made once per run (the standard ones at start-up).
            emoji = self.sessions.pictures.ensure_emoji(self.bot, [options.palette])
            self.sessions.spawn(emoji, "card-emoji")
        for _ in range(given.get("ai") or 0):
            state.add_ai(options.ai_difficulty, session.ai_name)
        async with session.lock:
            shown = session.render_public()
            response = await interaction.response.send_message(
                embed=shown.embed, view=shown.view or discord.utils.MISSING
            )
            # Saved as the lock is released, once the message exists: a restored lobby needs
            # its message to edit.
            state.message_id = response.message_id
            session.public_messages.adopt(interaction)  # its token edits the table
            session.shown_by_the_answer()

    # ------------------------------------------------------------------ in-game commands

    @app_commands.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: UnoInteraction) -> None:
        """Reopen your ephemeral hand."""
        session = self._session(interaction)
        if session is None or session.state.game is None:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.not_playing_here"))
            return
        hand = TableClick(session.id, "hand")
        await self.sessions.run(interaction, session, lambda: session.on_table(interaction, hand))

    @app_commands.command(name="status", description="Show this channel's game (only to you)")
    async def status(self, interaction: UnoInteraction) -> None:
        """The table or lobby, shown ephemerally."""
        session = self._session(interaction)
        if session is None:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.no_game.start"))
            return
        async with session.lock:
            shown = session.render_public(session.reader(interaction))
            await interaction.response.send_message(embed=shown.embed, ephemeral=True)

    @app_commands.command(name="rules", description="The rules of the game in this channel")
    @app_commands.describe(variant="Which game (default: the one in this channel, else UNO Flip)")
    @app_commands.choices(variant=variant_choices())
    async def rules(self, interaction: UnoInteraction, variant: str | None = None) -> None:
        """The rules of ``variant`` (else the channel's game, else Flip) in the reader's
        language, plus this game's settings when it is the channel's game."""
        lang = self._reader(interaction)
        if variant is not None and variant not in VARIANTS:  # a modified client sends anything
            await reply(
                interaction,
                t(lang, "options.one_of", option="variant", allowed=", ".join(VARIANTS)),
            )
            return
        session = self._session(interaction)
        playing = session.state.rules.variant if session else None
        shown = variant or playing or "flip"
        rules = words.rules_text(lang, shown)
        embed = discord.Embed(title=rules.title, description=rules.description)
        for field_name, value in rules.fields:
            add_field(embed, field_name, value)
        if session is not None and shown == playing:
            state = session.state
            options = state.options
            summary = words.rules_summary(
                lang, state.rules, options.turn_timeout, options.ai_takeover
            )
            add_field(embed, t(lang, "rules.this_game"), summary)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="leave", description="Leave the lobby or game in this channel")
    async def leave(self, interaction: UnoInteraction) -> None:
        """Leave; in a game your cards go back into the draw pile."""
        session = self._session(interaction)
        if session is None:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.no_game"))
            return
        user_id = interaction.user.id
        await self.sessions.run(
            interaction,
            session,
            lambda: self._remove(session, interaction, user_id, words.REMOVED_LEFT),
        )

    @app_commands.command(name="kick", description="Host: remove a player from this game")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: UnoInteraction, player: discord.Member) -> None:
        """Remove a player (host only)."""
        session = await self._hosted_session(interaction, "kick")
        if session is None:
            return
        if player.id == interaction.user.id:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.kick.self"))
            return
        await self.sessions.run(
            interaction,
            session,
            lambda: self._remove(session, interaction, player.id, words.REMOVED_KICKED),
        )

    @app_commands.command(
        name="remove-ai", description="Host: take a computer player out of the lobby or game"
    )
    @app_commands.describe(name="The computer player (default: the one added last)")
    async def remove_ai(self, interaction: UnoInteraction, name: str | None = None) -> None:
        """Remove a computer player (host only); in a game its cards go back into the pile."""
        if name is not None and len(name) > MAX_AI_NAME:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.remove_ai.too_long"))
            return
        session = await self._hosted_session(interaction, "remove_ai")
        if session is None:
            return

        async def remove() -> Answer:
            assert session is not None
            seats = session.state.ai_seats
            if name is not None:
                wanted = name.strip().casefold()
                seats = [s for s in seats if s.player_id == wanted or wanted in s.name.casefold()]
            if not seats:
                if name is None:
                    raise TableError("cmd.reply.remove_ai.none")
                raise TableError("cmd.reply.remove_ai.not_found", name=safe_name(name))
            seat = seats[-1]
            await session.remove_ai(seat, interaction.user.id)
            text = t(session.reader(interaction), "cmd.reply.removed", name=safe_name(seat.name))
            return lambda: reply(interaction, text)

        await self.sessions.run(interaction, session, remove)

    @remove_ai.autocomplete("name")
    async def _computer_players(
        self, interaction: UnoInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        session = self._session(interaction)
        if session is None:
            return []
        typed = current.casefold()
        return [
            app_commands.Choice(name=plain_name(seat.name), value=seat.player_id)
            for seat in session.state.ai_seats
            if typed in seat.name.casefold()
        ][:25]

    async def _remove(
        self, session: GameSession, interaction: UnoInteraction, user_id: int, reason: str
    ) -> Answer:
        """Take ``user_id`` out of the lobby or game (``reason``: a ``words.REMOVED_*`` code);
        answers with what happened."""
        state = session.state
        seat = state.seat_of(user_id)
        you = user_id == interaction.user.id
        lang = session.reader(interaction)
        if state.game is None:
            if seat is None:
                raise TableError("lobby.not_in" if you else "lobby.not_in.other")
            said = words.removal_text(session.lang, safe_name(seat.name), reason)
            if not await session.leave_lobby(seat, said):
                await session.public_messages.show_closed()
            text = t(lang, "lobby.you_left" if you else "cmd.reply.done")
        else:
            if not state.in_game(user_id):
                raise TableError("cmd.reply.not_playing." + ("you" if you else "other"))
            await session.remove_player(str(user_id), reason)
            name = session.name(str(user_id))
            if you:
                text = t(lang, "cmd.reply.you_left_game")
            else:
                text = t(lang, "cmd.reply.removed", name=name)
        return lambda: reply(interaction, text)

    @app_commands.command(name="end", description="End this channel's game (host or moderators)")
    async def end(self, interaction: UnoInteraction) -> None:
        """End the game; rounds already scored are kept."""
        session = self._session(interaction)
        lang = self._reader(interaction)
        if session is None:
            await reply(interaction, t(lang, "cmd.reply.no_game"))
            return
        role = (await self.bot.servers.get(interaction.guild_id)).moderator_role
        if interaction.user.id != session.state.host_id and not can_moderate(interaction, role):
            await reply(interaction, t(lang, "cmd.reply.end.not_allowed"))
            return
        async with session.lock:
            public = session.lang
            await session.close_with(
                t(public, "closed.ended.title"),
                t(public, "closed.ended", name=safe_name(interaction.user.display_name)),
            )
        await reply(interaction, t(lang, "cmd.reply.end.done"))

    @app_commands.command(
        name="forget-me", description="Erase your UNO points, wins and stats from this bot"
    )
    async def forget_me(self, interaction: UnoInteraction) -> None:
        """Privately: what is erased, and a button that erases it."""
        await offer_to_forget(interaction)

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer every failed command with a short ephemeral line and log the cause."""
        log.exception("command %s failed", interaction.command, exc_info=error)
        await reply(interaction, t(self._reader(interaction), "error.command"))


async def setup(bot: UnoBot) -> None:
    """Extension entry point."""
    await bot.add_cog(UnoCog(bot))
