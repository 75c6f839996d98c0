"""Input the Discord client would never send, hostile names, and failures that must not lie:
each is answered with a short ephemeral line and changes nothing it should not."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

import pytest

from bot.config import Settings
from bot.engine import Phase, Side
from bot.engine.snapshot import dump_state
from bot.sessions import CHANGED_BUT_FAILED, UNCHANGED_AND_FAILED
from bot.store import RetryPolicy
from bot.store.repositories import snapshots
from bot.ui import render
from bot.ui.i18n import ENGLISH, t
from bot.ui.kinds import MISPLACED_CLICK

from .conftest import World
from .driver import Table, buttons, embed_text, labels, rig
from .hostile import forged_click, forged_slash

HOSTILE = "[free nitro](https://example.invalid) **bold** `code` @everyone"


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every ERROR-or-worse line the bot logged (a traceback always comes with one)."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_going_out_with_a_wild_draw_color_still_asks_for_the_colour(world: World) -> None:
    """A Flip player whose last card is a Wild Draw Color gets an empty hand that still asks
    for the colour (no blank "Others see the backs" field), and the round ends by their choice."""
    table = Table(world, 2)
    await table.start()
    rig(table, ["W+C", "P1 P2 P3"], top="P3", side=Side.DARK)
    anna = table.game.players[0]
    hand = await table.hand(anna)
    played = await table.press(anna, hand, next(b.code for b in buttons(hand) if "Wild" in b.label))
    assert "Something went wrong" not in (played.response.content or "")
    assert labels(hand)[:4] == ["Pink", "Teal", "Orange", "Purple"]
    assert "No cards" in embed_text(hand)
    again = await table.hand(anna)
    assert labels(again)[:4] == ["Pink", "Teal", "Orange", "Purple"]
    await table.press(anna, again, "cp")
    assert table.game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
    assert table.game.history[-1].winner == anna


async def test_a_failure_after_the_move_says_it_went_through(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is played and saved, then drawing the hand fails: the player is told the
    move went through, not that the game is unchanged."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R7 B2", "G1 G2 G3"], top="R3", current=0)
    anna = table.game.players[0]
    hand = await table.hand(anna)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("rendering broke")

    monkeypatch.setattr(render, "hand_message", broken)
    played = await table.press(
        anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5")
    )
    assert played.response.content == t(ENGLISH, CHANGED_BUT_FAILED)
    assert table.game.top_face().name() == "Red 5"


async def test_a_failure_before_any_change_says_nothing_changed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click that fails before it changes anything says so."""
    table = Table(world, 1)
    await table.open()
    before = list(table.session.state.seats)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("seating broke")

    monkeypatch.setattr(table.session.state, "join", broken)
    joined = await world.members[1].click(table.public, label="Join")
    assert joined.response.content == t(ENGLISH, UNCHANGED_AND_FAILED)
    assert table.session.state.seats == before


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"ai": 10}, "`ai` must be"),
        ({"ai": 50}, "`ai` must be"),
        ({"ai": -1}, "`ai` must be"),
        ({"ai_difficulty": "bogus"}, "`ai_difficulty` must be one of: easy, normal, hard"),
        ({"turn_timeout": -5}, "`turn_timeout` must be"),
        ({"turn_timeout": 1}, "`turn_timeout` must be"),
        ({"turn_timeout": 10**9}, "`turn_timeout` must be"),
        ({"target": 49}, "`target` must be"),
        ({"scoring": "bogus"}, "`scoring` must be one of"),
        ({"stacking": "bogus"}, "`stacking` must be True or False"),
    ],
)
async def test_start_options_out_of_range_are_refused(
    world: World, caplog: pytest.LogCaptureFixture, options: dict[str, Any], refusal: str
) -> None:
    """Options a real client cannot send are refused on the bot's side; no lobby opens."""
    answer = await forged_slash(world.members[0], world.channel, "uno flip start", **options)
    assert answer.ephemeral and refusal in answer.response.content
    assert world.channel.id not in world.bot.sessions.by_channel
    assert no_errors_logged(caplog) == []


async def test_a_bogus_classic_edition_is_refused(world: World) -> None:
    """The classic edition must be one of the three decks."""
    answer = await forged_slash(world.members[0], world.channel, "uno classic start", edition="x")
    assert answer.ephemeral and "`edition` must be one of" in answer.response.content


@pytest.mark.parametrize("options", [{"sort": "bogus"}, {"variant": "bogus"}, {"scope": "x"}])
async def test_leaderboard_options_out_of_range_are_refused(
    world: World, caplog: pytest.LogCaptureFixture, options: dict[str, Any]
) -> None:
    """A /leaderboard with an unknown sort, variant or scope gets a refusal, not a traceback."""
    answer = await forged_slash(world.members[0], world.channel, "leaderboard", **options)
    assert answer.ephemeral and "must be one of" in answer.response.content
    assert no_errors_logged(caplog) == []


