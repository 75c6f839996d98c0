"""Embeds and views for the lobby, the public table and the ephemeral hand, in a given language.

Everything here draws from the table's state (read through the ``Table`` protocol below, which
``bot.table.TableState`` satisfies) and a ``PlayerView``; no rule is decided here. Every
button is an ``UnoButton`` whose custom_id the codec in ``buttons.py`` builds, so old messages
keep working after a restart.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
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
    OpponentView,
    Pass,
    Phase,
    PlayCard,
    PlayerView,
    RuleSet,
    SwapWith,
    TargetDraw,
    public_view,
)
from bot.engine.cards import Color, Kind, Side
from bot.engine.variants import variant as variant_entry
from bot.engine.view import HandCard
from bot.options import TableOptions

from .buttons import HandClick, LobbyClick, TableClick, UnoButton
from .i18n import Lang, t, tn
from .kinds import TABLE_COLOURS
from .respond import button_view, plain_name, safe_name
from .text import COLOR_EMOJI, fit, sort_key
from .words import (
    BUTTON_LIMIT,
    ai_level,
    card_label,
    card_text,
    cards_count,
    challenge_stakes_text,
    color_text,
    hand_prompt,
    lobby_footer,
    move_label,
    rules_differences,
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
    def options(self) -> TableOptions: ...
    @property
    def turn_deadline(self) -> datetime | None: ...
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
# A table's and a hand's colour also says which kind of message it is (bot/ui/kinds.py).
EMBED_COLOR = TABLE_COLOURS

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
    Kind.DRAW_FOUR: "+4",
    Kind.DISCARD_ALL: "⇊",
    Kind.WILD_REVERSE_DRAW_FOUR: "W⇄+4",
    Kind.WILD_DRAW_SIX: "W+6",
    Kind.WILD_DRAW_TEN: "W+10",
    Kind.WILD_COLOR_ROULETTE: "W?",
    Kind.WILD_REVERSE: "W⇄",
    Kind.WILD_SKIP: "W⊘",
    Kind.WILD_SKIP_TWO: "W⊘⊘",
    Kind.WILD_TARGETED_DRAW_TWO: "W🎯+2",
    Kind.WILD_FORCED_SWAP: "W⇅",
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
        name=fit(name, EMBED_FIELD_NAME_LIMIT) if name.strip() else "—",
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
            name=field.name or "—",
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
    entry = variant_entry(table.rules.variant)
    title = t(lang, entry.words.lobby_title)
    # A lobby's log holds only notices such as "the bot restarted"; the game starts it afresh.
    notices = fit("\n".join(table.log), EMBED_DESCRIPTION_LIMIT) if table.log else None
    embed = discord.Embed(title=title, description=notices, color=EMBED_COLOR[Side.LIGHT])
    players = "\n".join(_lobby_seat(table, lang, i, seat) for i, seat in enumerate(table.seats, 1))
    add_field(
        embed,
        t(lang, "lobby.players.title", count=len(table.seats), max=entry.max_players),
        players or t(lang, "lobby.players.none"),
        inline=True,
    )
    options = table.options
    summary = rules_summary(lang, table.rules, options.turn_timeout, options.ai_takeover)
    differences = rules_differences(lang, table.rules)
    add_field(embed, t(lang, "rules.title"), f"{summary}\n{differences}")
    embed.set_footer(
        text=lobby_footer(lang, options.ai_difficulty, entry.min_players, entry.max_players)
    )
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


def _lobby_seat(table: Table, lang: Lang, number: int, seat: SeatFacts) -> str:
    # The lobby is the one place a computer player's level is shown.
    name = safe_name(seat.name)
    if seat.ai:
        return t(lang, "lobby.player.ai", number=number, name=name, level=ai_level(lang, seat.ai))
    key = "lobby.player.host" if seat.user_id == table.host_id else "lobby.player"
    return t(lang, key, number=number, name=name)


def public_message(table: Table, lang: Lang) -> Rendered:
    """The public message as it should look now: the lobby, the table or the round's end."""
    game = table.game
    if game is None:
        return lobby_message(table, lang)
    view = public_view(game)
    if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return round_over_message(table, view, game.phase is Phase.MATCH_OVER, lang)
    if game.phase is Phase.ABANDONED:
        # Everyone left or timed out: the last events say why; nothing is left to press.
        events = "\n".join(table.log) or t(lang, "event.abandoned")
        return closed_message(t(lang, "closed.abandoned.title"), events, table, lang)
    return table_message(table, view, lang)


