"""Embeds and views for the lobby, the public table and the ephemeral hand, in a given language.

Everything here draws from the table's state (read through the ``Table`` protocol below, which
``bot.table.TableState`` satisfies) and a ``PlayerView``; no rule is decided here. Every
button is an ``UnoButton`` whose custom_id the codec in ``buttons.py`` builds, so old messages
keep working after a restart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.engine import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Face,
    Game,
    Move,
    Pass,
    Phase,
    PlayCard,
    PlayerView,
    RuleSet,
    SwapWith,
    public_view,
)
from bot.engine.cards import Color, Kind, Side
from bot.engine.view import HandCard

from .buttons import HandClick, LobbyClick, TableClick, UnoButton
from .i18n import Lang, t, tn
from .respond import button_view, safe_name
from .text import COLOR_EMOJI, fit, sort_key
from .words import (
    card_label,
    card_text,
    cards_count,
    color_text,
    hand_prompt,
    lobby_footer,
    move_label,
    rules_summary,
    side_name,
    turn_prompt,
)

Namer = Callable[[str], str]
# What a card button shows: the card's picture as an application emoji, else a colour emoji.
CardEmoji = Callable[[Face, Side], discord.PartialEmoji | str]


def color_emoji(face: Face, side: Side) -> str:
    """A card's colour emoji: the buttons' picture when there are no card emoji."""
    return COLOR_EMOJI[face.color]


class SeatFacts(Protocol):
    """What a drawing reads of a seat."""

    @property
    def name(self) -> str: ...
    @property
    def ai(self) -> str | None: ...
    @property
    def user_id(self) -> int | None: ...


class Table(Protocol):
    """What a drawing reads of a table (``bot.table.TableState`` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def seats(self) -> Sequence[SeatFacts]: ...
    @property
    def host_id(self) -> int: ...
    @property
    def log(self) -> Sequence[str]: ...
    @property
    def turn_timeout(self) -> int: ...
    @property
    def ai_takeover(self) -> bool: ...
    @property
    def ai_difficulty(self) -> str: ...
    @property
    def next_round_delay(self) -> int: ...
    @property
    def game(self) -> Game | None: ...
    def name(self, player: str) -> str: ...
    def is_ai(self, player: str | None) -> bool: ...
    def final_hands(self) -> list[tuple[str, list[Face], int]]: ...


def shown_name(table: Table) -> Namer:
    """The table's names made safe for message text (labels use them as chosen)."""
    return lambda player: safe_name(table.name(player))


MOVE_ROWS = 4  # rows 0-3 hold moves; row 4 holds UNO!/Catch/paging/refresh
MOVES_PER_PAGE = MOVE_ROWS * 5
# Discord's embed limits: a message with one over them is refused whole (400).
EMBED_FIELD_LIMIT = 1024
EMBED_FIELD_NAME_LIMIT = 256
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000
EMBED_COLOR: dict[Side, int] = {Side.LIGHT: 0xF5C842, Side.DARK: 0x6B2FA0}

SHORT_SYMBOL = {
    Kind.SKIP: "⊘",
    Kind.REVERSE: "⇄",
    Kind.DRAW_ONE: "+1",
    Kind.DRAW_TWO: "+2",
    Kind.DRAW_FIVE: "+5",
    Kind.SKIP_EVERYONE: "⏭",
    Kind.FLIP: "🔄",
    Kind.WILD: "W",
    Kind.WILD_DRAW_FOUR: "W+4",
    Kind.WILD_DRAW_TWO: "W+2",
    Kind.WILD_DRAW_COLOR: "W+C",
    Kind.WILD_SHUFFLE_HANDS: "W⤨",
    Kind.WILD_SWAP_HANDS: "W⇆",
    Kind.WILD_CUSTOMIZABLE: "W✎",
}


# ---------------------------------------------------------------------- short forms


def short_face(face: Face) -> str:
    """A compact face for dense lists: emoji plus number or symbol."""
    symbol = str(face.number) if face.kind is Kind.NUMBER else SHORT_SYMBOL[face.kind]
    return f"{COLOR_EMOJI[face.color]}{symbol}"


def short_faces(faces: Sequence[Face], limit: int = EMBED_FIELD_LIMIT) -> str:
    """Sorted compact faces, cut to ``limit`` characters."""
    return fit(" ".join(short_face(face) for face in sorted(faces, key=sort_key)), limit)


def add_field(embed: discord.Embed, name: str, value: str, *, inline: bool = False) -> None:
    """Add a field Discord accepts: name and value never blank, never over their limits."""
    embed.add_field(
        name=fit(name, EMBED_FIELD_NAME_LIMIT) if name.strip() else "\u200b",
        value=fit(value, EMBED_FIELD_LIMIT) if value.strip() else "—",
        inline=inline,
    )


def within_limits(embed: discord.Embed) -> discord.Embed:
    """Cut the title, description and footer to their limits, then the longest field values
    until the whole embed is within Discord's 6,000 characters."""
    if embed.title:
        embed.title = fit(embed.title, EMBED_TITLE_LIMIT)
    if embed.description:
        embed.description = fit(embed.description, EMBED_DESCRIPTION_LIMIT)
    if embed.footer.text:
        embed.set_footer(text=fit(embed.footer.text, EMBED_FOOTER_LIMIT))
    while (over := len(embed) - EMBED_TOTAL_LIMIT) > 0:
        index, field = max(enumerate(embed.fields), key=lambda item: len(item[1].value or ""))
        value = field.value or ""
        if len(value) <= 2:
            # Only the description is left to give (fields are already minimal).
            description = embed.description or ""
            embed.description = fit(description, max(1, len(description) - over))
            break
        embed.set_field_at(
            index,
            name=field.name or "\u200b",
            value=fit(value, max(2, len(value) - over)),
            inline=bool(field.inline),
        )
    return embed


# ---------------------------------------------------------------------- lobby


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's content, embed and view, ready to send or edit (within Discord's limits)."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None

    def __post_init__(self) -> None:
        within_limits(self.embed)


