"""Past-tense records of what happened, in order, for the UI to narrate.

Events name players by id and cards by their face on the side in play. Fields that only one
player may see are marked ``private``: the UI shows them to that player alone.

Treat events as immutable values: the engine hands out one shared ``TurnStarted`` per seat. They
are not frozen dataclasses only because those set every field through ``object.__setattr__``,
which makes building one five times slower (~1.2 µs instead of ~0.25 µs on Python 3.11), and the
move loop builds about one event per move. They still compare and hash by their fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Color, Face, Side


@dataclass(slots=True, unsafe_hash=True)
class DealerChosen:
    """Everyone drew a card to choose the first dealer (ties drew again)."""

    dealer: str
    draws: tuple[tuple[str, Face], ...]


@dataclass(slots=True, unsafe_hash=True)
class RoundStarted:
    """A round was dealt; ``starter`` is the turned-over first card."""

    round_no: int
    dealer: str
    starter: Face
    reshuffled_starters: int = 0


@dataclass(slots=True, unsafe_hash=True)
class CardPlayed:
    """``player`` played ``face`` (``jump_in`` when out of turn)."""

    player: str
    face: Face
    jump_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class CardsDrawn:
    """``player`` drew ``count`` cards; ``faces`` is private to them."""

    player: str
    count: int
    reason: str
    faces: tuple[Face, ...] = field(default=(), compare=False)
    private: bool = True


@dataclass(slots=True, unsafe_hash=True)
class DrawnCardKept:
    """``player`` kept the playable card they drew and passed."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class TurnSkipped:
    """``player`` lost their turn."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class DirectionChanged:
    """Play now goes clockwise (1) or counter-clockwise (-1)."""

    direction: int


@dataclass(slots=True, unsafe_hash=True)
class ColorChosen:
    """``player`` named ``color`` for the wild on top."""

    player: str
    color: Color


@dataclass(slots=True, unsafe_hash=True)
class Flipped:
    """Everything turned over; ``top`` is the new top card on ``side`` (its action ignored)."""

    player: str
    side: Side
    top: Face


@dataclass(slots=True, unsafe_hash=True)
class PileReshuffled:
    """The discard pile (less its top) was shuffled into a new draw pile."""

    cards: int


@dataclass(slots=True, unsafe_hash=True)
class DrawStopped:
    """Nothing was left to draw: the rest of the penalty counts as served."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class ChallengeResolved:
    """``challenger`` challenged ``challenged``; ``hand`` (private to the challenger) proves it."""

    challenger: str
    challenged: str
    guilty: bool
    hand: tuple[Face, ...] = field(default=(), compare=False)


@dataclass(slots=True, unsafe_hash=True)
class PenaltyStacked:
    """A draw card was stacked; ``total`` cards now pass on."""

    player: str
    total: int


@dataclass(slots=True, unsafe_hash=True)
class UnoCalled:
    """``player`` called UNO."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class UnoCaught:
    """``catcher`` caught ``target`` without UNO; the target draws 2."""

    catcher: str
    target: str


@dataclass(slots=True, unsafe_hash=True)
class HandsSwapped:
    """``player`` swapped hands with ``target``."""

    player: str
    target: str


@dataclass(slots=True, unsafe_hash=True)
class HandsRotated:
    """Every hand passed to the next player in the direction of play (Seven-O's 0)."""

    direction: int


@dataclass(slots=True, unsafe_hash=True)
class HandsShuffled:
    """All hands were collected, shuffled and dealt out again from ``first``."""

    player: str
    first: str


@dataclass(slots=True, unsafe_hash=True)
class OpeningCardsIgnored:
    """No Mercy: these action cards were turned up first and stay, without effect, under the
    number card that starts the discard pile."""

    faces: tuple[Face, ...]


@dataclass(slots=True, unsafe_hash=True)
class CardsDiscarded:
    """``player``'s Discard All took these cards of its colour from their hand (no effects)."""

    player: str
    faces: tuple[Face, ...]


@dataclass(slots=True, unsafe_hash=True)
class RouletteColorAsked:
    """A Wild Color Roulette hit ``player``: they name a colour, then reveal cards until it."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class PlayerKnockedOut:
    """The Mercy rule: ``player`` reached ``cards`` cards and is out of the hand; their cards
    are set aside until the next reshuffle."""

    player: str
    cards: int


@dataclass(slots=True, unsafe_hash=True)
class TurnStarted:
    """It is now ``player``'s turn."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class RoundEnded:
    """``winner`` went out; hands scored on ``side``; ``awarded`` is this round's points."""

    round_no: int
    winner: str
    side: Side
    hand_points: tuple[tuple[str, int], ...]
    awarded: tuple[tuple[str, int], ...]
    scores: tuple[tuple[str, int], ...]


@dataclass(slots=True, unsafe_hash=True)
class MatchEnded:
    """The match reached its target; ``winner`` won it."""

    winner: str
    scores: tuple[tuple[str, int], ...]


@dataclass(slots=True, unsafe_hash=True)
class PlayerRemoved:
    """``player`` left the game; their cards went into the draw pile."""

    player: str
    reason: str


@dataclass(slots=True, unsafe_hash=True)
class GameAbandoned:
    """Fewer than two players remain: the game ends without a winner."""

    remaining: tuple[str, ...]


Event = (
    DealerChosen
    | RoundStarted
    | CardPlayed
    | CardsDrawn
    | DrawnCardKept
    | TurnSkipped
    | DirectionChanged
    | ColorChosen
    | Flipped
    | PileReshuffled
    | DrawStopped
    | ChallengeResolved
    | PenaltyStacked
    | UnoCalled
    | UnoCaught
    | HandsSwapped
    | HandsRotated
    | HandsShuffled
    | OpeningCardsIgnored
    | CardsDiscarded
    | RouletteColorAsked
    | PlayerKnockedOut
    | TurnStarted
    | RoundEnded
    | MatchEnded
    | PlayerRemoved
    | GameAbandoned
)