def closed_message(
    title: str, text: str, table: Table | None = None, lang: Lang | None = None
) -> Rendered:
    """A lobby or table that has closed: no buttons left; a game keeps its standings."""
    embed = discord.Embed(title=title, description=text)
    if table is not None and table.game is not None and lang is not None:
        add_standings(embed, table, public_view(table.game), lang)
    return Rendered(None, embed, None)


# ---------------------------------------------------------------------- a game's thread

THREAD_NAME_LIMIT = 100  # characters in a Discord thread's name


def thread_name(table: Table, lang: Lang) -> str:
    """The name of a game's thread, "UNO Flip · Alice's table": plain text (a channel name
    shows no markdown), cut to Discord's limit."""
    entry = variant_entry(table.rules.variant)
    host = next((s for s in table.seats if s.user_id == table.host_id), None) or table.seats[0]
    game = t(lang, entry.words.name)
    return fit(t(lang, "thread.name", game=game, name=plain_name(host.name)), THREAD_NAME_LIMIT)


def thread_pointer(table: Table, lang: Lang, thread_id: int) -> Rendered:
    """The lobby's message once its game went on in a thread: where, and who plays."""
    entry = variant_entry(table.rules.variant)
    embed = discord.Embed(
        title=t(lang, entry.words.lobby_title),
        description=t(lang, "thread.moved", thread=f"<#{thread_id}>"),
        color=EMBED_COLOR[Side.LIGHT],
    )
    players = "\n".join(safe_name(seat.name) for seat in table.seats)
    title = t(lang, "lobby.players.title", count=len(table.seats), max=entry.max_players)
    add_field(embed, title, players)
    return Rendered(None, embed, None)


def thread_result(table: Table, lang: Lang, thread_id: int) -> str:
    """The line the lobby's channel gets when the game in its thread ends: who won, or that
    it is over."""
    game = table.game
    name = t(lang, variant_entry(table.rules.variant).words.name)
    where = f"<#{thread_id}>"
    winner = public_view(game).match_winner if game is not None else None
    if game is not None and game.phase is Phase.MATCH_OVER and winner is not None:
        return t(lang, "thread.result.won", name=shown_name(table)(winner), game=name, thread=where)
    return t(lang, "thread.result.over", game=name, thread=where)


def add_standings(embed: discord.Embed, table: Table, view: PlayerView, lang: Lang) -> None:
    """The match's scores, best first (lowest first under alternative scoring)."""
    name = shown_name(table)
    standings = sorted(view.scores.items(), key=lambda item: -item[1])
    if table.rules.scoring == "alternative":
        standings.reverse()
    scores = "\n".join(f"{name(p)}: {points}" for p, points in standings)
    add_field(embed, t(lang, "table.scores", target=view.target), scores)


# ---------------------------------------------------------------------- table


# The most lines of text the public table takes (title, description, field names and values,
# footer): 12 up to four players, one more for each player past four (18 at ten).
TABLE_LINES_UP_TO_FOUR = 12


def table_line_budget(players: int) -> int:
    """The most lines of text the public table may take with ``players`` players."""
    return TABLE_LINES_UP_TO_FOUR + max(0, players - 4)


def embed_lines(embed: discord.Embed) -> int:
    """The lines of text a reader sees in an embed: title, description, every field's name and
    value, footer."""
    parts = [embed.title, embed.description, embed.footer.text]
    parts += [text for field in embed.fields for text in (field.name, field.value)]
    return sum(part.count("\n") + 1 for part in parts if part)


