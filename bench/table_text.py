"""How long the public table's text is: lines (as ``render.embed_lines`` counts them: title,
description, every field's name and value, footer) and the longest line, at every turn of
seeded random rounds.

    .venv/bin/python -m bench.table_text                  # 20 seeds, 300 turns each
    .venv/bin/python -m bench.table_text --seeds 5 --turns 100

Players are named "player0".."player9" and the table is drawn in English; the issue's limits
are 12 lines at four players and 18 at ten.
"""

from __future__ import annotations

import argparse
import random
import statistics
from datetime import UTC, datetime

from bot.engine import RuleSet
from bot.engine.game import TERMINAL_PHASES
from bot.options import TableOptions
from bot.table import Seat, TableState
from bot.ui import render, words
from bot.ui.i18n import ENGLISH
from bot.ui.respond import safe_name

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def measure(variant: str, players: int, seeds: int, turns: int) -> tuple[list[int], int]:
    """The line count of every table drawn, and the longest line seen."""
    counts: list[int] = []
    longest = 0
    for seed in range(seeds):
        seats = [Seat(str(10**17 + i), f"player{i}") for i in range(players)]
        state = TableState(
            "abcdef0123", 1, 2, seats[0], TableOptions(rules=RuleSet(variant=variant)), NOW
        )
        for seat in seats[1:]:
            state.seat(seat)
        names = {s.player_id: safe_name(s.name) for s in seats}
        started = state.start(state.host_id, seed, names)
        state.log.extend(words.narrate(ENGLISH, started, names.__getitem__))
        game = state.game
        assert game is not None
        rng = random.Random(seed)
        for _ in range(turns):
            if game.phase in TERMINAL_PHASES:
                break
            embed = render.public_message(state, ENGLISH).embed
            counts.append(render.embed_lines(embed))
            texts = [embed.title, embed.description]
            texts += [text for field in embed.fields for text in (field.name, field.value)]
            longest = max(
                [longest] + [len(line) for text in texts if text for line in text.split("\n")]
            )
            current = game.current_player
            assert current is not None
            events = state.play(current, rng.choice(game.legal_moves(current)))
            state.record(words.narrate(ENGLISH, events, state.name), current, turn_move=True)
    return counts, longest


def main(argv: list[str] | None = None) -> None:
    """Print the table's lines for Flip and classic at 2, 4 and 10 players."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--turns", type=int, default=300)
    args = parser.parse_args(argv)
    print("| variant | players | tables | lines: median | lines: max | longest line (chars) |")
    print("|---|---|---|---|---|---|")
    for variant in ("flip", "classic"):
        for players in (2, 4, 10):
            counts, longest = measure(variant, players, args.seeds, args.turns)
            median = statistics.median(counts)
            row = [variant, players, len(counts), f"{median:g}", max(counts), longest]
            print("| " + " | ".join(str(cell) for cell in row) + " |")


if __name__ == "__main__":
    main()
