"""A click on a hand the bot has just deleted ("one hand at a time") is answered with a fresh
private hand that says what the move did, or why it was refused."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from .conftest import World
from .driver import Table, buttons, embed_text, rig
from .hostile import click_on_screen, seen_message


async def press_on_deleted_hand(world: World, label: str) -> tuple[Table, Any]:
    """Anna (R5 R7 B2 on Red 3, her turn) opens her hand, presses Hand again (the bot deletes
    the first one), then presses ``label`` on the first as her screen still shows it."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R7 B2", "G1 G2 G3"], top="R3", current=0)
    anna = table.game.players[0]
    actor = table.actor(anna)
    first = await table.hand(anna)
    seen = seen_message(actor, first)
    ids = {b.label: b.custom_id for b in buttons(first)}
    await table.hand(anna)
    await world.env.settle()
    return table, await click_on_screen(actor, seen, ids[label])


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every ERROR-or-worse line the bot logged."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_move_on_a_deleted_hand_is_played_and_answered_with_a_fresh_hand(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Red 5 pressed on the hand the bot just deleted is played, and the answer is a new
    private hand, not "Something went wrong"."""
    table, answer = await press_on_deleted_hand(world, "Red 5")
    assert table.game.top_face().name() == "Red 5"
    assert answer.ephemeral and "Something went wrong" not in (answer.response.content or "")
    assert "2 cards" in embed_text(answer.response)
    assert "Red 5" in embed_text(answer.response)
    assert errors(caplog) == []


async def test_a_refused_move_on_a_deleted_hand_says_why_in_a_fresh_hand(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A card that cannot be played, pressed on a deleted hand, is refused in a new hand."""
    table, answer = await press_on_deleted_hand(world, "Blue 2")
    assert table.game.top_face().name() == "Red 3"
    assert answer.ephemeral and "Something went wrong" not in (answer.response.content or "")
    assert "3 cards" in embed_text(answer.response)
    assert "Blue 2 does not match Red 3" in embed_text(answer.response)
    assert errors(caplog) == []
