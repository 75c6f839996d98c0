"""Playing by clicks: hands, moves, wilds, challenges, UNO, flips, paging and refusals."""

from __future__ import annotations

import random

import pytest

from bot.engine import Phase, Side
from bot.engine.snapshot import dump_state
from bot.ui.buttons import TableClick, custom_id
from bot.ui.i18n import ENGLISH
from bot.ui.words import card_name

from .conftest import World
from .driver import Table, buttons, embed_text, enabled, labels, rig, wild_draw_four_on_ben
from .hostile import forged_click


@pytest.mark.parametrize(
    ("seats", "command"),
    [
        (2, "uno flip start"),
        pytest.param(3, "uno flip start", marks=pytest.mark.slow),
        (2, "uno classic start"),
        pytest.param(3, "uno classic start", marks=pytest.mark.slow),
    ],
)
async def test_complete_round_by_clicks(world: World, seats: int, command: str) -> None:
    """A whole round is played only by clicks and the table shows the round's result."""
    table = Table(world, seats)
    await table.start(command)
    await table.play_round(random.Random(seats))
    assert table.game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
    assert "went out" in embed_text(table.public) or "wins the game" in embed_text(table.public)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["uno flip start", "uno classic start"])
async def test_complete_round_with_ten_players(world: World, command: str) -> None:
    """Ten players finish a round by clicks."""
    table = Table(world, 10)
    await table.start(command)
    await table.play_round(random.Random(10))
    assert table.game.history


async def test_hand_is_ephemeral_and_only_its_owner_sees_it(world: World) -> None:
    """The Hand button answers privately; nobody else sees that message."""
    table = Table(world, 2)
    await table.start()
    anna, ben = table.players
    result = await anna.click(table.public, label="Hand")
    assert result.ephemeral
    visible_to_ben = [m.id for m in world.channel.history(viewer=ben)]
    assert result.response.id not in visible_to_ben
    assert result.response.id in [m.id for m in world.channel.history(viewer=anna)]


async def test_pressing_a_card_plays_it_and_edits_the_same_hand(world: World) -> None:
    """A card button plays the card and the same ephemeral message shows the new hand."""
    table = Table(world, 2)
    await table.start()
    first = table.players[0].id
    rig(table, ["R5 R7 B2", "G1 G2 G3"], top="R3", current=0)
    player = str(first)
    hand = await table.hand(player)
    assert "Red 5" in enabled(hand) and "Blue 2" not in enabled(hand)
    assert "Blue 2" in labels(hand)
    code = next(b.code for b in buttons(hand) if b.label == "Red 5")
    result = await table.press(player, hand, code)
    assert result.response.id == hand.id
    assert "2 cards" in embed_text(hand)
    assert table.game.top_face().name() == "Red 5"
    assert "played 🔴 Red 5" in embed_text(table.public)


async def test_wild_asks_for_a_colour_with_named_buttons(world: World) -> None:
    """Playing a wild shows Red, Yellow, Green, Blue; choosing one sets the colour."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["W R7 B2", "G1 G2 G3"], top="R3")
    player = table.game.players[0]
    hand = await table.hand(player)
    await table.press(player, hand, next(b.code for b in buttons(hand) if b.label == "Wild"))
    assert labels(hand)[:4] == ["Red", "Yellow", "Green", "Blue"]
    await table.press(player, hand, "cg")
    assert table.game.color is not None and table.game.color.value == "green"
    assert "chose 🟢 Green" in embed_text(table.public)


async def test_dark_wild_offers_the_dark_colours(world: World) -> None:
    """On the dark side a wild asks for Pink, Teal, Orange or Purple."""
    table = Table(world, 2)
    await table.start()
    rig(table, ["W P7 T2", "P1 P2 P3"], top="P3", side=Side.DARK)
    player = table.game.players[0]
    hand = await table.hand(player)
    await table.press(player, hand, next(b.code for b in buttons(hand) if b.label == "Wild"))
    assert labels(hand)[:4] == ["Pink", "Teal", "Orange", "Purple"]


async def test_challenge_won_shows_the_hand_and_the_bluffer_draws(world: World) -> None:
    """Ben challenges a bluffed Wild Draw Four: he sees Anna's hand, she draws 4, he plays."""
    table = await wild_draw_four_on_ben(world, "W+4 R7 B2")
    ben = table.game.players[1]
    hand = await table.hand(ben)
    assert "Challenge" in labels(hand) and "Accept: draw 4" in labels(hand)
    await table.press(ben, hand, "x")
    assert "bluffed" in embed_text(hand) and "Red 7" in embed_text(hand)
    assert len(table.game.hands[0]) == 6
    assert table.game.current_player == ben
    assert "it was a bluff" in embed_text(table.public)


