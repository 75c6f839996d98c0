"""The message catalogs: complete, consistent, within Discord's limits, and really used."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import discord
import pytest
from babel.messages.catalog import Catalog
from discord import app_commands

from bot.client import UnoBot
from bot.engine import Color, Face, Kind, RuleSet, Side, public_view, view_for
from bot.engine import events as ev
from bot.engine.cards import WILD_KINDS
from bot.ui import words
from bot.ui.i18n import (
    ENGLISH,
    LANGUAGES,
    CommandTranslator,
    Lang,
    format_number,
    language_of,
    languages,
    load_catalog,
    placeholders,
    public_language,
    resolve,
    t,
    tn,
)
from bot.ui.text import COLOR_EMOJI
from cogs.history import HistoryCog
from cogs.leaderboard import LeaderboardCog
from cogs.uno import UnoCog
from tests.bot.conftest import make_settings
from tests.ui.games import NO_MERCY_TABLES, Played, name, play

FI, SV, NB = Lang("fi"), Lang("sv"), Lang("nb")
OTHERS = tuple(lang for lang in languages() if lang != ENGLISH)  # a new catalog is tested too

# Keys whose text is the same in every language: symbols, names and patterns without words.
LANGUAGE_FREE = {
    "card.number",
    "card.action",
    "card.flip",
    "closed.title",
    "lobby.player",
    "lobby.player.ai",
    "ai.name",
    "button.uno",
    "picture.uno",
    "summary.variant.flip",
    "board.variant.flip",
    "summary.variant.nomercy",
    "board.variant.nomercy",
    "rules.nomercy.uno.title",
    "summary.variant.allwild",
    "board.variant.allwild",
    "rules.allwild.uno.title",
    "board.variant.junior",
    "table.title.junior",
    "rules.junior.uno.title",
    "cmd.uno.name",
    "cmd.uno.flip.name",
    "cmd.uno.nomercy.name",
    "cmd.uno.allwild.name",
    "cmd.uno.junior.name",
    "rules.flip.uno.title",
    "rules.classic.uno.title",
    "art.flip",
    "table.line.turn",
    # The settings panel: language names in their own language, and units.
    "value.language.en",
    "value.language.fi",
    "value.language.sv",
    "value.language.nb",
    "settings.seconds",
    "settings.percent",
}
# Words spelt as in English that are right in that language (see docs/glossary.md).
SAME_AS_ENGLISH: dict[str, set[str]] = {
    "fi": set(),
    # The Swedish sheet keeps the wilds' and Reverse's printed English names; "hand", "normal",
    # "variant" and "AI" are Swedish words too.
    "sv": {
        "card.reverse",
        "card.wild",
        "card.wild_draw_four",
        "card.wild_draw_two",
        "card.wild_shuffle_hands",
        "card.wild_swap_hands",
        "card.wild_reverse",
        "art.reverse",
        "art.wild",
        "art.wild_draw_four",
        "art.wild_draw_two",
        "art.wild_shuffle_hands",
        "art.wild_swap_hands",
        "art.wild_reverse",
        "ai.difficulty.normal",
        "choice.normal",
        "button.hand",
        "cmd.uno.hand.name",
        "opt.variant.name",
    },
    # The Norwegian sheet says "Wild"; "start" is the Norwegian imperative; "status", "normal"
    # and "variant" are Norwegian words.
    "nb": {
        "card.wild",
        "art.wild",
        "ai.difficulty.normal",
        "choice.normal",
        "button.start",
        "cmd.uno.flip.start.name",
        "cmd.uno.classic.start.name",
        "cmd.uno.nomercy.start.name",
        "cmd.uno.allwild.start.name",
        "cmd.uno.junior.start.name",
        "cmd.uno.status.name",
        "opt.variant.name",
    },
}
# English words no Finnish, Swedish or Norwegian text should contain, once the card names a
# language keeps in English are taken out.
ENGLISH_WORDS = {
    "the", "you", "your", "card", "cards", "turn", "player", "players", "round", "play", "played",
    "draw", "drew", "wins", "won", "points", "game", "with", "and", "not", "of", "is", "are",
    "has", "press", "colour", "color", "none", "yet", "left", "lost", "challenge", "catch",
    "stack", "stacking", "host", "lobby closed", "scores", "join", "leave", "cancel", "keep",
}  # fmt: skip
KEPT_ENGLISH_NAMES = {
    "fi": ("UNO", "Flip"),
    "sv": (
        "Wild Draw Two",
        "Wild Draw Four",
        "Wild Draw Color",
        "Wild Shuffle Hands",
        "Wild Swap Hands",
        "Shuffle Hands",
        "Swap Hands",
        "Draw Two",
        "Draw Four",
        "Draw Color",
        "Shuffle",
        "Swap",
        "Reverse",
        "Wild",
        "UNO",
        "Flip",
    ),
    "nb": ("Wild", "UNO", "Flip"),
}
# Long but real values for placeholders when measuring against Discord's limits.
WIDEST = {
    "name": "W" * 32,  # Discord display names are at most 32 characters
    "host": "W" * 32,
    "target": "W" * 32,
    "catcher": "W" * 32,
    "challenger": "W" * 32,
    "challenged": "W" * 32,
    "dealer": "W" * 32,
    "card": "🌈 " + "W" * 30,
    "top": "🌈 " + "W" * 30,
    "color": "🩵 " + "W" * 10,
    "where": "W" * 100,  # server names are at most 100 characters
    "variant": "Classic UNO",
    "mention": "<@123456789012345678>",
    "url": "https://discord.com/channels/123456789012345678/123456789012345678/123456789012345678",
}


def entries(lang: Lang) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every (key, texts) of a catalog; plural messages have one text per plural form."""
    for message in load_catalog(lang):
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        string = message.string
        texts = tuple(string) if isinstance(string, tuple | list) else (str(string),)
        yield key, texts


