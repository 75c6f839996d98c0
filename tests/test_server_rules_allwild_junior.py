"""A server's default rules applied to an All Wild or Junior game keep only what each offers."""

from __future__ import annotations

from bot.config import Settings
from bot.engine import RuleSet
from bot.server_settings import ServerSettings

CONFIG = Settings.model_construct()


def rules_for(server: ServerSettings, variant: str, **start: object) -> RuleSet:
    """The rules a ``variant`` game started with ``start`` takes on ``server``."""
    return server.table_options(variant, start, CONFIG).rules


def test_a_junior_game_keeps_its_own_scoring_and_level_whatever_the_server_says() -> None:
    """Junior plays one hand at level 3 even on a server that scores to 300 with house rules."""
    server = ServerSettings(scoring="alternative", target=300, stacking=True, jump_in=True)
    rules = rules_for(server, "junior")
    assert (rules.scoring, rules.level, rules.stacking, rules.jump_in) == (
        "one_hand",
        3,
        False,
        False,
    )
    assert rules_for(server, "junior", level=1).level == 1


def test_an_all_wild_game_takes_the_servers_scoring_and_stacking_only() -> None:
    """All Wild keeps the server's target, scoring and stacking, never Seven-O or jump-in."""
    server = ServerSettings(
        scoring="alternative",
        target=300,
        stacking=True,
        stack_wild_draw_four_on_draw_two=True,
        seven_o=True,
        jump_in=True,
    )
    rules = rules_for(server, "allwild")
    assert (rules.scoring, rules.target, rules.stacking) == ("alternative", 300, True)
    assert not (rules.seven_o or rules.jump_in or rules.stack_wild_draw_four_on_draw_two)
