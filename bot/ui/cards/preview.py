"""Render the README's sample pictures: ``python -m bot.ui.cards.preview docs/``
(``--lang fi`` for a table with Finnish words).

Seeded games played by the engine's own rules give real tables: a 4-player Flip table on the
light side and, after a Flip, on the dark side; and a classic hand as a strip of cards. Then
the art families side by side: the same cards and the back in classic, No Mercy and Junior
looks, and All Wild's eight wilds.
"""

from __future__ import annotations

import argparse
import io
import random
from pathlib import Path

from PIL import Image

from bot.engine import Game, RuleSet, public_view, view_for
from bot.engine.cards import Color, Face, Kind, Side
from bot.engine.events import Event
from bot.engine.moves import PlayCard

from ..text import sort_key
from .cache import CardArt, png_bytes
from .draw import Back, Family
from .palette import PALETTES
from .table import TablePicture, table_picture, table_png

NAMES = {"p1": "Alice", "p2": "Ben", "p3": "Chiara", "p4": "Dmitri"}


def flip_tables(seed: int = 7) -> tuple[TablePicture, TablePicture]:
    """A seeded 4-player Flip game's table early on the light side, then on the dark side."""
    game = Game.new(list(NAMES), RuleSet(variant="flip"), seed=seed)
    rng = random.Random(seed)
    light: TablePicture | None = None
    events: list[Event] = []  # the last move's, marked on the picture
    for _ in range(2000):
        player = game.current_player
        if player is None:
            break
        view = public_view(game)
        if (
            view.side is Side.LIGHT
            and light is None
            and sum(o.card_count for o in view.opponents) <= 26
        ):
            light = table_picture(view, NAMES.__getitem__, events)
        if view.side is Side.DARK and light is not None and view.phase == "play":
            return light, table_picture(view, NAMES.__getitem__, events)
        moves = game.legal_moves(player)
        plays = [m for m in moves if isinstance(m, PlayCard)]
        events = game.apply(player, rng.choice(plays or moves))
    raise RuntimeError(f"seed {seed} never reached the dark side; try another")


def classic_hand(seed: int = 3) -> list[Face]:
    """The first player's opening hand in a seeded classic game, sorted as the bot sorts it."""
    game = Game.new(list(NAMES), RuleSet(variant="classic"), seed=seed)
    return sorted((h.face for h in view_for(game, "p1").hand), key=sort_key)


def hand_strip(
    faces: list[Face],
    art: CardArt,
    height: int = 150,
    step: int = 104,
    family: Family = Family.CLASSIC,
    back: Back | None = None,
) -> Image.Image:
    """Cards side by side (the step leaves each card's printed word whole), then ``back`` if
    given, on a transparent background."""
    width = round(height / 1.5)
    cards = [art.face_image(face, Side.LIGHT, height, family=family) for face in faces]
    if back is not None:
        cards.append(art.back_image(back, height))
    strip = Image.new("RGBA", (width + step * (len(cards) - 1) + 8, height + 8), (0, 0, 0, 0))
    for i, card in enumerate(cards):
        strip.paste(card, (4 + i * step, 4), card)
    return strip


# The cards the families sheet shows in each look: a number of each colour, a Skip, a wild.
_SAMPLE = [
    Face(Color.RED, Kind.NUMBER, 5),
    Face(Color.YELLOW, Kind.NUMBER, 3),
    Face(Color.GREEN, Kind.NUMBER, 7),
    Face(Color.BLUE, Kind.NUMBER, 0),
    Face(Color.RED, Kind.SKIP),
    Face(None, Kind.WILD),
]
_ALL_WILD = [
    Face(None, kind)
    for kind in (
        Kind.WILD,
        Kind.WILD_REVERSE,
        Kind.WILD_SKIP,
        Kind.WILD_SKIP_TWO,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_FOUR,
        Kind.WILD_TARGETED_DRAW_TWO,
        Kind.WILD_FORCED_SWAP,
    )
]


def families_sheet(art: CardArt, height: int = 150, step: int = 104) -> Image.Image:
    """The same cards and the back in the classic, No Mercy and Junior looks (one row each),
    then All Wild's eight wilds, each row with the 22 px emoji of its cards beneath it."""
    rows = [
        (hand_strip(_SAMPLE, art, height, step, family, Back.of(family)), _SAMPLE, family)
        for family in (Family.CLASSIC, Family.NO_MERCY, Family.JUNIOR)
    ]
    rows.append((hand_strip(_ALL_WILD, art, height, step), _ALL_WILD, Family.CLASSIC))
    emoji = 22
    width = max(strip.width for strip, _, _ in rows)
    sheet = Image.new("RGBA", (width, len(rows) * (height + emoji + 16)), (54, 57, 63, 255))
    for i, (strip, faces, family) in enumerate(rows):
        y = i * (height + emoji + 16)
        sheet.paste(strip, (0, y), strip)
        for j, face in enumerate(faces):
            picture = art.emoji_png(face, None, family=family)
            small = Image.open(io.BytesIO(picture)).resize((emoji, emoji), Image.Resampling.LANCZOS)
            sheet.paste(small, (4 + j * step + (step - emoji) // 2 - 8, y + height + 10), small)
    return sheet


def main(argv: list[str] | None = None) -> None:
    """Write table-flip-light.png, table-flip-dark.png, hand-classic.png and
    card-families.png into a folder."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--palette", choices=sorted(PALETTES), default="std")
    parser.add_argument("--lang", default="en", help="the tables' words: en, fi, sv or nb")
    args = parser.parse_args(argv)
    # The catalogs' module imports discord, which the art modules never do (a test checks that
    # importing this one leaves discord out): only the command, when run, reads the catalogs.
    from ..i18n import ENGLISH, language_of
    from ..words import picture_words

    lang = language_of(args.lang)
    if lang is None:
        parser.error(f"no catalog for language {args.lang!r}")
    art = CardArt(palette=PALETTES[args.palette])
    suffix = "" if args.palette == "std" else f"-{args.palette}"
    words = "" if lang == ENGLISH else f"-{lang}"
    light, dark = flip_tables()
    outputs = {
        f"table-flip-light{suffix}{words}.png": table_png(light, art, picture_words(lang, light)),
        f"table-flip-dark{suffix}{words}.png": table_png(dark, art, picture_words(lang, dark)),
        f"hand-classic{suffix}.png": png_bytes(hand_strip(classic_hand(), art)),
        f"card-families{suffix}.png": png_bytes(families_sheet(art)),
    }
    args.folder.mkdir(parents=True, exist_ok=True)
    for name, data in outputs.items():
        (args.folder / name).write_bytes(data)
        print(f"{args.folder / name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
