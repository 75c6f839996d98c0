"""The round-end picture (issue 32): every hand left, face up, with the points each card gave,
each seat's total and award, the winner marked and No Mercy's knocked-out players shown as such.

The drawing reports every word it draws (``DrawnReport``): the numbers under the cards and the
totals are read back from it and held to the engine's own scoring of the round.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import replace

import pytest
from PIL import Image

from bot.engine import Game, RuleSet, public_view
from bot.engine.cards import Face, Side
from bot.engine.decks import deck_of
from bot.engine.game import TERMINAL_PHASES
from bot.engine.simulate import RandomAgent, play_round
from bot.engine.variants import VARIANTS
from bot.engine.variants import variant as variant_entry
from bot.ui.cards import (
    COLOR_BLIND,
    MAX_BYTES,
    STANDARD,
    CardArt,
    DrawnReport,
    HandShown,
    Palette,
    RoundEndPicture,
    render_round_end,
    round_end_picture,
    round_end_png,
)
from bot.ui.cards.round_end import MAX_HEIGHT, choose_layout
from bot.ui.i18n import ENGLISH, Lang, languages
from bot.ui.words import round_end_words
from tests.ui.test_picture_sizes import DISPLAY_BOXES, READABLE_PX

NAMES = ("Alice", "Ben", "Chiara", "Dmitri", "Eve", "Farouk", "Grete", "Hiro", "Ines", "J" * 40)
PILE = re.compile(r"(?:(\d+)×)?(\d+)")
FI = Lang("fi")


def name(player: str) -> str:
    """A test player's display name (``p0`` is Alice)."""
    return NAMES[int(player[1:])]


def ended(variant: str, players: int, seed: int) -> Game:
    """A seeded game of random moves played to its first round's end."""
    game = Game.new([f"p{i}" for i in range(players)], RuleSet(variant=variant), seed)
    play_round(game, RandomAgent(seed))
    assert game.phase in TERMINAL_PHASES
    return game


def final_hands(game: Game) -> list[tuple[str, list[Face], int]]:
    """Every seat's hand as the table's ``final_hands()`` gives it."""
    return [
        (p, [game.face(c) for c in game.hands[s]], game.hand_points(p))
        for s, p in enumerate(game.players)
    ]


def picture_of(game: Game) -> RoundEndPicture:
    """The round-end picture's inputs, read from the game as the bot reads them."""
    return round_end_picture(public_view(game), final_hands(game), name)


def drawn(
    picture: RoundEndPicture, lang: Lang = ENGLISH, palette: Palette = STANDARD
) -> tuple[Image.Image, DrawnReport]:
    """The picture and what its drawing reported."""
    report = DrawnReport([], [])
    image = render_round_end(
        picture, CardArt(palette=palette), round_end_words(lang, picture), report
    )
    return image, report


def seat_texts(report: DrawnReport, index: int) -> list[str]:
    """The words drawn inside seat ``index``'s cell."""
    x, y, w, h = report.cells[index]
    return [
        text.text
        for text in report.texts
        if x <= (text.box[0] + text.box[2]) / 2 <= x + w
        and y <= (text.box[1] + text.box[3]) / 2 <= y + h
    ]


def card_points_drawn(texts: list[str]) -> Counter[int]:
    """The points under a seat's cards, one per card (a pile labelled 3, times sign, 20 is
    three cards of 20)."""
    points: Counter[int] = Counter()
    for text in texts:
        found = PILE.fullmatch(text)
        if found:
            points[int(found[2])] += int(found[1] or 1)
    return points


def largest(variant: str) -> int:
    """The most players the variant seats."""
    return variant_entry(variant).max_players


CASES = [(v, n) for v in sorted(VARIANTS) for n in sorted({2, largest(v)})]


