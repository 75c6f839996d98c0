"""The bot's words in the reader's language: cards, colours, narration, prompts, refusals.

Every helper takes the reader's ``lang`` first. In English they say exactly what the bot said
before it had catalogs (tests compare them with recorded English), so English readers see no
change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from bot.engine import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Face,
    Move,
    Pass,
    PlayCard,
    PlayerView,
    RuleSet,
    SwapWith,
    TargetDraw,
)
from bot.engine import events as ev
from bot.engine.cards import WILD_KINDS, Color, Kind, Side
from bot.engine.variants import VARIANTS
from bot.engine.variants import variant as variant_entry

from .cards.draw import CardWords
from .cards.round_end import RoundEndPicture, RoundEndWords
from .cards.table import PictureWords, TablePicture
from .i18n import Lang, t, tn
from .text import COLOR_EMOJI, fit, sort_key

Namer = Callable[[str], str]

BUTTON_LIMIT = 80  # characters in a Discord button label


# ---------------------------------------------------------------------- cards and colours


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def color_name(lang: Lang, color: Color) -> str:
    """The colour's name as it stands in a sentence ("Red", "punainen", "röd")."""
    return t(lang, f"color.{color.value}")


def color_label(lang: Lang, color: Color) -> str:
    """The colour's name for a button ("Red", "Punainen")."""
    return _capitalized(color_name(lang, color))


def color_text(lang: Lang, color: Color | None) -> str:
    """The colour in play with its emoji."""
    if color is None:
        return t(lang, "color.none")
    return f"{COLOR_EMOJI[color]} {color_name(lang, color)}"


@cache
def card_name(lang: Lang, face: Face) -> str:
    """A face's name as it stands in a sentence in ``lang``: "Red 5", "punainen ohitus",
    "gul 5", "Wild Draw Two" (Finnish, Swedish and Norwegian write colours and their own card
    words in lower case; English and the printed English names keep their capitals)."""
    if face.color is None:
        name = t(lang, f"card.{face.kind.value}")
    elif face.kind is Kind.NUMBER:
        name = t(lang, "card.number", color=color_name(lang, face.color), number=str(face.number))
    else:
        kind = t(lang, f"card.{face.kind.value}")
        name = t(lang, "card.action", color=color_name(lang, face.color), kind=kind)
    return name


def card_label(lang: Lang, face: Face) -> str:
    """A card's name standing alone, for a button: capitalised, at most 80 characters."""
    return fit(_capitalized(card_name(lang, face)), BUTTON_LIMIT)


def card_text(lang: Lang, face: Face) -> str:
    """The face with its colour emoji, for message text."""
    return f"{COLOR_EMOJI[face.color]} {card_name(lang, face)}"


def faces_text(lang: Lang, faces: Iterable[Face], limit: int = 1000) -> str:
    """A comma-separated, sorted list of faces, cut to ``limit`` characters."""
    return fit(", ".join(card_text(lang, face) for face in sorted(faces, key=sort_key)), limit)


def art_word(lang: Lang, kind: Kind) -> str:
    """The word printed on the card art for an action or wild ("SKIP", "OHITUS")."""
    return t(lang, f"art.{kind.value}")


def color_word(lang: Lang, color: Color) -> str:
    """The colour in capitals, as printed on the card art and the table picture."""
    return color_name(lang, color).upper()


@cache
def card_words(lang: Lang) -> CardWords:
    """Every word the card faces print, in ``lang`` (the drawing process reads no catalog)."""
    return CardWords(
        lang=lang,
        actions=tuple((kind, art_word(lang, kind)) for kind in Kind if kind is not Kind.NUMBER),
        colors=tuple((color, color_word(lang, color)) for color in Color),
    )


def picture_words(lang: Lang, picture: TablePicture) -> PictureWords:
    """The table picture's own words in ``lang`` (the drawing process reads no catalog)."""
    clockwise = picture.direction == 1
    return PictureWords(
        lang=lang,
        draw_pile=t(lang, "picture.draw_pile", count=picture.draw_pile_count),
        color=(
            color_word(lang, picture.color)
            if picture.color is not None
            else t(lang, "picture.any_color")
        ),
        direction=t(lang, "picture.clockwise" if clockwise else "picture.counter_clockwise"),
        uno=t(lang, "picture.uno"),
        # Templates: the drawing fills them with a name cut to the room left.
        next=t(lang, "picture.next"),
        player=t(lang, "picture.player"),
        cards=card_words(lang),
    )


