"""Render the README's sample pictures: ``python -m bot.ui.cards.preview docs/``
(``--lang fi`` for a table with Finnish words).

Seeded games played by the engine's own rules give real tables: a 4-player Flip table on the
light side and, after a Flip, on the dark side; and a classic hand as a strip of cards.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from PIL import Image

from bot.engine import Game, RuleSet, public_view, view_for
from bot.engine.cards import Face, Side
from bot.engine.events import Event
from bot.engine.moves import PlayCard

from ..text import sort_key
from .cache import CardArt, png_bytes
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


def hand_strip(faces: list[Face], art: CardArt, height: int = 150, step: int = 104) -> Image.Image:
    """Cards side by side (the step leaves each card's printed word whole), on a transparent
    background."""
    width = round(height / 1.5)
    strip = Image.new("RGBA", (width + step * (len(faces) - 1) + 8, height + 8), (0, 0, 0, 0))
    for i, face in enumerate(faces):
        card = art.face_image(face, Side.LIGHT, height)
        strip.paste(card, (4 + i * step, 4), card)
    return strip


def main(argv: list[str] | None = None) -> None:
    """Write table-flip-light.png, table-flip-dark.png and hand-classic.png into a folder."""
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
    }
    args.folder.mkdir(parents=True, exist_ok=True)
    for name, data in outputs.items():
        (args.folder / name).write_bytes(data)
        print(f"{args.folder / name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
