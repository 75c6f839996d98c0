"""PlayerView: exactly what one player may know, for the UI and computer players.

``view_for(game, player)`` builds it; ``public_view(game)`` is a spectator's. This module reads
the game and the game never reads it (no import circle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Color, Face, Side
from .game import Game, Phase, RoundResult
from .moves import Move
from .variants import variant


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card in your own hand: its index (for moves), its face in play and its other face."""

    card: int
    face: Face
    back: Face | None


@dataclass(frozen=True, slots=True)
class TurnSeen:
    """One of an opponent's turns this round, as the table saw it."""

    top: Face
    color: Color | None
    # None: they drew instead of playing.
    played: Face | None
    named: Color | None
    # The smallest hand among the other players then (0: not known).
    fewest_other: int
    # Cards they have received since (unknown to the others).
    received_since: int


@dataclass(frozen=True, slots=True)
class OpponentView:
    """Another player as you see them: a card count and, in Flip, the backs of their cards."""

    player: str
    card_count: int
    backs: tuple[Face, ...] | None
    called_uno: bool
    score: int
    # Every turn they took this round on the side now in play, oldest first.
    turns: tuple[TurnSeen, ...] = ()

    # Their latest turn shown (see ``turns``), field by field; None (0) without one.
    @property
    def last_top(self) -> Face | None:
        """The top card they faced at their latest turn shown."""
        return self.turns[-1].top if self.turns else None

    @property
    def last_color(self) -> Color | None:
        """The colour in play at their latest turn shown."""
        return self.turns[-1].color if self.turns else None

    @property
    def last_played(self) -> Face | None:
        """The card they played at their latest turn shown (None: they drew, or no turn)."""
        return self.turns[-1].played if self.turns else None

    @property
    def last_named(self) -> Color | None:
        """The colour they named at their latest turn shown."""
        return self.turns[-1].named if self.turns else None

    @property
    def received_since(self) -> int:
        """Unknown cards they received since their latest turn shown (0 without one)."""
        return self.turns[-1].received_since if self.turns else 0


@dataclass(frozen=True, slots=True)
class ChallengeStakes:
    """What challenging the pending draw card costs: the player who played it draws
    ``bluffer_draws`` if they bluffed; otherwise the challenger draws ``challenger_draws``
    (after drawing until the colour, when ``until_color``; the bluffer then draws until it)."""

    challenged: str
    bluffer_draws: int
    challenger_draws: int
    until_color: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The table from one seat: own hand, public facts, never another player's side in play."""

    player: str
    variant: str
    phase: str
    round_no: int
    side: Side
    top: Face
    color: Color | None
    direction: int
    current_player: str | None
    dealer: str
    hand: tuple[HandCard, ...]
    opponents: tuple[OpponentView, ...]
    draw_pile_count: int
    draw_pile_back: Face | None
    discard_count: int
    pending_draw: int
    penalty_kind: str | None
    drawn_card: int | None
    catchable: str | None
    called_uno: bool
    scores: dict[str, int]
    target: int
    legal_moves: tuple[Move, ...]
    last_round: RoundResult | None
    match_winner: str | None
    # Seat order (play goes to the next seat when direction is 1) and the card under the top:
    # both are public at the table, and computer players need them.
    seats: tuple[str, ...] = ()
    under_top: Face | None = None
    # Every card on the discard pile, bottom to top, as everyone saw it played (side in play);
    # in Flip also the other side of each.
    discards: tuple[Face, ...] = ()
    discard_backs: tuple[Face, ...] | None = None
    # While a draw card waits for an answer: what a challenge would cost (None: it cannot be
    # challenged), and whether it may be stacked on under the house rules.
    challenge: ChallengeStakes | None = None
    stackable: bool = False
    # No Mercy (left out of the repr, which the engine's fingerprint hashes, as they are always
    # empty in Flip and classic): the least value a Draw Card stacked now must have, the
    # players knocked out this hand with the cards each has set aside until the reshuffle, and
    # every player who can be caught without UNO (a 0 can expose more than one).
    stack_threshold: int = field(default=0, repr=False)
    knocked_out: tuple[str, ...] = field(default=(), repr=False)
    set_aside: tuple[tuple[str, int], ...] = field(default=(), repr=False)
    catchable_all: tuple[str, ...] = field(default=(), repr=False)
    # All Wild (left out of the repr likewise): the players who still lose turns to a Wild
    # Skip Two with two players, and how many.
    lost_turns: tuple[tuple[str, int], ...] = field(default=(), repr=False)


