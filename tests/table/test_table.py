"""The pure table: lobby rules, starting, moves, removals and timeouts, without Discord."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest

from bot.engine import Draw, IllegalMove, Phase, RuleSet
from bot.engine.players import is_computer
from bot.options import TableOptions
from bot.table import MAX_SEATS, Seat, TableError, TableState

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ANNA, BEN, CARA = 101, 102, 103


def lobby(**rules: object) -> TableState:
    """A lobby hosted by Anna."""
    return TableState(
        "t1", 1, 2, Seat(str(ANNA), "anna"), TableOptions(rules=RuleSet(**rules)), NOW
    )


@contextmanager
def refused(key: str, **params: str | int) -> Iterator[None]:
    """Expect a ``TableError`` with exactly this message key and these parameters."""
    with pytest.raises(TableError) as caught:
        yield
    assert (caught.value.key, caught.value.params) == (key, params)


def names(state: TableState) -> dict[str, str]:
    """Every seat's name, as the session passes them to the engine."""
    return {s.player_id: s.name for s in state.seats}


def started(*, ais: int = 0) -> TableState:
    """Anna and Ben (and ``ais`` computer players) dealt into a game."""
    state = lobby()
    state.join(BEN, "ben")
    for _ in range(ais):
        state.add_ai("easy")
    state.start(ANNA, 7, names(state))
    return state


def test_join_refuses_twice_and_a_full_table() -> None:
    """A person sits once; the eleventh seat is refused; nothing changes on a refusal."""
    state = lobby()
    state.join(BEN, "ben")
    with refused("lobby.join.already"):
        state.join(BEN, "ben")
    for n in range(MAX_SEATS - 2):
        state.join(200 + n, f"p{n}")
    before = [s.player_id for s in state.seats]
    with refused("lobby.full", max=MAX_SEATS):
        state.join(999, "late")
    with refused("lobby.full", max=MAX_SEATS):
        state.add_ai("easy")
    assert [s.player_id for s in state.seats] == before


def test_the_host_leaving_hands_the_lobby_to_the_next_person() -> None:
    """The first person left becomes host; computer players never host."""
    state = lobby()
    state.add_ai("normal")
    state.join(BEN, "ben")
    host = state.seat_of(ANNA)
    assert host is not None
    assert state.leave(host) is None
    assert state.host_id == BEN


def test_a_lobby_with_only_computer_players_left_closes() -> None:
    """When the last person leaves, the table says why it closes."""
    state = lobby()
    state.add_ai("normal")
    host = state.seat_of(ANNA)
    assert host is not None
    assert state.leave(host) == "lobby.closed.only_ai"


def test_only_the_host_starts_adds_or_drops_computer_players() -> None:
    """Start, Add AI and Remove AI are the host's; starting needs two players."""
    state = lobby()
    with refused("lobby.start.too_few", min=2):
        state.start(ANNA, 1, names(state))
    state.join(BEN, "ben")
    with refused("lobby.start.not_host", host="anna"):
        state.start(BEN, 1, names(state))
    with refused("lobby.ai.not_host"):
        state.host_adds_ai(BEN)
    with refused("lobby.ai.none"):
        state.drop_ai(ANNA)
    seat = state.host_adds_ai(ANNA)
    assert is_computer(seat.player_id) and seat.name == "Anna 🤖" and seat.ai == "normal"
    assert state.drop_ai(ANNA) == seat


def test_starting_deals_and_closes_the_lobby() -> None:
    """After Start the lobby's changes are refused and the serial has moved."""
    state = started(ais=1)
    assert state.game is not None and state.serial == 1
    assert state.timeouts_in_row == dict.fromkeys(state.game.players, 0)
    with refused("lobby.already_started"):
        state.join(CARA, "cara")
    with refused("lobby.already_started"):
        state.add_ai("easy")


def test_only_players_play_and_illegal_moves_change_nothing() -> None:
    """Someone not at the table is refused; an illegal move leaves the table as it was."""
    state = started()
    with refused("table.not_playing"):
        state.player(CARA)
    game = state.game
    assert game is not None
    waiting = next(p for p in game.players if p != game.current_player)
    revision = state.revision
    with pytest.raises(IllegalMove):
        state.play(waiting, Draw())
    assert state.revision == revision


def test_record_moves_the_serial_only_for_turn_moves() -> None:
    """A turn move moves the serial hand buttons carry; UNO calls and catches do not."""
    state = started()
    serial = state.serial
    state.record(["Ben called UNO!"], str(BEN), turn_move=False)
    assert state.serial == serial and list(state.log)[-1] == "Ben called UNO!"
    state.record(["Anna drew a card."], str(ANNA), turn_move=True)
    assert state.serial == serial + 1


def test_a_turn_is_due_only_at_its_own_serial_while_the_table_plays() -> None:
    """A timer's turn is due while nothing moved since it started; not in a lobby or once
    the table closed."""
    assert lobby().turn_due(0) is None
    state = started()
    game = state.game
    assert game is not None
    serial = state.serial
    assert state.turn_due(serial) == game.current_player
    assert state.turn_due(serial - 1) is None
    state.close()
    assert state.turn_due(serial) is None


def test_three_timeouts_in_a_row_remove_a_player() -> None:
    """The third timeout in a row takes the player out; the game then ends with one left."""
    state = started()
    game = state.game
    assert game is not None
    player = game.current_player
    assert player is not None
    state.timeouts_in_row[player] = 2
    events = state.timed_out(player, game.auto_play(player))
    assert player not in game.players
    assert any(type(event).__name__ == "PlayerRemoved" for event in events)
    assert game.phase is Phase.ABANDONED


def test_when_no_person_is_left_the_computer_players_leave_too() -> None:
    """Removing the last people ends the game instead of leaving computers to play alone."""
    state = started(ais=2)
    state.remove(str(BEN), "left")
    state.remove(str(ANNA), "left")
    game = state.game
    assert game is not None and game.phase is Phase.ABANDONED


def test_next_round_waits_for_the_round_to_end() -> None:
    """Next round is refused while a round is being played."""
    state = started()
    with refused("table.next.still_playing"):
        state.next_round()


def test_a_table_is_hosted_by_a_person() -> None:
    """A computer player cannot host."""
    with pytest.raises(ValueError, match="person"):
        TableState("t", 1, 2, Seat("ai1", "AI Anna (easy)", "easy"), TableOptions(), NOW)