@pytest.mark.parametrize("palette", [STANDARD, COLOR_BLIND], ids=["standard", "colour_blind"])
@pytest.mark.parametrize(("variant", "players"), CASES)
def test_every_card_and_total_drawn_is_the_engines_score(
    variant: str, players: int, palette: Palette
) -> None:
    """Under each hand's cards, one number per card: the points the engine gave that card;
    beside it the hand's total and the points the round awarded, as the engine scored them."""
    for seed in (1, 2):
        game = ended(variant, players, seed)
        result = game.history[-1]
        card_points = game.points()
        picture = picture_of(game)
        _, report = drawn(picture, palette=palette)
        for seat, player in enumerate(game.players):
            texts = seat_texts(report, seat)
            others = [text for text in texts if not text.startswith(("Σ", "+"))]
            expected = Counter(card_points[card] for card in game.hands[seat])
            assert card_points_drawn(others) == expected, (seat, texts)
            assert sum(expected.elements()) == result.hand_points[player]
            went_out = player == result.winner and not game.hands[seat]
            if not went_out:
                assert f"Σ {result.hand_points[player]}" in texts
            if result.awarded[player]:
                assert f"+{result.awarded[player]}" in texts
            else:
                assert not any(text.startswith("+") for text in texts)
            if player == result.winner:
                assert ("Went out" if went_out else "Last one in") in texts


def test_the_side_scored_is_the_side_that_was_up() -> None:
    """A Flip round that ended on the dark side shows the dark faces, says so, and is drawn on
    the dark table."""
    game = next(g for seed in range(1, 60) if (g := ended("flip", 3, seed)).side is Side.DARK)
    picture = picture_of(game)
    assert picture.side is Side.DARK
    for (player, faces, _), hand in zip(final_hands(game), picture.hands, strict=True):
        dark = Counter(game.face(card, Side.DARK) for card in game.hands[game.seat_of(player)])
        assert Counter(face for face, _ in hand.cards) == dark == Counter(faces)
    _, report = drawn(picture)
    assert "Dark side scored" in [text.text for text in report.texts]
    classic = picture_of(ended("classic", 3, 1))
    assert round_end_words(ENGLISH, classic).side == ""


def test_knocked_out_players_show_as_such_and_their_cards_are_not_scored() -> None:
    """No Mercy: a player knocked out by the Mercy rule shows the badge and the cards set
    aside, with no cards and nothing scored; the winner's award counts the knockout bonus."""
    game = next(g for seed in range(1, 60) if (g := ended("nomercy", 4, seed)).knocked_out)
    result = game.history[-1]
    picture = picture_of(game)
    _, report = drawn(picture)
    bonus = variant_entry("nomercy").knockout_bonus
    assert result.awarded[result.winner] == sum(result.hand_points.values()) + bonus * len(
        game.knocked_out
    )
    for seat in game.knocked_out:
        hand = picture.hands[seat]
        aside = len(game.set_aside[seat])
        assert hand.knocked_out and hand.cards == () and hand.set_aside == aside
        texts = seat_texts(report, seat)
        assert "Knocked out" in texts and "Σ 0" in texts
        assert f"{aside} card{'s' if aside != 1 else ''} aside" in texts
        assert card_points_drawn([t for t in texts if not t.startswith("Σ")]) == Counter()
    assert f"+{result.awarded[result.winner]}" in [text.text for text in report.texts]


def test_a_finnish_table_counts_in_finnish() -> None:
    """The picture's words come from the table's catalog."""
    game = ended("flip", 4, 3)
    _, report = drawn(picture_of(game), FI)
    texts = [text.text for text in report.texts]
    assert "Kierros 1" in texts and "Kortit loppu" in texts
    assert any(text.endswith(" puoli laskettu") for text in texts)


def long_hands(variant: str, players: int, cards: int) -> RoundEndPicture:
    """``players`` hands of ``cards`` cards each from the variant's deck (the first went out)."""
    entry = variant_entry(variant)
    deck = [card.face(Side.LIGHT) for card in deck_of(entry)]
    hands = []
    for seat in range(players):
        faces = [deck[(seat * 37 + i * 11) % len(deck)] for i in range(cards if seat else 0)]
        scored = tuple((face, entry.face_points(face)) for face in faces)
        hands.append(HandShown(NAMES[seat], scored, sum(p for _, p in scored), winner=seat == 0))
    winner = replace(hands[0], awarded=sum(h.total for h in hands))
    return RoundEndPicture(variant, Side.LIGHT, 1, (winner, *hands[1:]))


