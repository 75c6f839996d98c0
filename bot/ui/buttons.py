"""Every unoflip button, and the one codec that builds and parses their custom_ids.

A custom_id names the session and what the button does, never who may press it (identity
comes from the interaction). It is parsed once per click into a typed ``Click``; anything the
codec cannot read exactly (an unknown action, a number no card or page has) parses to None.

    uno:l:<session>:<join|leave|start|cancel|addai|dropai>      the lobby
    uno:t:<session>:<hand|uno|catch|next>                       the public table
    uno:h:<session>:<serial>:<code>                             an ephemeral hand
        p<card> play · d draw · k keep · c<r|y|g|b|p|t|o|u> colour · a accept · x challenge
        s<player> swap with · v<player> targeted draw (All Wild) · u UNO! · t<player> catch
        g<page> page · r refresh
    uno:s:<switches|choice|channels|role|numbers|catch|reset>  the /uno-settings panel
    uno:f:confirm                                               /uno forget-me's confirmation

Old messages keep working after a restart: the ids are the same as they always were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args

import discord

from bot.engine import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Move,
    Pass,
    PlayCard,
    SwapWith,
    TargetDraw,
)
from bot.engine.cards import Color

from .i18n import t
from .kinds import KindChecked, MessageKind
from .respond import Answering, Interaction, reader, reply

CUSTOM_ID = re.compile(r"uno:(?P<scope>[lth]):(?P<session>[0-9a-z]+):(?P<rest>[0-9a-z:]*)")
# A card id indexes a deck of at most 112 cards, a page or serial is small: longer numbers
# can only be forged, and are refused before they reach the engine.
MAX_CARD_DIGITS = 3
MAX_SERIAL_DIGITS = 9
RETIRED_BUTTON = "button.stale"  # the message key of the answer to an id nobody can read
# /uno forget-me's one button: it erases the presser's own data, so it names nobody.
FORGET_ME_ID = "uno:f:confirm"

LobbyAction = Literal["join", "leave", "start", "cancel", "addai", "dropai"]
TableAction = Literal["hand", "uno", "catch", "next"]
COLOR_CODE = {color: color.value[0] for color in Color} | {Color.PURPLE: "u"}
CODE_COLOR = {code: color for color, code in COLOR_CODE.items()}
SIMPLE_MOVES: dict[str, Move] = {
    "d": Draw(),
    "k": Pass(),
    "a": Accept(),
    "x": Challenge(),
    "u": CallUno(),
}


@dataclass(frozen=True, slots=True)
class LobbyClick:
    """A lobby button: Join, Leave, Start, Cancel, Add AI or Remove AI."""

    session: str
    action: LobbyAction


@dataclass(frozen=True, slots=True)
class TableClick:
    """A public table button: Hand, UNO!, Catch or Next round."""

    session: str
    action: TableAction


@dataclass(frozen=True, slots=True)
class HandClick:
    """A button on someone's hand: a move made at turn ``serial``, a page, or Refresh."""

    session: str
    serial: int
    move: Move | None = None
    page: int | None = None

    @property
    def refresh(self) -> bool:
        """Refresh: neither a move nor a page."""
        return self.move is None and self.page is None


Click = LobbyClick | TableClick | HandClick

# The /uno-settings panel's controls: which server is always the interaction's own.
SETTINGS_ID = re.compile(r"uno:s:(?P<control>[a-z]+)")
SettingsControl = Literal["switches", "choice", "channels", "role", "numbers", "catch", "reset"]


@dataclass(frozen=True, slots=True)
class SettingsClick:
    """A control of the settings panel: a select, or a button that opens a modal or resets."""

    control: SettingsControl

    @property
    def custom_id(self) -> str:
        """The custom_id of the control that sends this click."""
        return f"uno:s:{self.control}"


def parse_settings(text: str) -> SettingsClick | None:
    """The settings control a custom_id stands for, or None if it is not one the bot makes."""
    found = SETTINGS_ID.fullmatch(text)
    if found is None or found["control"] not in get_args(SettingsControl):
        return None
    return SettingsClick(found["control"])  # type: ignore[arg-type]  # checked just above


