"""Card art speed and size: faces drawn fresh, cache hits, and table pictures.

    .venv/bin/python -m bench.cards                 # defaults: 30 table repeats
    .venv/bin/python -m bench.cards --repeats 5     # quicker
    .venv/bin/python -m bench.cards --cpu           # CPU time instead of wall time

Faces: every distinct face (120) drawn fresh at the card height the bot uses, then the same
through CardArt from memory and from a disk folder a new CardArt opens. Tables: Flip and
classic at 2, 4 and 10 players, with dealt hands (7 cards) and with every hand 42 cards (a
worst case past what one deck allows, so it bounds the picture), long names included; time to
render and encode the PNG with the card cache warm, and the PNG's size (limit 100 KB).
Round ends (issue 32): the round-end picture of a seeded round played to its end by random
moves at 4 and 10 players (Flip and classic), every hand face up with each card's points.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bot.engine import Game, RuleSet, public_view
from bot.engine.cards import Color, Face, Kind, Side
from bot.engine.decks import deck_of
from bot.engine.simulate import RandomAgent, play_round
from bot.engine.variants import variant as variant_entry
from bot.ui.cards import (
    CARD_HEIGHT,
    ENGLISH_CARD_WORDS,
    MAX_BYTES,
    STANDARD,
    CardArt,
    RoundEndPicture,
    SeatPicture,
    TablePicture,
    all_faces,
    draw_emoji,
    draw_face,
    round_end_picture,
    round_end_png,
    table_png,
)
from bot.ui.i18n import ENGLISH
from bot.ui.words import picture_words, round_end_words

NAMES = ("Alice", "Ben", "Chiara", "Dmitri", "Eve", "Farouk", "Grete", "Hiro", "Ines", "J" * 40)


def _ms(seconds: list[float]) -> tuple[float, float, float]:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000, ordered[-1] * 1000


Clock = Callable[[], float]


def _timer(clock: Clock) -> Callable[[Callable[[], object]], float]:
    def timed(call: Callable[[], object]) -> float:
        start = clock()
        call()
        return clock() - start

    return timed


def time_faces(
    height: int = CARD_HEIGHT, clock: Clock = time.perf_counter
) -> dict[str, tuple[float, float, float]]:
    """(p50, p99, max) ms: drawing each face fresh, as an emoji, and cache hits."""
    _time = _timer(clock)
    faces = all_faces()
    draw_face(*faces[0], STANDARD, height, ENGLISH_CARD_WORDS)  # load the font once, as a bot has
    fresh = [
        _time(partial(draw_face, f, s, STANDARD, height, ENGLISH_CARD_WORDS)) for f, s in faces
    ]
    emoji = [_time(partial(draw_emoji, f, s, STANDARD)) for f, s in faces]
    with tempfile.TemporaryDirectory() as folder:
        art = CardArt(Path(folder))
        first = [_time(partial(art.face_png, f, s, height)) for f, s in faces]
        memory = [_time(partial(art.face_png, f, s, height)) for f, s in faces]
        reopened = CardArt(Path(folder))
        disk = [_time(partial(reopened.face_png, f, s, height)) for f, s in faces]
        if reopened.renders:
            raise RuntimeError("the disk cache missed")
    return {
        "draw a face (fresh)": _ms(fresh),
        "draw an emoji (fresh)": _ms(emoji),
        "CardArt first call (draw + PNG + disk write)": _ms(first),
        "CardArt memory hit": _ms(memory),
        "CardArt disk hit (new CardArt)": _ms(disk),
    }


def sample_table(variant_key: str, players: int, cards: int, seed: int = 1) -> TablePicture:
    """A seeded table with ``players`` hands of ``cards`` cards each."""
    rng = random.Random(seed)
    entry = variant_entry(variant_key)
    flip = entry.double_sided
    deck = deck_of(entry)
    backs = [c.face(Side.DARK) for c in deck]
    seats = tuple(
        SeatPicture(
            NAMES[i],
            cards,
            is_current=i == 1 % players,
            backs=tuple(rng.choice(backs) for _ in range(cards)) if flip else None,
            said_uno=cards == 1,
        )
        for i in range(players)
    )
    return TablePicture(
        variant=variant_key,
        side=Side.LIGHT,
        top=Face(Color.BLUE, Kind.NUMBER, 7),
        color=Color.BLUE,
        direction=1,
        players=seats,
        draw_pile_count=50,
        draw_pile_back=backs[5] if flip else None,
    )


@dataclass(frozen=True)
class TableRow:
    """One table measurement."""

    variant: str
    players: int
    cards: int
    cold_ms: float
    p50_ms: float
    p99_ms: float
    size: int


def _time_png(
    draw: Callable[[], bytes], repeats: int, clock: Clock
) -> tuple[float, float, float, int]:
    """Time ``draw`` once cold and ``repeats`` times warm: cold ms, warm p50 and p99 ms, and
    the PNG's size in bytes."""
    _time = _timer(clock)
    png = b""

    def render() -> None:
        nonlocal png
        png = draw()

    cold = _time(render)
    p50, p99, _ = _ms([_time(render) for _ in range(repeats)])
    return cold * 1000, p50, p99, len(png)


