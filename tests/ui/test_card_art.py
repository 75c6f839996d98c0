"""Card art: every face draws, distinct and sized right, readable without colour, and cached."""

from __future__ import annotations

import logging
import subprocess
import sys
from functools import partial
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.engine.cards import Color, Face, Kind, Side
from bot.engine.decks import all_cards, deck_of
from bot.engine.variants import ALL_WILD, CLASSIC, FLIP, NO_MERCY, VARIANTS
from bot.ui.cards import (
    COLOR_BLIND,
    DESIGN_VERSION,
    EMOJI_SIZE,
    ENGLISH_CARD_WORDS,
    SHAPES,
    STANDARD,
    Back,
    CardArt,
    CardWords,
    Family,
    all_faces,
    all_family_faces,
    draw_back,
    draw_emoji,
    draw_face,
    draw_mini,
    face_name,
    side_of,
)
from bot.ui.i18n import languages
from bot.ui.words import card_words

SMALL = 60  # small pictures keep the every-face tests fast; the drawing is the same at any size


def test_the_catalog_holds_every_face_of_every_deck() -> None:
    """All classic editions, both Flip sides, No Mercy, All Wild and Junior: 141 distinct faces
    (120 before No Mercy added 16: its coloured Draw Four, Discard All and light Skip Everyone,
    and four wilds; All Wild 5 wilds; Junior none), each with a unique name."""
    faces = set(all_faces())
    for edition in ("standard", "shuffle_hands", "swap_hands"):
        assert {(c.light, Side.LIGHT) for c in deck_of(CLASSIC, edition)} <= faces
    assert {(c.light, Side.LIGHT) for c in deck_of(FLIP)} <= faces
    assert {(c.face(Side.DARK), Side.DARK) for c in deck_of(FLIP)} <= faces
    assert {(c.light, Side.LIGHT) for c in deck_of(NO_MERCY)} <= faces
    assert {(c.light, Side.LIGHT) for c in deck_of(ALL_WILD)} <= faces
    assert len(faces) == 141
    assert len({face_name(f, s) for f, s in faces}) == 141


def test_a_plain_wild_is_drawn_per_side_and_other_faces_know_their_side() -> None:
    """Only the plain Wild is on both sides; colours and side-only wilds decide it alone."""
    wild = Face(None, Kind.WILD)
    assert side_of(wild, Side.DARK) is Side.DARK and side_of(wild) is Side.LIGHT
    assert side_of(Face(Color.TEAL, Kind.NUMBER, 3), Side.LIGHT) is Side.DARK
    assert side_of(Face(None, Kind.WILD_DRAW_COLOR)) is Side.DARK
    light, dark = (
        draw_face(wild, Side.LIGHT, STANDARD, SMALL, ENGLISH_CARD_WORDS),
        draw_face(wild, Side.DARK, STANDARD, SMALL, ENGLISH_CARD_WORDS),
    )
    assert light.tobytes() != dark.tobytes()


@pytest.mark.parametrize("draw", [partial(draw_face, words=ENGLISH_CARD_WORDS), draw_mini])
def test_every_face_draws_a_distinct_card_of_the_right_size(draw: object) -> None:
    """Each of the 242 faces of every family gives its own picture, 2:3, opaque in the middle."""
    seen: dict[bytes, tuple[Face, Side, Family]] = {}
    for face, side, family in all_family_faces():
        image = draw(face, side, STANDARD, SMALL, family=family)  # type: ignore[operator]
        assert image.size == (40, SMALL)
        assert image.getpixel((20, 30))[3] == 255
        assert image.tobytes() not in seen, f"{face} looks like {seen.get(image.tobytes())}"
        seen[image.tobytes()] = (face, side, family)


def test_every_emoji_is_square_distinct_and_small() -> None:
    """Button pictures of every family: 128 x 128, all 242 different, PNGs far under 256 KB."""
    art = CardArt()
    pngs = {art.emoji_png(f, s, family=fam) for f, s, fam in all_family_faces()}
    assert len(pngs) == len(all_family_faces()) == 242
    assert max(len(p) for p in pngs) < 256 * 1024
    assert draw_emoji(Face(Color.RED, Kind.NUMBER, 5), None, STANDARD).size == (EMOJI_SIZE,) * 2


def test_backs_differ_from_each_other() -> None:
    """The classic, No Mercy and Junior backs and the two Flip side backs are five pictures."""
    backs = {draw_back(back, STANDARD, SMALL).tobytes() for back in Back}
    assert len(backs) == len(Back) == 5


