"""The /uno-settings panel: a server's settings in an ephemeral message, with its controls.

Selects change the on/off settings, the choices, the channels and the moderator role; two
buttons open modals for the numbers; one resets everything. Every control is a
``SettingsControl`` DynamicItem (the codec in ``bot.ui.buttons`` parses its custom_id once),
so the panel keeps working after a restart, and every control checks Manage Server again on
our side: a forged or replayed click from anyone else changes nothing and is told why.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from bot.config import Settings
from bot.server_settings import (
    CATCH_RATE,
    HOUSE_RULES,
    MAX_CHANNELS,
    ServerSettings,
    SettingRefused,
    bounds,
    choices,
    numbers,
    switches,
)
from bot.servers import ServerSettingsBook
from bot.store import StoreError
from bot.ui import words
from bot.ui.buttons import RETIRED_BUTTON, SETTINGS_ID, SettingsClick, parse_settings
from bot.ui.i18n import Lang, format_number, t
from bot.ui.kinds import SETTINGS_COLOUR, KindChecked, MessageKind
from bot.ui.render import add_field
from bot.ui.respond import Answering, Interaction, button_view, edit_in_place, reply, safe_name
from bot.ui.respond import reader as answer_reader
from bot.ui.text import fit

log = logging.getLogger(__name__)

SELECT_LABEL_LIMIT = 100  # characters in a select option's label
MODAL_LABEL_LIMIT = 45  # characters in a modal input's label
AUTO = "auto"  # the choice value of "follow the host's setting" (the empty language)
DIGITS = re.compile(r"\d{1,20}")
LOOK = ("pictures", "palette")  # the look of a table, listed with the language
# Seconds a modal waits for its answer (the interaction token's life); a closed one is dropped.
MODAL_TIMEOUT = 900


class PanelHost(Protocol):
    """What the panel needs of ``interaction.client`` (``UnoBot`` is one)."""

    @property
    def settings(self) -> Settings:
        """The host's config."""
        ...

    @property
    def servers(self) -> ServerSettingsBook:
        """Each server's settings."""
        ...

    @property
    def sessions(self) -> Answering:
        """Who says the reader's language."""
        ...


def host(interaction: Interaction) -> PanelHost:
    """The bot the panel runs in."""
    client: PanelHost = interaction.client
    return client


def reader(interaction: Interaction) -> Lang:
    """The language of the panel: the bot's one rule for an answer only this person sees."""
    return answer_reader(interaction)


def may_change(interaction: Interaction) -> bool:
    """Whether the person may change this server's settings: Manage Server, in a server."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


# ---------------------------------------------------------------------- words


def setting_name(lang: Lang, name: str) -> str:
    """A setting's name, as the panel and its refusals say it."""
    return t(lang, f"setting.{name}")


def value_text(lang: Lang, name: str, value: Any) -> str:
    """A setting's value in words."""
    if isinstance(value, bool):
        return t(lang, "value.on" if value else "value.off")
    if name == "ai_difficulty":
        return t(lang, f"ai.difficulty.{value}")
    if name in choices():
        return t(lang, f"value.{name}.{value or AUTO}")
    return str(value)


def _seconds(lang: Lang, own: int | None, effective: float) -> str:
    text = t(lang, "settings.seconds", seconds=int(effective))
    return text if own is not None else t(lang, "settings.from_config", value=text)


