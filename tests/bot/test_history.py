"""/uno history and /uno replay as members see them: private pages, a match, a replay."""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Phase, RuleSet
from bot.engine.simulate import RandomAgent
from bot.options import TableOptions
from bot.store.repositories.history import FinishedMatch
from bot.table import Seat, TableState

from .conftest import World
from .driver import Table, embed_text, enabled, labels
from .hostile import forged_click

OPENED = datetime(2026, 1, 1, tzinfo=UTC)


async def keep_match(world: World, players: tuple[Any, ...], seed: int = 3) -> int:
    """A whole classic match of ``players`` played at a table and kept in the history, as
    the bot keeps one that ends; the match's number."""
    host, *others = players
    table = TableState(
        "h1",
        world.guild.id,
        world.channel.id,
        Seat(str(host.id), host.name),
        TableOptions(rules=RuleSet(variant="classic", target=50)),
        OPENED,
    )
    for member in others:
        table.join(member.id, member.name)
    table.start(host.id, seed, {s.player_id: s.name for s in table.seats})
    game = table.game
    assert game is not None
    agent = RandomAgent(seed, patience=100)
    while game.phase is not Phase.MATCH_OVER:
        if game.phase is Phase.ROUND_OVER:
            agent.moves_this_round = 0
            table.next_round()
        else:
            player, move = agent.choose(game)
            agent.moves_this_round += 1
            table.play(player, move)
    store = world.bot.store
    names = [(int(s.player_id), s.name) for s in table.seats]
    row = await store.games.create_game(world.guild.id, world.channel.id, "classic", "{}", names)
    names_by_id = {s.player_id: s.name for s in table.seats}
    finished = FinishedMatch.from_engine(
        game, table.moves, names_by_id, world.guild.id, world.channel.id
    )
    assert await store.history.record(row.id, finished)
    return row.id


def footer(message: Any) -> str:
    """The footer of a message's embed."""
    return str(message.message.embeds[0].footer.text)


async def test_history_lists_the_servers_matches_privately_newest_first(world: World) -> None:
    """/uno history answers privately with a line per match, the last one first."""
    anna, ben, cara = world.members[:3]
    first = await keep_match(world, (anna, ben))
    second = await keep_match(world, (anna, cara), seed=4)
    result = await ben.slash(world.channel, "uno history")
    assert result.ephemeral
    text = embed_text(result.response)
    assert text.index(f"#{second}") < text.index(f"#{first}")
    assert labels(result.response) == [f"#{second}", f"#{first}"]


async def test_the_player_option_shows_only_their_matches(world: World) -> None:
    """player: cara lists the matches cara played and no other."""
    anna, ben, cara = world.members[:3]
    await keep_match(world, (anna, ben))
    with_cara = await keep_match(world, (anna, cara), seed=4)
    result = await anna.slash(world.channel, "uno history", player=cara)
    assert labels(result.response) == [f"#{with_cara}"]
    assert "Matches of cara" in embed_text(result.response)


async def test_an_empty_history_says_so(world: World) -> None:
    """A server without finished matches says there are none yet."""
    result = await world.members[0].slash(world.channel, "uno history")
    assert "No finished matches are kept here yet." in embed_text(result.response)


async def test_a_match_shows_its_rounds_and_standings(world: World) -> None:
    """Opening a match lists each round's winner, card and points and the final standings."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    kept = await world.bot.store.history.match(number)
    assert kept is not None
    page = (await anna.slash(world.channel, "uno history")).response
    opened = await anna.click(page.message, label=f"#{number}")
    assert opened.ephemeral
    text = embed_text(opened.response)
    first = kept.rounds[0]
    winner = "anna" if first.winner_id == anna.id else "ben"
    assert f"Round 1: {winner} went out on {first.ending}" in text
    assert "Final standings" in text
    assert labels(opened.response)[0] == "Replay round 1"


async def test_a_replay_steps_through_the_round_in_place(world: World) -> None:
    """The replay starts at the deal; ▶ and ⏭ edit the same private message."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    result = await anna.slash(world.channel, "uno replay", match=number, round=1)
    assert result.ephemeral
    shown = result.response
    assert footer(shown).startswith("Step 1 of ")
    assert enabled(shown) == ["▶", "⏭"]
    assert "Every hand, face up" in embed_text(shown)
    steps = int(footer(shown).rsplit(" ", 1)[1])
    stepped = await anna.click(shown.message, label="▶")
    assert stepped.response.id == shown.id and footer(shown) == f"Step 2 of {steps}"
    await anna.click(shown.message, label="⏭")
    assert footer(shown) == f"Step {steps} of {steps}"
    assert enabled(shown) == ["⏮", "◀"]
    # Pictures are off in these tests' config: the last step is words alone (with them on it
    # carries the round-end picture, tests/bot/test_pictures.py).
    assert shown.attachments == [] and shown.message.embeds[0].image.url is None


