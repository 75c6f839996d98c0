"""The table and hand read short on a phone (issue 15): line budgets, "Anna 🤖", UNO! only near
the end, the deal's draw, the stakes and verdict of a challenge, endings that say what happened."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.engine import Phase
from bot.ui.render import embed_lines

from .conftest import World
from .driver import Table, buttons, embed_text, enabled, labels, rig, wild_draw_four_on_ben


def lines_seen(message: object) -> int:
    """The lines of the message's embed as a player sees them."""
    embed = message.embeds[0]  # type: ignore[attr-defined]
    return embed_lines(
        embed if isinstance(embed, discord.Embed) else discord.Embed.from_dict(embed)
    )


def description(message: object) -> str:
    """The embed's description (the hand's body)."""
    embed = message.embeds[0]  # type: ignore[attr-defined]
    data = embed if isinstance(embed, dict) else embed.to_dict()
    return str(data.get("description", ""))


def footer(message: object) -> str:
    """The embed's footer text."""
    embed = message.embeds[0]  # type: ignore[attr-defined]
    data = embed if isinstance(embed, dict) else embed.to_dict()
    return str(data.get("footer", {}).get("text", ""))


async def test_a_four_player_flip_table_fits_twelve_lines(world: World) -> None:
    """Four players: top card, colour, direction, everyone's count and backs, whose turn and the
    last events, in at most 12 lines, at every turn of a few played by clicks."""
    table = Table(world, 4)
    await table.start()
    rng = random.Random(4)
    for _ in range(6):
        if table.game.phase is not Phase.PLAY:
            break
        text = embed_text(table.public)
        assert lines_seen(table.public) <= 12, text
        assert "Top card:" in text and "Colour:" in text and "clockwise" in text
        assert text.count(" cards · backs: ") == 4 and "Last events" in text
        current = table.game.current_player
        assert current is not None and f"▶ {table.session.name(current)} — " in text
        await table.play_turn(rng)


async def test_a_ten_player_table_fits_eighteen_lines_and_draws_for_the_deal_in_one_line(
    world: World,
) -> None:
    """Ten players: at most 18 lines; the deal's draw is one short line that says why."""
    table = Table(world, 10)
    await table.start("uno classic start")
    assert lines_seen(table.public) <= 18
    assert embed_text(table.public).count(" cards") >= 10
    deal = [line for line in table.session.state.log if "choose the dealer" in line]
    assert len(deal) == 1 and len(deal[0]) <= 100
    assert deal[0].startswith("Everyone drew a card to choose the dealer: ")
    await table.play_turn(random.Random(10))
    assert lines_seen(table.public) <= 18


async def test_computer_players_are_named_with_a_robot_and_their_level_stays_in_the_lobby(
    world: World,
) -> None:
    """ "Anna 🤖" at the table and in its events; "(normal)" only in the lobby."""
    await world.members[0].slash(world.channel, "uno classic start", ai=2)
    lobby = embed_text(world.channel.last_message)
    assert "2. Anna 🤖 (normal)" in lobby and "3. Ben 🤖 (normal)" in lobby
    await world.members[0].click(world.channel.last_message, label="Start")
    await world.env.settle()
    text = embed_text(world.channel.last_message)
    assert "Anna 🤖 — " in text and "Ben 🤖 — " in text
    assert "AI " not in text and "(normal)" not in text


async def test_uno_button_appears_once_someone_holds_two_cards(world: World) -> None:
    """The table offers UNO! only while a player is down to two cards or fewer."""
    table = Table(world, 3)
    await table.start("uno classic start")
    assert "UNO!" not in labels(table.public)
    rig(table, ["R5 R6 R7", "G1 G2 G3", "Y1 Y2 Y3"], top="R3")
    await table.redraw()
    assert "UNO!" not in labels(table.public)
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    assert labels(table.public)[:2] == ["Hand", "UNO!"]


async def test_before_a_challenge_the_hand_shows_the_stakes_and_no_stacking(world: World) -> None:
    """Stacking off: "accept it or challenge it" and what each side would draw."""
    table = await wild_draw_four_on_ben(world, "W+4 R7 B2")
    ben = table.game.players[1]
    hand = await table.hand(ben)
    body = description(hand)
    assert "A draw card is on you: accept it or challenge it." in body
    assert "stack" not in embed_text(hand) and "stack" not in embed_text(table.public)
    assert "If anna bluffed, they draw 4; if not, you draw 6." in body
    assert "**ben** must answer: draw 4 or challenge." in embed_text(table.public)