def lobby_message(table: Table, lang: Lang) -> Rendered:
    """The public lobby: players, settings and Join/Leave/Start/Cancel."""
    title = t(lang, "lobby.title.flip" if table.rules.variant == "flip" else "lobby.title.classic")
    # A lobby's log holds only notices such as "the bot restarted"; the game starts it afresh.
    notices = fit("\n".join(table.log), EMBED_DESCRIPTION_LIMIT) if table.log else None
    embed = discord.Embed(title=title, description=notices, color=EMBED_COLOR[Side.LIGHT])
    players = "\n".join(
        t(
            lang,
            "lobby.player.host" if seat.user_id == table.host_id else "lobby.player",
            number=i,
            name=safe_name(seat.name),
        )
        for i, seat in enumerate(table.seats, start=1)
    )
    add_field(
        embed,
        t(lang, "lobby.players.title", count=len(table.seats), max=10),
        players or t(lang, "lobby.players.none"),
        inline=True,
    )
    summary = rules_summary(lang, table.rules, table.turn_timeout, table.ai_takeover)
    add_field(embed, t(lang, "rules.title"), summary)
    embed.set_footer(text=lobby_footer(lang, table.ai_difficulty))
    gid = table.id
    buttons = [
        UnoButton(LobbyClick(gid, "join"), t(lang, "button.join"), discord.ButtonStyle.success),
        UnoButton(LobbyClick(gid, "leave"), t(lang, "button.leave"), discord.ButtonStyle.secondary),
        UnoButton(
            LobbyClick(gid, "start"),
            t(lang, "button.start"),
            discord.ButtonStyle.primary,
            disabled=len(table.seats) < 2,
        ),
        UnoButton(LobbyClick(gid, "cancel"), t(lang, "button.cancel"), discord.ButtonStyle.danger),
        UnoButton(
            LobbyClick(gid, "addai"),
            t(lang, "button.add_ai"),
            discord.ButtonStyle.secondary,
            "🤖",
            row=1,
        ),
    ]
    if any(seat.ai for seat in table.seats):
        buttons.append(
            UnoButton(
                LobbyClick(gid, "dropai"),
                t(lang, "button.remove_ai"),
                discord.ButtonStyle.secondary,
                row=1,
            )
        )
    return Rendered(None, embed, button_view(buttons))


