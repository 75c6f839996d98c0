"""The game: state, legal moves, applying moves, rounds and the match to the target.

The state is plain Python (lists of card indices, ints, enums) so the hot path stays cheap;
pydantic only validates the JSON snapshot at the boundary. Readers of the state live beside it
and import this module, never the reverse: ``view.py`` (``view_for``, what one player may know)
and ``snapshot.py`` (``dumps``/``loads``, the saved JSON). Every random choice comes from the
seeded generator kept in the state (``rng.py``), so a seed plus the moves replays a game exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import NamedTuple

from . import events as ev
from .cards import (
    DRAW_AMOUNT,
    DRAW_WILD_KINDS,
    KIND_NAMES,
    STACK_VALUE,
    Card,
    Color,
    Face,
    Kind,
    Side,
)
from .decks import deck_for
from .moves import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    PASS,
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Move,
    Pass,
    PlayCard,
    SwapWith,
    TargetDraw,
)
from .rng import CompactRandom
from .rules import RuleSet
from .variants import Variant
from .variants import variant as variant_entry

# Fewer players than this and a game cannot go on (every variant needs two).
MIN_PLAYERS = 2
UNO_PENALTY = 2
# An innocent challenger draws the penalty plus this many (classic: 4 + 2, Flip: 2 + 2).
CHALLENGE_EXTRA = 2
# What All Wild's Wild Targeted Draw Two makes its target draw.
TARGETED_DRAW = 2


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message is a sentence for the player."""


NOT_PLAYING = "You are not playing in this game."


class Phase(StrEnum):
    """What the game is waiting for."""

    PLAY = "play"  # the current player plays or draws
    DRAWN = "drawn"  # the current player drew a playable card: play it or keep it
    CHOOSE_COLOR = "choose_color"  # the current player names a colour for a wild
    PENALTY = "penalty"  # the current player answers a draw card: accept, challenge or stack
    SWAP_TARGET = "swap_target"  # the current player picks whose hand to swap with
    DRAW_TARGET = "draw_target"  # All Wild: the current player picks who draws two
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"
    ABANDONED = "abandoned"


class AfterColor(StrEnum):
    """What happens once the pending colour is named."""

    NEXT_TURN = "next_turn"  # a plain wild: the next player's turn
    SAME_PLAYER = "same_player"  # a wild turned up at the start: the first player now plays
    PENALTY = "penalty"  # a draw-wild: the next player answers the penalty
    FINAL_DRAW = "final_draw"  # a last-card Wild Draw Color: the next player draws, round ends
    ROULETTE = "roulette"  # No Mercy: the Roulette's victim named it, now reveals until it


TERMINAL_PHASES = frozenset({Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.ABANDONED})
GAME_OVER_PHASES = frozenset({Phase.MATCH_OVER, Phase.ABANDONED})
CHOICE_PHASES = frozenset({Phase.CHOOSE_COLOR, Phase.SWAP_TARGET, Phase.DRAW_TARGET})

# Python 3.11 finds an enum member on its class slowly (``Phase.PLAY`` costs ~0.1 µs, ten times a
# module global), and the move loop tests phases and card kinds several times per move, so the
# methods on that path compare against these aliases instead.
_PLAY, _DRAWN, _PENALTY = Phase.PLAY, Phase.DRAWN, Phase.PENALTY
_CHOOSE_COLOR, _SWAP_TARGET, _DRAW_TARGET = Phase.CHOOSE_COLOR, Phase.SWAP_TARGET, Phase.DRAW_TARGET
_NUMBER, _SKIP, _REVERSE, _FLIP = Kind.NUMBER, Kind.SKIP, Kind.REVERSE, Kind.FLIP
_SKIP_EVERYONE, _WILD_SHUFFLE_HANDS, _WILD_SWAP_HANDS = (
    Kind.SKIP_EVERYONE,
    Kind.WILD_SHUFFLE_HANDS,
    Kind.WILD_SWAP_HANDS,
)
_NEXT_TURN, _SAME_PLAYER = AfterColor.NEXT_TURN, AfterColor.SAME_PLAYER
_PENALTY_NEXT = AfterColor.PENALTY

PlayableKey = tuple[Side, Color | None, int]
# Moves are immutable values, so the colour choices are shared like the PlayCard moves.


class _PlayableSets(dict[PlayableKey, frozenset[int]]):
    """The cards playable on each (side, colour in play, top card), worked out on first use.

    A pure function of the deck, so every game played with it (and their copies) shares one. A
    dict subclass so that the move loop's lookup is one subscript: ``__missing__`` fills a gap.
    """

    __slots__ = ("_by_color", "_by_symbol", "_faces", "_wilds")

    def __init__(self, faces: tuple[tuple[Face, ...], tuple[Face, ...]]) -> None:
        super().__init__()
        self._faces = faces
        # Per side: the wilds, the cards of each colour and the cards of each symbol, so a new
        # combination is three set unions rather than a test of every card in the deck.
        self._wilds: list[frozenset[int]] = []
        self._by_color: list[dict[Color | None, frozenset[int]]] = []
        self._by_symbol: list[dict[tuple[Kind, int | None], frozenset[int]]] = []
        for side in faces:
            by_color: dict[Color, set[int]] = {}
            by_symbol: dict[tuple[Kind, int | None], set[int]] = {}
            for card, face in enumerate(side):
                if face.color is not None:
                    by_color.setdefault(face.color, set()).add(card)
                by_symbol.setdefault((face.kind, face.number), set()).add(card)
            self._wilds.append(frozenset(c for c, face in enumerate(side) if face.color is None))
            colors: dict[Color | None, frozenset[int]] = {
                c: frozenset(s) for c, s in by_color.items()
            }
            self._by_color.append(colors)
            self._by_symbol.append({symbol: frozenset(s) for symbol, s in by_symbol.items()})

    def __missing__(self, key: PlayableKey) -> frozenset[int]:
        # A card matches the top card by colour, or by number or symbol, or is a wild.
        side, color, top_card = key
        top = self._faces[side][top_card]
        playable = (
            self._wilds[side]
            | self._by_color[side].get(color, frozenset())
            | self._by_symbol[side][top.kind, top.number]
        )
        self[key] = playable
        return playable


class _DeckTables:
    """Lookups for one physical deck, built once and shared by every game played with it."""

    __slots__ = ("color_choices", "faces", "play_moves", "playable", "points")

    def __init__(self, deck: tuple[Card, ...], variant: Variant) -> None:
        self.faces = (
            tuple(card.face(Side.LIGHT) for card in deck),
            tuple(card.face(Side.DARK) for card in deck),
        )
        self.points = tuple(
            tuple(variant.face_points(face) for face in side) for side in self.faces
        )
        # One shared PlayCard per card: building legal moves allocates no moves, and a move taken
        # from legal_moves is found again by identity in apply.
        self.play_moves = tuple(PlayCard(card) for card in range(len(deck)))
        self.playable = _PlayableSets(self.faces)
        # The colours a wild may name on each side.
        self.color_choices = tuple(
            tuple(ChooseColor(color) for color in variant.colors_on(side)) for side in Side
        )


@cache
def _deck_tables(deck: tuple[Card, ...], variant: Variant) -> _DeckTables:
    return _DeckTables(deck, variant)


# For each i from 1 up to a deck's size, (i, the bits random.shuffle draws to pick a j <= i).
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(1, 169))


# A game's generator: PCG32 (two integers of state) for new games, the Mersenne Twister for
# games saved before it, which play on with theirs.
GameRandom = random.Random | CompactRandom


def random_below(rng: GameRandom, n: int) -> int:
    """A number in range(n), drawn as ``random.Random.randrange(n)`` draws it (the same
    getrandbits calls), from either generator."""
    bits = n.bit_length()
    value = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value


