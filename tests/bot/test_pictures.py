"""Pictures through Discord: the table picture on the table message, card emoji on the hand's
buttons (and their colour-emoji fallback), one hand per player, and the text-only table."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

import discord
import pytest

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Phase
from bot.ui import pictures
from bot.ui.cards import MAX_BYTES, RoundEndPicture
from bot.ui.cards.emoji import EMOJI_VERSION

from .conftest import World, make_settings
from .driver import Table, buttons, embed_text, rig
from .test_history import keep_match

TABLE_EDIT = "PATCH"
T = TypeVar("T")


class DrawNow(Executor):
    """Runs the work when it is handed over, on the event loop, and hands back its result.

    The bot draws table pictures in a process of its own (tests/ui/test_pictures_cache.py and
    bench/bot_load.py use it). Inside SimCord they are drawn at once instead: starting that
    process takes seconds on a busy machine, longer than SimCord waits for a bot to settle; and
    a drawing thread, used before, was still busy in Pillow when SimCord's 5 s ran out on a
    slower machine (CI), the old code too, though a picture alone takes 0.1 s there."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """A future that is already done, with ``fn``'s result or exception."""
        done: Future[T] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except Exception as error:
            done.set_exception(error)
        return done


DRAWING = DrawNow()


@pytest.fixture(autouse=True)
def draw_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table pictures drawn at once, in the test process (see DrawNow)."""
    monkeypatch.setattr(pictures, "drawing_process", lambda: DRAWING)
    # and waited for as long as they take: SimCord's virtual clock may run out a real timeout.
    monkeypatch.setattr(pictures.Pictures, "draw_timeout", None)
    # and nothing is drawn ahead (warming every card is seconds of a busy test machine's CPU).
    monkeypatch.setattr(pictures.Pictures, "start_drawing", lambda self: None)


@pytest.fixture
def settings(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The test settings with table pictures on, as the bot ships."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("UNO_CONFIG", str(tmp_path / "absent.toml"))
    return make_settings(tmp_path, pictures=True)


async def shown(world: World) -> None:
    """Send the table edit the budget would send now. SimCord caveat: its virtual clock and the
    loop's clock may disagree around a picture's drawing, so the edit budget's own timer may
    not fire inside a test; a real event loop has one clock."""
    for session in world.bot.sessions.by_id.values():
        await session.public_messages.edit_now()
    world.bot.sessions.edits.discard(session.id)
    await world.env.settle()


def table_requests(world: World, since: int, message_id: int) -> list[Any]:
    """The REST requests that edited the table message, after the first ``since``."""
    path = f"/channels/{world.channel.id}/messages/{message_id}"
    return [r for r in world.env.http_requests[since:] if r.path == path]


def hand_buttons(hand: Any) -> list[dict[str, Any]]:
    """The hand's buttons as Discord received them."""
    return [child for row in hand.components for child in row["components"]]


def card_emoji(hand: Any) -> list[dict[str, Any]]:
    """The emoji of the hand's card buttons (their action code starts with ``p``)."""
    return [
        b["emoji"] for b in hand_buttons(hand) if b["custom_id"].split(":", 4)[-1].startswith("p")
    ]


async def test_the_table_picture_rides_on_each_table_edit(world: World) -> None:
    """The table carries exactly one picture, under the size limit, shown by its embed; a move
    replaces it within the one edit that updates the words, and an unchanged table is not
    drawn again."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R7 B1", "R6 G8 R9"], top="R3")
    anna, _ = table.game.players
    table.session.public_messages.request_update()
    hand = await table.hand(anna)
    public = table.public
    [picture] = public.attachments
    assert picture.filename == "table.png" and 0 < picture.size <= MAX_BYTES
    assert public.embeds[0].image.url is not None
    before = len(world.env.http_requests)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await shown(world)
    edits = table_requests(world, before, public.id)  # words and picture in each one edit
    assert edits and all(edit.method == TABLE_EDIT for edit in edits)
    [replaced] = table.public.attachments
    assert replaced.id != picture.id
    drawn = world.bot.sessions.pictures.drawn
    table.session.state.log.append("a line of words only")
    table.session.public_messages.request_update()
    await shown(world)
    assert len(table.public.attachments) == 1
    assert world.bot.sessions.pictures.drawn == drawn  # same picture, not drawn again


async def test_a_text_only_game_has_no_picture(world: World) -> None:
    """With the start option ``pictures: False`` the table carries no attachment at all."""
    table = Table(world, 2)
    await table.start("uno classic start", pictures=False)
    assert table.session.state.options.pictures is False
    rig(table, ["R5 R7 B1", "R6 G8 R9"], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await shown(world)
    assert "Red 5" in str(table.public.embeds[0].to_dict())
    assert table.public.attachments == [] and table.public.embeds[0].image.url is None


async def test_a_picture_that_fails_leaves_the_text_and_one_warning(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A drawing failure costs the picture only: the move lands, the table shows its text, and
    the log has one warning however often it fails."""

    async def broken(*args: Any) -> bytes:
        raise OSError("no space left on device")

    monkeypatch.setattr(pictures.Pictures, "_draw", broken)
    table = Table(world, 2)
    with caplog.at_level(logging.WARNING, logger="bot.ui.pictures"):
        await table.start("uno classic start")
        rig(table, ["R5 R7 B1", "R6 G8 R9"], top="R3")
        anna, ben = table.game.players
        hand = await table.hand(anna)
        await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
        await shown(world)
    assert table.game.current_player == ben
    assert table.public.attachments == [] and "Red 5" in str(table.public.embeds[0].to_dict())
    assert len([r for r in caplog.records if r.name == "bot.ui.pictures"]) == 1


