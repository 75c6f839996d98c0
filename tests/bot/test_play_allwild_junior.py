"""UNO All Wild and UNO Junior through Discord: played to the end by clicks, targets and
swaps picked with buttons, Junior's level and friendly table chosen at the start."""

from __future__ import annotations

import random

import discord
import pytest
from pydantic import ValidationError

from bot.engine import Kind, Phase, RuleSet
from bot.engine.variants import VARIANTS
from bot.options import OPTIONS, Option

from .conftest import World
from .driver import Table, buttons, embed_text, enabled, labels, rig


async def test_all_wild_is_played_to_the_end_by_clicks(world: World) -> None:
    """A game of All Wild is played only by clicks, round after round, until someone wins it."""
    table = Table(world, 3)
    await table.start("uno allwild start", target=50)
    rng = random.Random(3)
    for _ in range(20):
        await table.play_round(rng)
        if table.game.phase is Phase.MATCH_OVER:
            break
        await table.players[0].click(table.public, label="Next round")
    assert table.game.phase is Phase.MATCH_OVER
    assert "wins the game" in embed_text(table.public)


@pytest.mark.slow
async def test_junior_is_played_to_the_end_by_clicks(world: World) -> None:
    """A game of Junior is played only by clicks: the first player out wins it."""
    table = Table(world, 3)
    await table.start("uno junior start")
    await table.play_round(random.Random(4))
    assert table.game.phase is Phase.MATCH_OVER
    assert "wins the game" in embed_text(table.public)


async def test_a_targeted_draw_two_asks_whom_with_buttons(world: World) -> None:
    """A Wild Targeted Draw Two shows a button per other player; the one picked draws two."""
    table = Table(world, 3)
    await table.start("uno allwild start")
    rig(table, ["WT+2 W W", "W W W", "W W W"], top="W")
    anna, ben, cara = table.game.players
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if "Targeted" in b.label))
    assert {"ben draws 2", "cara draws 2"} <= set(enabled(hand))
    await table.press(anna, hand, f"v{cara}")
    assert len(table.game.hands[2]) == 5 and len(table.game.hands[1]) == 3
    assert table.game.current_player == ben
    assert "cara drew 2 cards" in embed_text(table.public)


async def test_all_wild_tables_and_hands_name_no_colour(world: World) -> None:
    """All Wild's cards have no colours: neither the table nor a hand names one."""
    table = Table(world, 2)
    await table.start("uno allwild start")
    hand = await table.hand(table.game.players[0])
    for text in (embed_text(table.public), embed_text(hand)):
        assert "Top" in text and "Colour" not in text


async def test_a_forced_swap_swaps_hands_with_the_player_picked(world: World) -> None:
    """A Wild Forced Swap shows a button per other player and swaps hands with the one picked."""
    table = Table(world, 3)
    await table.start("uno allwild start")
    rig(table, ["WFS W W W", "W", "W W"], top="W")
    anna, ben, _ = table.game.players
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if "Forced" in b.label))
    assert labels(hand)[:2] == ["Swap with ben", "Swap with cara"]
    await table.press(anna, hand, f"s{ben}")
    assert len(table.game.hands[0]) == 1 and len(table.game.hands[1]) == 3
    assert "anna swapped hands with ben" in embed_text(table.public)


async def test_junior_level_one_deals_a_deck_of_numbers_only(world: World) -> None:
    """/uno junior start level:1 deals from the 36 number cards only."""
    table = Table(world, 2)
    await table.start("uno junior start", level=1)
    game = table.game
    cards = [*game.draw_pile, *game.discard, *(c for hand in game.hands for c in hand)]
    assert len(cards) == 36
    assert {game.face(card).kind for card in cards} == {Kind.NUMBER}


async def test_junior_can_be_started_as_a_friendly_table(world: World) -> None:
    """/uno junior start catching:off opens a lobby that says so (of at most 4 players) and
    seats a table where nobody can be caught."""
    table = Table(world, 2)
    await table.open("uno junior start", catching="off")
    lobby = embed_text(table.public)
    assert "Friendly table" in lobby and "Players (2/4)" in lobby
    await table.players[0].click(table.public, label="Start")
    assert table.game.rules.catching == "off"


def start_commands(world: World) -> dict[str, discord.app_commands.Command]:  # type: ignore[type-arg]
    """Each variant's ``/uno <variant> start`` command, by variant key."""
    uno = world.bot.tree.get_command("uno")
    assert isinstance(uno, discord.app_commands.Group)
    found = {}
    for entry in VARIANTS.values():
        group = uno.get_command(entry.command)
        assert isinstance(group, discord.app_commands.Group)
        command = group.get_command("start")
        assert isinstance(command, discord.app_commands.Command)
        found[entry.key] = command
    return found


async def test_only_junior_offers_a_level_and_a_friendly_table(world: World) -> None:
    """/uno junior start offers level and catching; no other start command offers either."""
    for key, command in start_commands(world).items():
        names = {parameter.name for parameter in command.parameters}
        offered = {"level", "catching"} & names
        assert offered == ({"level", "catching"} if key == "junior" else set()), key


def _values_offered(option: Option, parameter: discord.app_commands.Parameter) -> list[object]:
    """Every value the command lets a player pick for ``option`` other than its default."""
    if parameter.choices:
        return [c.value for c in parameter.choices if c.value != option.default]
    if option.kind is bool:
        return [not option.default]
    assert option.low is not None and option.high is not None
    return [option.kind(option.low if option.low != option.default else option.high)]


@pytest.mark.parametrize("key", list(VARIANTS))
async def test_no_start_command_offers_a_rule_its_variant_refuses(world: World, key: str) -> None:
    """Every rule value a variant's start command offers is one that variant accepts."""
    command = start_commands(world)[key]
    by_start_name = {option.start_name: option for option in OPTIONS.values()}
    for parameter in command.parameters:
        option = by_start_name[parameter.name]
        if not option.rule:
            continue
        for value in _values_offered(option, parameter):
            values = {"variant": key, option.name: value}
            if option.name == "stack_wild_draw_four_on_draw_two":
                values["stacking"] = True
            try:
                RuleSet(**values)
            except ValidationError as exc:
                raise AssertionError(f"{key} offers {option.name}={value!r}: {exc}") from exc