# The shapes whose every word stays readable where Discord shows it: long hands at few
# players, and ten players at a realistic round's end (a few cards each).
READABLE = [
    ("nomercy", 2, 24),
    ("classic", 2, 25),
    ("flip", 4, 12),
    ("classic", 10, 4),
    ("flip", 10, 5),
]


@pytest.mark.parametrize("box", sorted(DISPLAY_BOXES))
@pytest.mark.parametrize(("variant", "players", "cards"), READABLE)
def test_every_word_is_readable_at_the_displayed_size(
    variant: str, players: int, cards: int, box: str
) -> None:
    """In every language the smallest word is at least 12 px in Discord's display box, and
    the picture stays within MAX_HEIGHT."""
    picture = long_hands(variant, players, cards)
    width, height = DISPLAY_BOXES[box]
    for lang in languages():
        image, report = drawn(picture, lang)
        assert image.height <= MAX_HEIGHT
        scale = min(1.0, width / image.width, height / image.height if height else 1.0)
        smallest = min(text.size for text in report.texts) * scale
        assert smallest >= READABLE_PX, (lang, round(smallest, 1))
        assert sum(card_points_drawn(seat_texts(report, i)).total() for i in range(players)) == (
            cards * (players - 1)
        )


def test_long_hands_wrap_onto_more_lines() -> None:
    """A 25-card hand wraps onto several lines of cards, every card with its number."""
    picture = long_hands("classic", 2, 25)
    layout = choose_layout(picture)
    assert len(layout.lines[1]) > 1
    _, report = drawn(picture)
    assert card_points_drawn(seat_texts(report, 1)).total() == 25


@pytest.mark.parametrize("palette", [STANDARD, COLOR_BLIND], ids=["standard", "colour_blind"])
def test_the_biggest_round_end_stays_under_the_size_limit(palette: Palette) -> None:
    """Ten players each holding 25 cards: the PNG is under Discord's limit for the picture."""
    picture = long_hands("classic", 10, 25)
    png = round_end_png(picture, CardArt(palette=palette), round_end_words(ENGLISH, picture))
    assert 0 < len(png) <= MAX_BYTES
    assert Image.open(io.BytesIO(png)).width == 600


def test_a_picture_past_the_desktop_box_stays_readable_on_a_phone() -> None:
    """Ten long hands need more than MAX_HEIGHT (docs/pictures.md says so): the phone, which
    fits the picture by its width, still shows every word at 12 px or more."""
    picture = long_hands("classic", 10, 25)
    image, report = drawn(picture)
    assert image.height > MAX_HEIGHT
    width, _ = DISPLAY_BOXES["phone"]
    assert min(text.size for text in report.texts) * width / image.width >= READABLE_PX


@pytest.mark.parametrize("lang", languages())
def test_every_language_counts_the_cards_set_aside(lang: Lang) -> None:
    """The set-aside line names its count in every catalog, only for knocked-out seats."""
    game = ended("flip", 2, 1)
    picture = picture_of(game)
    out = replace(picture.hands[1], knocked_out=True, set_aside=17)
    words = round_end_words(lang, replace(picture, hands=(picture.hands[0], out)))
    assert words.set_aside[0] == "" and "17" in words.set_aside[1]


@pytest.mark.parametrize("lang", languages())
def test_no_word_of_the_picture_is_cut(lang: Lang) -> None:
    """Badges, notes and the title fit their room whole in every language, in the narrow
    cells of a two-column layout (knocked-out seats and the winner included)."""
    game = next(g for seed in range(1, 60) if (g := ended("nomercy", 4, seed)).knocked_out)
    flip = next(g for seed in range(1, 60) if (g := ended("flip", 4, seed)).side is Side.DARK)
    for picture in (picture_of(game), picture_of(flip)):
        assert choose_layout(picture).columns == 2
        _, report = drawn(picture, lang)
        assert not [text.text for text in report.texts if "…" in text.text]