def public_message(table: Table, lang: Lang) -> Rendered:
    """The public message as it should look now: the lobby, the table or the round's end."""
    game = table.game
    if game is None:
        return lobby_message(table, lang)
    view = public_view(game)
    if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return round_over_message(table, view, game.phase is Phase.MATCH_OVER, lang)
    return table_message(table, view, lang)


def closed_message(title: str, text: str) -> Rendered:
    """A lobby or table that has closed: no buttons left."""
    return Rendered(None, discord.Embed(title=title, description=text), None)


# ---------------------------------------------------------------------- table


def table_message(table: Table, view: PlayerView, lang: Lang) -> Rendered:
    """The public table, rendered from a spectator-safe view (no hand shown)."""
    name = shown_name(table)
    flip = view.variant == "flip"
    title = t(lang, "table.title.flip" if flip else "table.title.classic", round=view.round_no)
    clockwise = "clockwise" if view.direction == 1 else "counter_clockwise"
    direction = t(lang, "table.line.direction", arrow=t(lang, f"table.direction.{clockwise}"))
    top = t(
        lang, "table.line.top", card=card_text(lang, view.top), color=color_text(lang, view.color)
    )
    lines = [
        top,
        f"{side_name(lang, view.side)}   {direction}" if flip else direction,
        t(lang, "table.line.now", prompt=turn_prompt(lang, view, name)),
    ]
    embed = discord.Embed(title=title, description="\n".join(lines), color=EMBED_COLOR[view.side])
    for seat in view.opponents:
        marker = "▶ " if seat.player == view.current_player else ""
        uno = " · 📣 UNO" if seat.called_uno and seat.card_count == 1 else ""
        count = cards_count(lang, seat.card_count)
        field_name = f"{marker}{name(seat.player)} — {count}{uno}"
        backs = seat.backs
        value = t(lang, "table.everyone_sees", cards=short_faces(backs)) if flip and backs else ""
        add_field(embed, field_name, value or "\u200b")
    pile = cards_count(lang, view.draw_pile_count)
    if flip and view.draw_pile_back is not None:
        pile = t(
            lang, "table.draw_pile.back", cards=pile, card=card_text(lang, view.draw_pile_back)
        )
    add_field(embed, t(lang, "table.draw_pile"), pile, inline=True)
    scores = " · ".join(f"{name(p)} {points}" for p, points in view.scores.items())
    add_field(embed, t(lang, "table.scores", target=view.target), scores, inline=True)
    if table.log:
        add_field(embed, t(lang, "table.events"), "\n".join(table.log))
    embed.set_footer(text=t(lang, "table.footer"))
    content = None
    if view.current_player is not None and not table.is_ai(view.current_player):
        content = t(lang, "table.your_turn", mention=f"<@{view.current_player}>")
    gid = table.id
    buttons = [
        UnoButton(
            TableClick(gid, "hand"), t(lang, "button.hand"), discord.ButtonStyle.primary, "🃏"
        ),
        UnoButton(TableClick(gid, "uno"), t(lang, "button.uno"), discord.ButtonStyle.success, "📣"),
    ]
    if view.catchable is not None:
        label = t(lang, "button.catch")
        catch = UnoButton(TableClick(gid, "catch"), label, discord.ButtonStyle.danger, "🚨")
        buttons.append(catch)
    return Rendered(content, embed, button_view(buttons))