def view_for(game: Game, player: str) -> PlayerView:
    """What ``player`` may know of ``game``: own hand, public facts, in Flip the others' backs.

    IllegalMove if they are not playing.
    """
    return _build(game, player)


def public_view(game: Game) -> PlayerView:
    """What a spectator sees: every seat as an opponent (counts, in Flip the backs), no hand,
    no moves."""
    return _build(game, None)


def _build(game: Game, player: str | None) -> PlayerView:
    seat = -1 if player is None else game.seat_of(player)
    flip = variant(game.rules.variant).double_sided
    back_side = Side.DARK if game.side is Side.LIGHT else Side.LIGHT
    own_cards = game.hands[seat] if seat >= 0 else []
    hand = tuple(
        HandCard(c, game.face(c), game.face(c, back_side) if flip else None) for c in own_cards
    )
    opponents = tuple(
        OpponentView(
            other,
            len(game.hands[s]),
            tuple(game.face(c, back_side) for c in game.hands[s]) if flip else None,
            game.uno_declared[s],
            game.scores[other],
            turns=_turns_seen(game, s),
        )
        for s, other in enumerate(game.players)
        if s != seat
    )
    pile_back = game.face(game.draw_pile[-1], back_side) if flip and game.draw_pile else None
    mine = seat == game.current
    stakes = game.challenge_stakes()
    penalty = game.phase is Phase.PENALTY
    return PlayerView(
        player=player or "",
        variant=game.rules.variant,
        phase=game.phase.value,
        round_no=game.round_no,
        side=game.side,
        top=game.top_face(),
        color=game.color,
        direction=game.direction,
        current_player=game.current_player,
        dealer=game.players[game.dealer],
        hand=hand,
        opponents=opponents,
        draw_pile_count=len(game.draw_pile),
        draw_pile_back=pile_back,
        discard_count=len(game.discard),
        pending_draw=game.pending_draw,
        penalty_kind=game.penalty_kind.value if game.penalty_kind else None,
        drawn_card=game.drawn_card if mine else None,
        catchable=game.catchable(),
        called_uno=seat >= 0 and game.uno_declared[seat],
        scores=dict(game.scores),
        target=game.rules.target,
        legal_moves=tuple(game.legal_moves(player)) if player is not None else (),
        last_round=game.history[-1] if game.history else None,
        match_winner=game.match_winner,
        seats=tuple(game.players),
        under_top=game.face(game.discard[-2]) if len(game.discard) > 1 else None,
        discards=tuple(game.face(c) for c in game.discard),
        discard_backs=tuple(game.face(c, back_side) for c in game.discard) if flip else None,
        challenge=None if stakes is None else ChallengeStakes(*stakes),
        stackable=penalty and game.penalty_stackable(),
        stack_threshold=game.stack_threshold(),
        knocked_out=tuple(game.players[s] for s in game.knocked_out),
        set_aside=tuple((game.players[s], len(game.set_aside[s])) for s in game.knocked_out),
        catchable_all=_catchable(game),
        lost_turns=tuple((p, n) for p, n in zip(game.players, game.lost_turns, strict=True) if n),
    )


def _catchable(game: Game) -> tuple[str, ...]:
    """Everyone who can be caught without UNO now."""
    if game.rules.catching == "off":
        return ()  # a friendly table: nobody is caught
    first = game.catchable()
    more = tuple(game.players[s] for s in game.uno_exposed_more)
    return more if first is None else (first, *more)


def _turns_seen(game: Game, seat: int) -> tuple[TurnSeen, ...]:
    """``seat``'s turns as the view shows them (only those on the side in play)."""
    return tuple(
        TurnSeen(
            game.face(t.top),
            t.color,
            None if t.played < 0 else game.face(t.played),
            t.named,
            t.fewest_other,
            game.received_since(seat, t),
        )
        for t in game.turn_log[seat]
        if t.side is game.side
    )