def time_tables(repeats: int, clock: Clock = time.perf_counter) -> list[TableRow]:
    """Render and encode every table shape ``repeats`` times (the first with a cold cache)."""
    rows = []
    for variant in ("flip", "classic"):
        for players in (2, 4, 10):
            for cards in (7, 42):
                picture = sample_table(variant, players, cards)
                draw = partial(table_png, picture, CardArt(), picture_words(ENGLISH, picture))
                rows.append(TableRow(variant, players, cards, *_time_png(draw, repeats, clock)))
    return rows


def sample_round_end(variant_key: str, players: int, seed: int = 1) -> RoundEndPicture:
    """A seeded round played by random moves to its end, as the round-end picture reads it."""
    game = Game.new([f"p{i}" for i in range(players)], RuleSet(variant=variant_key), seed)
    play_round(game, RandomAgent(seed))
    hands = [
        (player, [game.face(card) for card in game.hands[seat]], game.hand_points(player))
        for seat, player in enumerate(game.players)
    ]
    return round_end_picture(public_view(game), hands, lambda player: NAMES[int(player[1:])])


def time_round_ends(repeats: int, clock: Clock = time.perf_counter) -> list[TableRow]:
    """Render and encode round-end pictures (4 and 10 players) ``repeats`` times each; the
    cards column is every card left in all hands."""
    rows = []
    for variant in ("flip", "classic"):
        for players in (4, 10):
            picture = sample_round_end(variant, players)
            words = round_end_words(ENGLISH, picture)
            draw = partial(round_end_png, picture, CardArt(), words)
            cards = sum(len(hand.cards) for hand in picture.hands)
            rows.append(TableRow(variant, players, cards, *_time_png(draw, repeats, clock)))
    return rows


def main(argv: list[str] | None = None) -> None:
    """Print the face and table figures as Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time with the process's CPU clock (steadier than wall time on a busy machine)",
    )
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"clock: {'process CPU time' if args.cpu else 'wall time'}")
    print("| Faces (120, at", CARD_HEIGHT, "px) | p50 ms | p99 ms | max ms |")
    print("| --- | --- | --- | --- |")
    for label, (p50, p99, worst) in time_faces(clock=clock).items():
        print(f"| {label} | {p50:.2f} | {p99:.2f} | {worst:.2f} |")
    print()
    limit = f"PNG bytes (limit {MAX_BYTES:,})"
    print(f"| Table | players | cards each | cold ms | p50 ms | p99 ms | {limit} |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in time_tables(args.repeats, clock):
        print(
            f"| {row.variant} | {row.players} | {row.cards} | {row.cold_ms:.1f} | "
            f"{row.p50_ms:.1f} | {row.p99_ms:.1f} | {row.size:,} |"
        )
    print()
    print(f"| Round end | players | cards left | cold ms | p50 ms | p99 ms | {limit} |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in time_round_ends(args.repeats, clock):
        print(
            f"| {row.variant} | {row.players} | {row.cards} | {row.cold_ms:.1f} | "
            f"{row.p50_ms:.1f} | {row.p99_ms:.1f} | {row.size:,} |"
        )


if __name__ == "__main__":
    main()
