"""Embeds and views for the lobby, the public table and the ephemeral hand.

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
from .respond import button_view, safe_name
from .text import (
    COLOR_EMOJI,
    SIDE_NAMES,
    card_label,
    card_text,
    color_text,
    fit,
    plural,
    sort_key,
)

Namer = Callable[[str], str]


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
BUTTON_LABEL_LIMIT = 80
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


def lobby_message(table: Table) -> Rendered:
    """The public lobby: players, settings and Join/Leave/Start/Cancel."""
    title = "UNO Flip lobby" if table.rules.variant == "flip" else "UNO lobby"
    # A lobby's log holds only notices such as "the bot restarted"; the game starts it afresh.
    notices = fit("\n".join(table.log), EMBED_DESCRIPTION_LIMIT) if table.log else None
    embed = discord.Embed(title=title, description=notices, color=EMBED_COLOR[Side.LIGHT])
    players = "\n".join(
        f"{i}. {safe_name(seat.name)}{' (host)' if seat.user_id == table.host_id else ''}"
        for i, seat in enumerate(table.seats, start=1)
    )
    add_field(embed, f"Players ({len(table.seats)}/10)", players or "nobody yet", inline=True)
    add_field(embed, "Rules", rules_summary(table))
    embed.set_footer(
        text="Join, then the host presses Start (2 to 10 players). "
        f"Add AI seats a {table.ai_difficulty} computer player."
    )
    gid = table.id
    buttons = [
        UnoButton(LobbyClick(gid, "join"), "Join", discord.ButtonStyle.success),
        UnoButton(LobbyClick(gid, "leave"), "Leave", discord.ButtonStyle.secondary),
        UnoButton(
            LobbyClick(gid, "start"),
            "Start",
            discord.ButtonStyle.primary,
            disabled=len(table.seats) < 2,
        ),
        UnoButton(LobbyClick(gid, "cancel"), "Cancel", discord.ButtonStyle.danger),
        UnoButton(LobbyClick(gid, "addai"), "Add AI", discord.ButtonStyle.secondary, "🤖", row=1),
    ]
    if any(seat.ai for seat in table.seats):
        buttons.append(
            UnoButton(LobbyClick(gid, "dropai"), "Remove AI", discord.ButtonStyle.secondary, row=1)
        )
    return Rendered(None, embed, button_view(buttons))


def public_message(table: Table) -> Rendered:
    """The public message as it should look now: the lobby, the table or the round's end."""
    game = table.game
    if game is None:
        return lobby_message(table)
    view = public_view(game)
    if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return round_over_message(table, view, game.phase is Phase.MATCH_OVER)
    return table_message(table, view)


def closed_message(title: str, text: str) -> Rendered:
    """A lobby or table that has closed: no buttons left."""
    return Rendered(None, discord.Embed(title=title, description=text), None)


def rules_summary(table: Table) -> str:
    """The variant, target, scoring and house rules of a session in one short block."""
    rules = table.rules
    lines = [
        ("UNO Flip" if rules.variant == "flip" else "Classic UNO")
        + (f" ({rules.edition.replace('_', ' ')} edition)" if rules.edition != "standard" else ""),
        f"Play to {rules.target} points, {rules.scoring} scoring.",
        f"Turn timer: {table.turn_timeout} s"
        + (", then the AI plays for you." if table.ai_takeover else "."),
    ]
    house = [
        label
        for label, on in (
            ("stacking", rules.stacking),
            ("Wild Draw Four on Draw Two", rules.stack_wild_draw_four_on_draw_two),
            ("Seven-O", rules.seven_o),
            ("jump-in", rules.jump_in),
            ("draw until playable", rules.draw_until_playable),
            ("forced play", rules.forced_play),
        )
        if on
    ]
    lines.append("House rules: " + (", ".join(house) if house else "none (official rules)."))
    return "\n".join(lines)


# ---------------------------------------------------------------------- table


def turn_prompt(view: PlayerView, name: Namer) -> str:
    """What the table is waiting for, in words."""
    if view.current_player is None:
        return "Round over."
    who = name(view.current_player)
    phase = view.phase
    if phase == "choose_color":
        return f"{who} is choosing a colour."
    if phase == "swap_target":
        return f"{who} is choosing whose hand to swap with."
    if phase == "drawn":
        return f"{who} drew a playable card: play it or keep it."
    if phase == "penalty":
        if view.penalty_kind == Kind.WILD_DRAW_COLOR.value:
            return f"{who} must draw until {color_text(view.color)} (or challenge)."
        return f"{who} must answer: draw {view.pending_draw}, challenge or stack."
    return f"{who} to play."


