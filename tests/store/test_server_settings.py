"""Server settings in the store (both backends), and reading rows of other versions."""

from __future__ import annotations

import json

import pytest

from bot.server_settings import ServerSettings, SettingRefused, parse
from bot.store import Store

GUILD = 111_222_333_444_555_666


async def test_settings_are_saved_replaced_and_forgotten(store: Store) -> None:
    """A server's row round-trips (alone and with every row), a save replaces it, and delete
    forgets it."""
    rows = store.server_settings
    assert await rows.load(GUILD) is None
    first = ServerSettings(target=300, stacking=True, channels=(5, 6))
    await rows.save(GUILD, first.model_dump_json())
    await rows.save(GUILD, first.changed(target=250).model_dump_json())
    assert parse(await rows.load(GUILD)) == first.changed(target=250)
    assert await rows.load(GUILD + 1) is None
    assert list(await rows.load_all()) == [GUILD]
    assert await rows.delete(GUILD) is True
    assert await rows.delete(GUILD) is False
    assert await rows.load(GUILD) is None


def test_an_older_row_reads_with_defaults_and_a_newer_ones_extras_are_dropped() -> None:
    """Fields added since a row was written take their defaults; unknown keys are ignored."""
    older = parse(json.dumps({"target": 300, "a_setting_from_the_future": 1}))
    assert older == ServerSettings(target=300)
    assert parse(None) == ServerSettings()


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        ({"target": 10}, "target"),
        ({"turn_timeout": 5}, "turn_timeout"),
        ({"ai_catch_rate": 1.5}, "ai_catch_rate"),
        ({"language": "de"}, "language"),
        ({"stack_wild_draw_four_on_draw_two": True}, ""),  # needs stacking
        ({"colour": "pink"}, "colour"),
    ],
)
def test_invalid_values_are_refused_naming_the_setting(
    change: dict[str, object], setting: str
) -> None:
    """A value out of range, not offered, or an unknown setting is refused, naming it."""
    with pytest.raises(SettingRefused) as refused:
        ServerSettings().changed(**change)
    assert refused.value.name == setting