def round_end_words(lang: Lang, picture: RoundEndPicture) -> RoundEndWords:
    """The round-end picture's words in ``lang`` (the drawing process reads no catalog)."""
    side = "dark" if picture.side is Side.DARK else "light"
    return RoundEndWords(
        lang=lang,
        title=t(lang, "picture.round_end.title", round=picture.round_no),
        side=(
            t(lang, f"picture.round_end.scored.{side}")
            if variant_entry(picture.variant).double_sided
            else ""
        ),
        went_out=t(lang, "picture.round_end.went_out"),
        last_in=t(lang, "picture.round_end.last_in"),
        knocked_out=t(lang, "picture.round_end.knocked_out"),
        set_aside=tuple(
            tn(lang, "picture.round_end.set_aside", hand.set_aside) if hand.knocked_out else ""
            for hand in picture.hands
        ),
        player=t(lang, "picture.player"),
        cards=card_words(lang),
    )


def side_name(lang: Lang, side: Side) -> str:
    """ "☀️ Light side" or "🌑 Dark side"."""
    return t(lang, "side.dark" if side is Side.DARK else "side.light")


def cards_count(lang: Lang, count: int) -> str:
    """ "1 card", "3 cards" (the language's plural rules)."""
    return tn(lang, "count.cards", count)


# ---------------------------------------------------------------------- narration

# Why a player left, as sessions pass it to ``Game.remove_player``: a code, or the English
# phrase used before the catalogs (still accepted, so saved games and old callers read right).
REMOVED_LEFT = "left"
REMOVED_KICKED = "kicked"
REMOVED_NO_HUMANS = "no_humans"
_REMOVAL_KEYS = {
    REMOVED_LEFT: "event.removed.left",
    "left the game": "event.removed.left",
    REMOVED_KICKED: "event.removed.kicked",
    "was removed by the host": "event.removed.kicked",
    REMOVED_NO_HUMANS: "event.removed.no_humans",
    "left: no people are playing any more": "event.removed.no_humans",
}
_REMOVED_AFTER_TIMEOUTS = re.compile(r"timeouts:(\d+)|was removed after (\d+) timeouts in a row")


def removed_after_timeouts(count: int) -> str:
    """The removal reason code for ``count`` timeouts in a row."""
    return f"timeouts:{count}"


def narrate(lang: Lang, events: Sequence[ev.Event], name: Namer) -> list[str]:
    """Turn engine events into short public sentences (private details left out)."""
    lines: list[str] = []
    drew_last: ev.CardsDrawn | None = None  # the draw the previous line told, if it was one
    for event in events:
        if isinstance(event, ev.TurnSkipped) and drew_last and drew_last.player == event.player:
            # "Ben drew 2 cards" then "Ben lost the turn" reads better as one sentence.
            lines[-1] = tn(lang, "event.drew_lost_turn", drew_last.count, name=name(event.player))
            drew_last = None
            continue
        line = _narrate_one(lang, event, name)
        if line:
            lines.append(line)
            drew_last = event if isinstance(event, ev.CardsDrawn) else None
    return lines


