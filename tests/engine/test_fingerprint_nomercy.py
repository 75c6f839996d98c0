"""No Mercy plays exactly as recorded: one hash over seeded random games (see fingerprint.py).

Recorded when No Mercy was added (issue 26). A change that alters any event, legal-move list or
saved state of a No Mercy game changes it; if a rule change is meant to, record the new hash in
the same commit and say why.
"""

from __future__ import annotations

from bot.engine import Game, RuleSet

from .fingerprint import Fingerprint, play_to_the_end

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
        play_to_the_end(game, seed, print_, "next hand")
    return print_


def test_no_mercy_plays_exactly_as_recorded() -> None:
    """Twenty-four seeded No Mercy games hash to the recorded fingerprint."""
    assert no_mercy_fingerprint(GAMES).hexdigest() == RECORDED
