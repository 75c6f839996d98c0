"""Tables kept current through the clicks' interaction tokens (not counted by Discord's global
limit), with the counted, coalesced edit only where no live token or allowance is left."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import bot.public_messages
from bot.edits import TokenAllowance

from .conftest import World
from .driver import Table, buttons, embed_text, labels, rig
from .test_edits import most_in_any_window
from .test_rest_budget import channel_calls
from .test_turn_reminder import table_message
from .virtual_clock import run_on_fake_clock


def token_edits(world: World) -> list[str]:
    """Paths of the edits and posts the bot made through interaction tokens."""
    return [
        entry.path
        for entry in world.env.backend.http_requests
        if entry.path.startswith("/webhooks/") and entry.method in ("PATCH", "POST")
    ]


def counted_edits(world: World) -> list[str]:
    """Paths of the counted edits of channel messages."""
    return [path for method, path in channel_calls(world) if method == "PATCH"]


async def started(world: World) -> Table:
    """A two-player classic game where Anna has Red 5 to play on Red 9."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    return table


async def play_red(table: Table, player: str, card: str) -> Any:
    """``player`` opens their hand on the table and plays ``card``."""
    world = table.world
    hand = await table.actor(player).click(table_message(world, table), label="Hand")
    code = next(b.code for b in buttons(hand.response) if b.label == card)
    return await table.press(player, hand.response, code)


async def test_a_move_from_a_hand_reaches_the_table_through_a_token_not_a_counted_edit(
    world: World,
) -> None:
    """Anna's move from her ephemeral hand shows on the public table by an edit through the
    Start click's token; no counted edit is made."""
    table = await started(world)
    anna = table.game.players[0]
    counted_before, tokens_before = len(counted_edits(world)), len(token_edits(world))
    await play_red(table, anna, "Red 5")
    await world.env.settle()
    assert "Red 5" in embed_text(table_message(world, table))
    assert counted_edits(world)[counted_before:] == []
    assert token_edits(world)[tokens_before:]


async def test_a_channel_past_its_token_allowance_falls_back_to_the_counted_edit(
    world: World,
) -> None:
    """With the channel's token requests spent, the table still shows the move, by a counted
    edit within the budget."""
    table = await started(world)
    world.bot.sessions.tokens.close(world.channel.id, 3600)
    anna = table.game.players[0]
    counted_before = len(counted_edits(world))
    await play_red(table, anna, "Red 5")
    await world.env.settle()
    assert "Red 5" in embed_text(table_message(world, table))
    assert len(counted_edits(world)) > counted_before


async def test_a_table_whose_token_runs_out_is_posted_anew_by_the_next_move(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the table's token is near its end, the next move posts the table as its click's
    follow-up and the old table goes: one table in the channel, its buttons working, and the
    new token edits it."""
    monkeypatch.setattr(bot.public_messages, "TOKEN_LIFETIME", 5.0)
    table = await started(world)
    old_id = table.session.state.message_id
    anna, ben = table.game.players
    await world.env.advance_time(6)
    await play_red(table, anna, "Red 5")
    await world.env.settle()
    new_id = table.session.state.message_id
    assert new_id != old_id
    tables = [m for m in world.channel.history() if "Hand" in labels(m)]
    assert [m.id for m in tables] == [new_id]
    assert "Red 5" in embed_text(tables[0])
    counted_before = len(counted_edits(world))
    await play_red(table, ben, "Red 1")  # through the Hand button of the new table
    await world.env.settle()
    assert "Red 1" in embed_text(table_message(world, table))
    assert counted_edits(world)[counted_before:] == []


async def test_a_timed_out_turn_without_a_live_token_is_a_counted_edit(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change no click carries (the turn timer) once the table's token ran out goes out as
    a counted edit."""
    monkeypatch.setattr(bot.public_messages, "TOKEN_LIFETIME", 5.0)
    table = await started(world)
    counted_before = len(counted_edits(world))
    await world.env.advance_time(61)  # Anna's turn times out; the bot moves for her
    await world.env.settle()
    assert len(counted_edits(world)) > counted_before
    assert "ran out of time" in embed_text(table_message(world, table))


def test_a_channels_token_requests_stay_within_discords_limits() -> None:
    """No channel spends more than 30 token requests in a minute, nor more than 5 in 2 s."""
    spent: list[float] = []

    async def main() -> None:
        allowance = TokenAllowance()
        loop = asyncio.get_running_loop()
        for _ in range(2000):  # asked every 0.1 s for 200 s
            if allowance.take("channel"):
                spent.append(loop.time())
            await asyncio.sleep(0.1)

    run_on_fake_clock(main())
    assert most_in_any_window(spent, 60.0) <= 30
    assert most_in_any_window(spent, 2.0) <= 5
    assert len(spent) >= 80  # and it does spend them: about 26 a minute


async def test_a_table_renewed_while_its_token_lives_is_replaced_without_a_counted_request(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In its token's last minutes the next move posts the table anew, and the old table is
    deleted through the token that posted it: nothing is counted, one table stays."""
    monkeypatch.setattr(bot.public_messages, "TOKEN_LIFETIME", 60.0)  # always in its last 5 min
    table = await started(world)
    old_id = table.session.state.message_id
    counted_before = len(channel_calls(world))
    await play_red(table, table.game.players[0], "Red 5")
    await world.env.settle()
    new_id = table.session.state.message_id
    assert new_id != old_id
    tables = [m for m in world.channel.history() if "Hand" in labels(m)]
    assert [m.id for m in tables] == [new_id]
    assert "Red 5" in embed_text(tables[0])
    assert channel_calls(world)[counted_before:] == []


async def test_the_old_tables_buttons_answer_until_it_is_deleted(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table posted anew whose old one waits for its counted delete: Hand on the old table
    still opens the hand, and its move shows on the new table."""
    monkeypatch.setattr(bot.public_messages, "TOKEN_LIFETIME", 5.0)
    table = await started(world)
    old_table = table_message(world, table)
    anna, ben = table.game.players
    await world.env.advance_time(6)  # the Start click's token is over: the delete is counted
    budget = world.bot.sessions.edits
    monkeypatch.setattr(budget.window, "try_take", lambda: None)  # and the budget is full
    await play_red(table, anna, "Red 5")
    await world.env.settle()
    assert table.session.state.message_id != old_table.id
    assert old_table.id in [m.id for m in world.channel.history()]  # not deleted yet
    hand = await table.actor(ben).click(old_table, label="Hand")
    assert hand.ephemeral
    code = next(b.code for b in buttons(hand.response) if b.label == "Red 1")
    await table.press(ben, hand.response, code)
    await world.env.settle()
    assert table.game.top_face().name() == "Red 1"
    assert "Red 1" in embed_text(table_message(world, table))
