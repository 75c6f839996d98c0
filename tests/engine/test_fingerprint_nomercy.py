"""No Mercy plays exactly as recorded: one hash over seeded random games (see fingerprint.py).

Recorded when No Mercy was added (issue 26). A change that alters any event, legal-move list or
saved state of a No Mercy game changes it; if a rule change is meant to, record the new hash in
the same commit and say why.
"""

from __future__ import annotations

from bot.engine import Game, Phase, RuleSet
from bot.engine.simulate import RandomAgent

from .fingerprint import Fingerprint, dump

GAMES = 24
RECORDED = "a1ec843080fdc64eaa01835931bb96ee9144d1b7f77f2da382ee50845b450d98"


def no_mercy_fingerprint(games: int) -> Fingerprint:
    """The hash of ``games`` seeded No Mercy games of 2 to 6 players, every step."""
    print_ = Fingerprint()
    for seed in range(games):
        scored = RuleSet(variant="nomercy", scoring="standard", target=300)
        rules = scored if seed % 2 else RuleSet(variant="nomercy")
        game, events = Game.start([f"p{i}" for i in range(2 + seed % 5)], rules, seed)
        print_.add(rules, events)
        agent = RandomAgent(seed)
        while game.phase is not Phase.MATCH_OVER:
            if game.phase is Phase.ROUND_OVER:
                print_.add("next hand", agent.next_round(game))
                continue
            player, move, events = agent.step(game)
            print_.add(player, move, events, [game.legal_moves(p) for p in game.players])
            print_.add(dump(game))
            print_.moves += 1
    return print_


def test_no_mercy_plays_exactly_as_recorded() -> None:
    """Twenty-four seeded No Mercy games hash to the recorded fingerprint."""
    assert no_mercy_fingerprint(GAMES).hexdigest() == RECORDED