async def test_a_replay_from_a_match_opens_privately(world: World) -> None:
    """The match's Replay button opens the round's replay as a new private message."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    match = (await anna.slash(world.channel, "uno history", match=number)).response
    replay = await anna.click(match.message, label="Replay round 1")
    assert replay.ephemeral and replay.response.id != match.id
    assert footer(replay.response).startswith("Step 1 of ")


async def test_another_servers_match_is_not_shown(world: World) -> None:
    """A match number of another server is answered as unknown, privately."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    other = world.env.create_guild("Elsewhere")
    channel = other.create_text_channel("uno")
    stranger = other.add_member(world.env.create_user("zed"))
    result = await stranger.slash(channel, "uno replay", match=number)
    assert result.ephemeral
    assert f"There is no match {number} in this server's history." in str(result.response.content)


async def test_a_replay_of_another_rules_version_says_so(world: World) -> None:
    """A match kept by an engine of another rules version is not replayed."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))

    async def age(connection: Any) -> None:
        await connection.execute("UPDATE match_history SET rules_version = 0", ())

    await world.bot.store.database.write(age)
    result = await anna.slash(world.channel, "uno replay", match=number)
    assert "another version of the rules" in str(result.response.content)


async def test_history_buttons_work_after_a_restart(world: World, settings: Settings) -> None:
    """A replay shown before a restart still steps on the new bot instance."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    shown = (await anna.slash(world.channel, "uno replay", match=number)).response
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    stepped = await anna.click(shown.message, label="▶")
    assert stepped.acknowledged and footer(shown).startswith("Step 2 of ")


async def test_a_match_played_through_the_bot_is_kept(world: World) -> None:
    """A classic match played to its end by clicks appears in /uno history with its rounds."""
    table = Table(world, 2)
    await table.start("uno classic start", target=50)
    rng = random.Random(5)
    for _ in range(40):
        if table.game.phase is Phase.MATCH_OVER:
            break
        if table.game.phase is Phase.ROUND_OVER:
            await table.players[0].click(table.public, label="Next round")
        else:
            await table.play_round(rng)
    assert table.game.phase is Phase.MATCH_OVER
    persistence = world.bot.sessions.persistence
    assert persistence is not None and await persistence.flush(timeout=30)
    result = await table.players[1].slash(world.channel, "uno history")
    assert labels(result.response) and labels(result.response)[0].startswith("#")
    number = int(labels(result.response)[0][1:])
    replay = await table.players[1].slash(world.channel, "uno replay", match=number)
    assert footer(replay.response).startswith("Step 1 of ")


async def test_a_forged_step_past_the_end_shows_the_last_step(world: World) -> None:
    """A step number no round has (a modified client) shows the round's last step."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    shown = (await anna.slash(world.channel, "uno replay", match=number)).response
    steps = int(footer(shown).rsplit(" ", 1)[1])
    await forged_click(anna, shown, f"uno:hr:{number}:1:999999:n")
    assert footer(shown) == f"Step {steps} of {steps}"


async def test_a_replay_button_on_a_history_page_is_refused(world: World) -> None:
    """A replay step's id clicked on a history page is answered privately; nothing changes."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    page = (await anna.slash(world.channel, "uno history")).response
    before = embed_text(page)
    result = await forged_click(anna, page, f"uno:hr:{number}:1:0:f")
    assert result.ephemeral and embed_text(page) == before


async def test_a_page_of_another_server_is_refused(world: World) -> None:
    """A history page id naming another server answers privately and shows nothing of it."""
    anna, ben = world.members[:2]
    await keep_match(world, (anna, ben))
    page = (await anna.slash(world.channel, "uno history")).response
    result = await forged_click(anna, page, "uno:hp:123:0:1")
    assert "not one of this server's" in str(result.response.content)


@pytest.mark.slow
async def test_a_live_match_offers_its_finished_rounds_only(world: World) -> None:
    """While a match goes on, its scored round replays and the round being played does not."""
    table = Table(world, 2)
    await table.start("uno classic start", target=5000)
    await table.play_round(random.Random(2))
    await table.save_now()
    number = table.game_id
    assert number is not None
    anna = table.players[0]
    replay = await anna.slash(world.channel, "uno replay", match=number, round=1)
    assert footer(replay.response).startswith("Step 1 of ")
    await anna.click(table.public, label="Next round")
    refused = await anna.slash(world.channel, "uno replay", match=number, round=2)
    assert f"Match {number} has no round 2." in str(refused.response.content)


async def test_a_forgotten_player_is_a_former_player_and_the_replay_still_plays(
    world: World,
) -> None:
    """After forget, the match names the player "a former player" and still replays."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    await world.bot.store.history.forget(anna.id)
    match = (await ben.slash(world.channel, "uno history", match=number)).response
    assert "a former player" in embed_text(match) and "anna" not in embed_text(match)
    replay = await ben.slash(world.channel, "uno replay", match=number)
    assert footer(replay.response).startswith("Step 1 of ")
    assert "anna" not in embed_text(replay.response)


async def test_the_history_unloads_after_the_uno_group(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Closing the bot may unload the /uno group first: the history then unloads without an
    error (discord.py only logs one), and it is gone."""
    await world.bot.unload_extension("cogs.uno")
    with caplog.at_level(logging.ERROR):
        await world.bot.unload_extension("cogs.history")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert world.bot.get_cog("HistoryCog") is None
