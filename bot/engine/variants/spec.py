"""What a variant declares: its deck, players, colours, scoring, options, command and words.

A variant is data, not code paths: the engine, the AI and the UI read these fields instead of
testing a variant's name. Only the standard library and ``cards`` are imported here, so every
engine module (``decks``, ``rules``, ``scoring``, ``game``) may read a spec.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..cards import Color, Face, Kind

# The key of ``DeckSpec.sizes`` for a deck that no rule option chooses from.
WHOLE_DECK = ""
# RuleSet fields that only a variant declaring them in ``rule_options`` offers (UNO Junior's
# level and friendly table, No Mercy's "must play if able", RULES-VARIANTS.md 1.14.7): no other
# game has them, so no other start command shows them.
OWN_OPTIONS = frozenset({"level", "catching", "must_play"})


@dataclass(frozen=True, eq=False)
class DeckSpec:
    """A deck data file under ``bot/engine/data`` and the counts it must hold.

    The file is a CSV with the columns ``light_color,light_kind,light_number``, for a
    double-sided deck ``dark_color,dark_kind,dark_number``, and optionally ``count`` (copies of
    the row, default 1) and ``decks`` (space-separated values of the ``chosen_by`` rule option
    whose deck holds the row; empty: every deck). Rows are cards in deck order: a saved game
    refers to cards by their index, so never reorder a shipped file, only append. Lines
    starting with ``#`` are notes (where the counts come from, whether they are verified).

    At load the whole file's faces must equal ``composition`` (one count table per side), and
    each deck chosen from it must have ``sizes[value]`` cards; otherwise ``DeckError``.
    """

    file: str
    composition: tuple[Mapping[Face, int], ...]
    sizes: Mapping[str, int]
    # The RuleSet field whose value picks the cards tagged for it (classic: "edition"); None
    # when the whole file is the one deck (then ``sizes`` has the one key ``WHOLE_DECK``).
    chosen_by: str | None = None

    @property
    def sides(self) -> int:
        """1 for single-sided cards, 2 for Flip's light and dark faces."""
        return len(self.composition)


@dataclass(frozen=True)
class RuleOption:
    """How one RuleSet field applies to a variant: its default and the values it may take.

    ``allowed`` None takes every value the field's type takes; one allowed value fixes the
    option (it is not offered); ``refusal`` is the sentence for any other value (RuleSet's
    validation error), and ``refusal_key`` the catalog key that tells a player the same.
    """

    default: object
    allowed: tuple[object, ...] | None = None
    refusal: str = ""
    refusal_key: str = "settings.reason.other"

    def permits(self, value: object) -> bool:
        """Whether ``value`` is a legal setting of this option in this variant."""
        return self.allowed is None or value in self.allowed


@dataclass(frozen=True)
class VariantWords:
    """The message-catalog keys that name and explain a variant (bot/ui/locales/*.po)."""

    # "UNO Flip": boards, stats, the lobby.
    name: str
    # The lobby's title.
    lobby_title: str
    # The table's title, given {round} and, for a double-sided deck, {side}.
    table_title: str
    # The rules summary's first line; a deck chosen by an option adds "_<value>" (the default
    # deck, the first key of ``DeckSpec.sizes``, adds nothing).
    summary: str
    # The prefix of the rules page: "<rules>.title", "<rules>.intro", "<rules>.<section>.title"
    # and "<rules>.<section>.body" for each of ``rules_sections``.
    rules: str
    rules_sections: tuple[str, ...]
    # The finished match's footer, how to start another game (given {command}, this variant's
    # own start command); Flip and classic keep the footer that names them both.
    again: str = "match.footer.variant"