def test_each_variant_declares_a_known_art_family() -> None:
    """Every registry entry names a Family; No Mercy and Junior each have their own look."""
    families = {key: Family(entry.art) for key, entry in VARIANTS.items()}
    assert families["nomercy"] is Family.NO_MERCY and families["junior"] is Family.JUNIOR
    assert families["classic"].faces is families["flip"].faces is Family.CLASSIC


@pytest.mark.parametrize("family", [Family.NO_MERCY, Family.JUNIOR])
def test_a_familys_faces_emoji_minis_and_back_differ_from_the_classic_ones(
    family: Family,
) -> None:
    """Every face of No Mercy or Junior, as card, emoji and fanned card, and its back, is not
    the classic picture: a player tells the game apart at a glance."""
    faces = [(f, s) for f, s, fam in all_family_faces() if fam is family]
    assert faces
    for face, side in faces:
        for draw in (partial(draw_face, words=ENGLISH_CARD_WORDS), draw_mini, draw_emoji):
            own = draw(face, side, STANDARD, SMALL, family=family)
            classic = draw(face, side, STANDARD, SMALL)
            assert own.size == classic.size and own.tobytes() != classic.tobytes()
    back = draw_back(Back.of(family), STANDARD, SMALL)
    assert back.tobytes() != draw_back(Back.CLASSIC, STANDARD, SMALL).tobytes()
    mini_back = draw_mini(None, None, STANDARD, SMALL, family)
    assert mini_back.tobytes() != draw_mini(None, None, STANDARD, SMALL).tobytes()


def test_flip_and_classic_keep_their_pictures() -> None:
    """The classic family's faces are Flip's too: same names, so their emoji stay deployed."""
    face = Face(Color.RED, Kind.NUMBER, 5)
    assert face_name(face, None, Family.FLIP) == face_name(face) == "red_5"
    assert face_name(face, None, Family.NO_MERCY) == "nm_red_5"
    assert Back.of(Family.FLIP) is Back.LIGHT and Back.of(Family.CLASSIC) is Back.CLASSIC


@pytest.mark.parametrize("color", [Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE])
def test_a_junior_card_prints_its_colours_word(color: Color) -> None:
    """Junior keeps the colour's word on each card (with its shape in the corner and its
    animal built on that shape): another word draws another card."""
    face = Face(color, Kind.NUMBER, 4)
    other = CardWords(
        "en",
        ENGLISH_CARD_WORDS.actions,
        tuple((c, "X" if c is color else w) for c, w in ENGLISH_CARD_WORDS.colors),
    )
    pictures = {
        draw_face(face, None, STANDARD, 150, words, Family.JUNIOR).tobytes()
        for words in (ENGLISH_CARD_WORDS, other)
    }
    assert len(pictures) == 2


