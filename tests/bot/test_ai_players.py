"""Computer players at the table: seating, playing, catching, delays and takeover."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from bot.ai import Strategy
from bot.client import UnoBot
from bot.computer_turns import ComputerTurns
from bot.config import Settings
from bot.engine import Move, Phase, PlayerView
from bot.engine.snapshot import dump_state

from .conftest import World
from .driver import TERMINAL, Table, buttons, embed_text, labels, rig


async def started_with_ais(world: World, people: int, ais: int, **options: Any) -> Table:
    """A classic game of ``people`` members and ``ais`` computer players, started."""
    table = Table(world, people)
    await table.open("uno classic start", ai=ais, **options)
    await table.players[0].click(table.public, label="Start")
    return table


async def person_plays_red_1_before_an_ai(
    world: World, difficulty: str = "hard"
) -> tuple[Table, str, str]:
    """A person (Red 1) and one computer player (R4 G2 G3) on Red 9: the person plays Red 1,
    so the AI's turn starts. Returns the table, the person and the AI."""
    table = await started_with_ais(world, 1, 1, ai_difficulty=difficulty)
    rig(table, ["R1 R2 R3", "R4 G2 G3"], top="R9", current=0)
    human, computer = table.game.players
    hand = await table.hand(human)
    await table.press(human, hand, next(b.code for b in buttons(hand) if b.label == "Red 1"))
    return table, human, computer


class BrokenStrategy:
    """A strategy with a bug: every decision raises."""

    difficulty = "hard"

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        raise RuntimeError("a bug in a strategy")

    def within(self, seconds: float) -> Strategy:
        return self


async def test_start_option_seats_computer_players(world: World) -> None:
    """/uno flip start ai:3 seats three clearly named computer players; the lobby shows their
    level."""
    await world.members[0].slash(world.channel, "uno flip start", ai=3, ai_difficulty="hard")
    text = embed_text(world.channel.last_message)
    assert "Players (4/10)" in text
    assert "2. Anna 🤖 (hard)" in text and "4. Cara 🤖 (hard)" in text


async def test_add_ai_button_is_for_the_host(world: World) -> None:
    """Add AI seats a computer player for the host and is refused to others."""
    table = Table(world, 2)
    await table.open()
    refused = await world.members[1].click(table.public, label="Add AI")
    assert "Only the host" in refused.response.content
    await world.members[0].click(table.public, label="Add AI")
    assert "Anna 🤖 (normal)" in embed_text(table.public)
    assert "Remove AI" in labels(table.public)
    await world.members[0].click(table.public, label="Remove AI")
    assert "Anna 🤖" not in embed_text(table.public)


async def test_ai_seats_count_toward_ten(world: World) -> None:
    """Computer players take seats: nine AIs and the host fill the table."""
    await world.members[0].slash(world.channel, "uno classic start", ai=9)
    refused = await world.members[1].click(world.channel.last_message, label="Join")
    assert "full" in refused.response.content


@pytest.mark.parametrize(
    "command", [pytest.param("uno flip start", marks=pytest.mark.slow), "uno classic start"]
)
async def test_one_human_and_three_ais_play_to_the_end(world: World, command: str) -> None:
    """A person and three computer players finish a whole match through the simulator."""
    table = Table(world, 1)
    await table.open(command, ai=3, ai_difficulty="hard", target=100)
    await table.players[0].click(table.public, label="Start")
    rng = random.Random(7)
    for _ in range(400):
        game = table.game
        if game.phase is Phase.MATCH_OVER:
            break
        if game.phase is Phase.ROUND_OVER:
            await table.players[0].click(table.public, label="Next round")
        elif not table.session.state.is_ai(game.current_player):
            await table.play_turn(rng)
        else:
            await world.env.settle()
    assert table.game.phase is Phase.MATCH_OVER
    assert "wins the game" in embed_text(table.public)


async def test_ai_waits_for_its_delay(world: World) -> None:
    """A computer player moves only after the configured delay."""
    world.bot.settings.ai_delay = 10.0
    table, _, _ = await person_plays_red_1_before_an_ai(world, "normal")
    await world.env.advance_time(9)
    assert table.game.current_player == table.game.players[1]
    await world.env.advance_time(2)
    assert table.game.current_player == table.game.players[0]


async def test_ai_stops_when_the_game_ends(world: World) -> None:
    """After /uno end no computer player moves any more."""
    world.bot.settings.ai_delay = 10.0
    table = await started_with_ais(world, 1, 2)
    before = dump_state(table.game)
    await table.players[0].slash(world.channel, "uno end")
    await world.env.advance_time(60)
    assert dump_state(table.game) == before


async def test_ai_catches_a_forgotten_uno(world: World) -> None:
    """A computer player catches a person who forgot UNO (catch rate 1 here)."""
    world.bot.settings.ai_catch_rate = 1.0
    table = await started_with_ais(world, 2, 1)
    rig(table, ["R5 R6", "G1 G2 G3", "Y1 Y2 Y3"], top="R3", current=0)
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    assert len(table.game.hands[0]) == 3
    assert "caught anna without UNO" in embed_text(table.public)


async def test_timeout_takeover_plays_a_card_instead_of_drawing(world: World) -> None:
    """With ai_takeover a timed-out player's turn is played by the normal AI."""
    table = Table(world, 2)
    await table.start("uno classic start", ai_takeover=True)
    rig(table, ["R5 R6 R7", "G1 G2 G3"], top="R3", current=0)
    await world.env.advance_time(61)
    assert len(table.game.hands[0]) == 2
    assert table.game.phase not in TERMINAL


