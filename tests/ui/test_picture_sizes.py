"""The table picture's words at the size Discord shows them (issue 31, item 5).

Discord fits an embed's image into a box: about 400x300 on the desktop client, and the embed's
width (about 262 px) on a 360 px-wide phone (docs/table-picture.md). A word is readable from
12 px up. The renderer reports every word it draws (``DrawnReport``); scaled into the box, the
smallest must be at least 12 px.
"""

from __future__ import annotations

import pytest

from bench.cards import sample_table
from bot.ui.cards import CardArt, DrawnReport, render_table
from bot.ui.i18n import Lang, languages
from bot.ui.words import picture_words

# (width, height) of the box the image is fitted into; None: as tall as it needs.
DISPLAY_BOXES: dict[str, tuple[int, int | None]] = {"desktop": (400, 300), "phone": (262, None)}
READABLE_PX = 12.0
LAYOUTS = [(variant, players) for variant in ("flip", "classic") for players in (2, 3, 4, 6, 7, 10)]


def smallest_word_px(variant: str, players: int, box: tuple[int, int | None], lang: Lang) -> float:
    """The smallest word of the picture, in pixels, once fitted into ``box``."""
    picture = sample_table(variant, players, 7)
    report = DrawnReport([], [])
    image = render_table(picture, CardArt(), picture_words(lang, picture), report)
    width, height = box
    scale = min(1.0, width / image.width, height / image.height if height else 1.0)
    return min(text.size for text in report.texts) * scale


def test_the_smallest_word_is_measured_at_the_displayed_size() -> None:
    """The measure scales by the box: in a box half as large, words show at half the size."""
    desktop = smallest_word_px("classic", 10, DISPLAY_BOXES["desktop"], Lang("en"))
    twice = smallest_word_px("classic", 10, (800, 600), Lang("en"))
    assert desktop == pytest.approx(twice / 2, rel=0.05)


@pytest.mark.parametrize("box", sorted(DISPLAY_BOXES))
@pytest.mark.parametrize(("variant", "players"), LAYOUTS)
def test_every_word_is_readable_at_the_displayed_size(variant: str, players: int, box: str) -> None:
    """In every language, the smallest word is at least 12 px where Discord shows it."""
    for lang in languages():
        size = smallest_word_px(variant, players, DISPLAY_BOXES[box], lang)
        assert size >= READABLE_PX, (lang, round(size, 1))