def panel_embed(lang: Lang, server: ServerSettings, config: Settings, where: str) -> discord.Embed:
    """The panel's embed: every setting of the server and its value now."""
    embed = discord.Embed(
        title=t(lang, "settings.title", where=safe_name(where)), colour=SETTINGS_COLOUR
    )
    embed.description = t(lang, "settings.intro")
    house = [setting_name(lang, n) for n in HOUSE_RULES if server.value(n)]
    rules = [
        f"{setting_name(lang, 'target')}: {format_number(lang, server.target)}",
        f"{setting_name(lang, 'scoring')}: {value_text(lang, 'scoring', server.scoring)}",
        f"{setting_name(lang, 'edition')}: {value_text(lang, 'edition', server.edition)}",
        t(lang, "summary.house", rules=", ".join(house)) if house else t(lang, "settings.no_house"),
    ]
    add_field(embed, t(lang, "settings.section.rules"), "\n".join(rules))
    lines = [
        f"{setting_name(lang, n)}: {_seconds(lang, server.value(n), server.shown(n, config))}"
        for n in ("turn_timeout", "turn_reminder", "lobby_timeout", "next_round_delay")
    ]
    add_field(embed, t(lang, "settings.section.timers"), "\n".join(lines))
    rate = t(lang, "settings.percent", percent=round(server.shown(CATCH_RATE, config) * 100))
    if server.ai_catch_rate is None:
        rate = t(lang, "settings.from_config", value=rate)
    computer = [
        f"{setting_name(lang, n)}: {value_text(lang, n, server.value(n))}"
        for n in ("ai_difficulty", "ai_takeover")
    ] + [f"{setting_name(lang, CATCH_RATE)}: {rate}"]
    add_field(embed, t(lang, "settings.section.ai"), "\n".join(computer))
    look = [f"{setting_name(lang, 'language')}: {value_text(lang, 'language', server.language)}"]
    for name in LOOK:
        text = value_text(lang, name, server.shown(name, config))
        if server.value(name) is None:
            text = t(lang, "settings.from_config", value=text)
        look.append(f"{setting_name(lang, name)}: {text}")
    look.append(f"{setting_name(lang, 'thread')}: {value_text(lang, 'thread', server.thread)}")
    add_field(embed, t(lang, "settings.section.messages"), "\n".join(look))
    channels = " ".join(f"<#{c}>" for c in server.channels) or t(lang, "settings.channels.all")
    role = t(lang, "settings.role.none")
    if server.moderator_role is not None:
        role = f"<@&{server.moderator_role}>"
    access = [
        f"{setting_name(lang, 'channels')}: {channels}",
        f"{setting_name(lang, 'moderator_role')}: {role}",
    ]
    add_field(embed, t(lang, "settings.section.access"), "\n".join(access))
    return embed


def panel_view(lang: Lang, server: ServerSettings, config: Settings) -> discord.ui.View:
    """The panel's controls, each showing the current value (the config's where the server
    left one to it)."""
    shown = {name: server.shown(name, config) for name in (*switches(), *choices())}
    switch_select = discord.ui.Select[Any](
        custom_id=SettingsClick("switches").custom_id,
        placeholder=t(lang, "settings.placeholder.switches"),
        min_values=0,
        max_values=len(switches()),
        options=[
            discord.SelectOption(
                label=fit(setting_name(lang, n), SELECT_LABEL_LIMIT),
                value=n,
                default=bool(shown[n]),
            )
            for n in switches()
        ],
    )
    options = []
    for name, values in choices().items():
        for value in values:
            current = shown[name] == value
            label = f"{setting_name(lang, name)}: {value_text(lang, name, value)}"
            options.append(
                discord.SelectOption(
                    label=fit(("✓ " if current else "") + label, SELECT_LABEL_LIMIT),
                    value=f"{name}:{value or AUTO}",
                )
            )
    choice = discord.ui.Select[Any](
        custom_id=SettingsClick("choice").custom_id,
        placeholder=t(lang, "settings.placeholder.choice"),
        options=options,
    )
    channels = discord.ui.ChannelSelect[Any](
        custom_id=SettingsClick("channels").custom_id,
        placeholder=t(lang, "settings.placeholder.channels"),
        channel_types=[discord.ChannelType.text],
        min_values=0,
        max_values=MAX_CHANNELS,
        default_values=[discord.Object(c, type=discord.abc.GuildChannel) for c in server.channels],
    )
    role = discord.ui.RoleSelect[Any](
        custom_id=SettingsClick("role").custom_id,
        placeholder=t(lang, "settings.placeholder.role"),
        min_values=0,
        max_values=1,
        default_values=(
            []
            if server.moderator_role is None
            else [discord.Object(server.moderator_role, type=discord.Role)]
        ),
    )
    buttons = [
        discord.ui.Button[Any](
            custom_id=click.custom_id,
            label=t(lang, f"settings.button.{click.control}"),
            style=style,
            row=4,
        )
        for click, style in (
            (SettingsClick("numbers"), discord.ButtonStyle.primary),
            (SettingsClick("catch"), discord.ButtonStyle.secondary),
            (SettingsClick("reset"), discord.ButtonStyle.danger),
        )
    ]
    selects = (switch_select, choice, channels, role)
    for row, select in enumerate(selects):
        select.row = row
    # Clicks reach the controls through the registered SettingsControl, never this view.
    return button_view([*selects, *buttons])