# A phone shows an embed's text about 262 px wide: some 34 narrow letters, fewer wide ones. The
# table counts a line as wrapping past LINE_CHARS characters (an emoji as EMOJI_CHARS), which
# errs long; tests/ui/screen_lines.py measures the real widths.
LINE_CHARS = 36
EMOJI_CHARS = 2.7
# A name in the table's text is cut to this many characters' width (the picture shows it whole
# as it fits), so a player's line stays one line on a phone.
SHOWN_NAME_CHARS = 11
WIDE_CHARS = 1.25  # a capital, in characters
WIDEST_CHARS = 1.7  # m, w, M, W, @ and %
TITLE_SCALE = 1.35  # the title's letters against the text's
RELATIVE_TIME = re.compile(r"<t:\d+:R>")  # shown by Discord as "in 40 seconds"


def _char_width(char: str) -> float:
    """A character's width in characters: an emoji or symbol EMOJI_CHARS, a capital or a wide
    letter more than one."""
    if ord(char) >= 0x1F000 or 0x2190 <= ord(char) < 0x2C00:
        return EMOJI_CHARS
    if char in "mwMW@%":
        return WIDEST_CHARS
    if char.isupper():
        return WIDE_CHARS
    return 1.0


def wrapped_lines(text: str, line_chars: float = LINE_CHARS) -> int:
    """About how many lines ``text`` takes on a phone's screen (see LINE_CHARS): its words
    wrapped at spaces, a word longer than a line broken where it must."""
    lines = 0
    for line in text.split("\n"):
        lines += 1
        used = 0.0
        shown = RELATIVE_TIME.sub("in 40 seconds", line.replace("**", ""))
        for word in shown.split(" "):
            needed = sum(_char_width(char) for char in word) + (1 if used else 0)
            if used and used + needed > line_chars:
                lines += 1
                needed -= 1
                used = 0.0
            used += needed
            while used > line_chars:
                lines += 1
                used -= line_chars
    return lines


def cut_name(name: str, chars: float = SHOWN_NAME_CHARS) -> str:
    """``name`` cut with an ellipsis to about ``chars`` characters' width."""
    used = 0.0
    for index, char in enumerate(name):
        used += _char_width(char)
        if used > chars:
            return name[:index].rstrip() + "…"
    return name


def _screen_lines(embed: discord.Embed) -> int:
    parts = [embed.description, embed.footer.text]
    parts += [text for field in embed.fields for text in (field.name, field.value)]
    # The title's letters are larger and bold: fewer to a line.
    title = wrapped_lines(embed.title, LINE_CHARS / TITLE_SCALE) if embed.title else 0
    return title + sum(wrapped_lines(part) for part in parts if part)


def short_name(table: Table) -> Namer:
    """The table's names made safe for message text and cut to SHOWN_NAME_CHARS' width."""
    return lambda player: safe_name(cut_name(table.name(player)))