def _narrate_one(lang: Lang, event: ev.Event, name: Namer) -> str | None:
    match event:
        case ev.CardPlayed(player=p, face=face, jump_in=jump):
            key = "event.jumped_in" if jump else "event.card_played"
            return t(lang, key, name=name(p), card=card_text(lang, face))
        case ev.CardsDrawn(player=p, count=n, reason=reason):
            if reason == "caught without UNO":
                return None  # told by UnoCaught
            return tn(lang, "event.drew", n, name=name(p))
        case ev.DrawnCardKept(player=p):
            return t(lang, "event.kept", name=name(p))
        case ev.TurnSkipped(player=p):
            return t(lang, "event.lost_turn", name=name(p))
        case ev.DirectionChanged(direction=d):
            return t(lang, "event.direction." + ("clockwise" if d == 1 else "counter_clockwise"))
        case ev.ColorChosen(player=p, color=c):
            return t(lang, "event.color_chosen", name=name(p), color=color_text(lang, c))
        case ev.Flipped(player=p, side=side, top=top):
            key = "event.flipped.dark" if side is Side.DARK else "event.flipped.light"
            return t(lang, key, name=name(p), card=card_text(lang, top))
        case ev.PileReshuffled(cards=n):
            return tn(lang, "event.reshuffled", n)
        case ev.DrawStopped(player=p):
            return t(lang, "event.draw_stopped", name=name(p))
        case ev.ChallengeResolved(challenger=c, challenged=d, guilty=g):
            key = "event.challenge.guilty" if g else "event.challenge.innocent"
            return t(lang, key, challenger=name(c), challenged=name(d))
        case ev.PenaltyStacked(player=p, total=total):
            return tn(lang, "event.stacked", total, name=name(p))
        case ev.UnoCalled(player=p):
            return t(lang, "event.uno_called", name=name(p))
        case ev.UnoCaught(catcher=c, target=target):
            return t(lang, "event.uno_caught", catcher=name(c), target=name(target))
        case ev.HandsSwapped(player=p, target=target):
            return t(lang, "event.hands_swapped", name=name(p), target=name(target))
        case ev.HandsRotated():
            return t(lang, "event.hands_rotated")
        case ev.HandsShuffled(player=p):
            return t(lang, "event.hands_shuffled", name=name(p))
        case ev.DealerChosen(dealer=d, draws=draws):
            # One short line at any table size: why cards were drawn, and the card that won.
            card = next(face for p, face in reversed(draws) if p == d)
            return t(lang, "event.dealer_chosen", dealer=name(d), card=card_text(lang, card))
        case ev.RoundStarted(round_no=r, dealer=d, starter=s):
            return t(lang, "event.round_started", round=r, dealer=name(d), card=card_text(lang, s))
        case ev.RoundEnded(winner=w, awarded=awarded):
            return tn(lang, "event.round_won", dict(awarded).get(w, 0), name=name(w))
        case ev.MatchEnded(winner=w):
            return t(lang, "event.match_won", name=name(w))
        case ev.PlayerRemoved(player=p, reason=reason):
            return removal_text(lang, name(p), reason)
        case ev.GameAbandoned():
            return t(lang, "event.abandoned")
        case _:
            return _narrate_no_mercy(lang, event, name)


def _narrate_no_mercy(lang: Lang, event: ev.Event, name: Namer) -> str | None:
    """The events only No Mercy has."""
    match event:
        case ev.OpeningCardsIgnored(faces=faces):
            return tn(lang, "event.opening_ignored", len(faces))
        case ev.CardsDiscarded(player=p, faces=faces):
            return tn(lang, "event.discarded_all", len(faces), name=name(p))
        case ev.RouletteColorAsked(player=p):
            return t(lang, "event.roulette_asked", name=name(p))
        case ev.PlayerKnockedOut(player=p, cards=n):
            return tn(lang, "event.knocked_out", n, name=name(p))
        case _:
            return None


def removal_text(lang: Lang, who: str, reason: str) -> str:
    """ "Ben left the game.", "Ben was removed by the host." for a removal reason."""
    timeouts = _REMOVED_AFTER_TIMEOUTS.fullmatch(reason)
    if timeouts:
        count = int(timeouts.group(1) or timeouts.group(2))
        return tn(lang, "event.removed.timeouts", count, name=who)
    return t(lang, _REMOVAL_KEYS.get(reason, "event.removed.left"), name=who)


def private_notice(lang: Lang, events: list[ev.Event], player: str, name: Namer) -> str:
    """What only ``player`` learns from their move: the cards they drew, a revealed hand."""
    notes: list[str] = []
    for event in events:
        if isinstance(event, ev.CardsDrawn) and event.player == player and event.faces:
            notes.append(t(lang, "notice.you_drew", cards=faces_text(lang, event.faces, 300)))
        elif isinstance(event, ev.ChallengeResolved) and event.challenger == player:
            hand = faces_text(lang, event.hand, 600) or t(lang, "notice.no_cards")
            key = "notice.bluffed" if event.guilty else "notice.legal"
            notes.append(t(lang, key, name=name(event.challenged), hand=hand))
        elif isinstance(event, ev.CardPlayed) and event.player == player:
            notes.append(t(lang, "notice.you_played", card=card_text(lang, event.face)))
    return " ".join(notes)[:2000]