def catalog_dict(lang: Lang) -> dict[str, tuple[str, ...]]:
    """The catalog of ``lang`` as key -> texts."""
    return dict(entries(lang))


def fill(template: str) -> str:
    """``template`` with every placeholder at its widest."""
    return template.format_map(
        {field: WIDEST.get(field, 99_999) for field in placeholders(template)}
    )


@pytest.fixture(scope="module")
def played() -> Played:
    """Seeded random matches of every table kind (played once for this module)."""
    return play()


@pytest.fixture(scope="module")
def played_no_mercy() -> Played:
    """Seeded random No Mercy games (apart, so the recorded English of ``played`` stays)."""
    return play(tables=NO_MERCY_TABLES)


# ---------------------------------------------------------------------- completeness


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_is_in_every_language(lang: Lang) -> None:
    """A language has exactly English's keys, each translated in every plural form."""
    english, other = catalog_dict(ENGLISH), catalog_dict(lang)
    assert set(other) == set(english)
    empty = [key for key, texts in other.items() if not all(texts)]
    assert empty == []


@pytest.mark.parametrize("lang", OTHERS)
def test_placeholders_match_english(lang: Lang) -> None:
    """Every form of every message uses exactly the English placeholders."""
    english = catalog_dict(ENGLISH)
    for key, texts in entries(lang):
        wanted = placeholders(english[key][0]) | placeholders(english[key][-1])
        for form in texts:
            assert placeholders(form) == wanted, (key, form)


@pytest.mark.parametrize("lang", languages())
def test_templates_are_plain_named_fields(lang: Lang) -> None:
    """Placeholders are bare names: no positional fields, conversions or format specs."""
    import string

    for key, texts in entries(lang):
        for form in texts:
            for _, field, spec, conversion in string.Formatter().parse(form):
                if field is not None:
                    assert field.isidentifier() and not spec and not conversion, (key, form)


@pytest.mark.parametrize("lang", languages())
def test_plural_forms_follow_the_language(lang: Lang) -> None:
    """The catalog's Plural-Forms is Babel's for the language, and plurals fill every form."""
    catalog = load_catalog(lang)
    reference = Catalog(locale=lang)
    assert (catalog.num_plurals, catalog.plural_expr) == (
        reference.num_plurals,
        reference.plural_expr,
    )
    plural_keys = {message.id[0] for message in catalog if isinstance(message.id, tuple)}
    english_plurals = {m.id[0] for m in load_catalog(ENGLISH) if isinstance(m.id, tuple)}
    assert plural_keys == english_plurals
    for message in catalog:
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple | list), message.id
            assert len(message.string) == catalog.num_plurals, message.id


def test_plurals_choose_the_right_form() -> None:
    """One card, two cards; the count is written the language's way."""
    assert tn(ENGLISH, "count.cards", 1) == "1 card"
    assert tn(ENGLISH, "count.cards", 0) == "0 cards"
    assert tn(FI, "count.cards", 1) == "1 kortti"
    assert tn(FI, "count.cards", 7) == "7 korttia"
    assert tn(NB, "count.players", 1) == "1 spiller"
    assert tn(NB, "count.players", 2) == "2 spillere"
    assert tn(SV, "count.cards", 2) == "2 kort"