async def test_challenge_lost_costs_the_challenger_six(world: World) -> None:
    """Challenging a legal Wild Draw Four makes the challenger draw 6 and lose the turn."""
    table = await wild_draw_four_on_ben(world, "W+4 Y7 B2")
    ben = table.game.players[1]
    hand = await table.hand(ben)
    await table.press(ben, hand, "x")
    assert len(table.game.hands[1]) == 9
    assert table.game.current_player == table.game.players[2]
    assert "played it legally" in embed_text(hand)


async def test_uno_call_and_catch(world: World) -> None:
    """A player down to one card without UNO is caught from the table and draws 2."""
    table = Table(world, 3)
    await table.start("uno classic start")
    rig(table, ["R5 R6", "G1 G2 G3", "Y1 Y2 Y3"], top="R3")
    anna, ben = table.game.players[:2]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    assert "Catch" in labels(table.public)
    caught = await table.actor(ben).click(table.public, label="Catch")
    assert caught.ephemeral and "caught" in caught.response.content
    assert len(table.game.hands[0]) == 3
    assert "caught anna without UNO" in embed_text(table.public)
    assert "Catch" not in labels(table.public)


async def test_calling_uno_early_is_safe(world: World) -> None:
    """UNO! pressed with two cards protects the player after the play."""
    table = Table(world, 3)
    await table.start("uno classic start")
    rig(table, ["R5 R6", "G1 G2 G3", "Y1 Y2 Y3"], top="R3")
    await table.redraw()
    anna = table.game.players[0]
    called = await table.actor(anna).click(table.public, label="UNO!")
    assert "called UNO" in called.response.content
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    assert table.game.catchable() is None
    assert "Catch" not in labels(table.public)


async def test_missed_catch_is_refused_and_changes_nothing(world: World) -> None:
    """Catch with nobody catchable answers privately; no one draws."""
    table = Table(world, 2)
    await table.start()
    before = dump_state(table.game)
    # The Catch button is only shown when someone can be caught; an old table may still have it.
    catch = custom_id(TableClick(table.session.id, "catch"))
    result = await forged_click(table.players[1], table.public, catch)
    assert result.ephemeral and "Nobody can be caught" in result.response.content
    assert dump_state(table.game)["hands"] == before["hands"]


async def test_a_flip_shows_the_other_side_on_the_table(world: World) -> None:
    """After a Flip the table says dark side and shows the light backs everyone sees."""
    table = Table(world, 2)
    await table.start()
    rig(table, ["RF R7 B2", "G1 G2 G3"], top="R3")
    anna = table.game.players[0]
    before = embed_text(table.public)
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red Flip"))
    text = embed_text(table.public)
    assert table.game.side is Side.DARK
    assert "Dark side" in text and "flipped everything" in text
    assert ("Everyone sees: " in text and "🔴" in text) or "🟢" in text
    assert before != text


async def test_flip_table_shows_the_draw_piles_back(world: World) -> None:
    """The table names the face everyone can see on the draw pile's top card."""
    table = Table(world, 2)
    await table.start()
    game = table.game
    hidden_side = Side.DARK if game.side is Side.LIGHT else Side.LIGHT
    # As the bot names it (one spelling: "Wild Draw Colour", not the engine's "Color").
    back = card_name(ENGLISH, game.face(game.draw_pile[-1], hidden_side))
    assert "its top shows" in embed_text(table.public)
    assert back in embed_text(table.public)