# ---------------------------------------------------------------------- prompts and labels


def turn_prompt(lang: Lang, view: PlayerView, name: Namer) -> str:
    """What the table is waiting for, in words."""
    if view.current_player is None:
        return t(lang, "prompt.round_over")
    who = name(view.current_player)
    phase = view.phase
    if phase == "choose_color":
        return t(lang, "prompt.choosing_color", name=who)
    if phase == "swap_target":
        return t(lang, "prompt.choosing_swap", name=who)
    if phase == "draw_target":
        return t(lang, "prompt.choosing_target", name=who)
    if phase == "drawn":
        return t(lang, "prompt.drawn", name=who)
    if phase == "penalty" and view.stack_threshold:
        return t(
            lang, "prompt.stack", name=who, count=view.pending_draw, value=view.stack_threshold
        )
    if phase == "penalty":
        if view.penalty_kind == Kind.WILD_DRAW_COLOR.value:
            return t(
                lang, "prompt.penalty.until_color", name=who, color=color_text(lang, view.color)
            )
        key = f"prompt.penalty.{_penalty_answers(view)}"
        return t(lang, key, name=who, count=view.pending_draw)
    return t(lang, "prompt.to_play", name=who)


def _penalty_answers(view: PlayerView) -> str:
    """Which answers a pending draw card allows besides accepting it, as a key part."""
    challenge = view.challenge is not None
    if challenge and view.stackable:
        return "challenge_stack"
    return "challenge" if challenge else "stack" if view.stackable else "accept"


def challenge_stakes_text(lang: Lang, view: PlayerView, name: Namer) -> str | None:
    """ "If Alice bluffed, Alice draws 4; if not, you draw 6." before a challenge (None when
    no challenge is possible)."""
    stakes = view.challenge
    if stakes is None:
        return None
    who = name(stakes.challenged)
    if stakes.until_color:
        color = color_text(lang, view.color)
        return t(
            lang, "hand.stakes.until_color", name=who, color=color, count=stakes.challenger_draws
        )
    return t(
        lang,
        "hand.stakes",
        name=who,
        theirs=stakes.bluffer_draws,
        yours=stakes.challenger_draws,
    )


def hand_prompt(lang: Lang, view: PlayerView, name: Namer) -> str:
    """What the hand's owner is asked to do now."""
    if view.current_player != view.player:
        if view.current_player is None:
            return t(lang, "hand.waiting.nobody")
        return t(lang, "hand.waiting", name=name(view.current_player))
    if view.phase == "penalty" and view.stack_threshold:
        # No Mercy: "+14 on you: stack a Draw Card of +6 or more, or take 14."
        can_stack = any(isinstance(move, PlayCard) for move in view.legal_moves)
        key = "hand.prompt.stack.answer" if can_stack else "hand.prompt.stack.take"
        return t(lang, key, count=view.pending_draw, value=view.stack_threshold)
    if view.phase == "penalty":
        return t(lang, f"hand.prompt.penalty.{_penalty_answers(view)}")
    if view.phase == "choose_color" and view.top.kind is Kind.WILD_COLOR_ROULETTE:
        return t(lang, "hand.prompt.roulette")
    prompts = {
        "choose_color": "hand.prompt.choose_color",
        "swap_target": "hand.prompt.choose_swap",
        "draw_target": "hand.prompt.choose_target",
        "drawn": "hand.prompt.drawn",
    }
    return t(lang, prompts.get(view.phase, "hand.prompt.play"))


