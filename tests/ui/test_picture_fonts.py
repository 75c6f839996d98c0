"""The table picture's names find DejaVu where the Docker image installs it, and fall back to
Pillow's own font cleanly where it is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ui.cards import names
from bot.ui.cards.names import fitted_text, name_font, safe_name

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


@pytest.mark.skipif(not names.NAME_FONT_FILES[0].is_file(), reason="DejaVu is not installed")
def test_the_pictures_nordic_words_keep_their_letters_with_dejavu() -> None:
    """å ä ö æ ø are drawn as themselves in the font the art looks for."""
    for word in ("MØRK SIDE", "Nästa: Åsa", "VAPAA VÄRI", "ÆRE"):
        shown, face = fitted_text(word, 22, 400)
        assert shown == word
        assert face.getname()[0] == "DejaVu Sans"


def test_without_dejavu_the_pictures_words_draw_as_plain_letters(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The bundled font lacks the Nordic letters: they become plain ones, never boxes."""
    monkeypatch.setattr(names, "NAME_FONT_FILES", (tmp_path / "missing.ttf",))
    name_font.cache_clear()
    fitted_text.cache_clear()
    try:
        assert fitted_text("MØRK SIDE", 22, 400)[0] == "MORK SIDE"
        assert fitted_text("Nästa: Åsa", 22, 400)[0] == "Nasta: Asa"
    finally:
        name_font.cache_clear()
        fitted_text.cache_clear()


def test_a_long_word_shrinks_then_is_cut_to_its_room() -> None:
    """A translation longer than the English gets a smaller font, and past two thirds an
    ellipsis: it never runs out of its box."""
    shown, face = fitted_text("VALGFRI FARGE", 32, 170)
    assert face.size < 32 and face.getlength(shown) <= 170
    shown, face = fitted_text("W" * 40, 32, 170)
    assert face.size == 32 * 2 // 3 and shown.endswith(("…", "..."))
    assert face.getlength(shown) <= 170
