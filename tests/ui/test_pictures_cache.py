"""The bot's table pictures: drawn again only when what they show changed, and only the most
recent tables keep their bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Game, RuleSet, public_view
from bot.ui import pictures
from bot.ui.i18n import ENGLISH
from bot.ui.pictures import LastPicture, Pictures


async def test_a_picture_is_drawn_once_per_change_and_old_ones_are_let_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same view twice draws once; past KEPT_PICTURES tables, the oldest lets its go."""
    monkeypatch.setattr(pictures, "KEPT_PICTURES", 1)
    monkeypatch.setattr(pictures.Pictures, "draw_timeout", None)  # however busy the machine
    game = Game.new(["p1", "p2"], RuleSet(variant="flip"), seed=4)
    shown = Pictures()
    first, second = LastPicture(), LastPicture()
    png = await shown.table_png(public_view(game), str, "standard", first, ENGLISH)
    assert png is not None and png.startswith(b"\x89PNG")
    assert await shown.table_png(public_view(game), str, "standard", first, ENGLISH) == png
    assert shown.drawn == 1
    await shown.table_png(public_view(game), str, "colour_blind", second, ENGLISH)
    assert shown.drawn == 2  # another palette is another picture
    assert first.shows is None and first.png == b""


@pytest.mark.slow
async def test_closing_calls_off_the_warm_up_and_leaves_nothing_running(tmp_path: Path) -> None:
    """close() right after start: the warm-up's pieces not yet started are called off, and
    the rest has ended when close() returns, so nothing writes into the folder after it (a
    bench on a busy machine removed its folder while the whole warm-up, in one piece then,
    still wrote cards there after close() gave up waiting)."""
    shown = Pictures(tmp_path / "card-art")
    shown.start_drawing()
    started = set(shown._unfinished)
    assert len(started) == pictures.WARM_PARTS
    await shown.close(timeout=120)
    assert all(work.done() for work in started)
    assert sum(work.cancelled() for work in started) >= 1