def test_numbers_are_formatted_for_the_reader() -> None:
    """Thousands and decimals follow each language's conventions."""
    assert format_number(ENGLISH, 12345) == "12,345"
    assert format_number(FI, 12345) == "12\xa0345"
    assert format_number(SV, 12.25, decimals=1) == "12,2"
    assert format_number(NB, 1234.5, decimals=1) == "1\xa0234,5"
    assert t(FI, "board.rank", name="Anna", rank=3, total=1200, value="x") == (
        "📍 Anna on sijalla **#3**/1\xa0200: x."
    )


# ---------------------------------------------------------------------- no English leftovers


@pytest.mark.parametrize("lang", OTHERS)
def test_no_text_is_left_in_english(lang: Lang) -> None:
    """A text identical to English is a language-free symbol or a word listed as right."""
    english = catalog_dict(ENGLISH)
    allowed = LANGUAGE_FREE | SAME_AS_ENGLISH.get(lang, set())
    same = {key for key, texts in entries(lang) if texts == english[key]}
    assert same <= allowed
    assert allowed - same == set(), "an allow-listed key is translated now: drop it from the list"


def english_words(lang: Lang, line: str) -> set[str]:
    """The English words in ``line``, once the names the language keeps are taken out."""
    line = re.sub(r"\{\w+\}", " ", line)  # placeholders are names, not words
    line = re.sub(r"[-_]", " ", line).casefold()  # command names spell words with - and _
    for kept in KEPT_ENGLISH_NAMES.get(lang, ("UNO", "Flip")):
        line = line.replace(kept.casefold(), " ")
    found = {word for word in re.findall(r"\w+", line) if word in ENGLISH_WORDS}
    return found | {phrase for phrase in ENGLISH_WORDS if " " in phrase and phrase in line}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_word_in_any_text(lang: Lang) -> None:
    """No message of a language contains an English word (kept card names aside)."""
    leftovers = {
        key: english_words(lang, form)
        for key, texts in entries(lang)
        for form in texts
        if english_words(lang, form)
    }
    assert leftovers == {}


# ---------------------------------------------------------------------- narration


EVERY_EVENT_KIND = set(get_args(ev.Event))
# What seeded random play does not reach (an empty draw and discard pile): built by hand.
RARE_EVENTS: list[ev.Event] = [ev.DrawStopped("p1")]


def test_the_seeded_games_meet_every_event_kind(played: Played, played_no_mercy: Played) -> None:
    """Random play plus the hand-built rare events cover every kind of engine event."""
    batches = [*played.batches, *played_no_mercy.batches]
    seen = {type(event) for batch in batches for event in batch}
    assert seen | {type(event) for event in RARE_EVENTS} == EVERY_EVENT_KIND


@pytest.mark.parametrize("lang", languages())
def test_every_event_is_narrated_in_every_language(
    lang: Lang, played: Played, played_no_mercy: Played
) -> None:
    """Every batch of every seeded game narrates, line for line as many lines as in English."""
    for batch in [*played.batches, *played_no_mercy.batches, RARE_EVENTS]:
        lines = words.narrate(lang, batch, name)
        assert all(line.strip() for line in lines)
        assert len(lines) == len(words.narrate(ENGLISH, batch, name))
        if lang != ENGLISH:
            assert [line for line in lines if english_words(lang, line)] == []


def recorded(texts: object) -> str:
    """The SHA-256 of texts as JSON: what the English-only helpers said is kept as this digest
    (the full record of the seeded games is 380 kB)."""
    return hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode()).hexdigest()


# Recorded from the English-only helpers (bot/ui/text.py before the catalogs were wired in) over
# the seeded games of tests/ui/games.py: every batch narrated, and every player's private notice.
# The narration was re-recorded when the deal's draw became one short line (issue 15; every
# other line as before, see test_the_deal_draw_is_one_short_line), and both when "Wild Draw Color"
# became "Wild Draw Colour" (issue 31: with "Colour" turned back to "Color" they are the digests
# before, 68c706d2... and 68cde8f9...). Both again when games changed generator (issue 29:
# PCG32, so each seed deals other cards; no text changed).
ENGLISH_NARRATION = "eaacdb84882e18f3d0c0a5c684589b48444782314f2058ef006449a0e01ce289"
ENGLISH_NOTICES = "b0342c68cfb39632f43253dccdf85fbb306fc281e5e2289aa32fbc556215f80e"