def _white_ink(image: Image.Image) -> set[tuple[int, int]]:
    # The darkest channel of each pixel: white ink is bright in all three.
    data = image.convert("RGB").tobytes()
    width = image.size[0]
    return {
        (i // 3 % width, i // 3 // width)
        for i in range(0, len(data), 3)
        if min(data[i : i + 3]) >= 245
    }


@pytest.mark.parametrize("color", list(Color))
def test_the_colour_blind_palette_changes_colours_not_shapes(color: Color) -> None:
    """Same face in both palettes: another fill, the same white signs and shapes."""
    face = Face(color, Kind.NUMBER, 8)
    plain = draw_face(face, None, STANDARD, 150, ENGLISH_CARD_WORDS)
    safe = draw_face(face, None, COLOR_BLIND, 150, ENGLISH_CARD_WORDS)
    assert STANDARD.fill(color) != COLOR_BLIND.fill(color)
    assert plain.getpixel((15, 140)) != safe.getpixel((15, 140))
    ink_plain, ink_safe = _white_ink(plain), _white_ink(safe)
    assert ink_plain, "no white ink drawn"
    # Anti-aliased edges blend with the fill, so a few edge pixels may differ.
    assert len(ink_plain ^ ink_safe) <= 0.05 * len(ink_plain)


def test_each_side_gives_its_four_colours_four_different_shapes() -> None:
    """The colour-free cue: no two colours of a side share a shape."""
    assert len({SHAPES[c] for c in Color}) == len(Color)


# ---------------------------------------------------------------------- cache


def test_a_cache_hit_returns_the_same_bytes_without_drawing() -> None:
    """The second call draws nothing and returns identical bytes."""
    art = CardArt()
    face = Face(Color.BLUE, Kind.SKIP)
    first = art.face_png(face)
    assert art.renders == 1
    assert art.face_png(face) == first and art.renders == 1
    assert art.face_image(face) is art.face_image(face)
    assert art.renders == 1  # the image came from the PNG already in memory


def test_palette_and_size_are_part_of_the_key() -> None:
    """Another size or palette is another picture."""
    face = Face(Color.GREEN, Kind.NUMBER, 2)
    art, safe = CardArt(), CardArt(palette=COLOR_BLIND)
    assert art.face_png(face, height=90) != art.face_png(face, height=120)
    assert art.face_png(face, height=90) != safe.face_png(face, height=90)
    assert art.renders == 2


def test_the_memory_cache_forgets_the_least_recently_used(tmp_path: Path) -> None:
    """With room for two, a third picture pushes out the oldest unused one."""
    art = CardArt(memory_items=2)
    a, b, c = (Face(Color.RED, Kind.NUMBER, n) for n in (1, 2, 3))
    art.face_png(a)
    art.face_png(b)
    art.face_png(a)  # a is now the most recent
    art.face_png(c)
    art.face_png(a)
    assert art.renders == 3
    art.face_png(b)
    assert art.renders == 4


def test_the_disk_cache_survives_a_new_cache_object(tmp_path: Path) -> None:
    """A new CardArt on the same folder (a restart) draws nothing for known faces."""
    face = Face(Color.PURPLE, Kind.SKIP_EVERYONE)
    first = CardArt(tmp_path).face_png(face)
    again = CardArt(tmp_path)
    assert again.face_png(face) == first
    assert again.renders == 0
    assert all(p.name.startswith(f"v{DESIGN_VERSION}-") for p in tmp_path.iterdir())


def test_a_file_cut_short_is_drawn_again(tmp_path: Path) -> None:
    """A truncated PNG on disk is never served."""
    face = Face(Color.ORANGE, Kind.FLIP)
    good = CardArt(tmp_path).face_png(face)
    (path,) = tmp_path.iterdir()
    path.write_bytes(good[:100])
    art = CardArt(tmp_path)
    assert art.face_png(face) == good
    assert art.renders == 1


def test_files_of_another_design_version_are_removed(tmp_path: Path) -> None:
    """Opening the folder prunes pictures of other versions, and leaves other files alone."""
    old = tmp_path / f"v{DESIGN_VERSION + 1}-std-face-red_5-180.png"
    old.write_bytes(b"old")
    other = tmp_path / "notes.txt"
    other.write_text("keep")
    CardArt(tmp_path)
    assert not old.exists() and other.exists()


def test_an_unusable_folder_falls_back_to_memory_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A file where the folder should be: pictures still work, one warning."""
    blocker = tmp_path / "cards"
    blocker.write_text("not a folder")
    with caplog.at_level(logging.WARNING):
        art = CardArt(blocker / "inner")
        art.face_png(Face(Color.RED, Kind.NUMBER, 1))
        art.face_png(Face(Color.RED, Kind.NUMBER, 2))
    assert art.renders == 2
    assert len([r for r in caplog.records if "memory only" in r.getMessage()]) == 1


def test_drawing_is_deterministic() -> None:
    """Two caches give byte-identical pictures (so disk files never churn)."""
    face = Face(None, Kind.WILD_DRAW_FOUR)
    assert CardArt().face_png(face) == CardArt().face_png(face)


def test_the_art_modules_import_neither_discord_nor_asyncio() -> None:
    """Only bot.ui.cards.emoji touches Discord; the drawing and the cache stay pure."""
    code = (
        "import sys, bot.ui.cards, bot.ui.cards.preview; "
        "print(sorted(m for m in ('discord', 'asyncio') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_all_wilds_eight_faces_differ_by_sign_and_word_not_colour() -> None:
    """All Wild's eight kinds share one wheel: in grey at 22 px their emoji still differ in
    at least 20 pixels (the sign), and each language gives them eight different words."""
    kinds = sorted({c.light.kind for c in all_cards(ALL_WILD)})
    assert len(kinds) == 8
    grey = {
        kind: draw_emoji(Face(None, kind), None, STANDARD)
        .convert("L")
        .resize((22, 22), Image.Resampling.LANCZOS)
        for kind in kinds
    }
    for a, b in combinations(kinds, 2):
        changed = ImageChops.difference(grey[a], grey[b]).point(lambda v: 255 if v > 40 else 0)
        assert changed.histogram()[255] >= 20, f"{a} and {b} look alike without colour"
    for lang in languages():
        assert len({card_words(lang).action(kind) for kind in kinds}) == 8, lang