@dataclass(frozen=True, eq=False)
class Variant:
    """One game of UNO as an entry: everything the engine, the AI and the UI ask of it.

    ``key`` is stored in RuleSet.variant, in saved games and in the store's rows: never
    rename one. ``command`` is the slash subcommand (``/uno <command> start``); its name and
    description are translated from the catalog keys ``cmd.uno.<command>.name`` and
    ``cmd.uno.<command>.description``, and ``description`` is the English default.
    """

    key: str
    command: str
    description: str
    deck: DeckSpec
    # The colours a wild may name, per side (side 0 light; a second entry: double-sided).
    colors: tuple[tuple[Color, ...], ...]
    # Points of every non-number kind left in a hand; a number card scores its number.
    points: Mapping[Kind, int]
    words: VariantWords
    # The card art's family: which faces and backs ``bot/ui/cards`` draws ("flip", "classic",
    # "nomercy", "junior": bot/ui/cards/draw.py's Family names each).
    art: str
    min_players: int = 2
    max_players: int = 10
    hand_size: int = 7
    # The default match target (RuleSet.target when the start does not name one).
    target: int = 500
    # The rules of UNO Show 'Em No Mercy (RULES-VARIANTS.md section 1), for a deck made for
    # them: Draw Cards stack by value whatever their colour, 7s and 0s are compulsory, the last
    # card wins with no effect, the first number card turned up opens the pile, no draw card
    # can be challenged, and a hand of ``mercy_limit`` cards is knocked out (set aside until a
    # reshuffle; the hand's winner scores ``knockout_bonus`` for each).
    no_mercy_rules: bool = False
    mercy_limit: int = 0
    knockout_bonus: int = 0
    # The rules of UNO All Wild (RULES-VARIANTS.md section 2), for a deck of wilds only: no
    # colour is ever named, no draw card is challenged, every kind acts as its own card says
    # (skips, targeted draws, forced swaps) and its first card turned up has no effect.
    all_wild_rules: bool = False
    # Whether the round opens on the first number card turned up, the action cards before it
    # staying beneath it without effect (Junior, section 3.2; No Mercy does so by its rules).
    opens_on_number: bool = False
    # False: no score is kept (Junior, section 3.2): every card left in a hand is worth 0.
    scored: bool = True
    # RuleSet fields that differ here from RuleSet's own default or range; every other field
    # applies with RuleSet's default.
    rule_options: Mapping[str, RuleOption] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        """Refuse an entry that contradicts itself (at import, before any game uses it)."""
        unscored = self.kinds - {Kind.NUMBER} - set(self.points)
        if unscored:
            raise ValueError(f"{self.key}: no points for {sorted(unscored)}")
        if len(self.colors) != self.deck.sides:
            raise ValueError(
                f"{self.key}: colours for {len(self.colors)} sides, cards have {self.deck.sides}"
            )
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.key}: players {self.min_players} to {self.max_players}")

    @property
    def double_sided(self) -> bool:
        """Whether cards have a dark side that a Flip card turns up (and backs show it)."""
        return self.deck.sides == 2

    @property
    def kinds(self) -> frozenset[Kind]:
        """Every kind of card the deck holds, on any side (what actions the game can have)."""
        return frozenset(face.kind for side in self.deck.composition for face in side)

    def colors_on(self, side: int) -> tuple[Color, ...]:
        """The colours a wild may name while ``side`` is up (single-sided cards have one)."""
        return self.colors[min(side, len(self.colors) - 1)]

    def face_points(self, face: Face) -> int:
        """What ``face`` left in a hand scores at the end of a round."""
        if not self.scored:
            return 0
        if face.kind is Kind.NUMBER:
            return face.number or 0
        return self.points[face.kind]

    def offers(self, option: str) -> bool:
        """Whether a game of this variant may set the RuleSet field ``option`` (start, settings)."""
        rule = self.rule_options.get(option)
        if rule is None:
            return option not in OWN_OPTIONS
        return rule.allowed is None or len(rule.allowed) > 1

    def permits(self, option: str, value: object) -> bool:
        """Whether a game of this variant may set the RuleSet field ``option`` to ``value``."""
        rule = self.rule_options.get(option)
        return rule is None or rule.permits(value)

    def default(self, option: str, fallback: object) -> object:
        """This variant's default for RuleSet field ``option`` (``fallback``: RuleSet's own)."""
        rule = self.rule_options.get(option)
        return fallback if rule is None else rule.default

    def refusals(self, values: Mapping[str, object]) -> Iterable[str]:
        """A sentence for each RuleSet field in ``values`` set to a value this variant refuses."""
        for option, rule in self.rule_options.items():
            if option in values and not rule.permits(values[option]):
                yield rule.refusal or f"{option} cannot be {values[option]!r} in {self.key}"


def each_color(
    colors: Iterable[Color], numbers: Mapping[int, int], actions: Mapping[Kind, int]
) -> dict[Face, int]:
    """Counts for a composition table: ``numbers`` and ``actions`` copies in each colour."""
    table: dict[Face, int] = {}
    for color in colors:
        for number, copies in numbers.items():
            table[Face(color, Kind.NUMBER, number)] = copies
        for kind, copies in actions.items():
            table[Face(color, kind)] = copies
    return table
