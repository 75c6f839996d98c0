"""Saving follows the table's revision: every change through a public table method, made
under the session's lock, is saved when the lock is released, and a restart sees it."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest.mock import Mock

import pytest

from bot.config import Settings
from bot.engine import PlayCard, dumps
from bot.engine.notation import setup
from bot.options import TableOptions
from bot.persistence import Persistence, dump_lobby, session_snapshot
from bot.servers import ServerSettingsBook
from bot.sessions import GameSession, SessionManager
from bot.store import Store, open_store
from bot.table import Seat, TableState

ANNA, BEN, CARA, DAN = 101, 102, 103, 104
NOW = datetime(2026, 1, 1, tzinfo=UTC)
# Public methods that only read the table.
READERS = {"name", "seat_of", "seat_of_player", "is_ai", "in_game", "turn_due", "final_hands"}
READERS |= {"player"}
# Closing ends the table's rows instead of saving it (the restart tests show that); restoring
# builds a table from its saved parts.
ENDS = {"close", "restore"}
# Not saved: a restored game starts its turn timer afresh (and shows its deadline then).
UNSAVED = {"start_turn_timer"}


def changers() -> set[str]:
    """Every public table method and settable property: each is a way to change the table."""
    found = set()
    for name, member in inspect.getmembers(TableState):
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            if member.fset is not None:
                found.add(name)
        elif callable(member):
            found.add(name)
    return found - READERS - ENDS - UNSAVED


@pytest.fixture
async def store(tmp_path: Any) -> AsyncIterator[Store]:
    """A SQLite store in a temporary folder."""
    opened = await open_store(f"sqlite:///{tmp_path / 'uno.db'}")
    yield opened
    await opened.close()


def saved_form(table: TableState) -> str:
    """Everything of a table that a restart brings back."""
    if table.game is None:
        return dump_lobby(table)
    return session_snapshot(table).model_dump_json() + dumps(table.game)


async def restored(store: Store) -> TableState:
    """The one table saved in ``store``, as a restarted bot restores it."""
    persistence = Persistence(store)
    saved = await persistence.read_saved()
    tables = [persistence.restore_game(live) for live in saved.games]
    tables += [persistence.restore_lobby(row) for row in saved.lobbies]
    assert len(tables) == 1 and tables[0] is not None
    return tables[0]


async def test_every_change_under_the_lock_is_saved(store: Store, settings: Settings) -> None:
    """A change through each public table method, with nothing else to save it, reaches the
    store when the lock is released: a restart restores the table exactly as it was."""
    manager = SessionManager(Mock(), settings, Persistence(store), ServerSettingsBook(store))
    state = TableState("abc123", 9, 42, Seat(str(ANNA), "anna"), TableOptions(), NOW)
    session = GameSession(manager, state)
    session.public_messages = Mock()  # the release's redraw request goes nowhere
    covered: set[str] = set()

    async def change(name: str, make: Callable[[], Any]) -> None:
        async with session.lock:
            make()
        assert await session.saved(timeout=None)
        assert saved_form(await restored(store)) == saved_form(state), name
        covered.add(name)

    def set_attribute(name: str, value: Any) -> Callable[[], None]:
        return lambda: setattr(state, name, value)

    await change("message_id", set_attribute("message_id", 555))
    await change("join", lambda: state.join(BEN, "ben"))
    await change("seat", lambda: state.seat(Seat(str(CARA), "cara")))
    await change("add_ai", lambda: state.add_ai("easy"))
    await change("drop_ai", lambda: state.drop_ai(ANNA))
    await change("host_adds_ai", lambda: state.host_adds_ai(ANNA))
    await change("leave", lambda: state.leave(state.ai_seats[0]))
    await change("lobby_idle_until", set_attribute("lobby_idle_until", NOW + timedelta(hours=1)))
    names = {str(p): n for p, n in ((ANNA, "anna"), (BEN, "ben"), (CARA, "cara"))}
    await change("start", lambda: state.start(ANNA, 7, names))
    game = state.game
    assert game is not None
    current = game.current_player
    assert current is not None
    await change("play", lambda: state.play(current, game.legal_moves(current)[0]))
    waiting = game.current_player  # the next player's turn times out
    assert waiting is not None
    await change("auto_play", lambda: state.auto_play(waiting))
    await change("record", lambda: state.record(["a line"], current, turn_move=True))
    await change("note", lambda: state.note("another line"))
    await change("reminder_id", set_attribute("reminder_id", 777))
    await change("thread_id", set_attribute("thread_id", 888))
    await change("timed_out", lambda: state.timed_out(str(BEN), []))
    await change("remove", lambda: state.remove(str(CARA), "left"))
    # One card left for Anna on a matching top card: her play ends the round.
    players = list(game.players)
    rigged = setup({players[0]: "R5", players[1]: "G1 G2"}, "R9", rules=game.rules)
    rigged.set_names({p: state.name(p) for p in players})
    state.game = rigged
    await change("play", lambda: state.play(players[0], PlayCard(rigged.hands[0][0])))
    await change("next_round", state.next_round)
    assert covered == changers(), "a new way to change the table needs its line here"


async def test_the_lock_release_redraws_when_a_shown_change_was_made(
    store: Store, settings: Settings
) -> None:
    """Releasing the lock requests one update of the public message when a change it shows
    was made, none for the message ids or the lobby's idle deadline, and none when the
    answer on its way shows the table itself."""
    manager = SessionManager(Mock(), settings, Persistence(store), ServerSettingsBook(store))
    state = TableState("abc123", 9, 42, Seat(str(ANNA), "anna"), TableOptions(), NOW)
    session = GameSession(manager, state)
    public = session.public_messages = Mock(shows_closed=False)
    requests = public.request_update

    async def requested(make: Callable[[], Any], *, answered: bool = False) -> int:
        requests.reset_mock()
        async with session.lock:
            make()
            if answered:
                session.shown_by_the_answer()
        return int(requests.call_count)

    assert await requested(lambda: state.join(BEN, "ben")) == 1
    assert await requested(lambda: state.note("one", "two")) == 1
    assert await requested(lambda: setattr(state, "message_id", 555)) == 0
    assert await requested(lambda: setattr(state, "reminder_id", 777)) == 0
    later = NOW + timedelta(hours=1)
    assert await requested(lambda: setattr(state, "lobby_idle_until", later)) == 0
    assert await requested(lambda: state.host_adds_ai(ANNA), answered=True) == 0
    assert await requested(lambda: None) == 0