async def test_with_stacking_on_the_prompt_offers_stacking(world: World) -> None:
    """Stacking on, and a Wild Draw Four to stack: the prompt says so."""
    table = await wild_draw_four_on_ben(world, "W+4 R7 B2", "G1 W+4 G3", stacking=True)
    ben = table.game.players[1]
    hand = await table.hand(ben)
    assert "accept it, challenge it or stack." in description(hand)
    assert "Wild Draw Four" in enabled(hand)
    assert "**ben** must answer: draw 4, challenge or stack." in embed_text(table.public)


async def test_the_verdict_and_the_revealed_hand_are_in_the_body(world: World) -> None:
    """After a challenge the hand's body (not its footer) says the verdict and shows the hand."""
    table = await wild_draw_four_on_ben(world, "W+4 R7 B2")
    ben = table.game.players[1]
    hand = await table.hand(ben)
    await table.press(ben, hand, "x")
    body = description(hand)
    assert "anna bluffed. Their hand: " in body and "Red 7" in body and "Blue 2" in body
    assert footer(hand) == ""


async def anna_goes_out_with_red_5(world: World, ben_hand: str) -> tuple[Table, Any]:
    """A 2-player classic round Anna ends by playing her last card, a Red 5; the table and
    her hand message."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5", ben_hand], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    return table, hand


async def test_classic_round_end_says_nothing_about_sides(world: World) -> None:
    """A classic round's result has no "light side" line (and no blank rows: see conftest)."""
    table, _ = await anna_goes_out_with_red_5(world, "G1 G2 G3")
    text = embed_text(table.public)
    assert "went out" in text
    assert "side" not in text


async def test_the_player_who_goes_out_sees_their_points(world: World) -> None:
    """Going out answers "You went out! +N points" with the round's real points."""
    table, hand = await anna_goes_out_with_red_5(world, "G1 G2 G9")
    anna = table.game.players[0]
    result = table.game.history[-1]
    assert result.awarded[anna] == 12
    assert "You went out! +12 points" in embed_text(hand)
    assert hand.components == []


async def test_uno_end_keeps_the_final_standings(world: World) -> None:
    """/uno end after a scored round shows the standings under "Game ended"."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5", "G1 G2 G9"], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.members[0].slash(world.channel, "uno end")
    text = embed_text(table.public)
    assert "Game ended" in text and "anna ended the game." in text
    assert "Scores (to 500)" in text and "anna: 12" in text and "ben: 0" in text
    assert labels(table.public) == []


async def test_the_hand_lists_its_cards_once_as_buttons(world: World) -> None:
    """The hand's text holds no card list: two Red 5s are one button, labelled times two."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R5 G7 B2", "G1 G2 G3"], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    assert "Red 5 ×2" in enabled(hand) and "Green 7" in labels(hand)
    body = description(hand)
    assert "Green 7" not in body and "Blue 2" not in body
    assert body.count("\n") <= 2  # what to do now, and the top card
    assert lines_seen(hand) <= 4


async def test_during_a_colour_choice_the_whole_hand_stays_in_view(world: World) -> None:
    """Choosing a colour puts the colours first and keeps every card visible (disabled)."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["W R7 B2", "G1 G2 G3"], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Wild"))
    assert labels(hand)[:4] == ["Red", "Yellow", "Green", "Blue"]
    assert "Red 7" in labels(hand) and "Blue 2" in labels(hand)
    assert "Red 7" not in enabled(hand)


async def test_every_card_of_a_long_hand_is_on_some_page(world: World) -> None:
    """44 cards page through the buttons; each distinct card is on one of the pages."""
    table = Table(world, 2)
    await table.start("uno classic start")
    many = " ".join(f"{c}{n}" for c in "RYGB" for n in range(10)) + " W W W W"
    game = rig(table, [many, "RS"], top="R3")
    anna = game.players[0]
    hand = await table.hand(anna)
    seen: set[str] = set()
    for _ in range(5):
        seen |= set(labels(hand))
        forward = next(b for b in buttons(hand) if b.label == "▶")
        if forward.disabled:
            break
        await table.press(anna, hand, forward.code)
    colours = ("Red", "Yellow", "Green", "Blue")
    wanted = {f"{c} {n}" for c in colours for n in range(10)} | {"Wild ×4"}
    assert wanted <= seen