def round_over_message(table: Table, view: PlayerView, match_over: bool, lang: Lang) -> Rendered:
    """Every hand with its points, the round winner and the running scores."""
    name = shown_name(table)
    result = view.last_round
    assert result is not None
    side = "dark" if result.side is Side.DARK else "light"
    embed = discord.Embed(
        title=t(lang, "round.title", round=result.round_no, name=name(result.winner)),
        description=t(lang, f"round.scored.{side}"),
        color=EMBED_COLOR[result.side],
    )
    for player, faces, points in table.final_hands():
        awarded = result.awarded.get(player, 0)
        if awarded:
            hand = tn(lang, "round.hand.awarded", points, name=name(player), awarded=awarded)
        else:
            hand = tn(lang, "round.hand", points, name=name(player))
        value = short_faces(faces) if faces else t(lang, "round.out")
        add_field(embed, hand, value)
    standings = sorted(view.scores.items(), key=lambda item: -item[1])
    if view.variant and table.rules.scoring == "alternative":
        standings.reverse()
    scores = "\n".join(f"{name(p)}: {points}" for p, points in standings)
    add_field(embed, t(lang, "table.scores", target=view.target), scores)
    if table.log:
        add_field(embed, t(lang, "table.events"), "\n".join(table.log))
    if match_over:
        assert view.match_winner is not None
        embed.title = t(lang, "match.title", name=name(view.match_winner))
        embed.set_footer(text=t(lang, "match.footer"))
        return Rendered(None, embed, None)
    embed.set_footer(text=t(lang, "round.footer", seconds=table.next_round_delay))
    next_round = TableClick(table.id, "next")
    label = t(lang, "button.next_round")
    buttons = [UnoButton(next_round, label, discord.ButtonStyle.primary)]
    return Rendered(None, embed, button_view(buttons))


# ---------------------------------------------------------------------- hand


def move_button(
    table: Table,
    serial: int,
    move: Move,
    view: PlayerView,
    lang: Lang,
    card_emoji: CardEmoji = color_emoji,
) -> UnoButton:
    """One button for one legal move, labelled for a person; cards show ``card_emoji``."""
    click = HandClick(table.id, serial, move=move)
    # Labels show no markdown: names as chosen.
    label = move_label(lang, move, view, table.name)
    match move:
        case PlayCard(card=card):
            face = next(h.face for h in view.hand if h.card == card)
            return UnoButton(click, label, _card_style(face.color), card_emoji(face, view.side))
        case Draw():
            return UnoButton(click, label, discord.ButtonStyle.primary, "📥")
        case Pass():
            # "Keep it", beside "Play it" (the card's colour and picture): grey, a hand.
            return UnoButton(click, label, discord.ButtonStyle.secondary, "✋")
        case ChooseColor(color=color):
            return UnoButton(click, label, _card_style(color), COLOR_EMOJI[color])
        case Accept():
            return UnoButton(click, label, discord.ButtonStyle.secondary)
        case Challenge():
            return UnoButton(click, label, discord.ButtonStyle.danger, "⚖️")
        case SwapWith():
            return UnoButton(click, label)
        case CallUno():
            return UnoButton(click, label, discord.ButtonStyle.success, "📣", row=MOVE_ROWS)
        case Catch():
            return UnoButton(click, label, discord.ButtonStyle.danger, "🚨", MOVE_ROWS)
    raise AssertionError(f"no button for {move!r}")


def _card_style(color: Color | None) -> discord.ButtonStyle:
    # Discord's button colours are red, green, blurple and grey. Grey is how a card that
    # cannot be played looks, so yellow and wild cards (and the yellow choice) take blurple;
    # their emoji tells them from blue.
    if color in (Color.RED, Color.PINK, Color.ORANGE):
        return discord.ButtonStyle.danger
    if color in (Color.GREEN, Color.TEAL):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