async def show_panel(interaction: Interaction, config: Settings, *, reset: bool = False) -> None:
    """Answer /uno-settings: the server's settings with their controls (only to the caller),
    after resetting them to the defaults when ``reset``."""
    lang = reader(interaction)
    if not may_change(interaction):
        key = "settings.not_in_server" if interaction.guild_id is None else "settings.not_allowed"
        await reply(interaction, t(lang, key))
        return
    book = host(interaction).servers
    assert interaction.guild_id is not None
    server = await book.get(interaction.guild_id)
    notice = None
    if reset:
        server = ServerSettings()
        if not await _saved(interaction, lang, book, server):
            return
        notice = t(lang, "settings.reset.done")
    await interaction.response.send_message(
        content=notice,
        embed=panel_embed(lang, server, config, _where(interaction)),
        view=panel_view(lang, server, config),
        ephemeral=True,
    )


async def _opened(
    interaction: Interaction, lang: Lang
) -> tuple[ServerSettingsBook, ServerSettings] | None:
    """The book and the server's settings, if the person may change them; else None (and
    the person told why): the check every control and modal makes again on our side."""
    if not may_change(interaction):
        await reply(interaction, t(lang, "settings.not_allowed"))
        return None
    book = host(interaction).servers
    assert interaction.guild_id is not None
    return book, await book.get(interaction.guild_id)


def _where(interaction: Interaction) -> str:
    return interaction.guild.name if interaction.guild is not None else str(interaction.guild_id)


async def _saved(
    interaction: Interaction, lang: Lang, book: ServerSettingsBook, server: ServerSettings
) -> bool:
    """Write the server's new settings; False (and the person told) if the store refused."""
    assert interaction.guild_id is not None
    try:
        await book.save(interaction.guild_id, server)
    except StoreError:
        log.exception("server %s: settings could not be saved", interaction.guild_id)
        await reply(interaction, t(lang, "settings.store_failed"))
        return False
    return True


def refusal_text(lang: Lang, refused: SettingRefused) -> str:
    """Why a setting cannot take a value, in ``lang``."""
    name = setting_name(lang, refused.name) if refused.name in ServerSettings.model_fields else ""
    if refused.name in numbers() or refused.name == CATCH_RATE:
        low, high = bounds(refused.name)
        if refused.name == CATCH_RATE:
            low, high = low * 100, high * 100
        return t(lang, "settings.refused.range", setting=name, min=int(low), max=int(high))
    if not refused.name:
        return words.settings_error_text(lang, refused.reason)
    return t(lang, "settings.refused", setting=name or safe_name(refused.name))


# ---------------------------------------------------------------------- the controls


