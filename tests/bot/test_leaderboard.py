"""/leaderboard and /stats as members see them, on standings seeded through the store API."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from discord import app_commands
from simcord import assert_error

from bot.client import UnoBot
from bot.config import Settings
from bot.engine.variants import VARIANTS
from bot.store import RoundRecord, RoundScore, StoreBusyError
from bot.store.models import Variant
from cogs.leaderboard import BoardQuery, LeaderboardButton

from .conftest import World
from .driver import Table, buttons, embed_text, enabled, labels, rig
from .hostile import forged_click

ROW = re.compile(r"^[▸ ] +(\d+)  (.+?) +(\d+) +(\d+) +(\d+) +(\d+)$")


@dataclass(frozen=True)
class Line:
    """One row of a leaderboard table as shown."""

    rank: int
    name: str
    points: int
    matches_won: int
    rounds_won: int
    games_played: int


def board(message: Any) -> list[Line]:
    """The rows of the leaderboard table in a message's embed."""
    text = embed_text(message)
    return [
        Line(int(m[1]), m[2], int(m[3]), int(m[4]), int(m[5]), int(m[6]))
        for m in map(ROW.match, text.splitlines())
        if m is not None
    ]


def names(message: Any) -> list[str]:
    """The player names on a leaderboard message, top first."""
    return [line.name for line in board(message)]


def rank_line(message: Any) -> str:
    """The viewer's own-rank line under the table."""
    return next(line for line in embed_text(message).splitlines() if line.startswith("📍"))


async def seed(
    bot: UnoBot,
    guild_id: int,
    winner: tuple[int, str],
    loser: tuple[int, str],
    round_points: list[int],
    *,
    variant: Variant = "flip",
    match_won: bool = False,
) -> None:
    """One game in which ``winner`` wins a round worth each of ``round_points`` from ``loser``."""
    game = await bot.store.games.create_game(guild_id, 1, variant, "{}", [winner, loser])
    for round_no, points in enumerate(round_points, start=1):
        last = round_no == len(round_points)
        await bot.store.games.record_round(
            game.id,
            RoundRecord(
                round_no=round_no,
                winner_id=winner[0],
                scores=[
                    RoundScore(player_id=winner[0], hand_points=0, points_awarded=points),
                    RoundScore(player_id=loser[0], hand_points=points, points_awarded=0),
                ],
                match_winner_id=winner[0] if match_won and last else None,
            ),
        )


def who(member: Any) -> tuple[int, str]:
    """A member's (id, display name), as the bot stores a seat."""
    return member.id, member.name


async def seed_three_ways(world: World) -> None:
    """anna leads on points, cara on matches won, ben on rounds won; dan trails everywhere."""
    anna, ben, cara, dan = world.members[:4]
    gid = world.guild.id
    await seed(world.bot, gid, who(anna), who(dan), [300])
    await seed(world.bot, gid, who(ben), who(dan), [10, 10, 10])
    await seed(world.bot, gid, who(cara), who(dan), [50, 50], match_won=True)


async def seed_many(world: World, count: int = 25) -> None:
    """``count`` players p01.. each beat anna once; player pNN has NN points."""
    anna = world.members[0]
    for n in range(1, count + 1):
        await seed(world.bot, world.guild.id, (7000 + n, f"p{n:02}"), who(anna), [n])


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        (None, ["anna", "cara", "ben", "dan"]),
        ("points", ["anna", "cara", "ben", "dan"]),
        ("matches_won", ["cara", "anna", "ben", "dan"]),
        ("rounds_won", ["ben", "cara", "anna", "dan"]),
    ],
)
async def test_leaderboard_sorts_by_each_key(
    world: World, sort: str | None, expected: list[str]
) -> None:
    """Each sort key orders the board; points is the default."""
    await seed_three_ways(world)
    options = {} if sort is None else {"sort": sort}
    result = await world.members[3].slash(world.channel, "leaderboard", **options)
    assert not result.ephemeral
    assert names(result.response) == expected


async def test_leaderboard_shows_every_column(world: World) -> None:
    """A row shows rank, name, points, matches won, rounds won and games played."""
    await seed_three_ways(world)
    result = await world.members[0].slash(world.channel, "leaderboard")
    assert board(result.response) == [
        Line(1, "anna", 300, 0, 1, 1),
        Line(2, "cara", 100, 1, 2, 1),
        Line(3, "ben", 30, 0, 3, 1),
        Line(4, "dan", 0, 0, 0, 3),
    ]
    assert "UNO Club leaderboard" in embed_text(result.response)