def hand_message(
    table: Table,
    view: PlayerView,
    serial: int,
    page: int,
    notice: str | None,
    lang: Lang,
    *,
    card_emoji: CardEmoji = color_emoji,
) -> Rendered:
    """The ephemeral hand: a button per distinct card (enabled when playable), paged past 20;
    each card shows ``card_emoji``."""
    cards = sorted(view.hand, key=lambda h: sort_key(h.face))
    title = tn(lang, "hand.title", len(cards))
    embed = discord.Embed(title=title, color=EMBED_COLOR[view.side])
    embed.description = _hand_lines(cards, lang)
    if view.variant == "flip":
        backs = [h.back for h in cards if h.back is not None]
        if backs:
            add_field(embed, t(lang, "hand.backs"), short_faces(backs))
    top = t(
        lang, "hand.table.line", card=card_text(lang, view.top), color=color_text(lang, view.color)
    )
    add_field(embed, t(lang, "hand.table"), top)
    add_field(embed, t(lang, "hand.now"), hand_prompt(lang, view, shown_name(table)))
    if notice:
        embed.set_footer(text=notice)
    card_buttons = _card_buttons(table, serial, view, cards, lang, card_emoji)
    specials = [
        move_button(table, serial, m, view, lang)
        for m in view.legal_moves
        if not isinstance(m, PlayCard | CallUno | Catch)
    ]
    extras = [
        move_button(table, serial, m, view, lang)
        for m in view.legal_moves
        if isinstance(m, CallUno | Catch)
    ][:2]
    per_page = MOVES_PER_PAGE - len(specials)
    pages = max(1, -(-len(card_buttons) // per_page))
    page = min(max(page, 0), pages - 1)
    buttons = card_buttons[page * per_page : (page + 1) * per_page] + specials + extras
    if pages > 1:
        back = HandClick(table.id, serial, page=max(0, page - 1))
        forward = HandClick(table.id, serial, page=min(pages - 1, page + 1))
        buttons.append(UnoButton(back, "◀", row=MOVE_ROWS, disabled=page == 0))
        buttons.append(UnoButton(forward, "▶", row=MOVE_ROWS, disabled=page == pages - 1))
        embed.title = t(lang, "hand.page", title=title, page=page + 1, pages=pages)
    refresh = t(lang, "button.refresh")
    buttons.append(UnoButton(HandClick(table.id, serial), refresh, row=MOVE_ROWS, emoji="🔄"))
    return Rendered(None, embed, button_view(buttons))


def _card_buttons(
    table: Table,
    serial: int,
    view: PlayerView,
    cards: Sequence[HandCard],
    lang: Lang,
    card_emoji: CardEmoji,
) -> list[UnoButton]:
    # While a decision is pending only the cards that answer it are shown; otherwise every
    # distinct card is shown once (two Red 5s are one choice), enabled when it can be played.
    playable = {m.card for m in view.legal_moves if isinstance(m, PlayCard)}
    pending = view.current_player == view.player and view.phase != "play"
    shown: dict[Face, int] = {}
    for held in cards:
        if pending and held.card not in playable:
            continue
        if held.face not in shown or held.card in playable:
            shown[held.face] = held.card
    buttons = []
    for face, card in shown.items():
        if card in playable:
            buttons.append(move_button(table, serial, PlayCard(card), view, lang, card_emoji))
        else:
            buttons.append(
                UnoButton(
                    HandClick(table.id, serial, move=PlayCard(card)),
                    card_label(lang, face),
                    discord.ButtonStyle.secondary,
                    card_emoji(face, view.side),
                    disabled=True,
                )
            )
    return buttons


def _hand_lines(cards: Sequence[HandCard], lang: Lang) -> str:
    if not cards:
        return t(lang, "hand.empty")
    counts = Counter(h.face for h in cards)
    return "\n".join(
        card_text(lang, face) + (f" ×{count}" if count > 1 else "")
        for face, count in counts.items()
    )
