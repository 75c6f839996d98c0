"""Child process for test_crash: records rounds as fast as it can until it is killed.

Usage: python burst_writer.py DB_URL (sqlite:///path or postgresql://...). Prints "game ID"
once, then each round number right after its transaction commits.
"""

from __future__ import annotations

import asyncio
import sys

from bot.store import RoundRecord, RoundScore, open_store

PLAYERS = [(7000 + n, f"Burst {n}") for n in range(6)]
GUILD = 77
MAX_ROUNDS = 100_000


def burst_round(round_no: int) -> RoundRecord:
    """A standard round won in turn by each seat, with varying hands."""
    winner = PLAYERS[round_no % len(PLAYERS)][0]
    hands = {player: (round_no * 7 + seat) % 50 for seat, (player, _) in enumerate(PLAYERS)}
    hands[winner] = 0
    return RoundRecord(
        round_no=round_no,
        winner_id=winner,
        scores=[
            RoundScore(
                player_id=player,
                hand_points=points,
                points_awarded=sum(hands.values()) if player == winner else 0,
            )
            for player, points in hands.items()
        ],
    )


async def main(url: str) -> None:
    """Create one game and record rounds (each with a snapshot) until killed."""
    store = await open_store(url)
    game = await store.games.create_game(GUILD, 1, "flip", "{}", PLAYERS)
    print(f"game {game.id}", flush=True)
    for round_no in range(1, MAX_ROUNDS + 1):
        await store.snapshots.save_snapshot(game.id, f'{{"move": {round_no}}}', "{}")
        snapshot = (f'{{"round": {round_no}}}', "{}")
        await store.games.record_round(game.id, burst_round(round_no), snapshot=snapshot)
        print(round_no, flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
