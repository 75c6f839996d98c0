"""Turn reminders: a person who has not moved after ``turn_reminder`` seconds is pinged in a
message of its own (an edited mention never notifies), and the message goes when the turn does."""

from __future__ import annotations

from typing import Any

from bot.client import UnoBot
from bot.config import Settings

from .conftest import World
from .driver import Table, buttons, rig

REMINDER_TEXT = "it's your turn in UNO"


def reminders(world: World) -> list[Any]:
    """The turn reminders now in the channel."""
    return [m for m in world.channel.history() if REMINDER_TEXT in (m.content or "")]


def table_message(world: World, table: Table) -> Any:
    """The table itself (a reminder may be the channel's last message)."""
    return next(m for m in world.channel.history() if m.id == table.session.state.message_id)


async def started(world: World, seats: int = 3) -> Table:
    table = Table(world, seats)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3", "R4 G2 G3"][:seats], top="R9", current=0)
    return table


async def test_an_idle_person_is_pinged_once_and_the_ping_goes_when_they_move(
    world: World,
) -> None:
    """After 15 s a new message mentions Anna; when she plays it is deleted."""
    table = await started(world)
    anna = table.game.players[0]
    await world.env.advance_time(14)
    assert reminders(world) == []
    await world.env.advance_time(2)
    (reminder,) = reminders(world)
    assert [u.id for u in reminder.mentions] == [int(anna)]
    assert reminder.edited_at is None  # a new message, so Discord notifies
    assert "45 s left" in reminder.content
    assert str(table.session.state.message_id) in reminder.content  # the jump link to the table
    await world.env.advance_time(20)
    assert len(reminders(world)) == 1  # once per turn, not every 15 s
    hand = await table.actor(anna).click(table_message(world, table), label="Hand")
    red_5 = next(b.code for b in buttons(hand.response) if b.label == "Red 5")
    await table.press(anna, hand.response, red_5)
    await world.env.settle()
    assert reminders(world) == []
    assert world.channel.last_message.id == table.session.state.message_id


async def test_a_quick_player_is_never_pinged(world: World) -> None:
    """A move within 15 s: no reminder, for them or for the next player who also moves."""
    table = await started(world)
    anna, ben = table.game.players[:2]
    await world.env.advance_time(10)
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.advance_time(10)
    hand = await table.hand(ben)
    await table.press(ben, hand, next(b.code for b in buttons(hand) if b.label == "Red 1"))
    await world.env.advance_time(10)
    assert reminders(world) == []


async def test_the_reminder_goes_when_the_timer_plays_and_the_next_person_gets_theirs(
    world: World,
) -> None:
    """Anna times out: her reminder is deleted, and 15 s into Ben's turn he is pinged."""
    table = await started(world)
    anna, ben = table.game.players[:2]
    await world.env.advance_time(61)
    assert table.game.current_player == ben
    assert reminders(world) == []
    await world.env.advance_time(16)
    (reminder,) = reminders(world)
    assert [u.id for u in reminder.mentions] == [int(ben)]
    assert int(anna) not in [u.id for u in reminder.mentions]


async def test_ending_the_game_deletes_the_reminder(world: World) -> None:
    """/uno end while a reminder is up leaves no reminder behind."""
    table = await started(world)
    await world.env.advance_time(16)
    assert len(reminders(world)) == 1
    await table.players[0].slash(world.channel, "uno end")
    await world.env.settle()
    assert reminders(world) == []


async def test_a_reminder_up_during_a_restart_is_deleted_and_the_turn_timer_starts_afresh(
    world: World, settings: Settings
) -> None:
    """The reminder's id is saved with the game: after a restart it is deleted, and a new one
    comes 15 s into the resumed turn."""
    table = await started(world)
    await world.env.advance_time(16)
    (old,) = reminders(world)
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    table.forget_session()
    await world.env.settle()
    assert reminders(world) == []
    await world.env.advance_time(16)
    (new,) = reminders(world)
    assert new.id != old.id


async def test_reminders_can_be_turned_off(world: World) -> None:
    """turn_reminder = 0: nobody is pinged, the timer still plays for them at 60 s."""
    world.bot.settings.turn_reminder = 0
    table = await started(world, seats=2)
    await world.env.advance_time(59)
    assert reminders(world) == []
    await world.env.advance_time(2)
    assert table.game.current_player == table.game.players[1]
    assert reminders(world) == []


async def test_the_table_shows_when_the_turn_ends_and_each_turn_its_own(world: World) -> None:
    """The turn line carries Discord's countdown to the turn timer; a move starts a new one."""
    table = await started(world)
    anna = table.game.players[0]
    first = table.session.state.turn_deadline
    assert first is not None
    description = table_message(world, table).embeds[0].description
    assert f"<t:{int(first.timestamp())}:R>" in description.splitlines()[0]
    await world.env.advance_time(5)
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    second = table.session.state.turn_deadline
    assert second is not None and second > first
    description = table_message(world, table).embeds[0].description
    assert f"<t:{int(second.timestamp())}:R>" in description.splitlines()[0]