async def test_equal_values_share_a_rank(world: World) -> None:
    """Players tied on the sort key share the rank (ties listed by player id)."""
    await seed_three_ways(world)
    result = await world.members[0].slash(world.channel, "leaderboard", sort="matches_won")
    assert [(line.rank, line.name) for line in board(result.response)] == [
        (1, "cara"),
        (2, "anna"),
        (2, "ben"),
        (2, "dan"),
    ]


async def test_first_page_shows_ten_and_the_callers_rank_off_the_page(world: World) -> None:
    """With 26 players page 1 lists the top ten and the caller's line gives their rank 26."""
    await seed_many(world)
    result = await world.members[0].slash(world.channel, "leaderboard")
    assert names(result.response) == [f"p{n:02}" for n in range(25, 15, -1)]
    assert rank_line(result.response) == "📍 anna is **#26** of 26 with 0 points."
    assert "Page 1/3" in embed_text(result.response)
    assert enabled(result.response) == ["▶"]


async def test_page_buttons_walk_the_board_in_place(world: World) -> None:
    """▶ twice reaches page 3 (the last six), ◀ goes back; the same message is edited."""
    await seed_many(world)
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    second = await world.members[0].click(posted.message, label="▶")
    assert second.response.id == posted.id
    assert names(posted) == [f"p{n:02}" for n in range(15, 5, -1)]
    assert [line.rank for line in board(posted)] == list(range(11, 21))
    await world.members[0].click(posted.message, label="▶")
    assert names(posted) == [f"p{n:02}" for n in range(5, 0, -1)] + ["anna"]
    assert "Page 3/3" in embed_text(posted) and enabled(posted) == ["◀"]
    await world.members[0].click(posted.message, label="◀")
    assert "Page 2/3" in embed_text(posted) and enabled(posted) == ["◀", "▶"]


async def test_anyone_can_page_and_sees_their_own_rank(world: World) -> None:
    """Another member's click pages the board and the rank line becomes theirs."""
    await seed_many(world)
    await seed(world.bot, world.guild.id, who(world.members[1]), (7999, "zed"), [12])
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    await world.members[1].click(posted.message, label="▶")
    assert "Page 2/3" in embed_text(posted)
    assert rank_line(posted) == "📍 ben is **#14** of 28 with 12 points."
    await world.members[2].click(posted.message, label="◀")
    assert rank_line(posted) == "📍 cara has no scored rounds on this board yet."


async def test_page_buttons_work_after_a_restart(world: World, settings: Settings) -> None:
    """A board posted before a restart still pages on the new bot instance."""
    await seed_many(world)
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    clicked = await world.members[4].click(posted.message, label="▶")
    assert clicked.acknowledged and clicked.response.id == posted.id
    assert names(posted) == [f"p{n:02}" for n in range(15, 5, -1)]


async def test_paging_keeps_scope_variant_and_sort(world: World) -> None:
    """The buttons page the same board: global, classic only, by rounds won."""
    for n in range(1, 13):
        await seed(world.bot, 555, (8000 + n, f"c{n:02}"), (8100, "z"), [1] * n, variant="classic")
    await seed(world.bot, 555, (8200, "flipper"), (8100, "z"), [1] * 50)
    posted = (
        await world.members[0].slash(
            world.channel, "leaderboard", scope="global", variant="classic", sort="rounds_won"
        )
    ).response
    assert names(posted)[:2] == ["c12", "c11"]
    await world.members[0].click(posted.message, label="▶")
    assert names(posted) == ["c02", "c01", "z"]
    assert "Global leaderboard · Classic UNO" in embed_text(posted)
    assert "Sorted by **rounds won**" in embed_text(posted)


async def test_server_scope_counts_only_this_server(world: World) -> None:
    """The default board shows this server's games; scope global adds other servers'."""
    anna, ben, cara = world.members[:3]
    other = world.env.create_guild("Other Club")
    other.add_member(ben.user)
    await seed(world.bot, world.guild.id, who(anna), who(cara), [40])
    await seed(world.bot, other.id, who(ben), (9100, "stranger"), [90])
    here = await anna.slash(world.channel, "leaderboard")
    everywhere = await anna.slash(world.channel, "leaderboard", scope="global")
    assert names(here.response) == ["anna", "cara"]
    assert names(everywhere.response) == ["ben", "anna", "stranger", "cara"]  # ties: by id
    assert "Global leaderboard" in embed_text(everywhere.response)