def table_message(table: Table, view: PlayerView, lang: Lang) -> Rendered:
    """The public table, rendered from a spectator-safe view (no hand shown): the top card,
    colour and direction, the draw pile, whose turn it is over one line per player, and as
    many of the last events as fit the table's line budget."""
    # With the picture below, the text leaves it what it shows (the direction, the draw pile,
    # the backs) and cuts names, so it fits a phone's screen.
    pictured = table.options.pictures
    name = short_name(table) if pictured else shown_name(table)
    entry = variant_entry(view.variant)
    flip = entry.double_sided
    # A double-sided deck's title also names the side in play.
    side = {"side": side_name(lang, view.side)} if flip else {}
    title = t(lang, entry.words.table_title, round=view.round_no, **side)
    clockwise = "clockwise" if view.direction == 1 else "counter_clockwise"
    top = top_line(lang, "table.line.top", view)
    direction = t(lang, f"table.direction.{clockwise}")
    pile = cards_count(lang, view.draw_pile_count)
    if flip and view.draw_pile_back is not None:
        pile = t(
            lang, "table.draw_pile.back", cards=pile, card=card_text(lang, view.draw_pile_back)
        )
    lines = [turn_line(lang, view, name, table.turn_deadline), top]
    if pictured:
        # "🟡 yellow 5", or "🌈 Wild → 🔵 Blue" once a colour is named unlike the card's.
        lines[-1] = card_text(lang, view.top)
        if view.color is not None and view.color is not view.top.color:
            lines[-1] += f" → {color_text(lang, view.color)}"
    else:
        lines[-1] = f"{top} · {direction}"
        lines.append(t(lang, "table.line.pile", pile=pile))
    embed = discord.Embed(title=title, description="\n".join(lines), color=EMBED_COLOR[view.side])
    seats = view.opponents
    # Each seat gets an equal share of the field, so a long hand never pushes a player out.
    share = EMBED_FIELD_LIMIT // max(1, len(seats)) - 1
    scored = any(view.scores.values())
    add_field(
        embed,
        _next_player_text(lang, view, name),
        "\n".join(
            fit(_seat_line(lang, view, seat, name, scored, backs=not pictured), share)
            for seat in seats
        ),
    )
    if pictured:
        # The last events that fit the phone's screen, newest kept.
        room = table_line_budget(len(seats)) - _screen_lines(embed) - 1
        events: list[str] = []
        for line in reversed(table.log):
            room -= wrapped_lines(line)
            if room < 0:
                break
            events.insert(0, line)
        if events:
            add_field(embed, t(lang, "table.events"), "\n".join(events))
    else:
        room = table_line_budget(len(seats)) - embed_lines(embed) - 1
        if table.log and room > 0:
            add_field(embed, t(lang, "table.events"), "\n".join(list(table.log)[-room:]))
    content = None
    if view.current_player is not None and not table.is_ai(view.current_player):
        content = t(lang, "table.your_turn", mention=f"<@{view.current_player}>")
    gid = table.id
    buttons = [
        UnoButton(
            TableClick(gid, "hand"), t(lang, "button.hand"), discord.ButtonStyle.primary, "🃏"
        ),
    ]
    if any(seat.card_count <= 2 and seat.player not in view.knocked_out for seat in seats):
        # UNO! only matters once someone is down to two cards (called before the last play).
        label = t(lang, "button.uno")
        buttons.append(UnoButton(TableClick(gid, "uno"), label, discord.ButtonStyle.success, "📣"))
    if view.catchable is not None:
        label = t(lang, "button.catch")
        catch = UnoButton(TableClick(gid, "catch"), label, discord.ButtonStyle.danger, "🚨")
        buttons.append(catch)
    return Rendered(content, embed, button_view(buttons))


def turn_line(lang: Lang, view: PlayerView, name: Namer, deadline: datetime | None) -> str:
    """ "▶ **Ben** to play · ends in 40 seconds": whose turn it is, named first, and while a
    turn timer runs, when it fires (Discord counts it down on the reader's screen)."""
    line = t(lang, "table.line.turn", prompt=turn_prompt(lang, view, lambda p: f"**{name(p)}**"))
    if deadline is None or view.current_player is None:
        return line
    return f"{line} · {deadline_text(lang, deadline)}"


def deadline_text(lang: Lang, deadline: datetime) -> str:
    """ "⏳ ends in 40 seconds": Discord's relative time, counted down on the reader's screen."""
    return t(lang, "table.line.deadline", when=f"<t:{int(deadline.timestamp())}:R>")


def _next_player_text(lang: Lang, view: PlayerView, name: Namer) -> str:
    """The seat list's heading: who plays after the current player ("Next: Åsa")."""
    order = [seat.player for seat in view.opponents]
    if view.current_player not in order or len(order) < 2:
        return t(lang, "table.players")
    following = order[(order.index(view.current_player) + view.direction) % len(order)]
    return t(lang, "table.next", name=name(following))


