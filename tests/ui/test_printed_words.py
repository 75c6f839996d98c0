"""The words printed on the cards and the picture say what the card names say, one spelling per
language, as docs/glossary.md lists them (issue 31, item 7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.engine.cards import Kind
from bot.ui.i18n import ENGLISH, LOCALES_DIR, Lang, languages, t, tn
from bot.ui.words import art_word

GLOSSARY = Path(__file__).parents[2] / "docs" / "glossary.md"
ACTIONS = [kind for kind in Kind if kind is not Kind.NUMBER]
# The Finnish customizable wild's name ("muokattava villi") is too long to print; the card says
# what it is for ("your own rule") instead.
# No Mercy's Wild Reverse Draw Four and All Wild's Wild Targeted Draw Two are too long a name to
# print in any language: the card prints its two signs, a word of its name and the draw's "+N".
SHORTENED = {("fi", Kind.WILD_CUSTOMIZABLE)} | {
    (lang, kind)
    for lang in ("en", "fi", "sv", "nb")
    for kind in (Kind.WILD_REVERSE_DRAW_FOUR, Kind.WILD_TARGETED_DRAW_TWO)
}


@pytest.mark.parametrize("lang", languages())
def test_a_cards_printed_word_is_taken_from_its_name(lang: Lang) -> None:
    """The art prints a part of the card's name ("SUUNNANVAIHTO" for "suunnanvaihto", not
    "SUUNTA"; "HOPP OVER ALLE" for "Hopp over alle")."""
    for kind in ACTIONS:
        if (lang, kind) in SHORTENED:
            continue
        name = t(lang, f"card.{kind.value}").upper()
        assert art_word(lang, kind) in name, kind


def glossary_printed_words() -> dict[str, list[str]]:
    """The glossary's table of printed words: each card's row, by column (English first)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("### Printed on the card", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    return {cells[0]: cells[1:] for cells in (re.split(r"\s*\|\s*", row)[1:-1] for row in rows)}


def test_the_glossary_lists_every_printed_word_as_the_catalogs_have_it() -> None:
    """docs/glossary.md's "Printed on the card" table matches the art words of every language."""
    table = glossary_printed_words()
    order = [ENGLISH, Lang("fi"), Lang("sv"), Lang("nb")]
    for kind in ACTIONS:
        english = t(ENGLISH, f"card.{kind.value}")
        assert table[english] == [art_word(lang, kind) for lang in order], kind


def test_english_spells_colour_one_way() -> None:
    """No English text spells "color" (placeholders aside): the picture's ANY COLOUR and the
    card's DRAW COLOUR agree."""
    with (LOCALES_DIR / "en.po").open("rb") as file:
        catalog = read_po(file, locale="en")
    for message in catalog:
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            assert not re.search(r"\bcolor", re.sub(r"\{\w+\}", "", str(text)), re.I), message.id


@pytest.mark.parametrize(
    ("lang", "key", "expected"),
    [
        ("fi", "art.reverse", "SUUNNANVAIHTO"),
        ("nb", "art.skip_everyone", "HOPP OVER ALLE"),
        ("nb", "setting.turn_timeout", "Tid per tur"),
        ("sv", "setting.turn_timeout", "Tid per tur"),
        ("sv", "rules.flip.challenge.title", "⚖️ Utmaning"),
        ("sv", "rules.classic.challenge.title", "⚖️ Utmaning"),
        (
            "en",
            "illegal.penalty.accept_challenge",
            "Answer the draw card first: accept it or challenge it.",
        ),
        ("en", "art.wild_draw_color", "DRAW COLOUR"),
    ],
)
def test_the_words_issue_31_found_wrong_read_right(lang: str, key: str, expected: str) -> None:
    """Each word the issue named is fixed."""
    assert t(Lang(lang), key) == expected


def test_norwegian_says_one_round_won_and_one_word_for_scoring() -> None:
    """ "1 vunnen runde", and "poengtelling" everywhere (never "poengberegning")."""
    assert tn(Lang("nb"), "board.unit.rounds_won", 1) == "1 vunnen runde"
    text = (LOCALES_DIR / "nb.po").read_text(encoding="utf-8")
    assert "poengberegning" not in text and "poengtelling" in text