async def test_variant_filter(world: World) -> None:
    """variant flip or classic keeps that variant's games; all adds them up."""
    anna, ben, cara = world.members[:3]
    gid = world.guild.id
    await seed(world.bot, gid, who(anna), who(cara), [40], variant="flip")
    await seed(world.bot, gid, who(ben), who(cara), [90], variant="classic")
    await seed(world.bot, gid, who(anna), who(ben), [70], variant="classic")
    flip = await anna.slash(world.channel, "leaderboard", variant="flip")
    classic = await anna.slash(world.channel, "leaderboard", variant="classic")
    both = await anna.slash(world.channel, "leaderboard", variant="all")
    assert [(x.name, x.points) for x in board(flip.response)] == [("anna", 40), ("cara", 0)]
    assert [(x.name, x.points) for x in board(classic.response)] == [
        ("ben", 90),
        ("anna", 70),
        ("cara", 0),
    ]
    assert [(x.name, x.points) for x in board(both.response)] == [
        ("anna", 110),
        ("ben", 90),
        ("cara", 0),
    ]


async def test_empty_board_says_so(world: World) -> None:
    """A server without scored rounds gets a friendly public message and no buttons."""
    result = await world.members[0].slash(world.channel, "leaderboard", variant="classic")
    text = embed_text(result.response)
    assert "No Classic UNO rounds have been scored on this server yet." in text
    assert labels(result.response) == []


async def test_single_page_board_has_no_buttons(world: World) -> None:
    """A board that fits on one page shows no page buttons."""
    await seed_three_ways(world)
    result = await world.members[0].slash(world.channel, "leaderboard")
    assert labels(result.response) == []


async def test_stats_for_yourself(world: World) -> None:
    """/stats shows the caller's games, wins, points, average, best round and favourite."""
    anna, ben, cara = world.members[:3]
    gid = world.guild.id
    await seed(world.bot, gid, who(anna), who(ben), [30, 90], match_won=True, variant="classic")
    await seed(world.bot, gid, who(anna), who(cara), [15], variant="classic")
    await seed(world.bot, gid, who(cara), who(anna), [60], variant="flip")
    result = await anna.slash(world.channel, "stats")
    assert result.ephemeral
    fields = {f.name: f.value for f in result.response.message.embeds[0].fields}
    assert fields == {
        "Games played": "3",
        "Matches won": "1",
        "Rounds won": "3 of 4",
        "Total points": "135",
        "Points per round": "33.8",
        "Best round": "90 points",
        "Favourite variant": "Classic UNO",
        "Rank by points": "#1",
    }


async def test_stats_for_another_member(world: World) -> None:
    """/stats user shows that member's record, privately to the caller."""
    anna, ben = world.members[:2]
    await seed(world.bot, world.guild.id, who(ben), who(anna), [25])
    result = await anna.slash(world.channel, "stats", user=ben)
    assert result.ephemeral
    assert "ben" in result.response.message.embeds[0].title
    fields = {f.name: f.value for f in result.response.message.embeds[0].fields}
    assert (fields["Rounds won"], fields["Total points"]) == ("1 of 1", "25")


async def test_stats_can_be_shared(world: World) -> None:
    """public: True posts the stats in the channel."""
    anna, ben = world.members[:2]
    await seed(world.bot, world.guild.id, who(anna), who(ben), [25])
    result = await anna.slash(world.channel, "stats", public=True)
    assert not result.ephemeral
    assert world.channel.last_message.id == result.response.id


async def test_stats_without_games(world: World) -> None:
    """A player with no scored round gets a friendly line, for oneself or another member."""
    anna, ben = world.members[:2]
    mine = await anna.slash(world.channel, "stats")
    theirs = await anna.slash(world.channel, "stats", user=ben)
    assert mine.ephemeral and mine.response.content.startswith(
        "You haven't finished a round on this server yet."
    )
    assert theirs.response.content.startswith("ben hasn't finished a round on this server yet.")