def custom_id(click: Click) -> str:
    """The custom_id of the button that sends ``click``."""
    match click:
        case LobbyClick(session=session, action=action):
            return f"uno:l:{session}:{action}"
        case TableClick(session=session, action=action):
            return f"uno:t:{session}:{action}"
        case HandClick(session=session, serial=serial, move=move, page=page):
            code = "r" if move is None and page is None else _code(move, page)
            return f"uno:h:{session}:{serial}:{code}"
    raise AssertionError(f"no custom_id for {click!r}")


def _code(move: Move | None, page: int | None) -> str:
    if page is not None:
        return f"g{page}"
    match move:
        case PlayCard(card=card):
            return f"p{card}"
        case ChooseColor(color=color):
            return f"c{COLOR_CODE[color]}"
        case SwapWith(target=target):
            return f"s{target}"
        case TargetDraw(target=target):
            return f"v{target}"
        case Catch(target=target):
            return f"t{target}"
    for code, simple in SIMPLE_MOVES.items():
        if move == simple:
            return code
    raise AssertionError(f"no button code for {move!r}")


def parse(text: str) -> Click | None:
    """The click a custom_id stands for, or None if it is not one the bot makes."""
    found = CUSTOM_ID.fullmatch(text)
    if found is None:
        return None
    session, rest = found["session"], found["rest"]
    if found["scope"] == "l":
        return LobbyClick(session, rest) if rest in get_args(LobbyAction) else None  # type: ignore[arg-type]
    if found["scope"] == "t":
        return TableClick(session, rest) if rest in get_args(TableAction) else None  # type: ignore[arg-type]
    serial_text, _, code = rest.partition(":")
    serial = _number(serial_text, MAX_SERIAL_DIGITS)
    if serial is None:
        return None
    if code == "r":
        return HandClick(session, serial)
    if code.startswith("g"):
        page = _number(code[1:], MAX_CARD_DIGITS)
        return None if page is None else HandClick(session, serial, page=page)
    move = _move(code)
    return None if move is None else HandClick(session, serial, move=move)


def _number(text: str, digits: int) -> int | None:
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def _move(code: str) -> Move | None:
    head, arg = code[:1], code[1:]
    if head == "p":
        card = _number(arg, MAX_CARD_DIGITS)
        return None if card is None else PlayCard(card)
    if head == "c":
        return ChooseColor(CODE_COLOR[arg]) if arg in CODE_COLOR else None
    if head == "s" and arg:
        return SwapWith(arg)
    if head == "v" and arg:
        return TargetDraw(arg)
    if head == "t" and arg:
        return Catch(arg)
    return SIMPLE_MOVES.get(code)


class ClickRouter(Answering, Protocol):
    """Where a parsed click goes (the bot's ``SessionManager``)."""

    async def click(self, interaction: Interaction, click: Click) -> None:
        """Route ``click`` to its session and answer it, always."""
        ...


class ButtonHost(Protocol):
    """What a button needs of ``interaction.client`` (``UnoBot`` is one)."""

    @property
    def sessions(self) -> ClickRouter:
        """The bot's sessions."""
        ...


class UnoButton(KindChecked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
    """Every unoflip button; it carries its click, parsed once."""

    def __init__(
        self,
        click: Click | None,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | discord.PartialEmoji | None = None,
        row: int | None = None,
        disabled: bool = False,
        *,
        raw_id: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=raw_id if click is None else custom_id(click),
                label=label,
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
            )
        )
        self.click = click

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> UnoButton:
        """Rebuild the button from a click on any message, old ones included."""
        return cls(parse(match[0]), raw_id=match[0])

    def answers(self) -> MessageKind | None:
        """A hand button answers on a hand; lobby and table buttons on a table."""
        if self.click is None:
            return None
        return MessageKind.HAND if isinstance(self.click, HandClick) else MessageKind.TABLE

    async def callback(self, interaction: Interaction) -> None:
        """Hand the click to the session manager (which answers it, always)."""
        host: ButtonHost = interaction.client
        if self.click is None:
            await reply(interaction, t(reader(interaction), RETIRED_BUTTON))
            return
        await host.sessions.click(interaction, self.click)