def move_label(lang: Lang, move: Move, view: PlayerView, name: Namer) -> str:
    """The label of the button for one legal move (at most 80 characters)."""
    match move:
        case PlayCard(card=card):
            face = next(h.face for h in view.hand if h.card == card)
            if view.phase == "drawn":
                label = t(lang, "button.play_drawn", card=card_name(lang, face))
            else:
                label = card_label(lang, face)
        case Draw():
            label = t(lang, "button.draw")
        case Pass():
            label = t(lang, "button.keep")
        case ChooseColor(color=color):
            label = color_label(lang, color)
        case Accept():
            if view.penalty_kind == Kind.WILD_DRAW_COLOR.value:
                label = t(lang, "button.accept.until_color")
            else:
                label = t(lang, "button.accept.draw", count=view.pending_draw)
        case Challenge():
            label = t(lang, "button.challenge")
        case SwapWith(target=target):
            label = t(lang, "button.swap_with", name=name(target))
        case TargetDraw(target=target):
            label = t(lang, "button.target_draw", name=name(target))
        case CallUno():
            label = t(lang, "button.uno")
        case Catch(target=target):
            label = t(lang, "button.catch_player", name=name(target))
        case _:
            raise AssertionError(f"no label for {move!r}")
    return fit(label, BUTTON_LIMIT)


def ai_name(lang: Lang, first_name: str) -> str:
    """A computer player's seat name in play, such as "Cara 🤖" (the lobby adds the level)."""
    return t(lang, "ai.name", name=first_name)


def ai_level(lang: Lang, difficulty: str) -> str:
    """A computer player's level as the lobby shows it ("hard")."""
    return t(lang, f"ai.difficulty.{difficulty}")


# ---------------------------------------------------------------------- settings


# The message key of each house rule, and its RuleSet field.
HOUSE_KEYS = {
    "house.stacking": "stacking",
    "house.wd4_on_d2": "stack_wild_draw_four_on_draw_two",
    "house.seven_o": "seven_o",
    "house.jump_in": "jump_in",
    "house.draw_until_playable": "draw_until_playable",
    "house.forced_play": "forced_play",
}


def _summary_key(rules: RuleSet) -> str:
    """The summary's variant line: the entry's, with "_<deck>" for a deck an option chose."""
    entry = variant_entry(rules.variant)
    chosen_by = entry.deck.chosen_by
    chosen = "" if chosen_by is None else str(getattr(rules, chosen_by))
    if chosen in entry.deck.sizes and chosen != next(iter(entry.deck.sizes)):
        return f"{entry.words.summary}_{chosen}"
    return entry.words.summary


def rules_summary(lang: Lang, rules: RuleSet, turn_timeout: int, ai_takeover: bool) -> str:
    """The variant, target, scoring and house rules of a game in one short block."""
    timer = "summary.timer.ai" if ai_takeover else "summary.timer"
    lines = [
        t(lang, _summary_key(rules)),
        t(lang, f"summary.target.{rules.scoring}", target=rules.target),
        t(lang, timer, seconds=turn_timeout),
    ]
    # A rule the variant fixes (No Mercy always draws until playable) is no house rule there.
    entry = variant_entry(rules.variant)
    house = [
        t(lang, key)
        for key, name in HOUSE_KEYS.items()
        if getattr(rules, name) and entry.offers(name)
    ]
    if house:
        lines.append(t(lang, "summary.house", rules=", ".join(house)))
    else:
        lines.append(t(lang, "summary.house.none"))
    if rules.catching == "off":
        lines.append(t(lang, "summary.catching.off"))
    return "\n".join(lines)


def rules_differences(lang: Lang, rules: RuleSet) -> str:
    """Which of a game's rules differ from the official ones: "Not the official rules: to 300
    points, stacking", or "Official rules." (the lobby shows it)."""
    official = RuleSet(variant=rules.variant)
    changes = []
    if rules.target != official.target:
        changes.append(t(lang, "differs.target", target=rules.target))
    if rules.scoring != official.scoring:
        changes.append(t(lang, "differs.scoring"))
    if rules.edition != official.edition:
        changes.append(t(lang, f"value.edition.{rules.edition}"))
    changes += [t(lang, key) for key, name in HOUSE_KEYS.items() if getattr(rules, name)]
    if rules.must_play != official.must_play:
        changes.append(t(lang, "differs.must_play"))
    if not changes:
        return t(lang, "differs.none")
    return t(lang, "differs.some", rules=", ".join(changes))


