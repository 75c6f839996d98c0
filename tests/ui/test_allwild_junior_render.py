"""All Wild and Junior drawn on Discord: whole seeded games render every table and hand, in
English and Finnish, to their end."""

from __future__ import annotations

import pytest

from bot.engine import RuleSet
from bot.ui.i18n import ENGLISH, Lang

from .tables import render_to_the_end, started_table

RULES = [
    RuleSet(variant="allwild", target=100),
    RuleSet.model_validate({"variant": "junior", "level": 2}),
]


@pytest.mark.parametrize("lang", [ENGLISH, Lang("fi")])
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.variant)
def test_a_game_renders_every_message_to_its_end(rules: RuleSet, lang: Lang) -> None:
    """Every public table and every hand of seeded games of 2 to 4 (a card played whenever one
    can be, so the games end) draws within limits."""
    for seed in range(3):
        state = started_table(rules, 2 + seed, seed, lang)
        render_to_the_end(state, lang, seed, 600, prefer_plays=True)
