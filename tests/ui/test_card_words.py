"""The words printed on card faces follow the table's language; the emoji and the fanned cards
carry no words at all, so one set of them serves every language."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bench.cards import sample_table
from bot.engine.cards import Color, Face, Kind, Side
from bot.ui.cards import (
    CARD_HEIGHT,
    ENGLISH_CARD_WORDS,
    STANDARD,
    CardArt,
    CardWords,
    Family,
    all_faces,
    draw,
    render_table,
)
from bot.ui.i18n import ENGLISH, Lang, languages
from bot.ui.words import art_word, card_words, color_word, picture_words

FI = Lang("fi")
SKIP_ALL = Face(Color.RED, Kind.SKIP_EVERYONE)
TOP_CARD = (160, 16, 300, 226)  # where the table picture pastes its top card


class RecordingArt(CardArt):
    """Card art that notes the language of every face it is asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[Face, str]] = []

    def face_image(
        self,
        face: Face,
        side: Side | None = None,
        height: int = CARD_HEIGHT,
        words: CardWords = ENGLISH_CARD_WORDS,
        family: Family = Family.CLASSIC,
    ) -> Image.Image:
        self.asked.append((face, words.lang))
        return super().face_image(face, side, height, words, family)


@pytest.mark.parametrize("lang", languages())
def test_card_words_come_from_the_catalog(lang: Lang) -> None:
    """Each kind's and colour's word is the catalog's, in every language."""
    words = card_words(lang)
    assert words.lang == lang
    assert all(words.action(k) == art_word(lang, k) for k in Kind if k is not Kind.NUMBER)
    assert all(words.color(c) == color_word(lang, c) for c in Color)


def test_a_finnish_table_prints_its_top_card_in_finnish() -> None:
    """The top card (and the Flip pile's face) get the Finnish words, and the Finnish top card
    is another picture than the English one."""
    table = replace(sample_table("flip", 4, 7), top=SKIP_ALL, color=Color.RED)
    art = RecordingArt()
    finnish = render_table(table, art, picture_words(FI, table))
    assert picture_words(FI, table).cards == card_words(FI)
    assert card_words(FI).action(Kind.SKIP_EVERYONE) == "OHITA KAIKKI"
    assert card_words(FI).color(Color.RED) == "PUNAINEN"
    assert (SKIP_ALL, "fi") in art.asked and all(lang == "fi" for _, lang in art.asked)
    english = render_table(table, art, picture_words(ENGLISH, table))
    assert (SKIP_ALL, "en") in art.asked
    changed = ImageChops.difference(finnish.crop(TOP_CARD), english.crop(TOP_CARD))
    assert changed.getbbox() is not None


def test_the_cache_keeps_languages_apart(tmp_path: Path) -> None:
    """A Finnish and an English face are two cached pictures, in memory and on disk; a new
    cache reads both back without drawing."""
    art = CardArt(tmp_path)
    english, finnish = art.face_png(SKIP_ALL), art.face_png(SKIP_ALL, words=card_words(FI))
    assert english != finnish and art.renders == 2
    assert art.face_png(SKIP_ALL, words=card_words(FI)) == finnish and art.renders == 2
    assert art.face_png(SKIP_ALL) == english and art.renders == 2
    files = sorted(p.name for p in tmp_path.iterdir())
    assert any("-face-fi-red_skip_everyone-" in f for f in files)
    assert any("-face-en-red_skip_everyone-" in f for f in files)
    again = CardArt(tmp_path)
    assert again.face_png(SKIP_ALL, words=card_words(FI)) == finnish
    assert again.face_png(SKIP_ALL) == english and again.renders == 0


def test_a_language_code_that_cannot_name_a_file_is_refused() -> None:
    """``lang`` becomes part of cache file names: only a language code is accepted."""
    with pytest.raises(ValueError):
        replace(ENGLISH_CARD_WORDS, lang="../x")
    with pytest.raises(ValueError):
        replace(ENGLISH_CARD_WORDS, colors=ENGLISH_CARD_WORDS.colors[:-1])


def test_emoji_and_fanned_cards_print_no_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every emoji and fanned card draws numbers and +N at most: no letter of any language,
    and never a translated word (they take no words to print)."""
    printed: list[str] = []
    original = draw.Pen.text

    def text(pen: draw.Pen, x: float, y: float, shown: str, *args: object) -> None:
        printed.append(shown)
        original(pen, x, y, shown, *args)  # type: ignore[arg-type]

    def word(*args: object) -> None:
        raise AssertionError(f"a word was printed: {args}")

    monkeypatch.setattr(draw.Pen, "text", text)
    monkeypatch.setattr(draw.Pen, "word", word)
    for face, side in all_faces():
        draw.draw_emoji(face, side, STANDARD, 24)
        draw.draw_mini(face, side, STANDARD, 36)
    assert printed and all(re.fullmatch(r"\+?([0-9?]|10)", shown) for shown in printed)