def british(english: str) -> str:
    """The engine's English as the bot words it: one spelling ("Wild Draw Colour", "Wild Colour
    Roulette") and the list of answers with its "or" (issue 31)."""
    english = english.replace("accept it, challenge it.", "accept it or challenge it.")
    return english.replace("Draw Color", "Draw Colour").replace("Color Roulette", "Colour Roulette")


def test_english_narration_is_unchanged(played: Played) -> None:
    """In English, the catalogs narrate exactly as the English-only helper did."""
    narrated = [words.narrate(ENGLISH, batch, name) for batch in played.batches]
    assert recorded(narrated) == ENGLISH_NARRATION


def test_a_draw_and_the_lost_turn_are_one_sentence() -> None:
    """ "Ben drew 2 cards and lost the turn." in each language, with its plural."""
    batch: list[ev.Event] = [ev.CardsDrawn("p1", 2, "Draw Two"), ev.TurnSkipped("p1")]
    assert words.narrate(ENGLISH, batch, name) == ["Ben drew 2 cards and lost the turn."]
    assert words.narrate(FI, batch, name) == ["Ben nosti 2 korttia ja menetti vuoronsa."]
    one: list[ev.Event] = [ev.CardsDrawn("p1", 1, "Draw One"), ev.TurnSkipped("p1")]
    assert words.narrate(FI, one, name) == ["Ben nosti 1 kortin ja menetti vuoronsa."]


def test_removal_reasons_are_said_in_the_language() -> None:
    """Codes and the English reasons sessions pass today read the same way."""
    assert words.removal_text(FI, "Ben", "was removed by the host") == (
        "Järjestäjä poisti pelaajan Ben."
    )
    assert words.removal_text(SV, "Ben", words.REMOVED_KICKED) == "Ben togs bort av värden."
    assert words.removal_text(ENGLISH, "Ben", "was removed after 3 timeouts in a row") == (
        "Ben was removed after 3 timeouts in a row."
    )
    assert words.removal_text(NB, "Ben", words.removed_after_timeouts(3)) == (
        "Ben ble fjernet etter at tiden gikk ut 3 ganger på rad."
    )


# ---------------------------------------------------------------------- cards, prompts, notices


def every_face() -> list[Face]:
    """Every face either deck can show."""
    faces = [Face(None, kind) for kind in WILD_KINDS]
    for color in Color:
        faces += [Face(color, Kind.NUMBER, n) for n in range(10)]
        faces += [Face(color, k) for k in Kind if k is not Kind.NUMBER and k not in WILD_KINDS]
    return faces


def test_english_card_words_are_unchanged() -> None:
    """Card names, labels and colours read in English as the engine names them, in the bot's
    one spelling ("Wild Draw Colour", issue 31)."""
    for face in every_face():
        emoji = COLOR_EMOJI[face.color]
        english = british(face.name())
        assert words.card_text(ENGLISH, face) == f"{emoji} {english}"
        assert words.card_label(ENGLISH, face) == english
    shown = [words.color_text(ENGLISH, color) for color in [*Color, None]]
    assert shown == [
        "🔴 Red",
        "🟡 Yellow",
        "🟢 Green",
        "🔵 Blue",
        "🩷 Pink",
        "🩵 Teal",
        "🧡 Orange",
        "💜 Purple",
        "none yet",
    ]


@pytest.mark.parametrize("lang", [FI, SV, NB])
def test_cards_use_the_sheet_names(lang: Lang) -> None:
    """Every face has a name of its own in the language, and the sheet's names are used."""
    names = [words.card_name(lang, face) for face in every_face()]
    assert len(set(names)) == len(names)
    assert all(len(words.card_label(lang, face)) <= 80 for face in every_face())
    dark = {
        FI: ("ohita kaikki", "villi nostoväri", "nosta 5"),
        SV: ("Skippa alla", "Wild Draw Color", "Dra fem"),
        NB: ("Hopp over alle", "Wild trekk farge", "Trekk fem"),
    }[lang]
    got = (
        words.card_name(lang, Face(None, Kind.SKIP_EVERYONE)),
        words.card_name(lang, Face(None, Kind.WILD_DRAW_COLOR)),
        words.card_name(lang, Face(None, Kind.DRAW_FIVE)),
    )
    assert got == dark


