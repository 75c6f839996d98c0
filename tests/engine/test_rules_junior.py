"""UNO Junior: RULES-VARIANTS.md section 3, one test per rule and per choice marked [C]
(sections 3.3 and 6.6 to 6.8 included)."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest
from pydantic import ValidationError

from bot.engine import Game, IllegalMove, Kind, Phase, RuleSet, dumps, loads, view_for
from bot.engine.decks import deck_for
from bot.engine.events import Event, MatchEnded, OpeningCardsIgnored, RoundEnded, TurnSkipped
from bot.engine.moves import CHALLENGE, Catch, ChooseColor, PlayCard
from bot.engine.notation import faces, parse_face, setup
from bot.engine.variants import JUNIOR

from . import ScriptedRandom, card, deck_card, of_type, play

JR = RuleSet(variant="junior")


def level(n: int) -> RuleSet:
    """Junior at level ``n``."""
    return RuleSet.model_validate({"variant": "junior", "level": n})


def opening(tokens: str, dealer: int = 0) -> tuple[Game, list[Event]]:
    """A first round of three whose cards turned up after the deal are ``tokens`` in order."""
    game = Game(["ann", "ben", "cid"], JR, seed=7)
    below_hands = -(JUNIOR.hand_size * 3) - 1
    script = {below_hands - i: deck_card(game, t) for i, t in enumerate(tokens.split())}
    game.rng = ScriptedRandom(7, [script])
    game.dealer, game.round_no = dealer, 1
    out: list[Event] = []
    game._deal_round(out)
    return game, out


def kinds(rules: RuleSet) -> Counter[Kind]:
    """How many cards of each kind the deck of ``rules`` holds."""
    return Counter(card.light.kind for card in deck_for(rules))


# ------------------------------------------------------------------ 3.1 the deck (3.3.1, 3.3.2)


def test_the_provisional_deck_is_56_cards_numbered_0_to_8() -> None:
    """Numbers 0-8 once per colour, one Skip, Reverse and Draw Two per colour, eight Wilds."""
    counts = Counter(card.light for card in deck_for(JR))
    assert sum(counts.values()) == 56
    assert {face.number for face in counts if face.kind is Kind.NUMBER} == set(range(9))
    assert all(counts[parse_face(f"{c}{n}")] == 1 for c in "RYGB" for n in range(9))
    assert [counts[parse_face(t)] for t in ("RS", "YR", "G+2", "W")] == [1, 1, 1, 8]


def test_the_deck_file_is_named_and_marked_provisional() -> None:
    """Nobody mistakes the placeholder for the real deck: its name and first line say so."""
    assert JUNIOR.deck.file == "uno_junior_deck.provisional.csv"
    text = resources.files("bot.engine").joinpath(f"data/{JUNIOR.deck.file}").read_text()
    assert text.startswith("# PROVISIONAL DECK")


def test_there_is_no_wild_draw_four_so_no_challenge() -> None:
    """Section 3.2: no Wild Draw Four in any level, and no challenge is ever offered."""
    for n in (1, 2, 3):
        assert kinds(level(n))[Kind.WILD_DRAW_FOUR] == 0
    game = Game.new(["ann", "ben", "cid"], JR, seed=2)
    assert all(CHALLENGE not in game.legal_moves(p) for p in game.players)


# ------------------------------------------------------------------ levels (3.3.3)


def test_level_one_is_numbers_only() -> None:
    """[C] The level filters the deck: 36 number cards."""
    assert kinds(level(1)) == Counter({Kind.NUMBER: 36})


def test_level_two_adds_skip_reverse_and_wild() -> None:
    """[C] 52 cards: the numbers, a Skip and a Reverse per colour, eight Wilds; no draw card."""
    assert kinds(level(2)) == Counter(
        {Kind.NUMBER: 36, Kind.SKIP: 4, Kind.REVERSE: 4, Kind.WILD: 8}
    )


def test_level_three_adds_the_draw_cards_and_is_the_default() -> None:
    """[C] The whole 56 cards, Draw Twos included; a table that names no level plays it."""
    assert kinds(level(3))[Kind.DRAW_TWO] == 4 and len(deck_for(level(3))) == 56
    assert JR.level == 3


def test_a_level_game_saves_and_loads_with_its_level() -> None:
    """The level is part of the saved rules (and left out of other variants' JSON)."""
    game = Game.new(["ann", "ben"], level(1), seed=4)
    assert loads(dumps(game)).rules.level == 1
    assert '"level"' not in RuleSet(variant="classic").model_dump_json()


def test_only_junior_has_levels() -> None:
    """Another variant, or a fourth level, is refused."""
    with pytest.raises(ValidationError, match="only UNO Junior has levels"):
        RuleSet.model_validate({"variant": "classic", "level": 1})
    with pytest.raises(ValidationError):
        RuleSet.model_validate({"variant": "junior", "level": 4})


# ------------------------------------------------------------------ 3.2 players, deal, start


def test_two_to_four_players_with_five_cards_each() -> None:
    """Four players are dealt five cards each; five players are refused."""
    game = Game.new(["a", "b", "c", "d"], JR, seed=1)
    assert [len(hand) for hand in game.hands] == [5, 5, 5, 5]
    with pytest.raises(ValueError):
        Game.new(["a", "b", "c", "d", "e"], JR, seed=1)


def test_the_round_opens_on_a_number_with_the_actions_beneath_it() -> None:
    """[C] Cards are turned until a number shows; those turned before stay under it, no effect."""
    game, out = opening("W RS G+2 Y4")
    assert [game.face(c) for c in game.discard] == faces("W RS G+2 Y4")
    assert of_type(out, OpeningCardsIgnored)[0].faces == tuple(faces("W RS G+2"))
    assert game.current_player == "ben" and game.phase is Phase.PLAY
    assert game.direction == 1 and all(len(hand) == 5 for hand in game.hands)


def test_the_player_left_of_the_dealer_starts() -> None:
    """[C] The bot cannot know who is youngest: the left of the dealer starts."""
    game, _ = opening("R5", dealer=2)
    assert game.current_player == "ann"


# ------------------------------------------------------------------ a turn and the cards


def test_match_by_colour_or_number_or_play_a_wild_that_names_a_colour() -> None:
    """Classic matching; a Wild asks for a colour (section 3.2)."""
    game = setup({"ann": "R1 B5 G7 W", "ben": "Y1 Y2"}, "B7", rules=JR)
    playable = {game.face(m.card) for m in game.legal_moves("ann") if isinstance(m, PlayCard)}
    assert playable == set(faces("B5 G7 W"))
    play(game, "ann", "W")
    assert game.phase is Phase.CHOOSE_COLOR
    assert {m.color for m in game.legal_moves("ann") if isinstance(m, ChooseColor)} == {
        parse_face(f"{c}1").color for c in "RYGB"
    }


def test_symbols_match_the_same_symbol_of_another_colour() -> None:
    """[C] Section 6.6: a Skip, Reverse or Draw Two plays on the same kind in another colour."""
    game = setup({"ann": "BS BR B+2 B1", "ben": "Y1 Y2 Y3"}, "RS", rules=JR)
    assert PlayCard(card(game, "ann", "BS")) in game.legal_moves("ann")
    assert PlayCard(card(game, "ann", "BR")) not in game.legal_moves("ann")


def test_nothing_stacks_on_a_draw_two() -> None:
    """[C] No stacking: the next player draws two and loses the turn at once."""
    game = setup({"ann": "R+2 R1", "ben": "B+2 Y1", "cid": "G1 G2"}, "R3", rules=JR)
    events = play(game, "ann", "R+2")
    assert len(game.hand("ben")) == 4 and of_type(events, TurnSkipped)
    assert game.current_player == "cid"
    with pytest.raises(ValidationError):
        RuleSet(variant="junior", stacking=True)


def test_a_draw_two_played_last_still_makes_the_next_player_draw() -> None:
    """[C] Section 6.8: the next player draws, and the player who went out wins."""
    game = setup({"ann": "R+2", "ben": "Y1 Y2", "cid": "G1 G2"}, "R3", rules=JR)
    events = play(game, "ann", "R+2")
    assert len(game.hand("ben")) == 4
    assert of_type(events, MatchEnded)[0].winner == "ann"


# ------------------------------------------------------------------ the end: no scoring


def test_the_first_player_out_wins_the_game_and_no_score_is_kept() -> None:
    """Section 3.2: one round is the game; every hand is worth 0."""
    game = setup({"ann": "R1", "ben": "Y1 Y2 W", "cid": "G7 G8"}, "R3", rules=JR)
    events = play(game, "ann", "R1")
    (ended,) = of_type(events, RoundEnded)
    assert set(dict(ended.hand_points).values()) == {0}
    assert set(dict(ended.awarded).values()) == {0}
    assert game.phase is Phase.MATCH_OVER and game.match_winner == "ann"
    assert game.rounds_won["ann"] == 1


def test_junior_refuses_scoring_and_the_house_rules() -> None:
    """Scoring, Seven-O, jump-in, drawing until playable and forced play are fixed off."""
    for option, value in [
        ("scoring", "standard"),
        ("seven_o", True),
        ("jump_in", True),
        ("draw_until_playable", True),
        ("forced_play", True),
    ]:
        with pytest.raises(ValidationError, match="UNO Junior"):
            RuleSet.model_validate({"variant": "junior", option: value})


def test_a_friendly_table_turns_catching_off() -> None:
    """[C] With catching off, a player left with one card without UNO cannot be caught."""
    friendly = RuleSet.model_validate({"variant": "junior", "catching": "off"})
    game = setup({"ann": "R1 R2", "ben": "Y1 Y2", "cid": "G1 G2"}, "R3", rules=friendly)
    play(game, "ann", "R1")
    assert game.catchable() is None
    assert not any(isinstance(m, Catch) for p in game.players for m in game.legal_moves(p))
    assert view_for(game, "ben").catchable_all == ()
    with pytest.raises(IllegalMove):
        game.apply("ben", Catch("ann"))
    assert loads(dumps(game)).rules.catching == "off"


def test_catching_is_on_by_default() -> None:
    """Without the friendly option the usual UNO catch applies (section 3.2)."""
    game = setup({"ann": "R1 R2", "ben": "Y1 Y2", "cid": "G1 G2"}, "R3", rules=JR)
    play(game, "ann", "R1")
    assert Catch("ann") in game.legal_moves("ben")
    assert '"catching"' not in JR.model_dump_json()