async def test_stats_scope_global_adds_other_servers(world: World) -> None:
    """scope global counts games from every server; the default counts this one only."""
    anna, ben = world.members[:2]
    await seed(world.bot, world.guild.id, who(anna), who(ben), [25])
    await seed(world.bot, 4242, who(anna), who(ben), [75])
    here = await anna.slash(world.channel, "stats")
    everywhere = await anna.slash(world.channel, "stats", scope="global")
    here_fields = {f.name: f.value for f in here.response.message.embeds[0].fields}
    all_fields = {f.name: f.value for f in everywhere.response.message.embeds[0].fields}
    assert (here_fields["Total points"], all_fields["Total points"]) == ("25", "100")


async def test_busy_store_gets_a_short_private_answer(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that stays busy answers the command with one ephemeral line."""

    async def busy(*args: Any, **kwargs: Any) -> None:
        raise StoreBusyError("locked")

    monkeypatch.setattr(world.bot.store.standings, "leaderboard", busy)
    result = await world.members[0].slash(world.channel, "leaderboard")
    assert result.ephemeral
    assert result.response.content == (
        "The scoreboard is busy right now; please try again in a moment."
    )
    assert_error(world.env, StoreBusyError)


async def test_busy_store_on_a_page_click_keeps_the_board(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page click while the store is busy answers privately and leaves the board as it was."""
    await seed_many(world)
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response

    async def busy(*args: Any, **kwargs: Any) -> None:
        raise StoreBusyError("locked")

    monkeypatch.setattr(world.bot.store.standings, "leaderboard", busy)
    clicked = await world.members[1].click(posted.message, label="▶")
    assert clicked.ephemeral and "busy" in clicked.response.content
    assert "Page 1/3" in embed_text(posted)


async def test_stats_of_a_bot_user(world: World) -> None:
    """Asking for a bot's stats gets a short private line."""
    robot = world.guild.add_member(world.env.create_user("robo", bot=True))
    result = await world.members[0].slash(world.channel, "stats", user=robot)
    assert result.ephemeral and "bots don't keep score" in result.response.content


async def test_round_played_by_clicks_appears_once(world: World, settings: Settings) -> None:
    """A round played through the buttons is on /leaderboard once, also after a restart."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6", "G1 G2 G3 G4"], top="R9", current=0)
    await table.play_round(random.Random(4))
    result = table.game.history[-1]
    winner = table.actor(result.winner).name
    shown = board((await world.members[0].slash(world.channel, "leaderboard")).response)
    assert {line.name for line in shown} == {"anna", "ben"}
    won = next(line for line in shown if line.name == winner)
    assert (won.points, won.rounds_won, won.games_played) == (sum(result.awarded.values()), 1, 1)
    assert sum(line.rounds_won for line in shown) == 1
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    again = await world.members[1].slash(world.channel, "leaderboard")
    assert board(again.response) == shown


def test_leaderboard_offers_every_registered_variant_and_all(world: World) -> None:
    """/leaderboard's variant choices are the registry's keys, in its order, then all."""
    command = world.bot.tree.get_command("leaderboard")
    assert isinstance(command, app_commands.Command)
    choices = next(p.choices for p in command.parameters if p.name == "variant")
    assert [choice.value for choice in choices] == [*VARIANTS, "all"]


async def test_junior_board_ranks_matches_won_and_says_why(world: World) -> None:
    """UNO Junior keeps no points: its board sorts by matches won unless told otherwise."""
    anna, ben, cara = world.members[:3]
    gid = world.guild.id
    await seed(world.bot, gid, who(ben), who(anna), [0, 0, 0], match_won=True, variant="junior")
    for _ in range(2):
        await seed(world.bot, gid, who(cara), who(anna), [0], match_won=True, variant="junior")
    result = await anna.slash(world.channel, "leaderboard", variant="junior")
    text = embed_text(result.response)
    assert names(result.response) == ["cara", "ben", "anna"]
    assert "UNO Junior keeps no points, so its board ranks matches won by default." in text
    assert "Sorted by **matches won**" in text


async def test_junior_board_can_still_be_sorted_by_rounds_won(world: World) -> None:
    """A sort chosen for the Junior board is the one used."""
    anna, ben, cara = world.members[:3]
    gid = world.guild.id
    await seed(world.bot, gid, who(ben), who(anna), [0, 0], variant="junior")
    await seed(world.bot, gid, who(cara), who(anna), [0], match_won=True, variant="junior")
    result = await anna.slash(world.channel, "leaderboard", variant="junior", sort="rounds_won")
    assert names(result.response) == ["ben", "cara", "anna"]


async def test_paging_a_new_variant_keeps_it(world: World) -> None:
    """The page buttons of the No Mercy board page that board."""
    for n in range(1, 13):
        await seed(world.bot, 555, (8000 + n, f"m{n:02}"), (8100, "z"), [n], variant="nomercy")
    await seed(world.bot, 555, (8200, "flipper"), (8100, "z"), [500])
    posted = (
        await world.members[0].slash(
            world.channel, "leaderboard", scope="global", variant="nomercy"
        )
    ).response
    assert names(posted)[:2] == ["m12", "m11"]
    await world.members[0].click(posted.message, label="▶")
    assert names(posted) == ["m02", "m01", "z"]
    assert "Global leaderboard · UNO No Mercy" in embed_text(posted)


def test_a_page_button_from_before_every_variant_had_a_board_still_pages() -> None:
    """A page id naming Flip by its old letter reads as the Flip board."""
    match = re.fullmatch(LeaderboardButton.__discord_ui_compiled_template__, "lb:s:f:m:2:5")
    assert match is not None
    query = BoardQuery.from_match(match)
    assert query is not None
    assert (query.variant, query.sort, query.page, query.guild_id) == ("flip", "matches_won", 2, 5)


async def test_stats_favourite_variant_names_a_new_variant(world: World) -> None:
    """/stats names UNO All Wild as the favourite of a player who plays it most."""
    anna, ben = world.members[:2]
    gid = world.guild.id
    await seed(world.bot, gid, who(anna), who(ben), [20], variant="allwild")
    await seed(world.bot, gid, who(anna), who(ben), [20], variant="allwild")
    await seed(world.bot, gid, who(anna), who(ben), [20], variant="flip")
    result = await anna.slash(world.channel, "stats")
    fields = {f.name: f.value for f in result.response.message.embeds[0].fields}
    assert fields["Favourite variant"] == "UNO All Wild"


def page_ids(message: Any) -> dict[str, str]:
    """The custom_id of each page button on a leaderboard message, by label."""
    return {button.label: button.custom_id for button in buttons(message)}


async def test_page_buttons_carry_a_signed_key_of_the_shown_rows(world: World) -> None:
    """▶ names the shown page's last row and ◀ its first, each id signed."""
    await seed_many(world)
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    await world.members[0].click(posted.message, label="▶")
    ids = page_ids(posted)
    assert re.fullmatch(rf"lb:s:all:p:1:{world.guild.id}:b15\.7015\.11:[\w-]{{12}}", ids["◀"])
    assert re.fullmatch(rf"lb:s:all:p:3:{world.guild.id}:a6\.7006\.20:[\w-]{{12}}", ids["▶"])


async def test_keyed_pages_rank_ties_across_the_boundary(world: World) -> None:
    """Ties across a page boundary keep their shared rank on the keyed page."""
    for n in range(1, 13):
        await seed(world.bot, world.guild.id, (7000 + n, f"p{n:02}"), (7100, "z"), [5])
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    await world.members[0].click(posted.message, label="▶")
    assert [(line.rank, line.name) for line in board(posted)] == [(1, "p11"), (1, "p12"), (13, "z")]
    await world.members[0].click(posted.message, label="◀")
    assert [line.rank for line in board(posted)] == [1] * 10


async def test_a_forged_page_key_is_refused_privately(world: World) -> None:
    """A key with a made-up rank (its signature cannot match) gets a private refusal and
    the public board stays as it was."""
    await seed_many(world)
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    before = embed_text(posted)
    real = page_ids(posted)["▶"]
    signature = real.rsplit(":", 1)[1]
    forged = real.replace(".7016.10:", ".7016.1:")
    assert forged != real and forged.endswith(signature)
    result = await forged_click(world.members[1], posted.message, forged)
    assert result.ephemeral
    assert "That page does not exist" in result.response.content
    assert embed_text(posted) == before


async def test_a_page_button_without_a_key_still_pages(world: World) -> None:
    """A page id from before keys (page number only) still shows that page by number."""
    await seed_many(world)
    posted = (await world.members[0].slash(world.channel, "leaderboard")).response
    await forged_click(world.members[0], posted.message, f"lb:s:all:p:2:{world.guild.id}")
    assert [line.rank for line in board(posted)] == list(range(11, 21))