def test_english_art_words_are_unchanged() -> None:
    """The words on the card art and the colour words read in English as drawn today."""
    from bot.ui.cards import ENGLISH_CARD_WORDS

    assert words.card_words(ENGLISH) == ENGLISH_CARD_WORDS
    assert words.art_word(FI, Kind.SKIP_EVERYONE) == "OHITA KAIKKI"
    assert words.color_word(SV, Color.TEAL) == "TURKOS"


def test_finnish_cards_read_naturally() -> None:
    """A coloured card is "punainen 5", "turkoosi ohita kaikki" in a sentence, capitalised
    alone on a button."""
    assert words.card_text(FI, Face(Color.RED, Kind.NUMBER, 5)) == "🔴 punainen 5"
    assert words.card_name(FI, Face(Color.TEAL, Kind.SKIP_EVERYONE)) == "turkoosi ohita kaikki"
    assert words.card_label(FI, Face(Color.TEAL, Kind.SKIP_EVERYONE)) == "Turkoosi ohita kaikki"
    assert words.color_label(FI, Color.PURPLE) == "Violetti"


@pytest.mark.parametrize(
    ("lang", "played"),
    [
        (FI, "Anna pelasi kortin 🟡 keltainen 5."),
        (SV, "Anna lade 🟡 gul 5."),
        (NB, "Anna la 🟡 gul 5."),
    ],
)
def test_card_names_are_lower_case_inside_sentences(lang: Lang, played: str) -> None:
    """Finnish, Swedish and Norwegian write a card's colour in lower case mid-sentence."""
    event = ev.CardPlayed("p0", Face(Color.YELLOW, Kind.NUMBER, 5))
    assert words.narrate(lang, [event], name) == [played]


@pytest.mark.parametrize("lang", languages())
def test_every_view_prompt_and_move_label(
    lang: Lang, played: Played, played_no_mercy: Played
) -> None:
    """Prompts and labels render for every seat of every seeded game, within 80 characters."""
    for game in [*played.games, *played_no_mercy.games]:
        for player in [None, *game.players]:
            view = view_for(game, player) if player else public_view(game)
            shown = [words.turn_prompt(lang, view, name)]
            if player:
                shown.append(words.hand_prompt(lang, view, name))
                labels = [words.move_label(lang, move, view, name) for move in view.legal_moves]
                assert all(0 < len(label) <= 80 for label in labels)
                shown += labels
            assert all(shown)
            if lang != ENGLISH:
                assert [line for line in shown if english_words(lang, line)] == []


def test_english_prompts_are_unchanged(played: Played) -> None:
    """In English, table and hand prompts of finished games read as the English-only render
    helpers said them (live prompts are checked through the bot in tests/bot)."""
    for game in played.games:
        for player in game.players:
            view = view_for(game, player)
            assert words.turn_prompt(ENGLISH, view, name) == "Round over."
            assert words.hand_prompt(ENGLISH, view, name) == "Waiting for nobody."


def test_english_private_notices_are_unchanged(played: Played) -> None:
    """What a player alone learns reads as before in English, and renders in every language."""
    notices: list[list[str]] = []
    for batch in played.batches:
        players = {getattr(event, "player", None) for event in batch} - {None}
        for player in sorted(p for p in players if isinstance(p, str)):
            english = words.private_notice(ENGLISH, batch, player, name)
            notices.append([player, english])
            for lang in OTHERS:
                notice = words.private_notice(lang, batch, player, name)
                assert bool(notice) == bool(english)
    assert recorded(notices) == ENGLISH_NOTICES


@pytest.mark.parametrize(
    ("rules", "before"),
    [
        (
            RuleSet(),
            "UNO Flip\nPlay to 500 points, standard scoring.\n"
            "Turn timer: 45 s, then the AI plays for you.\nHouse rules: none (official rules).",
        ),
        (
            RuleSet(variant="classic", edition="shuffle_hands", scoring="alternative"),
            "Classic UNO (shuffle hands edition)\nPlay to 500 points, alternative scoring.\n"
            "Turn timer: 45 s, then the AI plays for you.\nHouse rules: none (official rules).",
        ),
        (
            RuleSet(
                variant="classic",
                stacking=True,
                stack_wild_draw_four_on_draw_two=True,
                seven_o=True,
                jump_in=True,
                draw_until_playable=True,
                forced_play=True,
            ),
            "Classic UNO\nPlay to 500 points, standard scoring.\n"
            "Turn timer: 45 s, then the AI plays for you.\nHouse rules: stacking, Wild Draw Four "
            "on Draw Two, Seven-O, jump-in, draw until playable, forced play",
        ),
    ],
)
def test_rules_summary(rules: RuleSet, before: str) -> None:
    """This game's settings read as before in English and render in every language."""
    english = words.rules_summary(ENGLISH, rules, 45, True)
    assert english == before
    for lang in OTHERS:
        assert english_words(lang, words.rules_summary(lang, rules, 45, True)) == set()


