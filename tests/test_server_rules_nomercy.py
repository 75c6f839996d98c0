"""A server's default rules applied to a No Mercy game: its own one hand (or 1000) stays."""

from __future__ import annotations

from bot.config import Settings
from bot.server_settings import ServerSettings

CONFIG = Settings.model_construct()


def test_a_no_mercy_game_plays_one_hand_on_a_server_left_at_its_defaults() -> None:
    """The server's standard-to-500 default is Flip's and classic's; No Mercy keeps one hand."""
    rules = ServerSettings().table_options("nomercy", {}, CONFIG).rules
    assert (rules.scoring, rules.target) == ("one_hand", 1000)


def test_a_no_mercy_start_may_still_choose_scoring_and_its_target() -> None:
    """The start command's scoring and target are taken as given."""
    start = {"scoring": "standard", "target": 500}
    rules = ServerSettings(target=300).table_options("nomercy", start, CONFIG).rules
    assert (rules.scoring, rules.target) == ("standard", 500)


def test_a_flip_game_still_takes_the_servers_scoring_and_target() -> None:
    """Flip and classic, whose defaults are RuleSet's, follow the server as before."""
    rules = (
        ServerSettings(scoring="alternative", target=300).table_options("flip", {}, CONFIG).rules
    )
    assert (rules.scoring, rules.target) == ("alternative", 300)