# RuleSet's validation sentences and the catalog keys that say them to a player: each
# variant's refusals, and the one rule every variant shares.
_SETTINGS_REASONS = {
    rule.refusal: rule.refusal_key
    for entry in VARIANTS.values()
    for rule in entry.rule_options.values()
    if rule.refusal
} | {
    "Wild Draw Four on Draw Two is a stacking option: turn stacking on": (
        "settings.reason.wd4_needs_stacking"
    ),
}


def settings_error_text(lang: Lang, reason: str) -> str:
    """ "Those settings do not work together: ..." for a ``RuleSet`` validation message."""
    key = _SETTINGS_REASONS.get(reason.removeprefix("Value error, "), "settings.reason.other")
    return t(lang, "settings.invalid", reason=t(lang, key))


# ---------------------------------------------------------------------- refusals


_FIXED_REFUSALS = {
    "You are not playing in this game.": "illegal.not_playing",
    "The round is over: wait for the next one.": "illegal.round_over",
    "The game is over.": "illegal.game_over",
    "The game is already over.": "illegal.game_already_over",
    "The round is not over yet.": "illegal.round_not_over",
    "You already called UNO.": "illegal.uno.already",
    "You can only call UNO with two cards or fewer.": "illegal.uno.too_many",
    "You cannot catch yourself.": "illegal.catch.self",
    "That player is not in this game.": "illegal.catch.not_in_game",
    "Out of turn you can only jump in with a card identical to the top card.": (
        "illegal.jump_in_only"
    ),
    "Choose a colour for your wild first.": "illegal.choose_color_first",
    "Choose whose hand to swap with first.": "illegal.choose_swap_first",
    "You can play a card, so you must: this table has no drawing instead.": "illegal.must_play",
    "Choose who draws two first.": "illegal.choose_target_first",
    "Answer the draw card first: accept it.": "illegal.penalty.accept",
    "Answer the draw card first: accept it, challenge it.": "illegal.penalty.accept_challenge",
    "Answer the draw card first: accept it or stack a matching draw card.": (
        "illegal.penalty.accept_stack"
    ),
    "Answer the draw card first: accept it, challenge it or stack a matching draw card.": (
        "illegal.penalty.accept_challenge_stack"
    ),
    "You already drew: play the card you drew or keep it.": "illegal.already_drew",
    "That card is not in your hand.": "illegal.not_in_hand",
    "That move is not possible right now.": "illegal.not_possible",
}
_NOT_YOUR_TURN = re.compile(r"It is not your turn: waiting for (?P<name>.+)\.", re.S)
_TOO_LATE = re.compile(r"(?P<name>.+) cannot be caught: they called UNO or it is too late\.", re.S)
_STACK_THRESHOLD = re.compile(
    r"Answer the stack first: take it, or stack a Draw Card of \+(?P<value>[0-9]+) or more\."
)
_COLOR_VALUES = frozenset(color.value for color in Color)
_NO_MATCH = re.compile(
    r"(?P<card>.+) does not match (?P<top>.+) \(colour in play: (?P<color>[a-z]+)\)\.", re.S
)


@cache
def _faces_by_english_name() -> dict[str, Face]:
    faces = [Face(None, kind) for kind in WILD_KINDS]
    for color in Color:
        faces += [Face(color, Kind.NUMBER, n) for n in range(10)]
        faces += [Face(color, k) for k in Kind if k is not Kind.NUMBER and k not in WILD_KINDS]
    return {face.name(): face for face in faces}