async def test_remove_ai_with_an_enormous_name_is_refused(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A 2,510-character name gets a short refusal and removes nobody."""
    table = Table(world, 1)
    await table.open("uno flip start", ai=1)
    answer = await forged_slash(world.members[0], world.channel, "uno remove-ai", name="x" * 2510)
    assert answer.ephemeral and len(answer.response.content) < 200
    assert len(table.session.state.ai_seats) == 1
    assert no_errors_logged(caplog) == []


async def test_hostile_display_names_are_shown_as_plain_text(world: World) -> None:
    """A member whose name is a markdown link shows as text on the lobby and the table, and
    as the name itself (no backslashes) on a button."""
    hostile = world.guild.add_member(world.env.create_user("mallory"), nick=HOSTILE)
    host = world.members[0]
    await host.slash(world.channel, "uno classic start")
    lobby = world.channel.last_message
    await hostile.click(lobby, label="Join")
    text = embed_text(world.channel.last_message)
    assert "\\[free nitro](" in text and "\\*\\*bold\\*\\*" in text
    assert "2. [free nitro]" not in text
    await host.click(world.channel.last_message, label="Start")
    table = world.channel.last_message
    assert "\\[free nitro](" in embed_text(table)
    assert "@everyone" not in embed_text(table)


async def test_a_hand_button_on_the_public_table_is_refused(world: World) -> None:
    """A hand's id delivered on the public table never replaces the table with a hand."""
    table = Table(world, 2)
    await table.start("uno classic start")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    before = embed_text(table.public)
    hand_id = buttons(hand)[0].custom_id
    answer = await forged_click(table.actor(anna), table.public, hand_id)
    assert answer.ephemeral and answer.response.content == t(ENGLISH, MISPLACED_CLICK)
    assert embed_text(table.public) == before


async def test_a_table_button_on_a_hand_is_refused(world: World) -> None:
    """A lobby or table id delivered on an ephemeral hand is refused too."""
    table = Table(world, 2)
    await table.start("uno classic start")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    hand_button = buttons(table.public)[0].custom_id
    answer = await forged_click(table.actor(anna), hand, hand_button)
    assert answer.response.content == t(ENGLISH, MISPLACED_CLICK)


# Discord carries custom_ids of up to 100 characters: 76 digits is as long as one can be here.
@pytest.mark.parametrize("code", ["p" + "9" * 76, "p1000", "g" + "9" * 76])
async def test_out_of_range_numbers_in_a_hand_id_are_refused(
    world: World, caplog: pytest.LogCaptureFixture, code: str
) -> None:
    """An 80-digit card or page number is answered without a traceback; nothing is played."""
    table = Table(world, 2)
    await table.start("uno classic start")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    serial = table.session.state.serial
    before = dump_state(table.game)
    forged = f"uno:h:{table.session.id}:{serial}:{code}"
    answer = await forged_click(table.actor(anna), hand, forged)
    assert answer.response is not None
    assert dump_state(table.game) == before
    assert no_errors_logged(caplog) == []


async def test_a_leaderboard_page_of_another_server_is_refused(
    world: World, settings: Settings
) -> None:
    """A page id naming another server's board does not show that server's standings."""
    await world.members[0].slash(world.channel, "leaderboard")
    board = world.channel.last_message
    forged = "lb:s:a:p:1:999999999999999999"
    answer = await forged_click(world.members[0], board, forged)
    assert answer.ephemeral and "this server" in answer.response.content


async def test_an_enormous_leaderboard_page_is_refused(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A page number no board has is answered without a traceback."""
    await world.members[0].slash(world.channel, "leaderboard")
    board = world.channel.last_message
    forged = f"lb:s:a:p:{'9' * 80}:{world.guild.id}"
    answer = await forged_click(world.members[0], board, forged)
    assert answer.response is not None
    assert no_errors_logged(caplog) == []


async def test_a_busy_store_never_holds_up_the_channel(
    world: World, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saves run outside the session's lock: while the store stays busy, the move is
    answered, other players' Hand clicks and /uno status are answered, and the move is saved
    once the store is free again."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    await table.save_now()
    anna, ben = table.game.players
    write_snapshot = snapshots.write_snapshot
    lock_held_while_saving: list[bool] = []

    async def busy_disk(*args: Any) -> bool:
        lock_held_while_saving.append(table.session.lock.locked())
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(snapshots, "write_snapshot", busy_disk)
    # One attempt: a retry's back-off would run on SimCord's clock, which moves only once the
    # waiting click settles.
    world.bot.store.database.retry = RetryPolicy(attempts=1)
    hand = await table.hand(anna)
    played = await table.press(
        anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5")
    )
    assert "Something went wrong" not in (played.response.content or "")
    assert "2 cards" in embed_text(hand)
    status = await world.members[1].slash(world.channel, "uno status")
    ben_hand = await table.hand(ben)
    assert status.ephemeral and "Red 5" in embed_text(status.response)
    assert "3 cards" in embed_text(ben_hand)
    assert lock_held_while_saving == [False]

    monkeypatch.setattr(snapshots, "write_snapshot", write_snapshot)
    await table.save_now()
    with sqlite3.connect(settings.db_path) as db:
        (ui,) = db.execute("SELECT ui_json FROM snapshots").fetchone()
    assert json.loads(ui)["serial"] == table.session.state.serial