def table_message(table: Table, view: PlayerView) -> Rendered:
    """The public table, rendered from a spectator-safe view (no hand shown)."""
    name = shown_name(table)
    flip = view.variant == "flip"
    title = f"{'UNO Flip' if flip else 'UNO'} — round {view.round_no}"
    arrow = "↻ clockwise" if view.direction == 1 else "↺ counter-clockwise"
    lines = [
        f"**Top card:** {card_text(view.top)}   **Colour:** {color_text(view.color)}",
        f"{SIDE_NAMES[view.side] if flip else ''}{'   ' if flip else ''}**Direction:** {arrow}",
        f"**Now:** {turn_prompt(view, name)}",
    ]
    embed = discord.Embed(title=title, description="\n".join(lines), color=EMBED_COLOR[view.side])
    for seat in view.opponents:
        marker = "▶ " if seat.player == view.current_player else ""
        uno = " · 📣 UNO" if seat.called_uno and seat.card_count == 1 else ""
        field_name = f"{marker}{name(seat.player)} — {plural(seat.card_count, 'card')}{uno}"
        backs = seat.backs
        value = f"Everyone sees: {short_faces(backs)}" if flip and backs else "\u200b"
        add_field(embed, field_name, value)
    pile = plural(view.draw_pile_count, "card")
    if flip and view.draw_pile_back is not None:
        pile += f"; its top shows {card_text(view.draw_pile_back)}"
    add_field(embed, "Draw pile", pile, inline=True)
    scores = " · ".join(f"{name(p)} {points}" for p, points in view.scores.items())
    add_field(embed, f"Scores (to {view.target})", scores, inline=True)
    if table.log:
        add_field(embed, "Last events", "\n".join(table.log))
    embed.set_footer(text="Press Hand to see your cards. Only you can see your hand.")
    content = None
    if view.current_player is not None and not table.is_ai(view.current_player):
        content = f"<@{view.current_player}>, it's your turn."
    gid = table.id
    buttons = [
        UnoButton(TableClick(gid, "hand"), "Hand", discord.ButtonStyle.primary, "🃏"),
        UnoButton(TableClick(gid, "uno"), "UNO!", discord.ButtonStyle.success, "📣"),
    ]
    if view.catchable is not None:
        catch = UnoButton(TableClick(gid, "catch"), "Catch", discord.ButtonStyle.danger, "🚨")
        buttons.append(catch)
    return Rendered(content, embed, button_view(buttons))


def round_over_message(table: Table, view: PlayerView, match_over: bool) -> Rendered:
    """Every hand with its points, the round winner and the running scores."""
    name = shown_name(table)
    result = view.last_round
    assert result is not None
    side = "dark" if result.side is Side.DARK else "light"
    embed = discord.Embed(
        title=f"🏁 Round {result.round_no}: {name(result.winner)} went out",
        description=f"Hands scored on the {side} side.",
        color=EMBED_COLOR[result.side],
    )
    for player, faces, points in table.final_hands():
        awarded = result.awarded.get(player, 0)
        gained = f" (+{awarded})" if awarded else ""
        value = short_faces(faces) if faces else "out!"
        add_field(embed, f"{name(player)}: {points} points in hand{gained}", value)
    standings = sorted(view.scores.items(), key=lambda item: -item[1])
    if view.variant and table.rules.scoring == "alternative":
        standings.reverse()
    scores = "\n".join(f"{name(p)}: {points}" for p, points in standings)
    add_field(embed, f"Scores (to {view.target})", scores)
    if table.log:
        add_field(embed, "Last events", "\n".join(table.log))
    if match_over:
        assert view.match_winner is not None
        embed.title = f"🏆 {name(view.match_winner)} wins the game!"
        embed.set_footer(text="Start another game with /uno flip start or /uno classic start.")
        return Rendered(None, embed, None)
    embed.set_footer(text=f"The next round starts in {table.next_round_delay} s.")
    next_round = TableClick(table.id, "next")
    buttons = [UnoButton(next_round, "Next round", discord.ButtonStyle.primary)]
    return Rendered(None, embed, button_view(buttons))


# ---------------------------------------------------------------------- hand


