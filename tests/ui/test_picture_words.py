"""The table picture's own words follow the table's language, and a picture in one language is
never sent for a table in another."""

from __future__ import annotations

import io
import pickle
from dataclasses import replace

import pytest
from PIL import Image

from bench.cards import sample_table
from bot.engine import Game, RuleSet, public_view
from bot.engine.cards import Side
from bot.ui import pictures
from bot.ui.cards import CardArt, PictureWords, TablePicture, table_png
from bot.ui.i18n import ENGLISH, Lang, languages
from bot.ui.pictures import LastPicture, Pictures
from bot.ui.words import card_words, picture_words

FI = Lang("fi")


def test_a_finnish_table_gets_finnish_words() -> None:
    """Every word the picture draws comes from the Finnish catalog; the lang is part of them."""
    table = sample_table("flip", 4, 7)
    dark = replace(table, side=Side.DARK, direction=-1, color=None)
    assert picture_words(FI, table) == PictureWords(
        lang="fi",
        draw_pile="Pakka: 50",
        color="SININEN",
        direction="Myötäpäivään",
        uno="UNO!",
        next="Seuraava: {name}",
        player="Pelaaja {number}",
        cards=card_words(FI),
    )
    words = picture_words(FI, dark)
    assert pickle.loads(pickle.dumps(words)) == words  # it travels to the drawing process
    assert (words.color, words.direction) == ("VAPAA VÄRI", "Vastapäivään")


@pytest.mark.parametrize("lang", languages())
def test_every_language_fills_the_picture_templates(lang: Lang) -> None:
    """The name and number templates take exactly their one field in every catalog."""
    words = picture_words(lang, sample_table("flip", 2, 7))
    assert "Ada" in words.next.format(name="Ada")
    assert "3" in words.player.format(number=3)


def test_the_same_table_in_finnish_is_another_picture() -> None:
    """Same view, same size: only the words differ, so the PNGs differ."""
    table = sample_table("flip", 4, 7)
    art = CardArt()
    english = table_png(table, art, picture_words(ENGLISH, table))
    finnish = table_png(table, art, picture_words(FI, table))
    assert english != finnish
    sizes = {Image.open(io.BytesIO(png)).size for png in (english, finnish)}
    assert len(sizes) == 1


async def test_the_cached_picture_is_drawn_again_in_another_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table whose language changes gets a new picture, drawn with that language's words."""
    drawn: list[str] = []

    async def draw_here(
        self: Pictures, picture: TablePicture, words: PictureWords, palette: str
    ) -> bytes:
        drawn.append(words.lang)
        return words.lang.encode()

    monkeypatch.setattr(pictures.Pictures, "_draw", draw_here)
    view = public_view(Game.new(["p1", "p2"], RuleSet(variant="flip"), seed=4))
    shown, last = Pictures(), LastPicture()
    assert await shown.table_png(view, str, "standard", last, ENGLISH) == b"en"
    assert await shown.table_png(view, str, "standard", last, ENGLISH) == b"en"
    assert await shown.table_png(view, str, "standard", last, FI) == b"fi"
    assert drawn == ["en", "fi"]