async def test_a_failing_takeover_still_ends_the_timed_out_turn(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the takeover AI fails, the timed-out player draws as without takeover."""

    monkeypatch.setattr("bot.computer_turns.strategy_for", lambda *_: BrokenStrategy())
    table = Table(world, 2)
    await table.start("uno classic start", ai_takeover=True)
    rig(table, ["R5 R6 R7", "G1 G2 G3"], top="R3", current=0)
    await world.env.advance_time(61)
    assert len(table.game.hands[0]) == 4
    assert table.game.current_player == table.game.players[1]


async def test_remove_ai_mid_game_stops_its_pending_turn(world: World) -> None:
    """/uno remove-ai takes a computer player out while its turn is pending: it never moves."""
    world.bot.settings.ai_delay = 10.0
    table = await started_with_ais(world, 1, 2)
    rig(table, ["R1 R2 R3", "R4 G2 G3", "R5 Y2 Y3"], top="R9", current=0)
    human, removed, staying = table.game.players
    hand = await table.hand(human)
    await table.press(human, hand, next(b.code for b in buttons(hand) if b.label == "Red 1"))
    assert table.game.current_player == removed
    choices = await world.members[0].autocomplete(world.channel, "uno remove-ai", "name", "ann")
    assert [c["value"] for c in choices] == [removed]
    result = await table.players[0].slash(world.channel, "uno remove-ai", name=removed)
    assert result.ephemeral and "Anna 🤖 was removed" in result.response.content
    assert table.game.players == [human, staying]
    assert table.game.current_player == staying
    await world.env.advance_time(11)
    # Only the remaining computer player moved (its Red 5), once; then it is the human's turn.
    assert table.game.top_face().name() == "Red 5"
    assert table.game.current_player == human and table.game.phase not in TERMINAL
    assert "Anna 🤖 was removed by the host" in embed_text(table.public)


async def test_remove_ai_is_for_the_host_and_needs_a_computer_player(world: World) -> None:
    """Others are refused, an unknown name changes nothing, and the lobby loses the AI."""
    table = Table(world, 2)
    await table.open("uno flip start", ai=1)
    refused = await world.members[1].slash(world.channel, "uno remove-ai")
    assert "Only the host" in refused.response.content
    unknown = await world.members[0].slash(world.channel, "uno remove-ai", name="Zed")
    assert unknown.ephemeral and "No 'Zed' at this table" in unknown.response.content
    assert "Anna 🤖 (normal)" in embed_text(table.public)
    await world.members[0].slash(world.channel, "uno remove-ai")
    await world.env.settle()
    assert "Anna 🤖" not in embed_text(table.public)
    none_left = await world.members[0].slash(world.channel, "uno remove-ai")
    assert "There is no computer player at this table" in none_left.response.content


async def test_a_computer_players_turn_resumes_after_a_restart(
    world: World, settings: Settings
) -> None:
    """A restart while a hard computer player waits out its delay: it is still hard, and moves."""
    world.bot.settings.ai_delay = 10.0
    table, human, computer = await person_plays_red_1_before_an_ai(world)
    assert table.game.current_player == computer

    settings.ai_delay = 10.0
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    table.forget_session()
    seat = table.session.state.ai_seats[0]
    assert (seat.name, seat.ai) == ("Anna 🤖", "hard")
    await world.env.advance_time(9)
    assert table.game.current_player == computer
    await world.env.advance_time(2)
    assert table.game.top_face().name() == "Red 4"
    assert table.game.current_player == human


async def test_computer_players_think_off_the_event_loop(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision (up to 50 ms for hard) runs on the computer players' thread, not the loop's."""
    threads: list[threading.Thread] = []
    choose_strategy = ComputerTurns._strategy

    class Watched:
        def __init__(self, inner: Strategy) -> None:
            self.inner = inner
            self.difficulty = inner.difficulty

        def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
            threads.append(threading.current_thread())
            return self.inner.choose_move(view, rng)

        def within(self, seconds: float) -> Strategy:
            return Watched(self.inner.within(seconds))

    def watched(self: ComputerTurns, player: str) -> Any:
        return Watched(choose_strategy(self, player))

    monkeypatch.setattr(ComputerTurns, "_strategy", watched)
    table, _, _ = await person_plays_red_1_before_an_ai(world)
    await world.env.settle()
    assert table.game.top_face().name() == "Red 4"
    assert threads and all(t.name.startswith("ai") for t in threads)


async def test_a_failing_computer_player_takes_the_timeout_move_instead(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in a strategy never stalls the table: the AI's turn falls back to a draw."""

    monkeypatch.setattr(ComputerTurns, "_strategy", lambda *_: BrokenStrategy())
    table, human, computer = await person_plays_red_1_before_an_ai(world)
    await world.env.settle()
    assert table.game.current_player == human
    assert len(table.game.hand(computer)) == 4
    assert table.game.top_face().name() == "Red 1"


async def test_a_computer_player_removed_from_a_lobby_stays_out_after_a_restart(
    world: World, settings: Settings
) -> None:
    """/uno remove-ai in a lobby is saved like any other lobby change."""
    table = Table(world, 1)
    await table.open("uno flip start", ai=2)
    await world.members[0].slash(world.channel, "uno remove-ai", name="ai1")
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    table.forget_session()
    assert [s.name for s in table.session.state.ai_seats] == ["Ben 🤖"]