def move_button(table: Table, serial: int, move: Move, view: PlayerView) -> UnoButton:
    """One button for one legal move, labelled for a person."""
    click = HandClick(table.id, serial, move=move)
    label_name = table.name  # labels show no markdown: the name as chosen
    match move:
        case PlayCard(card=card):
            face = next(h.face for h in view.hand if h.card == card)
            label = card_label(face)
            if view.phase == "drawn":
                label = f"Play {label}"
            return UnoButton(click, label, _card_style(face), COLOR_EMOJI[face.color])
        case Draw():
            return UnoButton(click, "Draw", discord.ButtonStyle.primary, "📥")
        case Pass():
            return UnoButton(click, "Keep it", discord.ButtonStyle.secondary)
        case ChooseColor(color=color):
            return UnoButton(
                click, color.value.capitalize(), discord.ButtonStyle.primary, COLOR_EMOJI[color]
            )
        case Accept():
            label = (
                "Accept: draw until the colour"
                if view.penalty_kind == Kind.WILD_DRAW_COLOR.value
                else f"Accept: draw {view.pending_draw}"
            )
            return UnoButton(click, label, discord.ButtonStyle.secondary)
        case Challenge():
            return UnoButton(click, "Challenge", discord.ButtonStyle.danger, "⚖️")
        case SwapWith(target=target):
            return UnoButton(click, fit(f"Swap with {label_name(target)}", BUTTON_LABEL_LIMIT))
        case CallUno():
            return UnoButton(click, "UNO!", discord.ButtonStyle.success, "📣", row=MOVE_ROWS)
        case Catch(target=target):
            label = fit(f"Catch {label_name(target)}", BUTTON_LABEL_LIMIT)
            return UnoButton(click, label, discord.ButtonStyle.danger, "🚨", MOVE_ROWS)
    raise AssertionError(f"no button for {move!r}")


def _card_style(face: Face) -> discord.ButtonStyle:
    if face.color in (Color.RED, Color.PINK, Color.ORANGE):
        return discord.ButtonStyle.danger
    if face.color in (Color.GREEN, Color.TEAL):
        return discord.ButtonStyle.success
    if face.color in (Color.BLUE, Color.PURPLE):
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def hand_prompt(view: PlayerView, name: Namer) -> str:
    """What the hand's owner is asked to do now."""
    if view.current_player != view.player:
        waiting = name(view.current_player) if view.current_player else "nobody"
        return f"Waiting for {waiting}."
    phase = view.phase
    if phase == "choose_color":
        return "Choose the colour play continues in."
    if phase == "swap_target":
        return "Choose whose hand you take."
    if phase == "drawn":
        return "You drew a playable card: play it or keep it."
    if phase == "penalty":
        return "A draw card is on you: accept it, challenge it or stack."
    return "Your turn: play a card or draw."


def hand_message(
    table: Table, view: PlayerView, serial: int, page: int, notice: str | None
) -> Rendered:
    """The ephemeral hand: a button per distinct card (enabled when playable), paged past 20."""
    cards = sorted(view.hand, key=lambda h: sort_key(h.face))
    title = f"Your hand — {plural(len(cards), 'card')}"
    embed = discord.Embed(title=title, color=EMBED_COLOR[view.side])
    embed.description = _hand_lines(cards)
    if view.variant == "flip":
        backs = [h.back for h in cards if h.back is not None]
        if backs:
            add_field(embed, "Others see the backs", short_faces(backs))
    add_field(embed, "Table", f"Top: {card_text(view.top)} · Colour: {color_text(view.color)}")
    add_field(embed, "Now", hand_prompt(view, shown_name(table)))
    if notice:
        embed.set_footer(text=notice)
    card_buttons = _card_buttons(table, serial, view, cards)
    specials = [
        move_button(table, serial, m, view)
        for m in view.legal_moves
        if not isinstance(m, PlayCard | CallUno | Catch)
    ]
    extras = [
        move_button(table, serial, m, view)
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
        embed.title = f"{title} (page {page + 1}/{pages})"
    buttons.append(UnoButton(HandClick(table.id, serial), "Refresh", row=MOVE_ROWS, emoji="🔄"))
    return Rendered(None, embed, button_view(buttons))


def _card_buttons(
    table: Table, serial: int, view: PlayerView, cards: Sequence[HandCard]
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
            buttons.append(move_button(table, serial, PlayCard(card), view))
        else:
            buttons.append(
                UnoButton(
                    HandClick(table.id, serial, move=PlayCard(card)),
                    card_label(face),
                    discord.ButtonStyle.secondary,
                    COLOR_EMOJI[face.color],
                    disabled=True,
                )
            )
    return buttons


def _hand_lines(cards: Sequence[HandCard]) -> str:
    if not cards:
        return "No cards."
    counts = Counter(h.face for h in cards)
    return "\n".join(
        card_text(face) + (f" ×{count}" if count > 1 else "") for face, count in counts.items()
    )
