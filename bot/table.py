"""The table of one channel, as plain data: seats, host, rules, the lobby's options, the game.

``TableState`` is pure like the engine (no Discord, no asyncio, no I/O): the session owns the
lock, the timers and the messages, and asks the table for every change. A change either
returns what happened (engine events) or raises ``TableError`` with the message key (and its
parameters) to say to the person who asked, and the state is then untouched. The table holds
no words: the session says each key in its reader's language.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.engine import Face, Game, Move, Phase, RuleSet
from bot.engine import events as ev
from bot.engine.game import TERMINAL_PHASES
from bot.engine.players import Difficulty, computer_id, is_computer
from bot.engine.replay import MoveLog
from bot.engine.variants import variant as variant_entry
from bot.options import MAX_SEATS as MAX_SEATS  # declared with the options (start's ``ai``)
from bot.options import TableOptions

LOG_LINES = 6
TIMEOUTS_BEFORE_REMOVAL = 3
AI_NAMES = ("Anna", "Ben", "Cara", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo")


class TableError(Exception):
    """A request the table refuses: a message key (``lobby.join.already``) and its parameters,
    said in the reader's language where the refusal is answered."""

    def __init__(self, key: str, /, **params: str | int) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def english_ai_name(first_name: str) -> str:
    """A computer player's seat name when no language is given: "Cara 🤖"."""
    return f"{first_name} 🤖"


@dataclass(slots=True)
class Seat:
    """Someone at the table: a Discord user (id as text) or a computer player."""

    player_id: str
    name: str
    ai: Difficulty | None = None

    @property
    def user_id(self) -> int | None:
        """The Discord user id, or None for a computer player."""
        return None if self.ai else int(self.player_id)


@dataclass(frozen=True, slots=True)
class SavedTable:
    """A table's saved parts, as persistence reads them back (``TableState.restore``)."""

    session_id: str
    guild_id: int | None
    channel_id: int
    host_id: int
    options: TableOptions
    seats: Sequence[Seat]
    message_id: int | None
    lobby_idle_until: datetime
    serial: int = 0
    log: Sequence[str] = ()
    timeouts_in_row: Mapping[str, int] = field(default_factory=dict)
    reminder_id: int | None = None
    # The running match's move log (None: a lobby, or a save made before the log existed).
    moves: MoveLog | None = None
    # The thread of ``channel_id`` the game is played in (None: the channel itself).
    thread_id: int | None = None