def test_refusals_are_recognised(played: Played, played_no_mercy: Played) -> None:
    """Every engine refusal met in play reads the same in English and has its own key."""
    generic = "That move is not possible right now."
    for message in played.refusals | played_no_mercy.refusals:
        assert words.illegal_move_text(ENGLISH, message) == british(message)
        if message != generic:
            assert words.illegal_move_text(FI, message) != t(FI, "illegal.not_possible")
    assert words.illegal_move_text(
        FI, "Red 5 does not match Blue Skip (colour in play: blue)."
    ) == ("Punainen 5 ei sovi kortin sininen ohitus päälle (pelissä oleva väri: sininen).")
    assert words.illegal_move_text(SV, "something new") == t(SV, "illegal.not_possible")


def test_settings_errors_are_said_in_the_language() -> None:
    """A refused combination of options names its reason in the reader's language."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as caught:
        RuleSet(variant="flip", seven_o=True)
    reason = caught.value.errors()[0]["msg"]
    assert words.settings_error_text(ENGLISH, reason) == (
        "Those settings do not work together: Seven-O needs classic UNO: the Flip deck has no 0."
    )
    assert "seiska–nolla" in words.settings_error_text(FI, reason)


def test_ai_names() -> None:
    """Computer players are "Cara 🤖" in play; their level is said in the table's language."""
    assert words.ai_name(ENGLISH, "Cara") == "Cara 🤖"
    assert words.ai_name(FI, "Cara") == "Cara 🤖"
    assert words.ai_level(FI, "hard") == "vaikea"
    assert words.ai_level(NB, "easy") == "lett"


# ---------------------------------------------------------------------- Discord limits


@pytest.mark.parametrize("lang", languages())
def test_texts_fit_discord_limits(lang: Lang) -> None:
    """Labels, titles, field values and footers fit Discord, placeholders at their widest."""
    for key, texts in entries(lang):
        for form in texts:
            shown = fill(form)
            if key.startswith("button."):
                assert len(shown) <= 80, key
            if key.endswith(".title") or key in {"table.scores", "lobby.players.title"}:
                assert len(shown) <= 256, key
            if key.startswith("choice.") or key.endswith(".description"):
                assert 1 <= len(shown) <= 100, key
            assert len(shown) <= 2000, key  # a message's content


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("variant", ["flip", "classic", "nomercy", "allwild", "junior"])
def test_rules_fit_one_embed(lang: Lang, variant: str) -> None:
    """/uno rules fits one embed, with room left for the "This game" field."""
    rules = words.rules_text(lang, variant)
    assert len(rules.title) <= 256 and len(rules.description) <= 4096
    assert len(rules.fields) <= 24
    for field_name, value in rules.fields:
        assert len(field_name) <= 256 and len(value) <= 1024
    total = len(rules.title) + len(rules.description) + sum(map(len, sum(rules.fields, ())))
    assert total <= 6000 - 1024 - 256


def test_the_leaderboard_columns_fit_their_width() -> None:
    """The monospace table's column heads fit the widths the leaderboard lays out."""
    widths = {"player": 14, "points": 6, "matches_won": 3, "rounds_won": 4, "games_played": 4}
    for lang in languages():
        for column, width in widths.items():
            assert len(t(lang, f"board.col.{column}")) <= width, (lang, column)


# ---------------------------------------------------------------------- slash commands


COMMAND_NAME = re.compile(r"[-_\w]{1,32}")


def valid_command_name(text: str) -> bool:
    """Discord's rule: 1-32 lowercase letters, digits, - or _ (any script)."""
    return bool(COMMAND_NAME.fullmatch(text)) and all(
        ch in "-_" or (unicodedata.category(ch)[0] in "LN" and ch == ch.lower()) for ch in text
    )


