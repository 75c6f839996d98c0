"""All Wild and Junior play exactly as recorded: one hash over seeded random games (see
fingerprint.py).

Recorded when the two variants were added (issue 27). A change that alters any event,
legal-move list or saved state of their games changes it; if a rule change is meant to, record
the new hash in the same commit and say why.
"""

from __future__ import annotations

from bot.engine import Game, RuleSet

from .fingerprint import Fingerprint, play_to_the_end

GAMES = 24
RECORDED = "167d8683b129409871ccd4fdb1dc8e875725a9469ac826e97ba4858df313a6cc"


def rules_for(seed: int) -> RuleSet:
    """All Wild (scored low, stacking on a third of the time) and Junior at each level."""
    if seed % 2:
        return RuleSet(variant="allwild", target=200, stacking=seed % 3 == 0)
    return RuleSet.model_validate({"variant": "junior", "level": 1 + seed % 3})


def variants_fingerprint(games: int) -> Fingerprint:
    """The hash of ``games`` seeded games, every step: events, legal moves and saved state."""
    print_ = Fingerprint()
    for seed in range(games):
        rules = rules_for(seed)
        most = 4 if rules.variant == "junior" else 6
        game, events = Game.start([f"p{i}" for i in range(2 + seed % (most - 1))], rules, seed)
        print_.add(rules, rules.level, events)
        play_to_the_end(game, seed, print_, "next round")
    return print_


def test_all_wild_and_junior_play_exactly_as_recorded() -> None:
    """Twenty-four seeded All Wild and Junior games (3,653 moves) hash as recorded."""
    assert variants_fingerprint(GAMES).hexdigest() == RECORDED