class TableState:
    """A lobby that becomes a game: everything about a channel's table that is saved."""

    def __init__(
        self,
        session_id: str,
        guild_id: int | None,
        channel_id: int,
        host: Seat,
        options: TableOptions,
        lobby_idle_until: datetime,
    ) -> None:
        """A new lobby with its host seated, started with ``options``."""
        if host.user_id is None:
            raise ValueError("a table is hosted by a person")
        self._take(
            SavedTable(
                session_id,
                guild_id,
                channel_id,
                host.user_id,
                options,
                [host],
                None,
                lobby_idle_until,
            )
        )

    @classmethod
    def restore(cls, saved: SavedTable, game: Game | None = None) -> TableState:
        """The table as it was saved (a lobby, or with its running ``game``): the one way
        back from the store."""
        if all(seat.user_id is None for seat in saved.seats):
            raise ValueError("a table is hosted by a person")
        table = cls.__new__(cls)
        table._take(saved, game)
        return table

    def _take(self, saved: SavedTable, game: Game | None = None) -> None:
        """Every attribute, set once, from a table's parts (a new lobby's, or a save's)."""
        self.id = saved.session_id
        self.guild_id = saved.guild_id
        self.channel_id = saved.channel_id
        self.host_id = saved.host_id
        # Everything the table was started with (rules, timers, language, look), fixed when
        # the lobby opened: a later change of the server's settings never alters it.
        self.options = saved.options
        # Moves on with every change (each method below, each setter): the session saves the
        # table when it moved, and a failed click can tell whether it changed anything.
        self.revision = 0
        # Moves with every change the public message shows (all but the message ids and the
        # lobby's idle deadline): the session redraws the table when it moved.
        self.public_revision = 0
        self.seats: list[Seat] = list(saved.seats)  # the host wherever they sat
        self.game: Game | None = game
        self._message_id = saved.message_id
        # The message that pinged the person whose turn is running late (deleted when it ends).
        self._reminder_id = saved.reminder_id
        self.serial = saved.serial
        # When the running turn's timer fires (wall-clock, with the serial of the turn it was
        # started for); not saved, since a restored game starts its timer afresh.
        self._turn_deadline: tuple[int, datetime] | None = None
        self.log: deque[str] = deque(saved.log, maxlen=LOG_LINES)
        # What the last turn move did (its engine events), for the picture's "+2" and skip
        # marks; not saved (a restored table shows them again from its next move).
        self.last_events: tuple[ev.Event, ...] = ()
        self.timeouts_in_row: dict[str, int] = dict(saved.timeouts_in_row)
        self._closed = False
        # Wall-clock, not loop time: it is saved with the lobby and must mean the same instant
        # to the process that restores it.
        self._lobby_idle_until = saved.lobby_idle_until
        self._names: dict[str, str] = {seat.player_id: seat.name for seat in saved.seats}
        # The match's seed and every change made to it, for the history's replays (None: a
        # lobby, or a game restored from a save older than the log, kept unreplayable).
        self.moves: MoveLog | None = saved.moves
        # The thread the game went on in (the lobby stays in ``channel_id``); None: the channel.
        self._thread_id = saved.thread_id

    @property
    def rules(self) -> RuleSet:
        """The rules of the game (the variant's, with its options)."""
        return self.options.rules

    # ------------------------------------------------------------------ what a change sets

    @property
    def message_id(self) -> int | None:
        """The public message (lobby, then table), once posted."""
        return self._message_id

    @message_id.setter
    def message_id(self, message_id: int | None) -> None:
        self._message_id = message_id
        self._moved(shown=False)

    @property
    def reminder_id(self) -> int | None:
        """The turn reminder still up, if any."""
        return self._reminder_id

    @reminder_id.setter
    def reminder_id(self, message_id: int | None) -> None:
        self._reminder_id = message_id
        self._moved(shown=False)

    @property
    def thread_id(self) -> int | None:
        """The thread of the channel the game is played in, if it moved to one."""
        return self._thread_id

    @thread_id.setter
    def thread_id(self, thread_id: int | None) -> None:
        self._thread_id = thread_id
        self._moved()

    @property
    def posts_in(self) -> int:
        """Where the public messages go: the game's thread, else the channel."""
        return self._thread_id or self.channel_id

    @property
    def lobby_idle_until(self) -> datetime:
        """When an open lobby nobody starts closes (wall-clock)."""
        return self._lobby_idle_until

    @lobby_idle_until.setter
    def lobby_idle_until(self, when: datetime) -> None:
        self._lobby_idle_until = when
        self._moved(shown=False)

    @property
    def closed(self) -> bool:
        """Whether the table is closed (its session is over)."""
        return self._closed

    def _moved(self, *, shown: bool = True) -> None:
        """Move the revision (the session saves the table); ``shown``: a change the public
        message shows (the session also redraws it)."""
        self.revision += 1
        if shown:
            self.public_revision += 1

    def close(self) -> None:
        """Close the table for good."""
        self._closed = True
        self._moved()

    def note(self, *lines: str) -> None:
        """Add lines to the table's log (already in the table's language)."""
        self.log.extend(lines)
        self._moved()

    # ------------------------------------------------------------------ facts

    def name(self, player: str) -> str:
        """The name of an engine player id as chosen (escape it where markdown renders)."""
        return self._names.get(player, player)

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat of a Discord user, if they are at this table."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat_of_player(self, player: str) -> Seat | None:
        """The seat of an engine player id, if it is at this table."""
        return next((s for s in self.seats if s.player_id == player), None)

    def is_ai(self, player: str | None) -> bool:
        """Whether an engine player id belongs to a computer player."""
        return is_computer(player)

    @property
    def started(self) -> bool:
        """Whether the lobby became a game."""
        return self.game is not None

    @property
    def humans_in_game(self) -> list[str]:
        """The human players still in the running game."""
        return [p for p in self.game.players if not is_computer(p)] if self.game else []

    @property
    def ai_seats(self) -> list[Seat]:
        """Computer players still at the table: lobby seats, or those left in the game."""
        ais = [s for s in self.seats if s.ai]
        if self.game is None:
            return ais
        return [s for s in ais if s.player_id in self.game.players]

    def in_game(self, user_id: int) -> bool:
        """Whether the user is still playing in the running game."""
        return self.game is not None and str(user_id) in self.game.players

    @property
    def round_over(self) -> bool:
        """Whether the game waits between rounds, or is over (no turn is being played)."""
        return self.game is not None and self.game.phase in TERMINAL_PHASES

    def turn_due(self, serial: int) -> str | None:
        """The player whose turn a timer started at ``serial`` is still for, if any."""
        if self.closed or self.game is None or serial != self.serial or self.round_over:
            return None
        return self.game.current_player

    def start_turn_timer(self, ends: datetime | None) -> None:
        """Say when the running turn's timer fires (None: no timer runs, as for a computer)."""
        self._turn_deadline = None if ends is None else (self.serial, ends)

    @property
    def turn_deadline(self) -> datetime | None:
        """When the running turn's timer fires, if one runs for the turn being played now."""
        if self._turn_deadline is None or self._turn_deadline[0] != self.serial:
            return None
        return None if self.round_over else self._turn_deadline[1]

    def final_hands(self) -> list[tuple[str, list[Face], int]]:
        """Every seated player's hand faces and points on the side the round ended on."""
        game = self._game()
        return [
            (p, [game.face(c) for c in game.hands[s]], game.hand_points(p))
            for s, p in enumerate(game.players)
        ]

    def _game(self) -> Game:
        if self.game is None:
            raise TableError("table.not_started")
        return self.game

    # ------------------------------------------------------------------ the lobby

    def _lobby(self) -> None:
        if self.game is not None:
            raise TableError("lobby.already_started")

    def _room_for_one_more(self) -> None:
        most = variant_entry(self.rules.variant).max_players
        if len(self.seats) >= most:
            raise TableError("lobby.full", max=most)

    def seat(self, seat: Seat) -> None:
        """Seat a player (a restored seat, or a join that was checked already)."""
        self.seats.append(seat)
        self._names[seat.player_id] = seat.name
        self._moved()

    def join(self, user_id: int, name: str) -> Seat:
        """A person takes a seat in the lobby."""
        self._lobby()
        if self.seat_of(user_id) is not None:
            raise TableError("lobby.join.already")
        self._room_for_one_more()
        seat = Seat(str(user_id), name)
        self.seat(seat)
        return seat

    def leave(self, seat: Seat) -> str | None:
        """Take a player out of the lobby; the message key of why the lobby closes with them,
        or None.

        A new host is the first person left when the host goes.
        """
        self._lobby()
        self.seats.remove(seat)
        self._moved()
        if not self.seats:
            return "lobby.closed.empty"
        humans = [s for s in self.seats if s.user_id is not None]
        if not humans:
            return "lobby.closed.only_ai"
        if seat.user_id == self.host_id:
            assert humans[0].user_id is not None
            self.host_id = humans[0].user_id
        return None

    def _hosted_by(self, user_id: int, refusal: str, **params: str | int) -> None:
        if user_id != self.host_id:
            raise TableError(refusal, **params)

    def add_ai(self, difficulty: Difficulty, namer: Callable[[str], str] = english_ai_name) -> Seat:
        """Seat a computer player with a clear name such as "Cara 🤖" (``namer`` says it in
        the table's language; the seat keeps the level)."""
        self._lobby()
        self._room_for_one_more()
        taken = {s.player_id for s in self.seats}
        number = next(n for n in range(1, MAX_SEATS + 1) if computer_id(n) not in taken)
        seat = Seat(computer_id(number), namer(AI_NAMES[number - 1]), difficulty)
        self.seat(seat)
        return seat

    def host_adds_ai(self, user_id: int, namer: Callable[[str], str] = english_ai_name) -> Seat:
        """The host's Add AI: one computer player of the lobby's difficulty."""
        self._lobby()
        self._hosted_by(user_id, "lobby.ai.not_host")
        return self.add_ai(self.options.ai_difficulty, namer)

    def drop_ai(self, user_id: int, seat: Seat | None = None) -> Seat:
        """The host takes a computer player out of the lobby (the one added last by default)."""
        self._lobby()
        self._hosted_by(user_id, "lobby.ai.not_host")
        ais = self.ai_seats
        if not ais:
            raise TableError("lobby.ai.none")
        chosen = ais[-1] if seat is None else seat
        self.seats.remove(chosen)
        self._moved()
        return chosen

    def start(self, user_id: int, seed: int, names: dict[str, str]) -> list[ev.Event]:
        """The host deals the first round with the seated players (``names`` as shown)."""
        self._lobby()
        self._hosted_by(user_id, "lobby.start.not_host", host=names[str(self.host_id)])
        least = variant_entry(self.rules.variant).min_players
        if len(self.seats) < least:
            raise TableError("lobby.start.too_few", min=least)
        players = [s.player_id for s in self.seats]
        self.game, events = Game.start(players, self.rules, seed, names=names)
        self.moves = MoveLog(tuple(players), seed)
        self._moved()
        self.serial += 1
        self.log.clear()
        self.timeouts_in_row = dict.fromkeys(players, 0)
        return events

    # ------------------------------------------------------------------ the game

    def player(self, user_id: int) -> str:
        """The engine id of a user playing in the running game."""
        game = self._game()
        player = str(user_id)
        if player not in game.players:
            raise TableError("table.not_playing")
        return player

    def play(self, player: str, move: Move) -> list[ev.Event]:
        """Apply a move; the engine's IllegalMove (with its sentence) leaves everything as is."""
        events = self._game().apply(player, move)
        if self.moves is not None:
            self.moves.move(player, move, events)
        self._moved()
        return events

    def auto_play(self, player: str) -> list[ev.Event]:
        """Play ``player``'s timed-out turn for them (the engine's timeout moves)."""
        events = self._game().auto_play(player)
        if self.moves is not None:
            self.moves.auto_play(player, events)
        self._moved()
        return events

    def _remove_player(self, game: Game, player: str, reason: str) -> list[ev.Event]:
        events = game.remove_player(player, reason)
        if self.moves is not None:
            self.moves.removed(player, reason, events)
        return events

    def record(
        self,
        lines: Iterable[str],
        actor: str | None,
        *,
        turn_move: bool,
        events: Iterable[ev.Event] = (),
    ) -> None:
        """Log what happened; a turn move moves the serial that hand buttons carry and becomes
        the last move shown (``events``)."""
        self._moved()
        self.log.extend(lines)
        if actor is not None:
            self.timeouts_in_row[actor] = 0
        if turn_move:
            self.serial += 1
            self.last_events = tuple(events)

    def next_round(self) -> list[ev.Event]:
        """Deal the next round after one has been scored."""
        game = self._game()
        if game.phase is not Phase.ROUND_OVER:
            raise TableError("table.next.still_playing")
        events = game.start_next_round()
        if self.moves is not None:
            self.moves.next_round()
        self._moved()
        self.log.clear()
        self.last_events = ()
        self.serial += 1
        return events

    def remove(self, player: str, reason: str) -> list[ev.Event]:
        """Take a player out of the running game; when no person is left, the computer
        players leave too and the game ends."""
        game = self._game()
        events = self._remove_player(game, player, reason)
        if not self.humans_in_game and game.phase is not Phase.ABANDONED:
            for ai in list(game.players)[:-1]:
                events += self._remove_player(game, ai, "left: no people are playing any more")
        self._moved()
        return events

    def timed_out(self, player: str, events: list[ev.Event]) -> list[ev.Event]:
        """Count a timeout (``events``: the move made for the player); the third in a row
        removes them. Returns every event."""
        game = self._game()
        count = self.timeouts_in_row.get(player, 0) + 1
        if count >= TIMEOUTS_BEFORE_REMOVAL and game.phase not in TERMINAL_PHASES:
            events += self._remove_player(game, player, "was removed after 3 timeouts in a row")
        self.timeouts_in_row[player] = count
        self._moved()
        return events
