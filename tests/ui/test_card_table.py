"""The table picture: built from the engine's view, within 100 KB, and safe with any name."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bench.cards import sample_table
from bot.engine import Game, RuleSet, public_view, view_for
from bot.engine.cards import Color, Face, Kind, Side
from bot.ui.cards import (
    MAX_BYTES,
    CardArt,
    SeatPicture,
    TablePicture,
    table_picture,
    table_png,
    warm,
)
from bot.ui.cards.names import drawable, font, name_font, safe_name
from bot.ui.cards.table import WIDTH
from bot.ui.i18n import ENGLISH
from bot.ui.words import picture_words

HOSTILE_NAMES = [
    "A" * 500,
    "李小龙的超级长的名字" * 10,
    "😀🦄🔥" * 30,
    "مرحبا بالعالم",
    "שלום עולם",
    "\u202eevil\u202c name",
    "Z̷̢̛̛a̸̧̛l̶̨g̵̢o̴̡" * 5,
    "\u200b\u200d\u2060",
    "𝓐𝓷𝓷𝓪 🤖",
    "\x00\x1b[31m\n\t",
    "   ",
    "Ｆｕｌｌｗｉｄｔｈ",
    "\ud800",  # a lone surrogate, as a broken client could send
]


def english_png(picture: TablePicture, art: CardArt) -> bytes:
    """The picture drawn with its English words."""
    return table_png(picture, art, picture_words(ENGLISH, picture))


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("variant", ["flip", "classic"])
@pytest.mark.parametrize("players", [2, 4, 10])
@pytest.mark.parametrize("cards", [7, 42])
def test_a_table_picture_stays_under_100_kb(variant: str, players: int, cards: int) -> None:
    """2, 4 and 10 players with dealt or 42-card hands: a readable PNG of at most 100 KB."""
    data = english_png(sample_table(variant, players, cards), CardArt())
    assert len(data) <= MAX_BYTES
    image = _png(data)
    assert image.format == "PNG" and image.width == WIDTH
    # Ten 42-card hands (more cards than a deck holds) is the tallest case: two fanned lines
    # per hand.
    assert image.height <= 1300


def test_a_flip_table_shows_the_backs_and_a_classic_one_does_not_need_them() -> None:
    """The picture changes with the backs everyone sees (Flip) and with the count (classic)."""
    art = CardArt()
    flip = sample_table("flip", 4, 7)
    other_backs = replace(flip, players=(*flip.players[:-1], _with_backs(flip.players[-1])))
    assert english_png(flip, art) != english_png(other_backs, art)
    classic = sample_table("classic", 4, 7)
    fewer = replace(classic, players=(*classic.players[:-1], replace(classic.players[-1], count=3)))
    assert english_png(classic, art) != english_png(fewer, art)


def _with_backs(seat: SeatPicture) -> SeatPicture:
    return SeatPicture(
        seat.name, seat.count, seat.is_current, (Face(Color.PINK, Kind.NUMBER, 1),) * seat.count
    )


@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_table_picture_reads_every_seat_from_the_public_view(variant: str) -> None:
    """Seat order, counts, the player to move and (Flip only) the backs come from the view."""
    game = Game.new(["a", "b", "c"], RuleSet(variant=variant), seed=5)
    view = public_view(game)
    picture = table_picture(view, str.upper)
    assert [s.name for s in picture.players] == ["A", "B", "C"]
    assert [s.count for s in picture.players] == [o.card_count for o in view.opponents]
    assert [s.is_current for s in picture.players].count(True) == 1
    assert picture.players[
        [o.player for o in view.opponents].index(view.current_player or "")
    ].is_current
    assert picture.top == view.top and picture.side is Side.LIGHT
    if variant == "flip":
        assert all(s.backs is not None and len(s.backs) == s.count for s in picture.players)
        assert picture.draw_pile_back == view.draw_pile_back is not None
    else:
        assert all(s.backs is None for s in picture.players)
    assert len(english_png(picture, CardArt())) <= MAX_BYTES


@pytest.mark.parametrize("variant", ["nomercy", "junior"])
def test_a_no_mercy_or_junior_table_shows_its_own_cards_and_backs(variant: str) -> None:
    """The top card, the draw pile and the fanned backs are in the variant's look: the same
    table drawn as a classic one is a different picture."""
    own = sample_table(variant, 4, 7)
    as_classic = replace(own, variant="classic")
    art = CardArt()
    drawn, classic = _png(english_png(own, art)), _png(english_png(as_classic, art))
    assert drawn.size == classic.size
    assert ImageChops.difference(drawn.convert("RGB"), classic.convert("RGB")).getbbox()


def test_a_players_own_view_gives_the_same_picture_as_a_spectators() -> None:
    """Built from a player's view, their own seat shows its public count and backs."""
    game = Game.new(["a", "b", "c", "d"], RuleSet(variant="flip"), seed=8)
    spectator = table_picture(public_view(game), str)
    for player in "abcd":
        assert table_picture(view_for(game, player), str) == spectator


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_name_draws_without_crashing(name: str) -> None:
    """Any unicode name renders: the picture stays the same size and under the limit."""
    base = sample_table("flip", 4, 7)
    seats = (SeatPicture(name, 7, True, base.players[0].backs), *base.players[1:])
    picture = replace(base, players=seats)
    data = english_png(picture, CardArt())
    assert len(data) <= MAX_BYTES
    assert _png(data).size == _png(english_png(base, CardArt())).size


