"""/uno commands: open a lobby, hand, status, rules, leave, kick, remove-ai, end, settings."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.client import UnoBot
from bot.config import TURN_TIMEOUT_MAX, TURN_TIMEOUT_MIN, PaletteName
from bot.engine.players import Difficulty
from bot.engine.rules import Edition, Scoring
from bot.engine.variants import VariantKey
from bot.forget_me import ForgetMeButton, offer_to_forget
from bot.server_settings import CHOICES as SERVER_CHOICES
from bot.server_settings import HOUSE_RULES, TARGET_MAX, TARGET_MIN
from bot.sessions import Answer, GameSession, SessionManager
from bot.settings_panel import SettingsControl
from bot.table import MAX_SEATS, TableError
from bot.ui import words
from bot.ui.buttons import TableClick, UnoButton
from bot.ui.i18n import CommandTranslator, Lang, language_of, t
from bot.ui.render import add_field
from bot.ui.respond import Interaction, can_moderate, plain_name, reply, safe_name

log = logging.getLogger(__name__)

# The options' limits, as synced to Discord and checked again here: a modified client or a
# direct API call can send anything.
MAX_AI = MAX_SEATS - 1
MAX_AI_NAME = 100  # longer than any computer player's name or id
# The start options that choose one of several values, as the server settings offer them.
CHOICES = {
    name: SERVER_CHOICES[name] for name in ("scoring", "edition", "ai_difficulty", "palette")
}
FLAGS = HOUSE_RULES  # the house rules' on/off options


def start_refusal(lang: Lang, lobby: LobbyOptions, options: dict[str, Any]) -> str | None:
    """Why these start options cannot open a lobby (in ``lang``), or None when every one is
    in range (None: not given, the server's default)."""
    target = options.get("target")
    if target is not None and not _whole_in(target, TARGET_MIN, TARGET_MAX):
        return t(lang, "options.whole_number", option="target", min=TARGET_MIN, max=TARGET_MAX)
    if lobby.turn_timeout is not None and not _whole_in(
        lobby.turn_timeout, TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX
    ):
        return t(
            lang,
            "options.seconds",
            option="turn_timeout",
            min=TURN_TIMEOUT_MIN,
            max=TURN_TIMEOUT_MAX,
        )
    if not _whole_in(lobby.ai, 0, MAX_AI):
        return t(lang, "options.whole_number", option="ai", min=0, max=MAX_AI)
    # None is "not given" everywhere below.
    chosen = {**options, "ai_difficulty": lobby.ai_difficulty, "palette": lobby.palette}
    for option, allowed in CHOICES.items():
        if chosen.get(option) is not None and chosen[option] not in allowed:
            return t(lang, "options.one_of", option=option, allowed=", ".join(allowed))
    flags = {name: options.get(name) for name in FLAGS}
    flags |= {"ai_takeover": lobby.ai_takeover, "pictures": lobby.pictures}
    for name, value in flags.items():
        if value is not None and not isinstance(value, bool):
            return t(lang, "options.true_false", option=name)
    return None


def _whole_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


COMMON_OPTIONS = {
    "target": "Points needed to win the game (default: the server's, else 500)",
    "scoring": "standard: the winner scores the others' cards; alternative: lowest total wins",
    "stacking": "Answer a draw card with the same draw card to pass the total on",
    "jump_in": "Play an identical card out of turn",
    "draw_until_playable": "Keep drawing until you get a playable card",
    "forced_play": "A playable drawn card is played automatically",
    "turn_timeout": "Seconds per turn before the bot plays for you (default 60)",
    "ai": "Computer players to seat right away (0 to 9)",
    "ai_difficulty": "How well the computer players play (default normal)",
    "ai_takeover": "A timed-out player is played by the normal AI instead of just drawing",
    "pictures": "Show a picture of the table (default: the server's setting, else the bot's)",
    "palette": "Card colours: standard or colour_blind (default: the server's, else the bot's)",
}


@dataclass(frozen=True)
class LobbyOptions:
    """Start options that shape the lobby rather than the rules (None: the server's)."""

    turn_timeout: int | None
    ai: int
    ai_difficulty: Difficulty | None
    ai_takeover: bool | None
    # None: the server's setting, else the bot's.
    pictures: bool | None = None
    palette: PaletteName | None = None


@app_commands.guild_only()  # games live in server channels; in a DM the commands are not offered
class UnoCog(commands.GroupCog, group_name="uno", group_description="Play UNO Flip or UNO"):
    """The /uno command group; every command delegates to the channel's session."""

    flip = app_commands.Group(name="flip", description="UNO Flip: the double-sided deck")
    classic = app_commands.Group(name="classic", description="Classic UNO")

    def __init__(self, bot: UnoBot) -> None:
        """The cog for ``bot``."""
        self.bot = bot
        super().__init__()

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

    def _session(self, interaction: Interaction) -> GameSession | None:
        # During start-up's restore, the channel's saved table comes back first.
        return self.sessions.in_channel(interaction.channel_id)

    def _reader(self, interaction: Interaction) -> Lang:
        """The language of a private answer to ``interaction``."""
        return self.sessions.reader(interaction)

    async def _hosted_session(self, interaction: Interaction, action: str) -> GameSession | None:
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

    @flip.command(name="start", description="Open an UNO Flip lobby in this channel")
    @app_commands.describe(**COMMON_OPTIONS)
    async def flip_start(
        self,
        interaction: Interaction,
        target: app_commands.Range[int, TARGET_MIN, TARGET_MAX] | None = None,
        scoring: Scoring | None = None,
        stacking: bool | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        forced_play: bool | None = None,
        turn_timeout: app_commands.Range[int, TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX] | None = None,
        ai: app_commands.Range[int, 0, MAX_AI] = 0,
        ai_difficulty: Difficulty | None = None,
        ai_takeover: bool | None = None,
        pictures: bool | None = None,
        palette: PaletteName | None = None,
    ) -> None:
        """Open an UNO Flip lobby; options not given take the server's settings."""
        await self._start(
            interaction,
            LobbyOptions(turn_timeout, ai, ai_difficulty, ai_takeover, pictures, palette),
            "flip",
            target=target,
            scoring=scoring,
            stacking=stacking,
            jump_in=jump_in,
            draw_until_playable=draw_until_playable,
            forced_play=forced_play,
        )

    @classic.command(name="start", description="Open a classic UNO lobby in this channel")
    @app_commands.describe(
        **COMMON_OPTIONS,
        wild_draw_four_on_draw_two="With stacking: a Wild Draw Four may answer a Draw Two",
        seven_o="Playing a 7 swaps hands with a player; a 0 passes every hand on",
        edition="The 112-card deck: adds Shuffle Hands or Swap Hands and 3 customizable wilds",
    )
    async def classic_start(
        self,
        interaction: Interaction,
        target: app_commands.Range[int, TARGET_MIN, TARGET_MAX] | None = None,
        scoring: Scoring | None = None,
        stacking: bool | None = None,
        wild_draw_four_on_draw_two: bool | None = None,
        seven_o: bool | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        forced_play: bool | None = None,
        edition: Edition | None = None,
        turn_timeout: app_commands.Range[int, TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX] | None = None,
        ai: app_commands.Range[int, 0, MAX_AI] = 0,
        ai_difficulty: Difficulty | None = None,
        ai_takeover: bool | None = None,
        pictures: bool | None = None,
        palette: PaletteName | None = None,
    ) -> None:
        """Open a classic UNO lobby; options not given take the server's settings."""
        await self._start(
            interaction,
            LobbyOptions(turn_timeout, ai, ai_difficulty, ai_takeover, pictures, palette),
            "classic",
            target=target,
            scoring=scoring,
            stacking=stacking,
            stack_wild_draw_four_on_draw_two=wild_draw_four_on_draw_two,
            seven_o=seven_o,
            jump_in=jump_in,
            draw_until_playable=draw_until_playable,
            forced_play=forced_play,
            edition=edition,
        )

    async def _start(
        self, interaction: Interaction, lobby: LobbyOptions, variant: VariantKey, **options: Any
    ) -> None:
        lang = self._reader(interaction)
        if interaction.channel_id is None or interaction.guild_id is None:
            await reply(interaction, t(lang, "cmd.reply.start.not_in_server"))
            return
        refusal = start_refusal(lang, lobby, options)
        if refusal is not None:
            await reply(interaction, refusal)
            return
        existing = self._session(interaction)
        if existing is not None:
            await reply(interaction, t(lang, "cmd.reply.start.already_open", url=existing.jump_url))
            return
        server = await self.sessions.servers.get(interaction.guild_id)
        # A thread counts as its channel.
        parent = getattr(interaction.channel, "parent_id", None)
        if server.channels and not {interaction.channel_id, parent} & set(server.channels):
            channels = " ".join(f"<#{channel}>" for channel in server.channels)
            await reply(interaction, t(lang, "cmd.reply.start.channel", channels=channels))
            return
        try:
            rules = server.rules_for(variant, **options)
        except ValidationError as exc:
            await reply(interaction, words.settings_error_text(lang, exc.errors()[0]["msg"]))
            return
        timers = server.timers(self.bot.settings)
        if lobby.turn_timeout is not None:
            timers = timers.model_copy(update={"turn_timeout": lobby.turn_timeout})
        session = self.sessions.open_lobby(interaction, rules, timers, server)
        state = session.state
        if lobby.ai_difficulty is not None:
            state.ai_difficulty = lobby.ai_difficulty
        if lobby.ai_takeover is not None:
            state.ai_takeover = lobby.ai_takeover
        if lobby.pictures is not None:
            state.pictures = lobby.pictures
        if lobby.palette is not None:
            state.palette = lobby.palette
        if state.palette != "standard":
            # The palette's card emoji, made once per run (the standard ones at start-up).
            emoji = self.sessions.pictures.ensure_emoji(self.bot, [state.palette])
            self.sessions.spawn(emoji, "card-emoji")
        for _ in range(lobby.ai):
            state.add_ai(state.ai_difficulty, session.ai_name)
        async with session.lock:
            shown = session.render_public()
            response = await interaction.response.send_message(
                embed=shown.embed, view=shown.view or discord.utils.MISSING
            )
            state.message_id = response.message_id
            # Saved once the message exists: a restored lobby needs its message to edit.
            session.saving()

    # ------------------------------------------------------------------ in-game commands

    @app_commands.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: Interaction) -> None:
        """Reopen your ephemeral hand."""
        session = self._session(interaction)
        if session is None or session.state.game is None:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.not_playing_here"))
            return
        hand = TableClick(session.id, "hand")
        await self.sessions.run(interaction, session, lambda: session.on_table(interaction, hand))

    @app_commands.command(name="status", description="Show this channel's game (only to you)")
    async def status(self, interaction: Interaction) -> None:
        """The table or lobby, shown ephemerally."""
        session = self._session(interaction)
        if session is None:
            await reply(interaction, t(self._reader(interaction), "cmd.reply.no_game.start"))
            return
        async with session.lock:
            shown = session.render_public(session.reader(interaction))
            await interaction.response.send_message(embed=shown.embed, ephemeral=True)

    @app_commands.command(name="rules", description="The rules of the game in this channel")
    async def rules(self, interaction: Interaction) -> None:
        """The rules of the variant in the reader's language, plus this game's settings."""
        lang = self._reader(interaction)
        session = self._session(interaction)
        variant = session.state.rules.variant if session else "flip"
        rules = words.rules_text(lang, variant)
        embed = discord.Embed(title=rules.title, description=rules.description)
        for field_name, value in rules.fields:
            add_field(embed, field_name, value)
        if session is not None:
            state = session.state
            summary = words.rules_summary(lang, state.rules, state.turn_timeout, state.ai_takeover)
            add_field(embed, t(lang, "rules.this_game"), summary)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="leave", description="Leave the lobby or game in this channel")
    async def leave(self, interaction: Interaction) -> None:
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
    async def kick(self, interaction: Interaction, player: discord.Member) -> None:
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
    async def remove_ai(self, interaction: Interaction, name: str | None = None) -> None:
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
        self, interaction: Interaction, current: str
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
        self, session: GameSession, interaction: Interaction, user_id: int, reason: str
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
            if await session.leave_lobby(seat, said):
                session.saving()
                session.public_messages.request_update()
            else:
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
    async def end(self, interaction: Interaction) -> None:
        """End the game; rounds already scored are kept."""
        session = self._session(interaction)
        lang = self._reader(interaction)
        if session is None:
            await reply(interaction, t(lang, "cmd.reply.no_game"))
            return
        role = (await self.sessions.servers.get(interaction.guild_id)).moderator_role
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
    async def forget_me(self, interaction: Interaction) -> None:
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
