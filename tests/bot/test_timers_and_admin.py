"""Turn timer, removal after timeouts, kick/end permissions and the other /uno commands."""

from __future__ import annotations

import random

import pytest
from simcord import SetupError

from bot.engine import Phase

from .conftest import World
from .driver import Table, buttons, embed_text, labels, rig


async def test_timeout_draws_and_passes_for_the_player(world: World) -> None:
    """When the turn timer runs out the bot draws for the player and the turn passes."""
    table = Table(world, 3)
    await table.start("uno classic start")
    rig(table, ["R5 R7", "G1 G2 G3", "Y1 Y2 Y3"], top="B3", draw="G9")
    anna, ben = table.game.players[:2]
    await world.env.advance_time(59)
    assert table.game.current_player == anna
    await world.env.advance_time(2)
    assert len(table.game.hands[0]) == 3
    assert table.game.current_player == ben
    assert "anna ran out of time" in embed_text(table.public)


async def test_timeout_accepts_a_pending_penalty(world: World) -> None:
    """A victim who lets the timer run out takes the draw-wild's penalty."""
    table = Table(world, 3)
    await table.start("uno classic start")
    rig(table, ["W+4 R7", "G1 G2 G3", "Y1 Y2 Y3"], top="B3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label.endswith("Four")))
    assert table.game.phase is Phase.CHOOSE_COLOR
    await world.env.advance_time(61)  # Anna's colour is chosen for her
    assert table.game.phase in (Phase.PENALTY,)
    await world.env.advance_time(61)  # Ben accepts
    assert len(table.game.hands[1]) == 7


async def test_three_timeouts_in_a_row_remove_the_player(world: World) -> None:
    """After three timed-out turns a player leaves the game and the others go on."""
    table = Table(world, 3)
    await table.start("uno classic start")
    reds = "R1 R2 R3 R4 R5 R6 R7"
    rig(table, ["Y1 Y2 Y3", reds, reds], top="R9", current=0)
    absent = table.game.players[0]
    for turn in range(9):
        if turn % 3 == 0:
            await world.env.advance_time(61)
        else:
            await table.play_turn(random.Random(turn))
    assert absent not in table.game.players
    assert "removed after 3 timeouts" in embed_text(table.public)
    assert len(table.game.players) == 2
    assert table.game.phase is Phase.PLAY


async def test_game_ends_when_timeouts_leave_one_player(world: World) -> None:
    """In a two-player game the removal of one player abandons the game, and the table shows
    it ended: no Hand or UNO! button, "Game over" (not "Round over") and the scores."""
    table = Table(world, 2)
    await table.start()
    for _ in range(3):
        player = table.game.current_player
        session = table.session
        session.state.timeouts_in_row = dict.fromkeys(session.state.timeouts_in_row, 2)
        await world.env.advance_time(61)
        if player not in table.game.players:
            break
    assert table.game.phase is Phase.ABANDONED
    assert world.channel.id not in world.bot.sessions.by_channel
    text = embed_text(table.public)
    assert labels(table.public) == []
    assert "Game over" in text and "Round over" not in text
    assert "Fewer than two players remain" in text and "Scores (to 500)" in text


async def test_host_can_kick_a_player(world: World) -> None:
    """/uno kick by the host removes the player; their cards go back into the draw pile."""
    table = Table(world, 3)
    await table.start()
    cara = world.members[2]
    result = await table.players[0].slash(world.channel, "uno kick", player=cara)
    assert "removed" in result.response.content
    assert str(cara.id) not in table.game.players
    assert "cara was removed by the host" in embed_text(table.public)


async def test_non_host_cannot_kick(world: World) -> None:
    """/uno kick from someone else is refused and nobody leaves."""
    table = Table(world, 3)
    await table.start()
    result = await world.members[1].slash(world.channel, "uno kick", player=world.members[2])
    assert "Only the host" in result.response.content
    assert len(table.game.players) == 3


async def test_moderator_can_end_a_game(world: World) -> None:
    """Someone with Manage Channels can end a game they are not in."""
    table = Table(world, 2)
    await table.start()
    result = await world.mod.slash(world.channel, "uno end")
    assert result.ephemeral
    assert world.channel.id not in world.bot.sessions.by_channel
    assert "ended the game" in embed_text(table.public)
    assert labels(table.public) == []


async def test_player_without_permission_cannot_end(world: World) -> None:
    """A non-host without Manage Channels cannot end the game."""
    table = Table(world, 2)
    await table.start()
    result = await world.members[1].slash(world.channel, "uno end")
    assert "Only the host" in result.response.content
    assert world.channel.id in world.bot.sessions.by_channel


async def test_leave_during_a_game(world: World) -> None:
    """/uno leave takes the player out; a two-player game is then over."""
    table = Table(world, 2)
    await table.start()
    await world.members[1].slash(world.channel, "uno leave")
    assert table.game.phase is Phase.ABANDONED


async def test_hand_command_opens_the_hand(world: World) -> None:
    """/uno hand shows the caller's hand privately."""
    table = Table(world, 2)
    await table.start()
    result = await table.players[0].slash(world.channel, "uno hand")
    assert result.ephemeral and "Your hand" in embed_text(result.response)


async def test_status_and_rules_answer_privately(world: World) -> None:
    """/uno status shows the table and /uno rules this game's settings, both ephemeral."""
    table = Table(world, 2)
    await table.start("uno classic start", stacking=True)
    status = await world.mod.slash(world.channel, "uno status")
    assert status.ephemeral and "round 1" in embed_text(status.response)
    rules = await world.mod.slash(world.channel, "uno rules")
    assert rules.ephemeral and "stacking" in embed_text(rules.response)


async def test_every_command_is_registered(world: World) -> None:
    """The synced command tree has every /uno command."""
    commands = set(world.members[0].available_commands(world.channel))
    assert {
        "uno flip start",
        "uno classic start",
        "uno hand",
        "uno status",
        "uno rules",
        "uno leave",
        "uno kick",
        "uno end",
    } <= commands


async def test_next_round_button_deals_the_next_round(world: World) -> None:
    """After a round the Next round button deals round 2 with the deal passed left."""
    table = Table(world, 2)
    await table.start("uno classic start", target=5000)
    rig(table, ["R5", "G1 G2 G3"], top="R3")
    anna = table.game.players[0]
    dealer = table.game.dealer
    hand = await table.hand(anna)
    await table.press(
        anna,
        hand,
        next(
            b.code
            for b in __import__("tests.bot.driver", fromlist=["buttons"]).buttons(hand)
            if b.label == "Red 5"
        ),
    )
    assert "Next round" in labels(table.public)
    assert "anna: 0 points in hand" in embed_text(table.public)
    await table.players[1].click(table.public, label="Next round")
    assert table.game.round_no == 2
    assert table.game.dealer == (dealer + 1) % 2
    assert labels(table.public) == ["Hand"]


async def test_old_buttons_answer_after_the_game_is_gone(world: World) -> None:
    """A click on a finished game's message gets an answer, never a failed interaction."""
    table = Table(world, 2)
    await table.start()
    old_table = table.public
    hand = await table.hand(table.game.players[0])
    await world.mod.slash(world.channel, "uno end")
    with pytest.raises(SetupError):
        await table.players[0].click(old_table, label="Hand")  # the buttons are gone
    result = await table.players[0].click(hand, label="Refresh")
    assert result.acknowledged and "has ended" in result.response.content