@pytest.mark.parametrize("face", [font(26), name_font(26)])
def test_safe_names_fit_their_width_and_fall_back_when_nothing_is_drawable(face: object) -> None:
    """Long names are cut with an ellipsis to the width; undrawable ones become the fallback."""
    for name in HOSTILE_NAMES:
        text = safe_name(name, face, 200, "Player 3")  # type: ignore[arg-type]
        assert face.getlength(text) <= 200  # type: ignore[attr-defined]
        assert text
        assert "\u202e" not in text and "\u200b" not in text and "\n" not in text
    assert safe_name("😀🦄", face, 200, "Player 3") == "Player 3"  # type: ignore[arg-type]
    assert safe_name("𝓐𝓷𝓷𝓪", face, 200, "Player 3") == "Anna"  # type: ignore[arg-type]
    assert safe_name("A" * 500, face, 200, "x").endswith(("…", "..."))  # type: ignore[arg-type]


def test_letters_the_bundled_font_lacks_fall_back_to_plain_letters() -> None:
    """With Pillow's own font (ASCII), accents and Ł become plain letters, not boxes."""
    assert drawable("José Łukasz Øre", font(26)) == "Jose Lukasz Ore"


@pytest.mark.slow
def test_after_warming_no_table_draws_a_card(tmp_path: Path) -> None:
    """warm() draws every card a table uses; from disk, a restarted bot draws none at all."""
    art = CardArt(tmp_path)
    pictures = warm(art)
    assert art.renders == pictures
    for variant in ("flip", "classic", "nomercy", "junior", "allwild"):
        english_png(sample_table(variant, 10, 42), art)  # every mini size and pile back
        english_png(sample_table(variant, 2, 7), art)
    assert art.renders == pictures
    restarted = CardArt(tmp_path)
    assert warm(restarted) == pictures and restarted.renders == 0


@pytest.mark.parametrize("name", ["\u202eevil", "\u202eשלום 12", "abc\u2067def"])
def test_a_bidi_control_in_a_name_changes_nothing_drawn(name: str) -> None:
    """A right-to-left override (or isolate) left open in a name is dropped: every seat, the
    current one and the next one named in the header, draws as the name without it."""
    base = sample_table("classic", 3, 7)
    stripped = "".join(c for c in name if c not in "\u202e\u2067")
    drawn = []
    for shown in (name, stripped):
        seats = tuple(replace(seat, name=shown) for seat in base.players)
        drawn.append(english_png(replace(base, players=seats), CardArt()))
    assert drawn[0] == drawn[1]