def shuffle(rng: GameRandom, items: list[int]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle`` would, at half its cost."""
    # random.shuffle draw for draw (the same getrandbits calls, so a seed deals the same cards
    # and leaves the same RNG state), without its Python call per card to _randbelow: that
    # halves the time of a deal's shuffle, a tenth of a short round. The bits to draw for each
    # card come from a table rather than a bit_length() call per card. A Random subclass keeps
    # its own shuffle (the tests script deals by overriding it), as does CompactRandom (the
    # same draws, its own generator).
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    last = len(items) - 1
    steps = _SHUFFLE_STEPS
    if last > len(steps):
        steps = tuple((i, (i + 1).bit_length()) for i in range(1, last + 1))
    # i from last down to 1: the first ``last`` steps, backwards.
    for i, bits in steps[last - 1 :: -1] if last > 0 else ():
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


DREW = -1


class TurnRecord(NamedTuple):
    """One turn a seat took this round, as everyone at the table saw it."""

    side: Side
    top: int
    color: Color | None
    # The card played, or DREW when they drew instead.
    played: int
    named: Color | None
    # The smallest hand among the other players when the turn was taken (0: not known).
    fewest_other: int
    # The seat's count of cards received this round when the turn was taken.
    received_at: int


# Builds a TurnRecord from a tuple of its fields without NamedTuple's Python-level __new__.
_new_tuple = tuple.__new__
# Larger than any hand: where the search for the smallest other hand starts.
_NO_HAND_SIZE = 1_000


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One scored round: who went out, the side it ended on and the points."""

    round_no: int
    winner: str
    side: Side
    hand_points: dict[str, int]
    awarded: dict[str, int]


class Game:
    """One match of UNO Flip or classic UNO between 2 to 10 players."""

    __slots__ = (
        "_all_wild",
        "_catching",
        "_color_choices",
        "_faces",
        "_mercy_limit",
        "_must_play",
        "_names",
        "_no_mercy",
        "_opens_on_number",
        "_play_moves",
        "_playable",
        "_points",
        "_seat",
        "_turn_started",
        "after_color",
        "color",
        "current",
        "dealer",
        "deck",
        "direction",
        "discard",
        "draw_pile",
        "drawn_card",
        "hands",
        "history",
        "knocked_out",
        "lost_turns",
        "match_winner",
        "penalty_challengeable",
        "penalty_guilty",
        "penalty_kind",
        "penalty_source",
        "pending_draw",
        "phase",
        "players",
        "received",
        "remember_turns",
        "rng",
        "round_no",
        "rounds_won",
        "rules",
        "scores",
        "seed",
        "set_aside",
        "side",
        "swap_then_color",
        "turn_log",
        "uno_declared",
        "uno_exposed",
        "uno_exposed_more",
    )

    def __init__(
        self,
        players: Sequence[str],
        rules: RuleSet,
        seed: int,
        *,
        _fork_of: Game | None = None,
        _rng: GameRandom | None = None,
    ) -> None:
        """Set up an empty table; use ``Game.new`` to get a dealt game.

        ``_fork_of`` and ``_rng`` are ``fork``'s: a copy of that game drawing from ``_rng``.
        """
        if _fork_of is None or _rng is None:
            entry = variant_entry(rules.variant)
            if not entry.min_players <= len(players) <= entry.max_players:
                raise ValueError(f"UNO needs {entry.min_players} to {entry.max_players} players")
            if len(set(players)) != len(players):
                raise ValueError("every player must have a distinct id")
            self.rules = rules
            self.seed = seed
            self.rng: GameRandom = CompactRandom(seed)
            self.deck: tuple[Card, ...] = deck_for(rules)
            self.players: list[str] = list(players)
            self.scores: dict[str, int] = dict.fromkeys(players, 0)
            self.rounds_won: dict[str, int] = dict.fromkeys(players, 0)
            self.history: list[RoundResult] = []
            self.match_winner: str | None = None
            self.round_no = 0
            self.dealer = 0
            self.phase = Phase.ROUND_OVER
            self.hands: list[list[int]] = [[] for _ in players]
            self.draw_pile: list[int] = []
            self.discard: list[int] = []
            self.side = Side.LIGHT
            self.color: Color | None = None
            self.direction = 1
            self.current = 0
            self.drawn_card: int | None = None
            self.after_color = AfterColor.NEXT_TURN
            self.swap_then_color = False
            self.pending_draw = 0
            self.penalty_kind: Kind | None = None
            self.penalty_source: int | None = None
            self.penalty_guilty = False
            self.penalty_challengeable = False
            self.uno_declared: list[bool] = [False] * len(players)
            self.uno_exposed: int | None = None
            # No Mercy (empty otherwise): more seats that came to hold one card at once (a 0
            # passed two one-card hands), the seats knocked out this hand in the order it
            # happened, and each seat's hand set aside by the Mercy rule until a reshuffle.
            self.uno_exposed_more: list[int] = []
            self.knocked_out: list[int] = []
            self.set_aside: list[list[int]] = [[] for _ in players]
            # All Wild (zeros otherwise): turns each seat still loses, when a Wild Skip Two
            # with two players takes the opponent's next two turns (section 2.9).
            self.lost_turns: list[int] = [0] * len(players)
            # Public round memory: every turn each seat took since the deal (or since hands last
            # changed owner), and how many cards each seat has received in that time that could be
            # anything (a kept playable card counts; cards drawn and found unplayable do not).
            self.turn_log: list[list[TurnRecord]] = [[] for _ in players]
            self.received: list[int] = [0] * len(players)
            # Simulations that never read the memory (the AI's rollouts) switch it off for speed.
            self.remember_turns = True
            tables = _deck_tables(self.deck, entry)
            self._faces = tables.faces
            self._play_moves = tables.play_moves
            self._playable = tables.playable
            self._points = tables.points
            self._color_choices = tables.color_choices
            self._names: dict[str, str] = {}
            self._no_mercy = entry.no_mercy_rules
            self._mercy_limit = entry.mercy_limit
            self._all_wild = entry.all_wild_rules
            self._opens_on_number = entry.opens_on_number
            self._catching = rules.catching == "on"
            self._must_play = rules.must_play == "on"
            # Filled in by _reindex; set first so that the compiled class knows them always set.
            self._seat: dict[str, int] = {}
            self._turn_started: tuple[ev.TurnStarted, ...] = ()
            self._reindex()
        else:
            # fork's copy is made here rather than by Game.__new__ and assignments: compiled
            # with mypyc, Game.__new__ runs __init__. (Every attribute is set on both paths, so
            # the compiled class reads them without checking whether they are set.)
            source = _fork_of
            self.rules = source.rules
            self.seed = source.seed
            self.rng = _rng
            self.deck = source.deck
            self.players = list(source.players)
            self.scores = dict(source.scores)
            self.rounds_won = dict(source.rounds_won)
            self.history = list(source.history)
            self.match_winner = source.match_winner
            self.round_no = source.round_no
            self.dealer = source.dealer
            self.phase = source.phase
            self.hands = [list(hand) for hand in source.hands]
            self.draw_pile = list(source.draw_pile)
            self.discard = list(source.discard)
            self.side = source.side
            self.color = source.color
            self.direction = source.direction
            self.current = source.current
            self.drawn_card = source.drawn_card
            self.after_color = source.after_color
            self.swap_then_color = source.swap_then_color
            self.pending_draw = source.pending_draw
            self.penalty_kind = source.penalty_kind
            self.penalty_source = source.penalty_source
            self.penalty_guilty = source.penalty_guilty
            self.penalty_challengeable = source.penalty_challengeable
            self.uno_declared = list(source.uno_declared)
            self.uno_exposed = source.uno_exposed
            self.uno_exposed_more = list(source.uno_exposed_more)
            self.knocked_out = list(source.knocked_out)
            self.set_aside = [list(cards) for cards in source.set_aside]
            self.lost_turns = list(source.lost_turns)
            # Turn records are immutable tuples: copying each seat's list is enough.
            self.turn_log = [list(log) for log in source.turn_log]
            self.received = list(source.received)
            self.remember_turns = source.remember_turns
            self._faces = source._faces
            self._play_moves = source._play_moves
            self._playable = source._playable
            self._points = source._points
            self._no_mercy = source._no_mercy
            self._mercy_limit = source._mercy_limit
            self._all_wild = source._all_wild
            self._opens_on_number = source._opens_on_number
            self._catching = source._catching
            self._must_play = source._must_play
            self._color_choices = source._color_choices
            # Replaced, never changed in place, so sharing them is safe.
            self._names = source._names
            self._seat = source._seat
            self._turn_started = source._turn_started

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        rules: RuleSet | None = None,
        seed: int = 0,
        names: dict[str, str] | None = None,
    ) -> Game:
        """A new match: the first dealer is chosen by draw and the first round is dealt."""
        return cls.start(players, rules, seed, names)[0]

    @classmethod
    def start(
        cls,
        players: Sequence[str],
        rules: RuleSet | None = None,
        seed: int = 0,
        names: dict[str, str] | None = None,
    ) -> tuple[Game, list[ev.Event]]:
        """Like ``new``, with the events of the dealer draw and the first deal to narrate."""
        game = cls(players, rules or RuleSet(), seed)
        if names:
            game.set_names(names)
        events: list[ev.Event] = []
        game.dealer = game._choose_first_dealer(events)
        game.round_no = 1
        game._deal_round(events)
        return game, events

    def set_names(self, names: dict[str, str]) -> None:
        """Display names used in ``IllegalMove`` sentences (ids are used otherwise)."""
        self._names = dict(names)

    def name(self, player: str) -> str:
        """The display name of ``player``."""
        return self._names.get(player, player)

    @property
    def names(self) -> dict[str, str]:
        """A copy of the display names set by ``set_names``."""
        return dict(self._names)

    def _reindex(self) -> None:
        self._seat = {player: seat for seat, player in enumerate(self.players)}
        # Events are immutable values, so the commonest one is built once per seat.
        self._turn_started = tuple(ev.TurnStarted(player) for player in self.players)

    def _choose_first_dealer(self, events: list[ev.Event]) -> int:
        # Everyone draws; the highest light-side number deals (symbols count 0); ties draw again.
        contenders = list(range(len(self.players)))
        draws: list[tuple[str, Face]] = []
        while True:
            cards = list(range(len(self.deck)))
            shuffle(self.rng, cards)
            faces = {seat: self._faces[Side.LIGHT][cards[i]] for i, seat in enumerate(contenders)}
            draws.extend((self.players[seat], face) for seat, face in faces.items())
            if self._all_wild:
                # No card has a number (section 2.2): the first dealer is chosen at random.
                dealer = contenders[random_below(self.rng, len(contenders))]
                events.append(ev.DealerChosen(self.players[dealer], tuple(draws)))
                return dealer
            best = max(face.number or 0 for face in faces.values())
            contenders = [seat for seat, face in faces.items() if (face.number or 0) == best]
            if len(contenders) == 1:
                events.append(ev.DealerChosen(self.players[contenders[0]], tuple(draws)))
                return contenders[0]

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self) -> str | None:
        """Whose decision the game waits for, or None between rounds."""
        if self.phase in TERMINAL_PHASES:
            return None
        return self.players[self.current]

    def seat_of(self, player: str) -> int:
        """The seat index of ``player``; IllegalMove if they are not playing."""
        seat = self._seat.get(player)
        if seat is None:
            raise IllegalMove(NOT_PLAYING)
        return seat

    def hand(self, player: str) -> list[int]:
        """A copy of ``player``'s hand as card indices."""
        return list(self.hands[self.seat_of(player)])

    def face(self, card: int, side: Side | None = None) -> Face:
        """The face of physical card ``card`` on ``side`` (default: the side in play)."""
        return self._faces[self.side if side is None else side][card]

    def faces(self, side: Side | None = None) -> tuple[Face, ...]:
        """Every physical card's face on ``side`` (default: the side in play), by card index."""
        return self._faces[self.side if side is None else side]

    def color_choices(self) -> tuple[ChooseColor, ...]:
        """The colours a wild may name on the side in play, as the moves that name them."""
        return self._color_choices[self.side]

    def points(self, side: Side | None = None) -> tuple[int, ...]:
        """Every physical card's points on ``side`` (default: the side in play), by index."""
        return self._points[self.side if side is None else side]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the direction of play (back if negative),
        counting only players still in the hand."""
        if self.knocked_out:
            return self._next_seat_in(seat, steps)
        return (seat + self.direction * steps) % len(self.players)

    def _next_seat_in(self, seat: int, steps: int) -> int:
        # No Mercy: knocked-out seats are passed over (one is always still in).
        step = self.direction if steps > 0 else -self.direction
        count = len(self.players)
        for _ in range(abs(steps)):
            seat = (seat + step) % count
            while seat in self.knocked_out:
                seat = (seat + step) % count
        return seat

    def top_face(self) -> Face:
        """The face of the discard pile's top card on the side in play."""
        return self._faces[self.side][self.discard[-1]]

    def hand_points(self, player: str, side: Side | None = None) -> int:
        """What ``player``'s hand would score now (on ``side``, default the side in play)."""
        points = self._points[self.side if side is None else side]
        return sum(points[card] for card in self.hands[self.seat_of(player)])

    def is_playable(self, card: int) -> bool:
        """Whether ``card`` matches the top card by colour, number or symbol, or is a wild."""
        return card in self._playable_now()

    def _playable_now(self) -> frozenset[int]:
        # Which cards are playable depends only on the side, the colour in play and the top card:
        # each combination is worked out once per deck, and testing a card is then one set
        # lookup (the move loop tests every card in hand on every turn).
        return self._playable[self.side, self.color, self.discard[-1]]

    def catchable(self) -> str | None:
        """The player who can be caught without UNO right now, if any (never at a friendly
        table, where catching is off)."""
        if self.uno_exposed is None or not self._catching:
            return None
        return self.players[self.uno_exposed]

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self, player: str) -> list[Move]:
        """Every move ``player`` may make now ([] when there is nothing for them to do)."""
        seat = self._seat.get(player)
        if seat is None or (self.knocked_out and seat in self.knocked_out):
            return []
        phase = self.phase
        hand = self.hands[seat]
        play = self._play_moves
        if seat == self.current and phase is _PLAY:
            # The commonest case first. (_playable_now(), without the call.)
            playable = self._playable[self.side, self.color, self.discard[-1]]
            # A plain loop: a list comprehension would build a function object on every call.
            moves: list[Move] = []
            for card in hand:
                if card in playable:
                    moves.append(play[card])
            if not (moves and self._must_play):  # "must play if able": no draw instead
                moves.append(DRAW)
        elif phase in TERMINAL_PHASES:
            return []
        elif seat == self.current:
            if phase is _DRAWN:
                assert self.drawn_card is not None
                moves = [play[self.drawn_card], PASS]
            elif phase is _CHOOSE_COLOR:
                moves = list(self._color_choices[self.side])
            elif phase is _PENALTY:
                moves = [play[c] for c in hand if self._stacks(c)]
                moves.append(ACCEPT)
                if self.penalty_challengeable:
                    moves.append(CHALLENGE)
            elif phase is _DRAW_TARGET:
                moves = [TargetDraw(p) for s, p in enumerate(self.players) if s != seat]
            else:  # SWAP_TARGET
                gone = self.knocked_out
                moves = [
                    SwapWith(p) for s, p in enumerate(self.players) if s != seat and s not in gone
                ]
        elif phase is _PLAY and self.rules.jump_in:
            moves = [play[c] for c in hand if self._identical_to_top(c)]
        else:
            moves = []
        if len(hand) <= 2 and not self.uno_declared[seat]:
            moves.append(CALL_UNO)
        if self._catching:  # (off: a friendly table, where nobody is caught)
            exposed = self.uno_exposed
            if exposed is not None and exposed != seat:
                moves.append(Catch(self.players[exposed]))
            for other in self.uno_exposed_more:
                if other != seat:
                    moves.append(Catch(self.players[other]))
        return moves

    def penalty_stackable(self) -> bool:
        """Whether the pending draw card may be answered with a draw card (the stacking house
        rule; nothing stacks on Wild Draw Color)."""
        if self._no_mercy:
            return True
        return self.rules.stacking and self.penalty_kind is not Kind.WILD_DRAW_COLOR

    def stack_threshold(self) -> int:
        """No Mercy: the least value a Draw Card stacked now must have (0: no stack pending)."""
        if not self._no_mercy or self.phase is not Phase.PENALTY or self.penalty_kind is None:
            return 0
        return STACK_VALUE.get(self.penalty_kind, 0)

    def challenge_stakes(self) -> tuple[str, int, int, bool] | None:
        """What a challenge of the pending draw card costs, when one is possible: who played
        it, what they draw if they bluffed, what the challenger draws if not (beyond drawing
        until the colour when ``until_color``), and ``until_color``."""
        source = self.penalty_source
        if self.phase is not Phase.PENALTY or not self.penalty_challengeable or source is None:
            return None
        if self.penalty_kind is Kind.WILD_DRAW_COLOR:
            return self.players[source], 0, CHALLENGE_EXTRA, True
        return self.players[source], self.pending_draw, self.pending_draw + CHALLENGE_EXTRA, False

    def _stacks(self, card: int) -> bool:
        if not self.penalty_stackable():
            return False
        kind = self._faces[self.side][card].kind
        if self._no_mercy:
            # Any Draw Card worth at least the last one, whatever its colour (section 1.5).
            return STACK_VALUE.get(kind, 0) >= self.stack_threshold()
        if kind is self.penalty_kind:
            return True
        return (
            kind is Kind.WILD_DRAW_FOUR
            and self.penalty_kind is Kind.DRAW_TWO
            and self.rules.stack_wild_draw_four_on_draw_two
        )

    def _identical_to_top(self, card: int) -> bool:
        face = self._faces[self.side][card]
        return face.color is not None and face == self._faces[self.side][self.discard[-1]]

    # ------------------------------------------------------------------ applying moves

    def apply(self, player: str, move: Move) -> list[ev.Event]:
        """Apply ``move`` for ``player`` and return what happened; IllegalMove leaves no trace."""
        seat = self._seat.get(player)  # seat_of, without the call: this runs every move
        if seat is None:
            raise IllegalMove(NOT_PLAYING)
        out: list[ev.Event]
        if seat == self.current and self.phase is _PLAY:
            # The current player's card or draw, most moves of a game, is checked against the
            # rule itself rather than against a list of every legal move: exactly what
            # legal_moves() offers there (a playable card in hand, or a draw).
            kind = type(move)
            if kind is PlayCard:
                assert isinstance(move, PlayCard)
                card = move.card
                playable = self._playable[self.side, self.color, self.discard[-1]]
                if card in self.hands[seat] and card in playable:
                    out = []
                    self._play(seat, card, out)
                    return out
            elif kind is Draw and not self._must_play:
                out = []
                self._draw_turn(seat, out)
                return out
        if self.phase in TERMINAL_PHASES:
            raise IllegalMove(self._explain(seat, move))
        legal = self.legal_moves(player)
        # A move taken from legal_moves is one of the shared instances: an identity scan is
        # much cheaper than the dataclass __eq__ that ``in`` calls on every other move.
        for candidate in legal:
            if candidate is move:
                break
        else:
            if move not in legal:
                raise IllegalMove(self._explain(seat, move))
        out = []
        kind = type(move)
        if kind is PlayCard:
            assert isinstance(move, PlayCard)
            self._play(seat, move.card, out)
        elif kind is Draw:
            self._draw_turn(seat, out)
        elif kind is Pass:
            self._close_exposure(seat)
            self.drawn_card = None
            self.received[seat] += 1
            out.append(ev.DrawnCardKept(player))
            self._pass_turn(seat, out)
        elif kind is ChooseColor:
            assert isinstance(move, ChooseColor)
            self._choose_color(seat, move.color, out)
        elif kind is Accept:
            self._accept(seat, out)
        elif kind is Challenge:
            self._challenge(seat, out)
        elif kind is SwapWith:
            assert isinstance(move, SwapWith)
            self._swap_with(seat, self._seat[move.target], out)
        elif kind is TargetDraw:
            assert isinstance(move, TargetDraw)
            self._target_draw(seat, self._seat[move.target], out)
        elif kind is CallUno:
            self.uno_declared[seat] = True
            self._drop_exposure(seat)
            out.append(ev.UnoCalled(player))
        elif kind is Catch:
            assert isinstance(move, Catch)
            target = self._seat[move.target]
            self._drop_exposure(target)
            out.append(ev.UnoCaught(player, move.target))
            self._draw_cards(target, UNO_PENALTY, "caught without UNO", out)
        return out

    def _close_exposure(self, seat: int) -> None:
        # The UNO window closes as soon as anyone else takes a turn action.
        if self.uno_exposed is not None and self.uno_exposed != seat:
            self.uno_exposed = None
        if self.uno_exposed_more:
            self._close_more_exposures(seat)

    def _close_more_exposures(self, seat: int) -> None:
        # No Mercy: the other windows opened by a 0 or a 7 close with the first one.
        self.uno_exposed_more = [other for other in self.uno_exposed_more if other == seat]

    def _drop_exposure(self, seat: int) -> None:
        # ``seat`` called UNO, was caught, drew or left the hand: nobody can catch them now.
        if self.uno_exposed == seat:
            self.uno_exposed = None
        if seat in self.uno_exposed_more:
            self.uno_exposed_more.remove(seat)

    def _start_turn(self, seat: int, out: list[ev.Event]) -> None:
        self.current = seat
        self.phase = _PLAY
        self.drawn_card = None
        out.append(self._turn_started[seat])

    def _pass_turn(self, seat: int, out: list[ev.Event]) -> None:
        # _start_turn(next_seat(seat)) without the two calls: the commonest step of all.
        seat = (seat + self.direction) % len(self.players)
        if self.knocked_out:
            while seat in self.knocked_out:
                seat = (seat + self.direction) % len(self.players)
        if self._all_wild and self.lost_turns[seat]:
            seat = self._lose_owed_turns(seat, out)
        self.current = seat
        self.phase = _PLAY
        self.drawn_card = None
        out.append(self._turn_started[seat])

    def _skip_next(self, seat: int, out: list[ev.Event]) -> None:
        victim = self.next_seat(seat)
        out.append(ev.TurnSkipped(self.players[victim]))
        self._start_turn(self.next_seat(victim), out)

    def _reset_penalty(self) -> None:
        self.pending_draw = 0
        self.penalty_kind = None
        self.penalty_source = None
        self.penalty_guilty = False
        self.penalty_challengeable = False

    def _play(self, seat: int, card: int, out: list[ev.Event]) -> None:
        if self.remember_turns and self.phase is _PLAY and seat == self.current:
            # (A drawn card played keeps the draw as the turn's record; stacks are not turns.)
            self._record(seat, card)
        hand = self.hands[seat]
        hand.remove(card)
        face = self._faces[self.side][card]
        # Out of turn, it is a jump-in. (The phase stays the one the card was played in until
        # the effects below, so stacking reads it there.)
        out.append(ev.CardPlayed(self.players[seat], face, seat != self.current))
        exposed = self.uno_exposed
        if exposed is not None and exposed != seat:  # _close_exposure, without the call
            self.uno_exposed = None
        if self.uno_exposed_more:
            self._close_more_exposures(seat)
        self.current = seat
        self.drawn_card = None
        self.discard.append(card)
        if len(hand) == 1 and not self.uno_declared[seat]:
            self.uno_exposed = seat
        if not hand:
            self._go_out(seat, face, out)
            return
        color, kind, number = face
        if color is not None:
            self.color = color
        if self._no_mercy:
            self._no_mercy_effect(seat, face, out)
            return
        if self._all_wild:
            self._all_wild_effect(seat, face, out)
            return
        if kind is _NUMBER:
            # The number first: reading a rule off the pydantic RuleSet costs more than it.
            if number == 7 and self.rules.seven_o:
                self.phase = _SWAP_TARGET
                self.swap_then_color = False
            elif number == 0 and self.rules.seven_o:
                self._rotate_hands(out)
                self._pass_turn(seat, out)
            else:
                self._pass_turn(seat, out)
        elif kind is _SKIP:
            self._skip_next(seat, out)
        elif kind is _REVERSE:
            if len(self.players) == 2:
                self._skip_next(seat, out)
            else:
                self.direction = -self.direction
                out.append(ev.DirectionChanged(self.direction))
                self._pass_turn(seat, out)
        elif kind is _SKIP_EVERYONE:
            for other in range(1, len(self.players)):
                out.append(ev.TurnSkipped(self.players[self.next_seat(seat, other)]))
            self._start_turn(seat, out)
        elif kind in DRAW_AMOUNT and color is not None:
            amount = DRAW_AMOUNT[kind]
            if self.rules.stacking:
                stacked = self.phase is _PENALTY
                self._set_penalty(seat, kind, amount, stacked, challengeable=False, out=out)
                self._start_penalty(self.next_seat(seat), out)
            else:
                victim = self.next_seat(seat)
                self._draw_cards(victim, amount, face.name(), out)
                self._skip_next(seat, out)
        elif kind is _FLIP:
            self._flip(seat, out)
            if self.color is None:
                self._ask_color(_NEXT_TURN)
            else:
                self._pass_turn(seat, out)
        elif kind in DRAW_WILD_KINDS:
            self.penalty_guilty = self._holds_color(seat)
            stacked = self.phase is _PENALTY
            self._set_penalty(seat, kind, DRAW_AMOUNT.get(kind, 0), stacked, True, out)
            self._ask_color(_PENALTY_NEXT)
        elif kind is _WILD_SHUFFLE_HANDS:
            self._shuffle_hands(seat, out)
            self._ask_color(_NEXT_TURN)
        elif kind is _WILD_SWAP_HANDS:
            self.phase = _SWAP_TARGET
            self.swap_then_color = True
        else:  # Wild, Wild Customizable
            self._ask_color(_NEXT_TURN)

    def _holds_color(self, seat: int) -> bool:
        faces = self._faces[self.side]
        color = self.color
        return any(faces[c].color is color for c in self.hands[seat])

    def _set_penalty(
        self,
        seat: int,
        kind: Kind,
        amount: int,
        stacked: bool,
        challengeable: bool,
        out: list[ev.Event],
    ) -> None:
        total = amount + (self.pending_draw if stacked else 0)
        if stacked:
            out.append(ev.PenaltyStacked(self.players[seat], total))
        self.pending_draw = total
        self.penalty_kind = kind
        self.penalty_source = seat
        self.penalty_challengeable = challengeable

    def _start_penalty(self, victim: int, out: list[ev.Event]) -> None:
        self.current = victim
        self.phase = _PENALTY
        out.append(self._turn_started[victim])

    def _ask_color(self, then: AfterColor) -> None:
        self.phase = _CHOOSE_COLOR
        self.after_color = then

    def _go_out(self, seat: int, face: Face, out: list[ev.Event]) -> None:
        # The last card's draw penalty and flip still happen; its other effects do not.
        # (No Mercy: "When a player plays their final card, they win", with no effect at all.)
        kind = face.kind
        if face.color is not None:
            self.color = face.color
        if self._all_wild:
            self._all_wild_last_card(seat, face, out)
            return
        if self._no_mercy:
            self._end_round(seat, out)
            return
        if kind is Kind.FLIP:
            self._flip(seat, out)
        elif kind is Kind.WILD_DRAW_COLOR:
            self.penalty_kind = kind
            self._ask_color(AfterColor.FINAL_DRAW)
            return
        elif kind in DRAW_AMOUNT:
            stacked = self.pending_draw if self.phase is Phase.PENALTY else 0
            self._draw_cards(self.next_seat(seat), DRAW_AMOUNT[kind] + stacked, face.name(), out)
        elif kind is Kind.WILD_SHUFFLE_HANDS:
            # Shuffle Hands deals the player new cards, so the round goes on.
            self._shuffle_hands(seat, out)
            self._ask_color(AfterColor.NEXT_TURN)
            return
        self._end_round(seat, out)

    def _choose_color(self, seat: int, color: Color, out: list[ev.Event]) -> None:
        self.color = color
        log = self.turn_log[seat]
        if log and log[-1].played == self.discard[-1]:
            # The record of the wild just played gets the colour named (as _replace would, at
            # a fraction of its cost).
            side, top, in_play, played, _, fewest, received = log[-1]
            log[-1] = _new_tuple(TurnRecord, (side, top, in_play, played, color, fewest, received))
        out.append(ev.ColorChosen(self.players[seat], color))
        then = self.after_color
        if then is _NEXT_TURN:
            self._pass_turn(seat, out)
        elif then is _SAME_PLAYER:
            self._start_turn(seat, out)
        elif then is _PENALTY_NEXT:
            self._start_penalty(self._penalty_victim(seat), out)
        elif then is AfterColor.ROULETTE:
            self._draw_until_color(seat, color, 0, out, reason="roulette", public=True)
            self._after_penalty_draw(seat, out)
        else:
            self._draw_until_color(self.next_seat(seat), color, 0, out)
            self._end_round(seat, out)

    def _accept(self, seat: int, out: list[ev.Event]) -> None:
        self._close_exposure(seat)
        if self._no_mercy:
            self._draw_cards(seat, self.pending_draw, "penalty", out)
            self._reset_penalty()
            self._after_penalty_draw(seat, out)
            return
        if self.penalty_kind is Kind.WILD_DRAW_COLOR:
            assert self.color is not None
            self._draw_until_color(seat, self.color, 0, out)
        else:
            self._draw_cards(seat, self.pending_draw, "penalty", out)
        self._reset_penalty()
        out.append(ev.TurnSkipped(self.players[seat]))
        self._pass_turn(seat, out)

    def _challenge(self, seat: int, out: list[ev.Event]) -> None:
        self._close_exposure(seat)
        source = self.penalty_source
        assert source is not None and self.color is not None
        guilty = self.penalty_guilty
        faces = self._faces[self.side]
        hand = tuple(faces[c] for c in self.hands[source])
        out.append(ev.ChallengeResolved(self.players[seat], self.players[source], guilty, hand))
        loser, extra = (source, 0) if guilty else (seat, CHALLENGE_EXTRA)
        if self.penalty_kind is Kind.WILD_DRAW_COLOR:
            self._draw_until_color(loser, self.color, extra, out)
        else:
            self._draw_cards(loser, self.pending_draw + extra, "challenge", out)
        self._reset_penalty()
        if guilty:
            self._start_turn(seat, out)
        else:
            out.append(ev.TurnSkipped(self.players[seat]))
            self._pass_turn(seat, out)

    def _draw_turn(self, seat: int, out: list[ev.Event]) -> None:
        exposed = self.uno_exposed
        if exposed is not None and exposed != seat:  # _close_exposure, without the call
            self.uno_exposed = None
        if self.uno_exposed_more:
            self._close_more_exposures(seat)
        # Drawing (even through a reshuffle, which keeps the top card) leaves the side, the
        # colour and the top card as they were, so one playable set serves the whole turn.
        # (_playable_now(), without the call.)
        playable = self._playable[self.side, self.color, self.discard[-1]]
        until_playable = self.rules.draw_until_playable
        # No Mercy: the Mercy rule stops the drawing at 25 cards (-1: no such limit).
        room = self._room(seat) if self._no_mercy else -1
        drawn: list[int] = []
        while True:
            card = self._take_card(out)
            if card is None:
                break
            drawn.append(card)
            if not until_playable or card in playable or len(drawn) == room:
                break
        self._give(seat, drawn, "drew", out)
        if self.knocked_out and seat in self.knocked_out:
            if self.phase not in TERMINAL_PHASES:
                self._pass_turn(seat, out)
            return
        log = self.turn_log[seat]
        if self.remember_turns:
            self._record(seat, DREW)
        if not drawn:
            out.append(ev.DrawStopped(self.players[seat]))
        last = drawn[-1] if drawn else None
        if last is not None and last in playable:
            if self.rules.forced_play:
                self._play(seat, last, out)
                if self.remember_turns:
                    # The turn was a draw; the forced play must not pass for a choice of card.
                    # (_play recorded it after the draw; if it also changed the hands, this
                    # list is no longer the log and the pop changes nothing.)
                    log.pop()
            else:
                self.phase = _DRAWN
                self.drawn_card = last
        else:
            self._pass_turn(seat, out)

    def _swap_with(self, seat: int, target: int, out: list[ev.Event]) -> None:
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self._hands_changed((seat, target))
        out.append(ev.HandsSwapped(self.players[seat], self.players[target]))
        if self.swap_then_color:
            self._ask_color(AfterColor.NEXT_TURN)
        else:
            self._pass_turn(seat, out)

    def _rotate_hands(self, out: list[ev.Event]) -> None:
        old = self.hands
        rotated: list[list[int]] = [[] for _ in old]
        for seat, hand in enumerate(old):
            if self.knocked_out and seat in self.knocked_out:
                continue  # No Mercy: out of the hand, so out of the chain
            rotated[self.next_seat(seat)] = hand
        self.hands = rotated
        self._hands_changed()
        out.append(ev.HandsRotated(self.direction))

    def _shuffle_hands(self, seat: int, out: list[ev.Event]) -> None:
        pool = [card for hand in self.hands for card in hand]
        shuffle(self.rng, pool)
        count = len(self.players)
        first = (seat + 1) % count  # dealt out from the player's left, like a deal
        hands: list[list[int]] = [[] for _ in range(count)]
        for i, card in enumerate(pool):
            hands[(first + i) % count].append(card)
        self.hands = hands
        self._hands_changed()
        out.append(ev.HandsShuffled(self.players[seat], self.players[first]))

    def _hands_changed(self, changed: tuple[int, ...] = ()) -> None:
        # A new hand needs a new UNO call; nobody received theirs by playing down to one.
        # (``changed``: the seats whose hands moved, when not all of them did.)
        self._forget_turns()
        if self._no_mercy or self._all_wild:
            # (All Wild's Forced Swap follows No Mercy's 7: section 2.7.)
            self._no_mercy_hands_changed(changed or tuple(range(len(self.players))))
            return
        self.uno_declared = [False] * len(self.players)
        self.uno_exposed = None

    def _no_mercy_hands_changed(self, changed: tuple[int, ...]) -> None:
        # Whoever is handed a one-card hand must call UNO, out of turn too (section 1.9); a
        # player whose hand did not move keeps their call, or their open window.
        exposed = [] if self.uno_exposed is None else [self.uno_exposed]
        exposed = [seat for seat in exposed + self.uno_exposed_more if seat not in changed]
        for seat in changed:
            self.uno_declared[seat] = False
            if len(self.hands[seat]) == 1:
                exposed.append(seat)
        self.uno_exposed = exposed[0] if exposed else None
        self.uno_exposed_more = exposed[1:]

    def _forget_turns(self) -> None:
        self.turn_log = [[] for _ in self.players]
        self.received = [0] * len(self.players)

    def _record(self, seat: int, played: int) -> None:
        # Remembers ``seat``'s turn. This runs on every turn of every real game, so it avoids
        # what costs most here on CPython 3.11: min(map(len, hands)) (a map object per call, and
        # min parses its keyword arguments every time: more than this loop over a few hands)
        # and NamedTuple's Python-level __new__ (the record is built as a tuple of its fields).
        own = self.hands[seat]
        fewest = _NO_HAND_SIZE
        for hand in self.hands:
            if len(hand) < fewest and hand is not own:
                fewest = len(hand)
        received = self.received[seat]
        fields = (self.side, self.discard[-1], self.color, played, None, fewest, received)
        self.turn_log[seat].append(_new_tuple(TurnRecord, fields))

    def last_turn(self, seat: int) -> TurnRecord | None:
        """``seat``'s latest remembered turn this round (None: none since the memory reset)."""
        log = self.turn_log[seat]
        return log[-1] if log else None

    def received_since(self, seat: int, turn: TurnRecord | None = None) -> int:
        """Cards ``seat`` received after ``turn`` (default: their latest turn, or the deal)."""
        if turn is None:
            turn = self.last_turn(seat)
        return self.received[seat] - (turn.received_at if turn is not None else 0)

    # ------------------------------------------------------------------ No Mercy

    def _no_mercy_effect(self, seat: int, face: Face, out: list[ev.Event]) -> None:
        # What a No Mercy card does once played (RULES-VARIANTS.md section 1.4); the player's
        # hand is not empty (the last card wins at once, with no effect).
        kind = face.kind
        if kind is _NUMBER:
            if face.number == 7:
                self.phase = _SWAP_TARGET  # compulsory: the player picks whose hand
                self.swap_then_color = False
                return
            if face.number == 0:
                self._rotate_hands(out)
            self._pass_turn(seat, out)
        elif kind is _SKIP:
            self._skip_next(seat, out)
        elif kind is _REVERSE:
            if len(self.players) - len(self.knocked_out) == 2:
                self._skip_next(seat, out)  # with two players: another turn
            else:
                self._reverse(out)
                self._pass_turn(seat, out)
        elif kind is _SKIP_EVERYONE:
            others = len(self.players) - len(self.knocked_out) - 1
            for step in range(1, others + 1):
                out.append(ev.TurnSkipped(self.players[self.next_seat(seat, step)]))
            self._start_turn(seat, out)
        elif kind is Kind.DISCARD_ALL:
            self._discard_all(seat, face, out)
        elif kind is Kind.WILD_COLOR_ROULETTE:
            # The victim names the colour (the player names none), then reveals until it.
            victim = self.next_seat(seat)
            self.current = victim
            self._ask_color(AfterColor.ROULETTE)
            out.append(ev.RouletteColorAsked(self.players[victim]))
        else:  # a Draw Card: starts a stack, or adds to the one pending on this player
            stacked = self.phase is _PENALTY
            if kind is Kind.WILD_REVERSE_DRAW_FOUR:
                self._reverse(out)
            self._set_penalty(seat, kind, STACK_VALUE[kind], stacked, False, out)
            if face.color is None:
                self._ask_color(_PENALTY_NEXT)  # then _penalty_victim
            else:
                self._start_penalty(self.next_seat(seat), out)

    def _reverse(self, out: list[ev.Event]) -> None:
        self.direction = -self.direction
        out.append(ev.DirectionChanged(self.direction))

    def _penalty_victim(self, seat: int) -> int:
        # Who faces the draw card ``seat`` just played. A Wild Reverse Draw 4 with two players
        # in the hand turns play round to its own player (section 1.11).
        reverse_draw = self.penalty_kind is Kind.WILD_REVERSE_DRAW_FOUR
        if reverse_draw and len(self.players) - len(self.knocked_out) == 2:
            return seat
        return self.next_seat(seat)

    def _discard_all(self, seat: int, face: Face, out: list[ev.Event]) -> None:
        # Every card of the Discard All's colour goes under it (wilds stay, no effects).
        faces = self._faces[self.side]
        hand = self.hands[seat]
        matching = [card for card in hand if faces[card].color is face.color]
        if matching:
            hand = [card for card in hand if faces[card].color is not face.color]
            self.hands[seat] = hand
            top = self.discard.pop()
            self.discard.extend(matching)
            self.discard.append(top)
            out.append(ev.CardsDiscarded(self.players[seat], tuple(faces[c] for c in matching)))
        if not hand:
            self._end_round(seat, out)
            return
        if len(hand) == 1 and not self.uno_declared[seat]:
            self.uno_exposed = seat
        self._pass_turn(seat, out)

    def _after_penalty_draw(self, seat: int, out: list[ev.Event]) -> None:
        # ``seat`` took a stack or revealed for a Roulette: they lose the turn, unless the
        # Mercy rule knocked them out (then the next player still in plays) or ended the hand.
        if self.phase in TERMINAL_PHASES:
            return
        if seat not in self.knocked_out:
            out.append(ev.TurnSkipped(self.players[seat]))
        self._pass_turn(seat, out)

    def _room(self, seat: int) -> int:
        # Cards ``seat`` can still take before the Mercy rule knocks them out.
        return self._mercy_limit - len(self.hands[seat])

    def _knock_out(self, seat: int, out: list[ev.Event]) -> None:
        # The Mercy rule: the hand is set aside until the next reshuffle; the last player
        # still in wins the hand.
        hand = self.hands[seat]
        self.set_aside[seat] = hand
        self.hands[seat] = []
        self.knocked_out.append(seat)
        self.uno_declared[seat] = False
        self._drop_exposure(seat)
        out.append(ev.PlayerKnockedOut(self.players[seat], len(hand)))
        if len(self.players) - len(self.knocked_out) == 1:
            gone = self.knocked_out
            winner = next(s for s in range(len(self.players)) if s not in gone)
            self._end_round(winner, out)

    def _open_on_number(self, out: list[ev.Event]) -> None:
        # Turn cards until a number shows; the action cards turned before it stay beneath it
        # with no effect, and an opening 0 or 7 does nothing either (No Mercy, section 1.2;
        # Junior, sections 3.2 and 6.7).
        light = self._faces[Side.LIGHT]
        ignored: list[Face] = []
        while True:
            card = self.draw_pile.pop()
            self.discard.append(card)
            if light[card].kind is _NUMBER:
                break
            ignored.append(light[card])
        face = light[card]
        out.append(ev.RoundStarted(self.round_no, self.players[self.dealer], face, 0))
        if ignored:
            out.append(ev.OpeningCardsIgnored(tuple(ignored)))
        self.color = face.color
        self._start_turn((self.dealer + 1) % len(self.players), out)

    # ------------------------------------------------------------------ All Wild

    def _all_wild_effect(self, seat: int, face: Face, out: list[ev.Event]) -> None:
        # What an All Wild card does once played (RULES-VARIANTS.md section 2.4); no colour
        # is named and nothing is challenged. The player's hand is not empty.
        kind = face.kind
        if kind is Kind.WILD_SKIP:
            self._skip_next(seat, out)
        elif kind is Kind.WILD_REVERSE:
            if len(self.players) == 2:
                self._skip_next(seat, out)  # with two players: a Skip (section 2.9)
            else:
                self._reverse(out)
                self._pass_turn(seat, out)
        elif kind is Kind.WILD_SKIP_TWO:
            self._skip_two(seat, out)
        elif kind is Kind.WILD_DRAW_TWO or kind is Kind.WILD_DRAW_FOUR:
            amount = DRAW_AMOUNT[kind]
            if self.rules.stacking:
                # The house rule of section 2.5: the same kind stacks on it.
                stacked = self.phase is _PENALTY
                self._set_penalty(seat, kind, amount, stacked, challengeable=False, out=out)
                self._start_penalty(self.next_seat(seat), out)
            else:
                self._draw_cards(self.next_seat(seat), amount, face.name(), out)
                self._skip_next(seat, out)
        elif kind is Kind.WILD_TARGETED_DRAW_TWO:
            self.phase = _DRAW_TARGET
        elif kind is Kind.WILD_FORCED_SWAP:
            self.phase = _SWAP_TARGET
            self.swap_then_color = False
        else:  # a plain Wild
            self._pass_turn(seat, out)

    def _skip_two(self, seat: int, out: list[ev.Event]) -> None:
        # The next two players lose their turns; with two players the opponent loses two, so
        # the player of the card plays three times in a row (section 2.9).
        if len(self.players) == 2:
            self.lost_turns[self.next_seat(seat)] += 1
            self._skip_next(seat, out)
            return
        for step in (1, 2):
            out.append(ev.TurnSkipped(self.players[self.next_seat(seat, step)]))
        self._start_turn(self.next_seat(seat, 3), out)

    def _lose_owed_turns(self, seat: int, out: list[ev.Event]) -> int:
        # ``seat`` still owes turns to a Wild Skip Two: each turn it would take is skipped.
        while self.lost_turns[seat]:
            self.lost_turns[seat] -= 1
            out.append(ev.TurnSkipped(self.players[seat]))
            seat = (seat + self.direction) % len(self.players)
        return seat

    def _target_draw(self, seat: int, target: int, out: list[ev.Event]) -> None:
        # The target draws two and keeps their turn; play passes on as usual. If the card was
        # the player's last, the round ends with the target's cards counted (section 2.8).
        name = KIND_NAMES[Kind.WILD_TARGETED_DRAW_TWO]
        self._draw_cards(target, TARGETED_DRAW, name, out)
        if self.hands[seat]:
            self._pass_turn(seat, out)
        else:
            self._end_round(seat, out)

    def _all_wild_last_card(self, seat: int, face: Face, out: list[ev.Event]) -> None:
        # Section 2.8: a draw card played last still makes its victim draw (a Targeted Draw Two
        # first asks whom); a Forced Swap played last wins at once with no swap.
        kind = face.kind
        if kind is Kind.WILD_TARGETED_DRAW_TWO:
            self.phase = _DRAW_TARGET
            return
        if kind is Kind.WILD_DRAW_TWO or kind is Kind.WILD_DRAW_FOUR:
            stacked = self.pending_draw if self.phase is _PENALTY else 0
            self._draw_cards(self.next_seat(seat), DRAW_AMOUNT[kind] + stacked, face.name(), out)
        self._end_round(seat, out)

    def _open_all_wild(self, out: list[ev.Event]) -> None:
        # The first card turned up starts the pile with no effect, whatever it is (section
        # 2.2); the player left of the dealer starts.
        starter = self.draw_pile.pop()
        self.discard.append(starter)
        face = self._faces[Side.LIGHT][starter]
        out.append(ev.RoundStarted(self.round_no, self.players[self.dealer], face, 0))
        self.color = None
        self._start_turn((self.dealer + 1) % len(self.players), out)

    # ------------------------------------------------------------------ piles

    def _take_card(self, out: list[ev.Event]) -> int | None:
        if not self.draw_pile:
            if len(self.discard) <= 1 and not any(self.set_aside):
                return None
            self._reshuffle(out)
        return self.draw_pile.pop()

    def _reshuffle(self, out: list[ev.Event]) -> None:
        # The side in play stays: the new draw pile lies active side down.
        top = self.discard.pop()
        pile = self.discard
        if self.knocked_out:
            # No Mercy: the hands set aside by the Mercy rule go in too (section 1.7).
            for cards in self.set_aside:
                pile.extend(cards)
                cards.clear()
        shuffle(self.rng, pile)
        self.draw_pile = pile
        self.discard = [top]
        out.append(ev.PileReshuffled(len(pile)))

    def _give(
        self, seat: int, cards: list[int], reason: str, out: list[ev.Event], private: bool = True
    ) -> None:
        if not cards:
            return
        hand = self.hands[seat]
        hand.extend(cards)
        self.uno_declared[seat] = False
        self.received[seat] += len(cards)
        if self.uno_exposed == seat:
            self.uno_exposed = None
        if self.uno_exposed_more:
            self._drop_exposure(seat)
        faces = self._faces[self.side]
        # Most draws are one card: building a map object for it costs more than the rest here.
        drawn = (faces[cards[0]],) if len(cards) == 1 else tuple(map(faces.__getitem__, cards))
        out.append(ev.CardsDrawn(self.players[seat], len(cards), reason, drawn, private))
        if self._no_mercy and len(hand) >= self._mercy_limit:
            self._knock_out(seat, out)

    def _draw_cards(self, seat: int, count: int, reason: str, out: list[ev.Event]) -> None:
        if self._no_mercy:
            count = min(count, self._room(seat))  # the Mercy rule: the rest lapses
        cards: list[int] = []
        for _ in range(count):
            card = self._take_card(out)
            if card is None:
                out.append(ev.DrawStopped(self.players[seat]))
                break
            cards.append(card)
        self._give(seat, cards, reason, out)

    def _draw_until_color(
        self,
        seat: int,
        color: Color,
        extra: int,
        out: list[ev.Event],
        reason: str = "",
        public: bool = False,
    ) -> None:
        faces = self._faces[self.side]
        cards: list[int] = []
        room = self._room(seat) if self._no_mercy else -1
        while len(cards) != room:
            card = self._take_card(out)
            if card is None:
                out.append(ev.DrawStopped(self.players[seat]))
                break
            cards.append(card)
            if faces[card].color is color:
                break
        self._give(seat, cards, reason or f"drawing until {color.value}", out, not public)
        if extra:
            self._draw_cards(seat, extra, "challenge", out)

    def _flip(self, seat: int, out: list[ev.Event]) -> None:
        # The whole discard pile turns over (the Flip goes to the bottom), so does the draw pile,
        # and every hand changes side. The revealed top card's action is ignored.
        self.discard.reverse()
        self.draw_pile.reverse()
        self.side = Side.DARK if self.side is Side.LIGHT else Side.LIGHT
        top = self._faces[self.side][self.discard[-1]]
        self.color = top.color
        out.append(ev.Flipped(self.players[seat], self.side, top))

    # ------------------------------------------------------------------ rounds

    def _deal_round(self, out: list[ev.Event]) -> None:
        count = len(self.players)
        pile = list(range(len(self.deck)))
        shuffle(self.rng, pile)
        # Dealt one card at a time from the top (the list's end), round the table from the
        # dealer's left: the player ``offset`` seats on gets every count-th card down from the
        # ``offset``-th from the top, taken here in one slice per hand. (The slice never stops
        # below index 0: every deck holds more than its most players take, 108 cards for ten
        # hands of seven.)
        hand_size = variant_entry(self.rules.variant).hand_size
        dealt = count * hand_size
        top = len(pile)
        hands: list[list[int]] = [[] for _ in range(count)]
        for offset in range(1, count + 1):
            first = top - offset
            hands[(self.dealer + offset) % count] = pile[first : first - dealt : -count]
        del pile[top - dealt :]
        self.hands = hands
        self.side = Side.LIGHT
        self.direction = 1
        self.draw_pile = pile
        self.discard = []
        self.drawn_card = None
        self._reset_penalty()
        self.uno_declared = [False] * count
        self.uno_exposed = None
        self.uno_exposed_more = []
        # Knocked-out players are dealt back in (section 1.10); the deal took every card.
        self.knocked_out = []
        self.set_aside = [[] for _ in range(count)]
        self._forget_turns()
        self.lost_turns = [0] * count
        if self._no_mercy or self._opens_on_number:
            self._open_on_number(out)
            return
        if self._all_wild:
            self._open_all_wild(out)
            return
        reshuffled = 0
        light = self._faces[Side.LIGHT]
        while True:
            starter = pile.pop()
            if light[starter].kind not in DRAW_WILD_KINDS:
                break
            # A draw-wild cannot start the round: put it back, shuffle, turn another.
            pile.append(starter)
            shuffle(self.rng, pile)
            reshuffled += 1
        self.discard.append(starter)
        face = light[starter]
        out.append(ev.RoundStarted(self.round_no, self.players[self.dealer], face, reshuffled))
        self._apply_starter(face, out)

    def _apply_starter(self, face: Face, out: list[ev.Event]) -> None:
        first = (self.dealer + 1) % len(self.players)
        dealer_name = self.players[self.dealer]
        self.color = face.color
        kind = face.kind
        if kind is Kind.FLIP:
            self._flip(self.dealer, out)
            face = self.top_face()
            kind = Kind.WILD if face.color is None else Kind.NUMBER  # the revealed action is void
        if face.color is None:
            self.current = first
            self._ask_color(AfterColor.SAME_PLAYER)
        elif kind in DRAW_AMOUNT:
            self._draw_cards(first, DRAW_AMOUNT[kind], face.name(), out)
            out.append(ev.TurnSkipped(self.players[first]))
            self._start_turn((first + 1) % len(self.players), out)
        elif kind is Kind.SKIP:
            out.append(ev.TurnSkipped(self.players[first]))
            self._start_turn((first + 1) % len(self.players), out)
        elif kind is Kind.REVERSE:
            # The dealer starts and play goes to the right.
            self.direction = -1
            out.append(ev.DirectionChanged(-1))
            self._start_turn(self._seat[dealer_name], out)
        else:
            self._start_turn(first, out)

    def _end_round(self, winner: int, out: list[ev.Event]) -> None:
        card_points = self._points[self.side]
        # Plain loops: a generator and sum() per hand cost several times the adding up.
        points: dict[str, int] = {}
        for player, hand in zip(self.players, self.hands, strict=True):
            total = 0
            for card in hand:
                total += card_points[card]
            points[player] = total
        winner_id = self.players[winner]
        if self.rules.scoring != "alternative":
            awarded = {player: 0 for player in self.players}
            # No Mercy: 250 more for each player knocked out during the hand.
            bonus = variant_entry(self.rules.variant).knockout_bonus * len(self.knocked_out)
            awarded[winner_id] = sum(points.values()) + bonus
        else:
            awarded = dict(points)
        for player, gained in awarded.items():
            self.scores[player] += gained
        self.rounds_won[winner_id] += 1
        self.uno_exposed = None
        self.drawn_card = None
        self._reset_penalty()
        result = RoundResult(self.round_no, winner_id, self.side, points, awarded)
        self.history.append(result)
        out.append(
            ev.RoundEnded(
                self.round_no,
                winner_id,
                self.side,
                tuple(points.items()),
                tuple(awarded.items()),
                tuple(self.scores.items()),
            )
        )
        self.phase = Phase.ROUND_OVER
        one_hand = self.rules.scoring == "one_hand"
        match_winner = winner_id if one_hand else self._match_winner()
        if match_winner is not None:
            self.match_winner = match_winner
            self.phase = Phase.MATCH_OVER
            out.append(ev.MatchEnded(match_winner, tuple(self.scores.items())))

    def _match_winner(self) -> str | None:
        target = self.rules.target
        seated = self.players
        scores = self.scores
        for player in seated:  # (any() over a generator costs more than the loop)
            if scores[player] >= target:
                break
        else:
            return None
        if self.rules.scoring == "standard":
            return max(seated, key=lambda p: self.scores[p])
        # Alternative scoring: lowest total wins; ties go to more rounds won, then seat order.
        return min(seated, key=lambda p: (self.scores[p], -self.rounds_won[p]))

    def start_next_round(self) -> list[ev.Event]:
        """Deal the next round after a scored one; the deal passes one seat to the left."""
        if self.phase is not Phase.ROUND_OVER:
            raise IllegalMove("The round is not over yet.")
        out: list[ev.Event] = []
        self.dealer = (self.dealer + 1) % len(self.players)
        self.round_no += 1
        self._deal_round(out)
        return out

    # ------------------------------------------------------------------ leaving

    def remove_player(self, player: str, reason: str = "left") -> list[ev.Event]:
        """Take ``player`` out of the game; their cards go into the draw pile."""
        seat = self.seat_of(player)
        if self.phase in GAME_OVER_PHASES:
            raise IllegalMove("The game is already over.")
        out: list[ev.Event] = []
        if seat == self.current and self.phase in CHOICE_PHASES:
            # Their pending choice is made for them so the card they played keeps its effect.
            out.extend(self.apply(player, self._default_move(seat)))
            if self.phase in GAME_OVER_PHASES:
                out.append(ev.PlayerRemoved(player, reason))
                return out
        was_current = self.phase not in TERMINAL_PHASES and seat == self.current
        if was_current and self.phase is Phase.PENALTY:
            self._reset_penalty()
        elif self.penalty_source == seat:
            # The draw card already played still counts; only the challenge leaves with the
            # hand it would inspect. (Resetting here left the victim owing nothing in PENALTY.)
            self.penalty_source = None
            self.penalty_challengeable = False
        # (No Mercy: a knocked-out player's set-aside hand goes into the draw pile with them.)
        cards = self.hands.pop(seat) + self.set_aside.pop(seat)
        self.draw_pile[:0] = cards
        shuffle(self.rng, self.draw_pile)
        self.players.pop(seat)
        self.uno_declared.pop(seat)
        self.turn_log.pop(seat)
        self.received.pop(seat)
        self.lost_turns.pop(seat)
        count = len(self.players)
        if self.uno_exposed == seat:
            self.uno_exposed = None
        elif self.uno_exposed is not None and self.uno_exposed > seat:
            self.uno_exposed -= 1
        if self.penalty_source is not None and self.penalty_source > seat:
            self.penalty_source -= 1
        self.uno_exposed_more = [s - (s > seat) for s in self.uno_exposed_more if s != seat]
        self.knocked_out = [s - (s > seat) for s in self.knocked_out if s != seat]
        # The deal still passes to the player who sat after the one leaving.
        self.dealer = (self.dealer - (self.dealer >= seat)) % count
        if was_current:
            self.current = (seat if self.direction == 1 else seat - 1) % count
        else:
            self.current = (self.current - (self.current > seat)) % count
        self._reindex()
        out.append(ev.PlayerRemoved(player, reason))
        if count < MIN_PLAYERS:
            self.phase = Phase.ABANDONED
            out.append(ev.GameAbandoned(tuple(self.players)))
        elif self.knocked_out and self.phase not in TERMINAL_PHASES:
            self._after_leaving_no_mercy(was_current, out)
        elif was_current:
            self._start_turn(self.current, out)
        return out

    def _after_leaving_no_mercy(self, was_current: bool, out: list[ev.Event]) -> None:
        # Only one player still in: they win the hand. Otherwise the turn goes on from a
        # player still in.
        still_in = [s for s in range(len(self.players)) if s not in self.knocked_out]
        if len(still_in) == 1:
            self._end_round(still_in[0], out)
            return
        while self.current in self.knocked_out:
            self.current = (self.current + self.direction) % len(self.players)
        if was_current:
            self._start_turn(self.current, out)

    # ------------------------------------------------------------------ timeouts

    def default_move(self, player: str) -> Move | None:
        """The move made for ``player`` when their turn times out (None if nothing is due)."""
        seat = self._seat.get(player)
        if seat is None or seat != self.current or self.phase in TERMINAL_PHASES:
            return None
        return self._default_move(seat)

    def _default_move(self, seat: int) -> Move:
        phase = self.phase
        if phase is Phase.PLAY:
            if self._must_play:  # "must play if able": a playable card first, else the draw
                return self.legal_moves(self.players[seat])[0]
            return DRAW
        if phase is Phase.DRAWN:
            return PASS
        if phase is Phase.PENALTY:
            return ACCEPT
        if phase is Phase.CHOOSE_COLOR:
            faces = self._faces[self.side]
            held = Counter(faces[c].color for c in self.hands[seat] if faces[c].color is not None)
            choices = self._color_choices[self.side]
            return max(choices, key=lambda choice: held[choice.color])
        others = [s for s in range(len(self.players)) if s != seat and s not in self.knocked_out]
        target = self.players[min(others, key=lambda s: len(self.hands[s]))]
        return TargetDraw(target) if phase is Phase.DRAW_TARGET else SwapWith(target)

    def auto_play(self, player: str) -> list[ev.Event]:
        """Play ``player``'s timed-out turn: draw and pass, accept a penalty, choose for them."""
        out: list[ev.Event] = []
        while (move := self.default_move(player)) is not None:
            out.extend(self.apply(player, move))
            if move is PASS or move is ACCEPT or self.current_player != player:
                break
            chosen = isinstance(move, Draw | ChooseColor | SwapWith | TargetDraw)
            if chosen and self.phase is Phase.PLAY:
                break
        return out

    # ------------------------------------------------------------------ explanations

    def _explain(self, seat: int, move: Move) -> str:
        phase = self.phase
        if phase is Phase.ROUND_OVER:
            return "The round is over: wait for the next one."
        if phase in (Phase.MATCH_OVER, Phase.ABANDONED):
            return "The game is over."
        hand = self.hands[seat]
        if isinstance(move, CallUno):
            if self.uno_declared[seat]:
                return "You already called UNO."
            return "You can only call UNO with two cards or fewer."
        if isinstance(move, Catch):
            target = self._seat.get(move.target)
            if target == seat:
                return "You cannot catch yourself."
            if target is None:
                return "That player is not in this game."
            return f"{self.name(move.target)} cannot be caught: they called UNO or it is too late."
        waiting = self.name(self.players[self.current])
        if seat != self.current:
            if isinstance(move, PlayCard) and self.rules.jump_in and phase is Phase.PLAY:
                return "Out of turn you can only jump in with a card identical to the top card."
            return f"It is not your turn: waiting for {waiting}."
        if phase is Phase.CHOOSE_COLOR:
            return "Choose a colour for your wild first."
        if phase is Phase.SWAP_TARGET:
            return "Choose whose hand to swap with first."
        if isinstance(move, Draw) and phase is Phase.PLAY and self._must_play:
            return "You can play a card, so you must: this table has no drawing instead."
        if phase is Phase.DRAW_TARGET:
            return "Choose who draws two first."
        if phase is Phase.PENALTY and self._no_mercy:
            threshold = self.stack_threshold()
            return f"Answer the stack first: take it, or stack a Draw Card of +{threshold} or more."
        if phase is Phase.PENALTY:
            return (
                "Answer the draw card first: accept it"
                + (", challenge it" if self.penalty_challengeable else "")
                + (" or stack a matching draw card." if self.rules.stacking else ".")
            )
        if phase is Phase.DRAWN:
            return "You already drew: play the card you drew or keep it."
        if isinstance(move, PlayCard):
            if move.card not in hand:
                return "That card is not in your hand."
            face = self._faces[self.side][move.card]
            top = self.top_face()
            color = self.color.value if self.color else "none"
            return f"{face.name()} does not match {top.name()} (colour in play: {color})."
        return "That move is not possible right now."

    # ------------------------------------------------------------------ copies and equality

    def fork(self, seed: int | None = None) -> Game:
        """An independent copy for search: moves applied to one never show in the other.

        With ``seed`` the copy's random draws are reseeded (a search samples many futures);
        otherwise it draws exactly what this game would. The deck and its lookup tables are
        shared, being immutable. The copy's public state may be edited before its first move
        (the AI deals the cards it cannot see into it).
        """
        rng: GameRandom
        if seed is not None:
            rng = CompactRandom(seed)
        elif isinstance(self.rng, CompactRandom):
            rng = self.rng.copy()
        else:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        return Game(self.players, self.rules, self.seed, _fork_of=self, _rng=rng)

    def _state(self) -> tuple[object, ...]:
        # Everything the saved JSON holds (the RNG without its unused gauss slot), for __eq__.
        return (
            self.rules,
            self.seed,
            self.rng.getstate()[:2],
            self._names,
            self.players,
            self.scores,
            self.rounds_won,
            self.history,
            self.match_winner,
            self.round_no,
            self.dealer,
            self.phase,
            self.hands,
            self.draw_pile,
            self.discard,
            self.side,
            self.color,
            self.direction,
            self.current,
            self.drawn_card,
            self.after_color,
            self.swap_then_color,
            self.pending_draw,
            self.penalty_kind,
            self.penalty_source,
            self.penalty_guilty,
            self.penalty_challengeable,
            self.uno_declared,
            self.uno_exposed,
            self.uno_exposed_more,
            self.knocked_out,
            self.set_aside,
            self.lost_turns,
            self.turn_log,
            self.received,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Game({self.rules.variant}, round {self.round_no}, {self.phase.value}, "
            f"players={self.players})"
        )