async def test_hand_buttons_show_the_cards_and_yellow_is_not_grey(world: World) -> None:
    """Each card button carries its card's application emoji; a playable yellow or wild card
    is not grey like a card that cannot be played."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["Y5 W R7 B1", "R6"], top="Y3")
    hand = await table.hand(table.game.players[0])
    emoji = card_emoji(hand)
    assert len(emoji) == 4 and all(
        e["id"] and e["name"].startswith(f"uf{EMOJI_VERSION}std_") for e in emoji
    )
    shown = {b.get("label"): b for b in hand_buttons(hand)}
    blurple = 1  # Discord's primary style; 2 is grey
    assert shown["Yellow 5"]["style"] == blurple and not shown["Yellow 5"].get("disabled")
    assert shown["Wild"]["style"] == blurple
    assert shown["Red 7"].get("disabled")


@pytest.mark.parametrize(("variant", "prefix"), [("nomercy", "nm_"), ("junior", "jr_")])
async def test_a_no_mercy_or_junior_hand_shows_its_own_card_emoji(
    world: World, variant: str, prefix: str
) -> None:
    """The hand's buttons show the variant's own emoji (its art family's frame), not the
    classic ones."""
    table = Table(world, 2)
    await table.start(f"uno {variant} start")
    rig(table, ["R5 R7 B1", "R6"], top="R3")
    emoji = card_emoji(await table.hand(table.game.players[0]))
    assert len(emoji) == 3 and all(
        e["id"] and e["name"].startswith(f"uf{EMOJI_VERSION}std_{prefix}") for e in emoji
    )


async def test_the_hand_shows_the_top_cards_picture(world: World) -> None:
    """The hand's embed carries the top card's emoji as its thumbnail (Yellow 3 here)."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["Y5 R7", "R6"], top="Y3")
    hand = await table.hand(table.game.players[0])
    embed = hand.embeds[0]
    data = embed if isinstance(embed, dict) else embed.to_dict()
    emoji = {e.name: e for e in await world.bot.fetch_application_emojis()}
    top = emoji[f"uf{EMOJI_VERSION}std_yellow_3"]
    assert data["thumbnail"]["url"] == f"https://cdn.discordapp.com/emojis/{top.id}.png"


async def test_a_new_hand_deletes_the_one_before(world: World) -> None:
    """Pressing Hand again deletes the previous hand (through its interaction), so a player
    who opens their hand every turn keeps one."""
    table = Table(world, 2)
    await table.start("uno classic start")
    anna = table.game.players[0]
    first = await table.hand(anna)
    before = len(world.env.http_requests)
    await table.hand(anna)
    deletes = [r for r in world.env.http_requests[before:] if r.method == "DELETE"]
    assert len(deletes) == 1 and deletes[0].path.endswith("/messages/@original")
    assert first.id not in world.env.backend.messages.get(world.channel.id, {})


async def test_a_colour_blind_game_uses_its_palette(world: World) -> None:
    """The palette option is kept on the table and its card emoji are the colour-blind set."""
    from bot.ui.cards import COLOR_BLIND, CardArt
    from bot.ui.cards.emoji import CardEmojis

    for name in CardEmojis(CardArt(palette=COLOR_BLIND)).names:
        world.env.backend.create_application_emoji(name)
    table = Table(world, 2)
    await table.start("uno flip start", palette="colour_blind")
    assert table.session.state.options.palette == "colour_blind"
    hand = await table.hand(table.game.players[0])
    emoji = card_emoji(hand)
    assert emoji and all(e["name"].startswith(f"uf{EMOJI_VERSION}cb_") for e in emoji)
    assert len(table.public.attachments) == 1


async def test_ten_players_and_a_42_card_hand_stay_within_discords_limits(world: World) -> None:
    """At 10 players, one holding 42 cards, the table with its picture and the paged hand are
    messages Discord accepts (SimCord checks every payload)."""
    big = " ".join(f"{c}{n} {c}{n}" for c in "RY" for n in range(1, 10)) + " G1 G2 G3 G4 G5 G6"
    small = ["B1 B2", "B3 B4", "B5 B6", "B7 B8", "B9 B1", "B2 B3", "B4 B5", "B6 B7", "B8 B9"]
    table = Table(world, 10)
    await table.start("uno flip start")
    rig(table, [big, *small], top="G7")
    first = table.game.players[0]
    hand = await table.hand(first)
    await table.press(first, hand, next(b.code for b in buttons(hand) if b.label == "Green 1"))
    await shown(world)
    [picture] = table.public.attachments
    assert picture.size <= MAX_BYTES


@pytest.mark.fresh_emoji
async def test_missing_card_emoji_are_created_once_and_reused_after_a_restart(
    world: World, settings: Settings
) -> None:
    """A new application gets one emoji per card face at start-up; a restart finds them by
    name and creates none."""
    emojis = world.env.backend.application_emojis
    created = len(emojis)
    assert created == len(world.bot.sessions.pictures.emojis("standard").names)
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    assert len(emojis) == created
    assert world.bot.sessions.pictures.emojis("standard").created == 0


async def test_when_discord_refuses_card_emoji_buttons_show_colour_emoji(
    world: World, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """No permission to create emoji: one warning, and the buttons show colour emoji."""
    world.env.backend.application_emojis.clear()  # someone deleted them; none can be made
    world.env.inject_error(
        "POST",
        "/applications/*/emojis",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    with caplog.at_level(logging.WARNING, logger="bot.ui.cards.emoji"):
        await world.env.restart_bot(UnoBot(settings, shard_count=1))
        table = Table(world, 2)
        await table.start("uno classic start", palette="colour_blind")
    warnings = [r for r in caplog.records if r.name == "bot.ui.cards.emoji"]
    assert len(warnings) == 1
    hand = await table.hand(table.game.players[0])
    emoji = card_emoji(hand)
    assert emoji and all(e.get("id") is None and e["name"] in "🔴🟡🟢🔵🌈" for e in emoji)


async def test_a_deleted_table_comes_back_with_its_picture(world: World) -> None:
    """Someone deletes the table message: the next edit posts it again, picture attached."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R7 B1", "R6 G8 R9"], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    old = table.public
    cleaners = world.guild.create_role(
        "Cleaners", permissions=discord.Permissions(manage_messages=True)
    )
    cleaner = world.guild.add_member(world.env.create_user("cleaner"), roles=[cleaners])
    await cleaner.delete(old)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await shown(world)
    assert table.public.id != old.id and len(table.public.attachments) == 1
    assert table.session.state.message_id == table.public.id


async def anna_goes_out(world: World, ben: str = "G1 G2 G9", **options: Any) -> Table:
    """A 2-player classic round Anna ends with her last card, a Red 5, Ben left with ``ben``."""
    table = Table(world, 2)
    await table.start("uno classic start", **options)
    rig(table, ["R5", ben], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    if world.bot.sessions.by_id:
        await shown(world)
    else:  # a match that ended: its session drew its last table and is gone
        await world.env.settle()
    return table


async def test_a_round_end_shows_the_hands_counted_on_the_table(world: World) -> None:
    """At a round's end the table's picture is the round end's (every hand left face up with
    its points), not the live table's; the embed keeps its words."""
    table = await anna_goes_out(world)
    assert table.game.phase is Phase.ROUND_OVER
    [picture] = table.public.attachments
    assert picture.filename == "table.png" and 0 < picture.size <= MAX_BYTES
    assert table.public.embeds[0].image.url is not None
    assert "went out" in embed_text(table.public)
    shows = table.session.public_messages._picture.shows
    assert shows is not None and isinstance(shows[1], RoundEndPicture)
    anna, ben = shows[1].hands
    assert anna.winner and anna.cards == () and anna.awarded == 12
    assert [points for _, points in ben.cards] == [9, 2, 1] and ben.total == 12


async def test_the_end_of_a_match_shows_the_hands_counted(world: World) -> None:
    """The last round of a match ends with the same picture (60 points reach the target)."""
    table = await anna_goes_out(world, "G+2 B+2 Y+2", target=50)
    assert table.game.phase is Phase.MATCH_OVER
    assert len(table.public.attachments) == 1
    shows = table.session.public_messages._picture.shows
    assert shows is not None and isinstance(shows[1], RoundEndPicture)


async def test_a_text_only_round_end_has_no_picture(world: World) -> None:
    """With pictures off the round's end is words alone, as before."""
    table = await anna_goes_out(world, pictures=False)
    assert table.game.phase is Phase.ROUND_OVER
    assert table.public.attachments == [] and table.public.embeds[0].image.url is None
    assert "went out" in embed_text(table.public)


async def test_a_replays_last_step_shows_the_hands_counted(world: World) -> None:
    """/uno replay: the round's last step carries the round-end picture; a step back drops it."""
    anna, ben = world.members[:2]
    number = await keep_match(world, (anna, ben))
    result = await anna.slash(world.channel, "uno replay", match=number, round=1)
    shown_step = result.response
    assert shown_step.attachments == []
    await anna.click(shown_step.message, label="⏭")
    [picture] = shown_step.attachments
    assert picture.filename == "table.png" and 0 < picture.size <= MAX_BYTES
    assert shown_step.embeds[0].image.url is not None
    await anna.click(shown_step.message, label="◀")
    assert shown_step.attachments == [] and shown_step.embeds[0].image.url is None