async def synced_payloads() -> list[dict[str, Any]]:
    """The command payloads the bot would sync, translated as at start-up (the /uno cog
    installs the translator when it loads)."""
    bot = UnoBot(make_settings(Path("unused")), shard_count=1)
    await bot.add_cog(UnoCog(bot))
    await bot.add_cog(LeaderboardCog(bot))
    await bot.add_cog(HistoryCog(bot))
    translator = bot.tree.translator
    assert isinstance(translator, CommandTranslator)
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


def walk(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A command payload and every option, subcommand and choice inside it."""
    yield payload
    for option in payload.get("options", []):
        yield from walk(option)
    yield from payload.get("choices", [])


DISCORD_LOCALES = {
    lang: [str(locale) for locale in discord.Locale if language_of(locale) == lang]
    for lang in OTHERS
}


async def test_every_command_option_and_choice_is_localized() -> None:
    """The synced payload names and describes everything in Finnish, Swedish and Norwegian."""
    payloads = await synced_payloads()
    assert {p["name"] for p in payloads} == {"uno", "leaderboard", "stats"}
    for payload in payloads:
        for item in walk(payload):
            for locales in DISCORD_LOCALES.values():
                for locale in locales:
                    assert locale in item.get("name_localizations", {}), (item["name"], locale)
                    if "description" in item:
                        assert locale in item["description_localizations"], item["name"]


async def test_localized_command_names_are_valid_and_distinct() -> None:
    """Names are valid Discord names; no two options of a command share a name in a language."""
    every_locale = ["en-US", *(locale for group in DISCORD_LOCALES.values() for locale in group)]
    for payload in await synced_payloads():
        for item in walk(payload):
            localized_names = item.get("name_localizations", {}).values()
            if "value" in item:  # a choice: any text up to 100 characters
                assert all(1 <= len(shown) <= 100 for shown in localized_names)
                continue
            assert valid_command_name(item["name"])
            assert all(valid_command_name(shown) for shown in localized_names), item["name"]
            for shown in item.get("description_localizations", {}).values():
                assert 1 <= len(shown) <= 100
            options = item.get("options", [])
            for locale in every_locale:
                names = [o.get("name_localizations", {}).get(locale, o["name"]) for o in options]
                assert len(names) == len(set(names)), (item["name"], locale, names)


def test_command_names_in_texts_are_the_localized_ones() -> None:
    """A text that names a command names it as that language's Discord shows it."""
    commands_named = (
        ("cmd.uno.name", "cmd.uno.flip.name", "cmd.uno.flip.start.name"),
        ("cmd.uno.name", "cmd.uno.classic.name", "cmd.uno.classic.start.name"),
        ("cmd.uno.name", "cmd.uno.nomercy.name", "cmd.uno.nomercy.start.name"),
        ("cmd.uno.name", "cmd.uno.allwild.name", "cmd.uno.allwild.start.name"),
        ("cmd.uno.name", "cmd.uno.junior.name", "cmd.uno.junior.start.name"),
        ("cmd.uno.name", "cmd.uno.leave.name"),
        ("cmd.uno.name", "cmd.uno.end.name"),
        ("cmd.leaderboard.name",),
    )
    for lang in languages():
        paths = [" ".join(t(lang, key) for key in path) for path in commands_named]
        for key, texts in entries(lang):
            for form in texts:
                # A slash after a word, a placeholder or markdown is a fraction ("3/10").
                for mentioned in re.findall(r"(?<![\w}*])/(\w[\w-]*(?: [\w-]+)*)", form):
                    assert any(
                        mentioned == path or mentioned.startswith(path + " ") for path in paths
                    ), (lang, key, mentioned)


# ---------------------------------------------------------------------- which language


@pytest.mark.parametrize(
    ("user", "server", "expected"),
    [
        ("fi", "sv-SE", "fi"),  # a Finnish user in a Swedish server reads Finnish
        ("sv-SE", "fi", "sv"),
        ("no", None, "nb"),
        ("en-GB", "fi", "en"),
        ("de", "sv-SE", "sv"),  # no German catalog: the server's language
        ("ja", "pt-BR", "en"),  # neither known: English
        (None, None, "en"),
        (discord.Locale.finnish, discord.Locale.swedish, "fi"),
        (discord.Locale.norwegian, None, "nb"),
    ],
)
def test_ephemeral_language(user: Any, server: Any, expected: str) -> None:
    """User locale first, then the server's, then English."""
    assert resolve(user, server) == expected


def test_public_language() -> None:
    """A server's setting wins over its locale; either may be a locale or a catalog code."""
    assert public_language("sv-SE") == "sv"
    assert public_language("sv-SE", "fi") == "fi"
    assert public_language("fi", "no") == "nb"
    assert public_language("de", "klingon") == "en"
    assert public_language(None, None) == "en"


def test_every_discord_locale_of_a_language_maps_to_it() -> None:
    """The locales named in LANGUAGES are real Discord locales."""
    known = {str(locale) for locale in discord.Locale}
    for locales in LANGUAGES.values():
        assert set(locales) <= known


async def test_translator_answers_only_for_known_languages() -> None:
    """English and unknown locales keep the default; explicit keys win over the tree's."""
    translator = CommandTranslator()
    await translator.load()
    where: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    keyed = app_commands.locale_str("Rules", key="rules.title")
    assert await translator.translate(keyed, discord.Locale.finnish, where) == "Säännöt"
    assert await translator.translate(keyed, discord.Locale.american_english, where) is None
    assert await translator.translate(keyed, discord.Locale.german, where) is None
    plain = app_commands.locale_str("anything")
    assert await translator.translate(plain, discord.Locale.finnish, where) is None


def test_side_names() -> None:
    """The Flip sides keep their sun and moon in every language."""
    for lang in languages():
        assert words.side_name(lang, Side.LIGHT).startswith("☀️")
        assert words.side_name(lang, Side.DARK).startswith("🌑")


# ---------------------------------------------------------------------- lobby and standings


def test_english_lobby_footer_is_unchanged() -> None:
    """The lobby footer reads as before (with "an easy" now where it said "a easy")."""
    assert words.lobby_footer(ENGLISH, "normal") == (
        "Join, then the host presses Start (2 to 10 players). "
        "Add AI seats a normal computer player."
    )
    assert words.lobby_footer(ENGLISH, "easy").endswith("Add AI seats an easy computer player.")
    assert words.lobby_footer(FI, "hard") == (
        "Liity mukaan, ja järjestäjä painaa Aloita (2–10 pelaajaa). "
        "Lisää tekoäly tuo pöytään vaikean tietokonepelaajan."
    )


@pytest.mark.parametrize("sort", ["points", "matches_won", "rounds_won"])
@pytest.mark.parametrize("value", [1, 2, 1234])
def test_english_rank_line_is_unchanged(sort: str, value: int) -> None:
    """The viewer's rank line reads as the leaderboard cog wrote it before the catalogs."""
    unit = {"points": "point", "matches_won": "match won", "rounds_won": "round won"}[sort]
    if value != 1:
        head, _, tail = unit.partition(" ")
        unit = " ".join([f"{head}es" if head.endswith("ch") else f"{head}s", tail]).strip()
    before = f"📍 Anna is **#7** of 4,321 with {value:,} {unit}."
    assert words.rank_line(ENGLISH, "Anna", 7, 4321, sort, value) == before
    assert words.rank_line(ENGLISH, "Anna", None, 4321, sort, value) == (
        "📍 Anna has no scored rounds on this board yet."
    )


def test_english_standings_texts_are_unchanged() -> None:
    """Titles, the empty board, the footer and an empty /stats read as before in English."""
    assert words.board_title(ENGLISH, "Global", "flip") == "🏆 Global leaderboard · UNO Flip"
    assert words.board_title(ENGLISH, "Kahvila", "all") == "🏆 Kahvila leaderboard"
    assert words.board_empty(ENGLISH, True, "classic") == (
        "No Classic UNO rounds have been scored on this server yet. "
        "Start a game with `/uno flip start` or `/uno classic start`."
    )
    assert words.board_empty(ENGLISH, False, "all") == (
        "No rounds have been scored anywhere yet. "
        "Start a game with `/uno flip start` or `/uno classic start`."
    )
    assert words.board_footer(ENGLISH, 1, 3, 25) == (
        "Page 1/3 · 25 players · Pts points, MW matches won, RW rounds won, GP games played"
    )
    assert words.no_stats_text(ENGLISH, False, "Ben", True).startswith(
        "Ben hasn't finished a round on this server yet. Start a game"
    )
    assert words.board_title(SV, "Global", "classic") == "🏆 Topplista: Global · Klassiskt UNO"
    assert words.sort_amount(FI, "matches_won", 2) == "2 voitettua peliä"