def _seat_line(
    lang: Lang,
    view: PlayerView,
    seat: OpponentView,
    name: Namer,
    scored: bool,
    *,
    backs: bool = True,
) -> str:
    """One player on the table: turn marker, name, card count, UNO call, score once anyone
    has points, and in Flip (with ``backs``) the backs of their cards everyone sees."""
    if seat.player in view.knocked_out:
        return _knocked_out_line(lang, view, seat.player, name)
    marker = "▶ " if seat.player == view.current_player else ""
    parts = [f"{marker}{name(seat.player)} — {cards_count(lang, seat.card_count)}"]
    if seat.called_uno and seat.card_count == 1:
        parts.append("📣 UNO")
    if scored:
        parts.append(tn(lang, "table.seat.points", seat.score))
    line = " · ".join(parts)
    if seat.backs and backs:
        line = t(lang, "table.seat.backs", seat=line, cards=short_faces(seat.backs))
    return line


def _knocked_out_line(lang: Lang, view: PlayerView, player: str, name: Namer) -> str:
    """No Mercy: a knocked-out player struck through, with the cards set aside until a
    reshuffle."""
    aside = dict(view.set_aside).get(player, 0)
    return tn(lang, "table.seat.knocked_out", aside, name=f"~~{name(player)}~~")


def _final_hand_text(
    lang: Lang, view: PlayerView, player: str, faces: list[Face], name: Namer
) -> str:
    """A hand at the round's end: its cards, "out!", or (No Mercy) knocked out, with the cards
    set aside, rather than an empty hand that reads as having gone out."""
    if player in view.knocked_out:
        return _knocked_out_line(lang, view, player, name)
    return short_faces(faces) if faces else t(lang, "round.out")


def _again_footer(lang: Lang, variant: str) -> str:
    """How to start another game, as the variant's entry words it (its own start command, in
    the reader's language)."""
    entry = variant_entry(variant)
    command = entry.command
    keys = ("cmd.uno.name", f"cmd.uno.{command}.name", f"cmd.uno.{command}.start.name")
    return t(lang, entry.words.again, command="/" + " ".join(t(lang, key) for key in keys))


def round_over_message(table: Table, view: PlayerView, match_over: bool, lang: Lang) -> Rendered:
    """Every hand with its points, the round winner and the running scores."""
    name = shown_name(table)
    result = view.last_round
    assert result is not None
    side = "dark" if result.side is Side.DARK else "light"
    embed = discord.Embed(
        title=t(lang, "round.title", round=result.round_no, name=name(result.winner)),
        # A single-sided deck has one side: nothing to say about it.
        description=(
            t(lang, f"round.scored.{side}") if variant_entry(view.variant).double_sided else None
        ),
        color=EMBED_COLOR[result.side],
    )
    for player, faces, points in table.final_hands():
        awarded = result.awarded.get(player, 0)
        if awarded:
            hand = tn(lang, "round.hand.awarded", points, name=name(player), awarded=awarded)
        else:
            hand = tn(lang, "round.hand", points, name=name(player))
        add_field(embed, hand, _final_hand_text(lang, view, player, faces, name))
    add_standings(embed, table, view, lang)
    if table.log:
        add_field(embed, t(lang, "table.events"), "\n".join(table.log))
    if match_over:
        assert view.match_winner is not None
        embed.title = t(lang, "match.title", name=name(view.match_winner))
        embed.set_footer(text=_again_footer(lang, view.variant))
        return Rendered(None, embed, None)
    embed.set_footer(text=t(lang, "round.footer", seconds=table.options.next_round_delay))
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
    # Labels show no markdown: names as chosen, only kept from reordering the label.
    label = move_label(lang, move, view, lambda player: plain_name(table.name(player)))
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
        case TargetDraw():
            return UnoButton(click, label, discord.ButtonStyle.danger, "🎯")
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