async def test_a_forty_card_hand_is_paged(world: World) -> None:
    """A hand with more legal moves than fit is paged with working arrows."""
    table = Table(world, 2)
    await table.start("uno classic start")
    many = " ".join(f"{c}{n}" for c in "RYGB" for n in range(10)) + " W W W W"
    game = rig(table, [many, "RS"], top="R3")
    anna = game.players[0]
    hand = await table.hand(anna)
    assert len(game.hands[0]) == 44
    first = labels(hand)
    assert "▶" in first and "◀" in first
    assert "44 cards" in embed_text(hand)
    assert sum(1 for b in buttons(hand)) <= 25
    nxt = next(b.code for b in buttons(hand) if b.label == "▶")
    await table.press(anna, hand, nxt)
    assert labels(hand) != first and "page 2/" in embed_text(hand)


async def test_outsider_click_is_refused(world: World) -> None:
    """Someone not in the game pressing Hand gets a private refusal."""
    table = Table(world, 2)
    await table.start()
    outsider = world.members[5]
    result = await outsider.click(table.public, label="Hand")
    assert result.ephemeral and "not playing" in result.response.content


async def test_wrong_turn_click_is_refused_and_changes_nothing(world: World) -> None:
    """A card pressed out of turn is refused in the hand itself and the game is unchanged."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R7", "R6 R8 R9"], top="R3")
    ben = table.game.players[1]
    hand = await table.hand(ben)
    assert "Red 6" in labels(hand) and "Red 6" not in enabled(hand)
    before = dump_state(table.game)
    result = await table.actor(ben).click(hand, label="Refresh")
    assert result.response.id == hand.id
    assert dump_state(table.game) == before


async def test_stale_hand_button_answers_with_the_fresh_hand(world: World) -> None:
    """A card from an out-of-date hand message is not played; the fresh hand is shown."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R7 B1", "R6 G8 R9"], top="R3")
    anna, ben = table.game.players
    old = await table.hand(anna)
    code = next(b.code for b in buttons(old) if b.label == "Red 5")
    stale = next(b.custom_id for b in buttons(old) if b.label == "Red 7")
    fresh = await table.hand(anna)  # the old hand is deleted; its ids may still come (forged)
    await table.press(anna, fresh, code)  # Anna plays Red 5; Ben's turn now
    hand_ben = await table.hand(ben)
    await table.press(ben, hand_ben, next(b.code for b in buttons(hand_ben) if b.label == "Red 6"))
    before = dump_state(table.game)
    result = await forged_click(table.actor(anna), fresh, stale)
    assert "out of date" in embed_text(result.response)
    assert dump_state(table.game) == before


async def test_seven_o_asks_whom_to_swap_with(world: World) -> None:
    """With Seven-O a 7 shows one button per other player and swaps the hands."""
    table = Table(world, 3)
    await table.start("uno classic start", seven_o=True)
    rig(table, ["R7 B1 B2", "G1", "Y1 Y2"], top="R3")
    anna, ben = table.game.players[:2]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 7"))
    assert labels(hand)[:2] == ["Swap with ben", "Swap with cara"]
    await table.press(anna, hand, f"s{ben}")
    assert len(table.game.hands[0]) == 1 and len(table.game.hands[1]) == 2
    assert "anna swapped hands with ben" in embed_text(table.public)


async def test_stacking_offers_the_matching_draw_card(world: World) -> None:
    """With stacking the victim of a Draw Two may answer with their own Draw Two."""
    table = Table(world, 3)
    await table.start("uno classic start", stacking=True)
    rig(table, ["R+2 B1", "G+2 G5", "Y1 Y2"], top="R3")
    anna, ben = table.game.players[:2]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red Draw Two"))
    ben_hand = await table.hand(ben)
    assert "Green Draw Two" in enabled(ben_hand) and "Accept: draw 2" in enabled(ben_hand)
    assert "Green 5" not in enabled(ben_hand)
    await table.press(
        ben, ben_hand, next(b.code for b in buttons(ben_hand) if b.label == "Green Draw Two")
    )
    assert table.game.pending_draw == 4
    assert "4 cards pass on" in embed_text(table.public)


async def test_drawn_playable_card_can_be_played_or_kept(world: World) -> None:
    """After drawing a playable card the hand offers Play it and Keep it only."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["B1 B2", "G1 G2"], top="R3", draw="R8")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, "d")
    assert enabled(hand) == ["Play Red 8", "Keep it", "Refresh"]
    assert "You drew 🔴 Red 8" in embed_text(hand)
    await table.press(anna, hand, "k")
    assert table.game.current_player == table.game.players[1]
