"""/uno forget-me: a player erases their own standings and stats after a confirm button."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store import StoreIOError
from bot.store.models import RoundRecord, RoundScore

from .conftest import World
from .driver import Table, labels
from .hostile import forged_click


async def a_won_game(world: World, winner: Any, loser: Any) -> None:
    """A finished game in which ``winner`` beat ``loser`` by 40 points."""
    store = world.bot.store
    seats = [(winner.id, winner.name), (loser.id, loser.name)]
    game = await store.games.create_game(world.guild.id, 1, "flip", "{}", seats)
    scores = [
        RoundScore(player_id=winner.id, hand_points=0, points_awarded=40),
        RoundScore(player_id=loser.id, hand_points=40, points_awarded=0),
    ]
    record = RoundRecord(round_no=1, winner_id=winner.id, scores=scores, match_winner_id=winner.id)
    await store.games.record_round(game.id, record)
    await store.games.finish_game(game.id, winner.id)


async def ranked(world: World, member: Any) -> bool:
    """Whether ``member`` is on this server's leaderboard."""
    return await world.bot.store.standings.rank_of(member.id, guild_id=world.guild.id) is not None


async def test_forget_me_asks_first_then_erases_only_the_presser(world: World) -> None:
    """The command only asks (privately, with one button); the button erases the presser's
    standings, stats and name, and the other player's stay."""
    anna, ben = world.members[:2]
    await a_won_game(world, anna, ben)
    asked = await anna.slash(world.channel, "uno forget-me")
    assert asked.ephemeral and "cannot be undone" in asked.response.content
    assert labels(asked.response) == ["Forget me"]
    assert await ranked(world, anna)  # nothing erased by the question alone
    done = await anna.click(asked.response, label="Forget me")
    assert "erased" in done.response.content and labels(done.response) == []
    assert not await ranked(world, anna) and await ranked(world, ben)
    stats = await world.bot.store.standings.stats(anna.id, world.guild.id)
    assert (stats.total_points, stats.name) == (0, "")


async def test_a_game_in_progress_keeps_the_players_seat(world: World) -> None:
    """Forgetting mid-game leaves the seat: the game goes on with the player in it."""
    table = Table(world, 2)
    await table.start()
    player = table.players[0]
    asked = await player.slash(world.channel, "uno forget-me")
    await player.click(asked.response, label="Forget me")
    assert table.session.state.seat_of(player.id) is not None
    assert not table.session.state.closed


async def test_a_forged_button_on_a_public_message_erases_nothing(world: World) -> None:
    """The confirm button pressed on the public table (forged) is refused: nothing erased."""
    anna, ben = world.members[:2]
    await a_won_game(world, anna, ben)
    table = Table(world, 2)
    await table.open()
    forged = await forged_click(anna, table.public, "uno:f:confirm")
    assert forged.ephemeral
    assert await ranked(world, anna)


async def test_a_store_failure_erases_nothing_and_says_so(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database down: a short private answer that nothing was erased; the data stays."""
    anna, ben = world.members[:2]
    await a_won_game(world, anna, ben)

    async def down(player_id: int) -> int:
        raise StoreIOError("disk I/O error")

    asked = await anna.slash(world.channel, "uno forget-me")
    monkeypatch.setattr(world.bot.store.standings, "forget", down)
    failed = await anna.click(asked.response, label="Forget me")
    assert failed.ephemeral and "nothing was erased" in failed.response.content
    monkeypatch.undo()
    assert await ranked(world, anna)