def illegal_move_text(lang: Lang, message: str) -> str:
    """The engine's ``IllegalMove`` sentence (English) said in ``lang``.

    The engine words its refusals in English; this recognises each one and says it again from
    the catalog. A sentence it does not know becomes the catalog's "not possible right now".
    """
    key = _FIXED_REFUSALS.get(message)
    if key is not None:
        return t(lang, key)
    if match := _NOT_YOUR_TURN.fullmatch(message):
        return t(lang, "illegal.not_your_turn", name=match["name"])
    if match := _TOO_LATE.fullmatch(message):
        return t(lang, "illegal.catch.too_late", name=match["name"])
    if match := _STACK_THRESHOLD.fullmatch(message):
        return t(lang, "illegal.penalty.stack_threshold", value=match["value"])
    if match := _NO_MATCH.fullmatch(message):
        faces = _faces_by_english_name()
        card, top = faces.get(match["card"]), faces.get(match["top"])
        if card is not None and top is not None:
            color = match["color"]
            shown = (
                color_name(lang, Color(color)).lower()
                if color in _COLOR_VALUES
                else t(lang, "illegal.no_color")
            )
            # The card's name opens the sentence: capitalised there.
            return _capitalized(
                t(
                    lang,
                    "illegal.no_match",
                    card=card_name(lang, card),
                    top=card_name(lang, top),
                    color=shown,
                )
            )
    return t(lang, "illegal.not_possible")


# ---------------------------------------------------------------------- /uno rules


@dataclass(frozen=True, slots=True)
class RulesText:
    """The full rules of a variant: an embed's title, description and (name, value) fields."""

    title: str
    description: str
    fields: tuple[tuple[str, str], ...]


def rules_text(lang: Lang, variant: str) -> RulesText:
    """The rules summary of ``variant`` (a registry key), written from its rule sheet."""
    entry = variant_entry(variant)
    prefix = entry.words.rules
    return RulesText(
        t(lang, f"{prefix}.title"),
        t(lang, f"{prefix}.intro"),
        tuple(
            (t(lang, f"{prefix}.{part}.title"), t(lang, f"{prefix}.{part}.body"))
            for part in entry.words.rules_sections
        ),
    )


# ---------------------------------------------------------------------- lobby, leaderboard, stats


def lobby_footer(lang: Lang, difficulty: str, least: int = 2, most: int = 10) -> str:
    """The lobby's footer: how to start, and what Add AI seats."""
    start = t(lang, "lobby.footer", min=least, max=most)
    return f"{start} {t(lang, f'lobby.footer.ai.{difficulty}')}"


def variant_name(lang: Lang, variant: str) -> str:
    """ "UNO Flip" or "Classic UNO"; "" for every variant together ("all")."""
    entry = VARIANTS.get(variant)
    return "" if entry is None else t(lang, entry.words.name)


def board_title(lang: Lang, where: str, variant: str) -> str:
    """The leaderboard's title, naming the variant unless it shows both."""
    shown = variant_name(lang, variant)
    if shown:
        return t(lang, "board.title.variant", where=where, variant=shown)
    return t(lang, "board.title", where=where)


def board_empty(lang: Lang, on_server: bool, variant: str) -> str:
    """What an empty leaderboard says, with the hint to start a game."""
    scope = "server" if on_server else "global"
    shown = variant_name(lang, variant)
    empty = (
        t(lang, f"board.empty.{scope}.variant", variant=shown)
        if shown
        else t(lang, f"board.empty.{scope}")
    )
    return f"{empty} {t(lang, 'board.start_hint')}"


def sort_amount(lang: Lang, sort: str, value: int) -> str:
    """ "1,234 points", "1 match won" for a leaderboard sort key ("points", "matches_won"...)."""
    return tn(lang, f"board.unit.{sort}", value)


def rank_line(lang: Lang, who: str, rank: int | None, total: int, sort: str, value: int) -> str:
    """Where the viewer stands on the whole board (rank None: not on it yet)."""
    if rank is None:
        return t(lang, "board.rank.none", name=who)
    amount = sort_amount(lang, sort, value)
    return t(lang, "board.rank", name=who, rank=rank, total=total, value=amount)


def board_footer(lang: Lang, page: int, pages: int, players: int) -> str:
    """ "Page 1/3 · 25 players · Pts points, ..." under the leaderboard."""
    counted = tn(lang, "count.players", players)
    legend = t(lang, "board.legend")
    return t(lang, "board.footer", page=page, pages=pages, players=counted, legend=legend)


def no_stats_text(lang: Lang, yours: bool, who: str, on_server: bool) -> str:
    """What /stats says for a player with no finished round, with the hint to start a game."""
    whose = "you" if yours else "other"
    scope = "server" if on_server else "global"
    return f"{t(lang, f'stats.none.{whose}.{scope}', name=who)} {t(lang, 'board.start_hint')}"