def top_line(lang: Lang, key: str, view: PlayerView) -> str:
    """The top card and the colour in play (catalog ``key``); a game whose cards have no
    colours (All Wild) names only the card (``key``.colorless), never "Colour: none yet"."""
    card = card_text(lang, view.top)
    if not variant_entry(view.variant).colors_on(view.side):
        return t(lang, f"{key}.colorless", card=card)
    return t(lang, key, card=card, color=color_text(lang, view.color))


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
    """The ephemeral hand: the cards are the buttons (one per distinct face, enabled when
    playable, paged past what fits, each showing ``card_emoji``); the text says only what
    changed and what to do now."""
    cards = sorted(view.hand, key=lambda h: sort_key(h.face))
    title = tn(lang, "hand.title", len(cards))
    lines = [notice] if notice else []
    if view.current_player == view.player and view.phase == "penalty":
        lines.append(challenge_stakes_text(lang, view, shown_name(table)) or "")
    now = t(lang, "table.line.now", prompt=hand_prompt(lang, view, shown_name(table)))
    deadline = table.turn_deadline
    if view.current_player == view.player and deadline is not None:
        now = f"{now} · {deadline_text(lang, deadline)}"
    lines.append(now)
    top = top_line(lang, "hand.table.line", view)
    lines.append(top if cards else f"{top}\n{t(lang, 'hand.empty')}")
    embed = discord.Embed(
        title=title,
        description="\n".join(line for line in lines if line),
        color=EMBED_COLOR[view.side],
    )
    # The top card's picture beside the text, when the cards have their emoji.
    top_picture = card_emoji(view.top, view.side)
    if isinstance(top_picture, discord.PartialEmoji) and top_picture.id:
        embed.set_thumbnail(url=top_picture.url)
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
    shown = card_buttons[page * per_page : (page + 1) * per_page]
    # A decision that is not a card (a colour, a target, a challenge) comes first; the hand
    # stays in view below it.
    deciding = view.current_player == view.player and view.phase not in ("play", "drawn")
    buttons = specials + shown if deciding else shown + specials
    buttons += extras
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
    # Every distinct card is shown once (two Red 5s are one choice, labelled "×2"), enabled
    # when it can be played now; the buttons are the only list of the hand, so none is left out.
    playable = {m.card for m in view.legal_moves if isinstance(m, PlayCard)}
    copies = Counter(held.face for held in cards)
    shown: dict[Face, int] = {}
    for held in cards:
        if held.face not in shown or held.card in playable:
            shown[held.face] = held.card
    buttons = []
    for face, card in shown.items():
        if card in playable:
            button = move_button(table, serial, PlayCard(card), view, lang, card_emoji)
        else:
            button = UnoButton(
                HandClick(table.id, serial, move=PlayCard(card)),
                card_label(lang, face),
                discord.ButtonStyle.secondary,
                card_emoji(face, view.side),
                disabled=True,
            )
        if copies[face] > 1:
            button.item.label = fit(f"{button.item.label} ×{copies[face]}", BUTTON_LIMIT)
        buttons.append(button)
    return buttons


def hand_over_message(table: Table, player: str, notice: str, lang: Lang) -> Rendered:
    """The hand once its owner's move ended the round or the game: what the move did, and
    for the player who went out, "You went out! +31 points"."""
    game = table.game
    view = public_view(game) if game is not None else None
    result = view.last_round if view is not None else None
    lines = [notice] if notice else []
    if view is not None and view.match_winner == player:
        lines.append(t(lang, "hand.won_match"))
    scored = game is not None and game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
    if scored and result is not None and result.winner == player:
        points = result.awarded.get(player, 0)
        went_out = tn(lang, "hand.went_out", points) if points else t(lang, "hand.went_out.none")
        lines.append(went_out)
    lines.append(t(lang, "hand.round_over.text"))
    title = t(lang, "hand.round_over.title")
    return Rendered(None, discord.Embed(title=title, description="\n".join(lines)), None)
