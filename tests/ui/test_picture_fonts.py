"""The table picture's names find DejaVu where the Docker image installs it, and fall back to
Pillow's own font cleanly where it is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ui.cards import names
from bot.ui.cards.names import name_font, safe_name

ROOT = Path(__file__).resolve().parents[2]


def test_the_image_installs_the_font_the_names_look_for() -> None:
    """The Dockerfile installs fonts-dejavu-core, whose bold face is the first one tried."""
    assert "fonts-dejavu-core" in (ROOT / "Dockerfile").read_text()
    assert names.NAME_FONT_FILES[0] == Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def test_without_dejavu_names_fall_back_to_the_bundled_font(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No font file: names still draw, accents as plain letters, nothing raises."""
    monkeypatch.setattr(names, "NAME_FONT_FILES", (tmp_path / "missing.ttf",))
    name_font.cache_clear()
    try:
        assert safe_name("Åsa Øre", name_font(26), 300, "Player 1") == "Asa Ore"
    finally:
        name_font.cache_clear()