class SettingsControl(
    KindChecked, discord.ui.DynamicItem[discord.ui.Item[Any]], template=SETTINGS_ID
):
    """Every control of the settings panel; it carries its click, parsed once."""

    def __init__(self, click: SettingsClick | None, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SettingsControl:
        """Rebuild the control from a click on any panel, old ones included."""
        return cls(parse_settings(match[0]), item)

    def answers(self) -> MessageKind | None:
        """A control answers on a settings panel only."""
        return None if self.click is None else MessageKind.SETTINGS

    async def callback(self, interaction: Interaction) -> None:
        """Check the person may change the settings, then change them or open a modal."""
        lang = reader(interaction)
        if self.click is None:
            await reply(interaction, t(lang, RETIRED_BUTTON))
            return
        opened = await _opened(interaction, lang)
        if opened is None:
            return
        book, server = opened
        control = self.click.control
        config = host(interaction).settings
        if control == "numbers":
            await interaction.response.send_modal(NumbersModal(lang, server))
            return
        if control == "catch":
            await interaction.response.send_modal(CatchRateModal(lang, server))
            return
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        try:
            changed = _changes(interaction, control, values)
            new = server.changed(**changed) if control != "reset" else ServerSettings()
        except SettingRefused as refused:
            await reply(interaction, refusal_text(lang, refused))
            return
        await _apply(interaction, lang, book, new, config)


def _changes(interaction: Interaction, control: str, values: list[str]) -> dict[str, Any]:
    """What a select's chosen ``values`` change; SettingRefused for anything not offered."""
    if control == "switches":
        offered = switches()
        unknown = [v for v in values if v not in offered]
        if unknown:
            raise SettingRefused(unknown[0], "unknown")
        return {name: name in values for name in offered}
    if control == "choice":
        if len(values) != 1:
            raise SettingRefused("choice", "one value")
        name, _, value = values[0].partition(":")
        value = "" if value == AUTO else value
        allowed = choices()
        if name not in allowed or value not in allowed[name]:
            raise SettingRefused(name, "not offered")
        return {name: value}
    if control == "channels":
        ids = _ids(values, MAX_CHANNELS, "channels")
        guild = interaction.guild
        if guild is not None and any(guild.get_channel(c) is None for c in ids):
            raise SettingRefused("channels", "not in this server")
        return {"channels": tuple(ids)}
    if control == "role":
        ids = _ids(values, 1, "moderator_role")
        guild = interaction.guild
        if guild is not None and any(guild.get_role(r) is None for r in ids):
            raise SettingRefused("moderator_role", "not in this server")
        return {"moderator_role": ids[0] if ids else None}
    return {}


def _ids(values: list[str], most: int, name: str) -> list[int]:
    if len(values) > most or not all(DIGITS.fullmatch(v) for v in values):
        raise SettingRefused(name, "not ids")
    return list(dict.fromkeys(int(v) for v in values))


async def _apply(
    interaction: Interaction,
    lang: Lang,
    book: ServerSettingsBook,
    server: ServerSettings,
    config: Settings,
) -> None:
    """Save the new settings and show them on the panel the control was on."""
    if not await _saved(interaction, lang, book, server):
        return
    await edit_in_place(
        interaction,
        content=t(lang, "settings.saved"),
        embed=panel_embed(lang, server, config, _where(interaction)),
        view=panel_view(lang, server, config),
    )


# ---------------------------------------------------------------------- the modals


class _NumbersForm(discord.ui.Modal):
    """A modal of number inputs; each blank one means the bot's default."""

    def __init__(self, lang: Lang, title: str, server: ServerSettings, names: tuple[str, ...]):
        super().__init__(title=fit(title, MODAL_LABEL_LIMIT), timeout=MODAL_TIMEOUT)
        self.lang = lang
        self.inputs: dict[str, discord.ui.TextInput[Any]] = {}
        for name in names:
            field = discord.ui.TextInput[Any](
                custom_id=name,
                label=fit(self.label(name), MODAL_LABEL_LIMIT),
                placeholder=t(lang, "settings.modal.blank"),
                default=self.shown(server.value(name)),
                required=False,
                max_length=6,
            )
            self.inputs[name] = field
            self.add_item(field)

    def label(self, name: str) -> str:
        """The input's label."""
        return setting_name(self.lang, name)

    def shown(self, value: Any) -> str | None:
        """The input's text for a stored value (None: blank)."""
        return None if value is None else str(value)

    def read(self, name: str, text: str) -> Any:
        """The value an input's text stands for; SettingRefused if it is not a number."""
        text = text.strip()
        if not text:
            return ServerSettings.model_fields[name].get_default()
        if not DIGITS.fullmatch(text):
            raise SettingRefused(name, "not a whole number")
        return int(text)

    async def on_submit(self, interaction: Interaction) -> None:
        """Check the person again, read every input, save, and show the panel anew."""
        lang = reader(interaction)
        opened = await _opened(interaction, lang)
        if opened is None:
            return
        book, server = opened
        try:
            values = {
                name: self.read(name, str(field.value)) for name, field in self.inputs.items()
            }
            new = server.changed(**values)
        except SettingRefused as refused:
            await reply(interaction, refusal_text(lang, refused))
            return
        await _apply(interaction, lang, book, new, host(interaction).settings)


class NumbersModal(_NumbersForm):
    """The target and the four timers."""

    def __init__(self, lang: Lang, server: ServerSettings) -> None:
        super().__init__(lang, t(lang, "settings.modal.numbers"), server, numbers())

    def label(self, name: str) -> str:
        """The input's label; timers say their unit."""
        if name == "target":
            return setting_name(self.lang, name)
        return t(self.lang, "settings.in_seconds", setting=setting_name(self.lang, name))


class CatchRateModal(_NumbersForm):
    """How often computer players catch a forgotten UNO, in percent."""

    def __init__(self, lang: Lang, server: ServerSettings) -> None:
        super().__init__(lang, setting_name(lang, CATCH_RATE), server, (CATCH_RATE,))

    def label(self, name: str) -> str:
        """The input's label, in percent."""
        return t(self.lang, "settings.in_percent", setting=setting_name(self.lang, name))

    def shown(self, value: Any) -> str | None:
        """A rate as a whole percentage."""
        return None if value is None else format_number(self.lang, round(value * 100))

    def read(self, name: str, text: str) -> Any:
        """A percentage as a rate."""
        percent = super().read(name, text)
        return None if percent is None else percent / 100
