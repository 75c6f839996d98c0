"""UNO Show 'Em No Mercy: RULES-VARIANTS.md section 1, one test per rule, per row of the
section 1.13 table and per ambiguity settled in section 1.14."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from bot.engine import Color, Game, IllegalMove, Phase, RuleSet, dumps, loads, view_for
from bot.engine.decks import DeckError, deck_of, parse_deck
from bot.engine.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    ColorChosen,
    DirectionChanged,
    Event,
    HandsRotated,
    MatchEnded,
    OpeningCardsIgnored,
    PenaltyStacked,
    PileReshuffled,
    PlayerKnockedOut,
    RouletteColorAsked,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
)
from bot.engine.moves import ACCEPT, CALL_UNO, CHALLENGE, DRAW, Catch, ChooseColor, SwapWith
from bot.engine.notation import faces, parse_face, setup
from bot.engine.variants import NO_MERCY

from . import ScriptedRandom, card, deck_card, of_type, play

NM = RuleSet(variant="nomercy")
SCORED = RuleSet(variant="nomercy", scoring="standard")


def big_hand(count: int) -> str:
    """``count`` yellow and green number cards (at most 32; no 1 or 4, which the other hands
    of these tests hold), to bring a hand near 25."""
    tokens = [f"{c}{n}" for c in "YG" for n in (0, 2, 3, 5, 6, 7, 8, 9) for _ in range(2)]
    return " ".join(tokens[:count])


def name_blue(game: Game, player: str) -> list[Event]:
    """Name blue for the wild ``player`` just played."""
    return game.apply(player, ChooseColor(Color.BLUE))


def cards_total(game: Game) -> int:
    """Every card of the game: hands, both piles and the set-aside hands."""
    held = sum(map(len, game.hands)) + sum(map(len, game.set_aside))
    return held + len(game.draw_pile) + len(game.discard)


# ------------------------------------------------------------------ 1.1 the deck (1.14.1)


def test_the_deck_is_the_168_card_community_breakdown() -> None:
    """36 cards a colour (two of each number, 0 too), 8/4/4/8 wilds, no plain Wild."""
    deck = deck_of(NO_MERCY)
    counts = Counter(card.light for card in deck)
    assert len(deck) == 168
    assert counts[parse_face("R0")] == 2 and counts[parse_face("B9")] == 2
    assert [counts[parse_face(t)] for t in ("G+2", "G+4", "GS", "GSE", "GR", "GDA")] == [
        3,
        2,
        3,
        2,
        3,
        3,
    ]
    assert [counts[parse_face(t)] for t in ("WR+4", "W+6", "W+10", "WCR")] == [8, 4, 4, 8]
    assert counts[parse_face("W")] == 0 and counts[parse_face("W+4")] == 0


def test_a_deck_file_with_a_wrong_count_is_refused_at_load() -> None:
    """One Draw Two fewer (the editioncards.com typo) fails the check against the table."""
    text = (
        "light_color,light_kind,light_number,count\n"
        + "".join(
            f"{c},number,{n},2\n" for c in ("red", "yellow", "green", "blue") for n in range(10)
        )
        + "red,draw_two,,2\n"
    )
    with pytest.raises(DeckError):
        parse_deck(text, NO_MERCY.deck, "nomercy")


# ------------------------------------------------------------------ 1.2 deal and start


def _opening(tokens: str, players: int = 3) -> tuple[Game, list[Event]]:
    """A first hand whose cards turned up after the deal are ``tokens`` in order."""
    game = Game([f"p{i}" for i in range(players)], NM, seed=7)
    below_hands = -(7 * players) - 1
    script = {below_hands - i: deck_card(game, t) for i, t in enumerate(tokens.split())}
    game.rng = ScriptedRandom(7, [script])
    game.dealer = 0
    game.round_no = 1
    out: list[Event] = []
    game._deal_round(out)
    return game, out


def test_opening_action_cards_are_ignored_and_stay_under_the_first_number() -> None:
    """Wild Draw Ten, Skip, Reverse Draw 4 turned first: they stay in the pile, no effect."""
    game, out = _opening("W+10 RS WR+4 G5")
    assert [game.face(c) for c in game.discard] == faces("W+10 RS WR+4 G5")
    assert of_type(out, OpeningCardsIgnored)[0].faces == tuple(faces("W+10 RS WR+4"))
    assert game.color is Color.GREEN and game.direction == 1
    assert game.current_player == "p1" and game.phase is Phase.PLAY
    assert all(len(hand) == 7 for hand in game.hands)


@pytest.mark.parametrize("token", ["R0", "R7"])
def test_an_opening_0_or_7_does_nothing(token: str) -> None:
    """Nobody played it: no hands pass or swap, the player left of the dealer starts."""
    game, out = _opening(token)
    hands = [list(h) for h in game.hands]
    assert of_type(out, RoundStarted)[0].starter == parse_face(token)
    assert game.phase is Phase.PLAY and game.current_player == "p1"
    assert game.hands == hands and not of_type(out, HandsRotated)


def test_two_to_six_players() -> None:
    """No Mercy seats 2 to 6 players."""
    Game.new(["a", "b"], NM)
    Game.new([f"p{i}" for i in range(6)], NM)
    with pytest.raises(ValueError, match="2 to 6"):
        Game.new([f"p{i}" for i in range(7)], NM)


def test_the_first_dealer_is_chosen_by_draw_as_in_classic() -> None:
    """Section 1.14.15: everyone draws, the highest number deals (RULES.md section 1)."""
    game, out = Game.start(["a", "b", "c"], NM, seed=3)
    assert out[0].__class__.__name__ == "DealerChosen"
    assert game.current == (game.dealer + 1) % 3


# ------------------------------------------------------------------ 1.3 a turn


def test_without_a_match_you_draw_until_playable_and_play_it() -> None:
    """Section 1.13 'no playable card': draw until playable, then that card is played."""
    game = setup({"ann": "B3", "ben": "G4", "cid": "Y1"}, top="R5", rules=NM, draw="Y2 G7 R9")
    out = game.apply("ann", DRAW)
    assert of_type(out, CardsDrawn)[0].count == 3
    assert of_type(out, CardPlayed)[0].face == parse_face("R9")
    assert game.current_player == "ben" and len(game.hand("ann")) == 3


def test_a_player_may_draw_although_holding_a_playable_card() -> None:
    """Section 1.14.7: drawing is allowed, then it is draw until playable and play that."""
    game = setup({"ann": "R3", "ben": "G4", "cid": "Y1"}, top="R5", rules=NM, draw="Y2 R8")
    assert DRAW in game.legal_moves("ann")
    out = game.apply("ann", DRAW)
    assert of_type(out, CardPlayed)[0].face == parse_face("R8")
    assert [game.face(c) for c in game.hand("ann")] == faces("R3 Y2")


def test_must_play_if_able_refuses_the_draw_to_a_player_who_can_play() -> None:
    """Section 1.14.7's table option: with a playable card there is no draw; without, there is."""
    rules = RuleSet(variant="nomercy", must_play="on")
    game = setup({"ann": "R3 B7", "ben": "G4", "cid": "Y1"}, top="R5", rules=rules, draw="Y2 R8")
    assert DRAW not in game.legal_moves("ann")
    with pytest.raises(IllegalMove, match="you must"):
        game.apply("ann", DRAW)
    assert len(game.hand("ann")) == 2
    play(game, "ann", "R3")
    assert DRAW in game.legal_moves("ben")  # nothing to play: the draw is there
    assert loads(dumps(game)).rules.must_play == "on"


def test_must_play_if_able_is_no_mercy_only() -> None:
    """Flip and classic refuse the option; it is left out of their saved rules."""
    with pytest.raises(ValidationError, match="No Mercy"):
        RuleSet(variant="classic", must_play="on")
    assert "must_play" not in RuleSet(variant="nomercy").model_dump()
    assert NO_MERCY.offers("must_play") and not RuleSet().model_dump().get("must_play")


def test_symbols_match_only_their_own_kind() -> None:
    """A coloured Draw Four does not match a Wild Reverse Draw 4 by symbol, only by colour."""
    game = setup({"ann": "G+4 R+4", "ben": "G4"}, top="WR+4", color=Color.RED, rules=NM)
    playable = {game.face(m.card) for m in game.legal_moves("ann") if hasattr(m, "card")}
    assert playable == {parse_face("R+4")}


# ------------------------------------------------------------------ 1.4 effects


def test_skip_everyone_gives_the_player_another_turn() -> None:
    """Every other player still in loses a turn; the player plays again."""
    game = setup({"ann": "RSE R1", "ben": "G4", "cid": "Y1"}, top="R5", rules=NM)
    out = play(game, "ann", "RSE")
    assert [e.player for e in of_type(out, TurnSkipped)] == ["ben", "cid"]
    assert game.current_player == "ann"


def test_discard_all_discards_its_own_colour_under_itself() -> None:
    """Section 1.14.14: only its colour, wilds stay, the extras have no effect, it stays on
    top; played on another colour's Discard All it discards its own colour."""
    game = setup({"ann": "BDA B+2 BS R4 W+6 B7", "ben": "G4", "cid": "Y1"}, top="RDA", rules=NM)
    out = play(game, "ann", "BDA")
    assert of_type(out, CardsDiscarded)[0].faces == tuple(faces("B+2 BS B7"))
    assert [game.face(c) for c in game.hand("ann")] == faces("R4 W+6")
    assert game.top_face() == parse_face("BDA") and game.color is Color.BLUE
    assert game.phase is Phase.PLAY and game.current_player == "ben"
    assert game.pending_draw == 0
    assert [game.face(c) for c in game.discard[-4:]] == faces("B+2 BS B7 BDA")


def test_discard_all_may_go_out() -> None:
    """Discarding the rest of the hand wins at once."""
    game = setup({"ann": "BDA B2 B3", "ben": "G4"}, top="B5", rules=NM)
    out = play(game, "ann", "BDA")
    assert of_type(out, RoundEnded)[0].winner == "ann"


def test_discard_all_leaving_one_card_opens_the_uno_window() -> None:
    """Section 1.14.13: holding one card by a Discard All must be called."""
    game = setup({"ann": "BDA B2 R3", "ben": "G4", "cid": "Y1"}, top="B5", rules=NM)
    play(game, "ann", "BDA")
    assert game.catchable() == "ann"
    assert Catch("ann") in game.legal_moves("ben")


@pytest.mark.parametrize("token", ["W+6", "W+10", "WR+4"])
def test_draw_wilds_name_a_colour(token: str) -> None:
    """Section 1.14.2: the player of a Wild Draw 6, 10 or Reverse Draw 4 names the colour."""
    game = setup({"ann": f"{token} R1", "ben": "G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", token)
    assert (game.phase, game.current_player) == (Phase.CHOOSE_COLOR, "ann")
    name_blue(game, "ann")
    assert (game.phase, game.color) == (Phase.PENALTY, Color.BLUE)


def test_the_roulette_victim_names_the_colour_and_reveals_until_it() -> None:
    """Section 1.14.2-3: its player names nothing; the next player names a colour, reveals
    until a card of it (wilds do not count), keeps them all, and loses the turn."""
    game = setup(
        {"ann": "WCR R1", "ben": "G4", "cid": "Y1"}, top="R5", rules=NM, draw="R2 W+6 G8 B3 Y9"
    )
    out = play(game, "ann", "WCR")
    assert of_type(out, RouletteColorAsked) == [RouletteColorAsked("ben")]
    assert game.phase is Phase.CHOOSE_COLOR and game.current_player == "ben"
    assert ChooseColor(Color.BLUE) in game.legal_moves("ben")
    assert not any(isinstance(m, ChooseColor) for m in game.legal_moves("ann"))
    out = game.apply("ben", ChooseColor(Color.BLUE))
    drawn = of_type(out, CardsDrawn)[0]
    assert drawn.faces == tuple(faces("R2 W+6 G8 B3")) and not drawn.private
    assert of_type(out, ColorChosen) == [ColorChosen("ben", Color.BLUE)]
    assert game.color is Color.BLUE and game.current_player == "cid"
    assert TurnSkipped("ben") in out


def test_the_roulette_is_no_draw_card_and_cannot_join_a_stack() -> None:
    """Section 1.13 'Roulette in a stack': refused."""
    game = setup({"ann": "R+2 R1", "ben": "WCR G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "R+2")
    wild = card(game, "ben", "WCR")
    assert all(getattr(m, "card", None) != wild for m in game.legal_moves("ben"))


@pytest.mark.parametrize(("players", "expected"), [(3, "cid"), (2, "ann")])
def test_reverse_changes_direction_or_gives_another_turn_with_two(
    players: int, expected: str
) -> None:
    """Reverse turns play round; with two players in it is another turn (section 1.11)."""
    hands = dict(list({"ann": "RR R1", "ben": "G4", "cid": "Y1"}.items())[:players])
    game = setup(hands, top="R5", rules=NM)
    play(game, "ann", "RR")
    assert game.current_player == expected


# ------------------------------------------------------------------ 1.5 stacking


@pytest.mark.parametrize(
    ("first", "second", "allowed"),
    [
        ("R+2", "G+2", True),
        ("R+2", "G+4", True),
        ("R+2", "W+10", True),
        ("R+4", "G+2", False),
        ("R+4", "WR+4", True),
        ("R+4", "W+6", True),
        ("W+6", "R+4", False),
        ("W+10", "W+6", False),
        ("W+10", "W+10", True),
    ],
)
def test_a_stack_takes_any_draw_card_worth_at_least_the_last(
    first: str, second: str, allowed: bool
) -> None:
    """Section 1.14.4: the value of the last card, not the total; colour does not matter."""
    game = setup({"ann": f"{first} R1", "ben": f"{second} G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", first)
    if game.phase is Phase.CHOOSE_COLOR:
        game.apply("ann", ChooseColor(Color.YELLOW))
    assert game.phase is Phase.PENALTY and game.current_player == "ben"
    stacked = card(game, "ben", second)
    assert any(getattr(m, "card", None) == stacked for m in game.legal_moves("ben")) is allowed


def test_the_stack_total_passes_on_and_the_taker_loses_the_turn() -> None:
    """+2, +4, +10: the player who cannot (or will not) stack draws 16 and is skipped."""
    game = setup(
        {"ann": "R+2 R1", "ben": "G+4 G4", "cid": "W+10 Y1", "dan": "B1 B2"},
        top="R5",
        rules=NM,
    )
    play(game, "ann", "R+2")
    out = play(game, "ben", "G+4")
    assert PenaltyStacked("ben", 6) in out
    out = play(game, "cid", "W+10")
    assert PenaltyStacked("cid", 16) in out
    name_blue(game, "cid")
    assert game.current_player == "dan"
    view = view_for(game, "dan")
    assert (view.pending_draw, view.stack_threshold, view.stackable) == (16, 10, True)
    out = game.apply("dan", ACCEPT)
    assert of_type(out, CardsDrawn)[0].count == 16 and TurnSkipped("dan") in out
    assert game.current_player == "ann" and game.color is Color.BLUE


def test_declining_to_stack_is_allowed() -> None:
    """Section 1.14.5: a player holding a Draw Card may still take the stack."""
    game = setup({"ann": "R+2 R1", "ben": "G+2 G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "R+2")
    assert ACCEPT in game.legal_moves("ben")
    game.apply("ben", ACCEPT)
    assert len(game.hand("ben")) == 4 and game.current_player == "cid"


def test_only_draw_cards_answer_a_stack_and_there_is_no_challenge() -> None:
    """Nothing but a Draw Card may be played on a pending stack (section 1.5); no Draw
    Card can be challenged (section 1.8)."""
    game = setup({"ann": "W+6 R1 R2", "ben": "B5 BS BDA WCR G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "W+6")
    name_blue(game, "ann")
    assert game.legal_moves("ben") == [ACCEPT]
    assert CHALLENGE not in game.legal_moves("ben")
    with pytest.raises(IllegalMove, match=r"take it, or stack a Draw Card of \+6 or more"):
        play(game, "ben", "B5")


def test_a_reverse_draw_four_sends_the_stack_back_to_the_previous_stacker() -> None:
    """Section 1.14.6: A +2 on B, B plays Wild Reverse Draw 4: play reverses and A faces 6."""
    game = setup({"ann": "R+2 R1", "ben": "WR+4 G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "R+2")
    out = play(game, "ben", "WR+4")
    assert DirectionChanged(-1) in out
    name_blue(game, "ben")
    assert game.current_player == "ann" and game.pending_draw == 6


def test_with_two_players_a_reverse_draw_four_lands_on_its_player() -> None:
    """Section 1.11: the +4 (and the stack under it) comes back to you; a +4 or more sends
    it across."""
    game = setup({"ann": "R+2 R1", "ben": "WR+4 G+4 G4"}, top="R5", rules=NM)
    play(game, "ann", "R+2")
    play(game, "ben", "WR+4")
    name_blue(game, "ben")
    assert game.current_player == "ben" and game.pending_draw == 6
    play(game, "ben", "G+4")
    assert game.current_player == "ann" and game.pending_draw == 10


# ------------------------------------------------------------------ 1.6 7s and 0s


def test_a_seven_swaps_with_a_chosen_player_still_in_and_cannot_be_declined() -> None:
    """Section 1.13 '7s and 0s': compulsory; the only moves are the targets still in."""
    game = setup({"ann": "R7 R1 R2", "ben": "G4", "cid": "Y1 Y2"}, top="R5", rules=NM)
    game.knocked_out = [1]
    game.set_aside[1], game.hands[1] = game.hands[1], []
    play(game, "ann", "R7")
    assert game.phase is Phase.SWAP_TARGET
    assert game.legal_moves("ann") == [SwapWith("cid"), CALL_UNO]
    game.apply("ann", SwapWith("cid"))
    assert [game.face(c) for c in game.hand("ann")] == faces("Y1 Y2")
    assert game.current_player == "cid"


def test_a_zero_passes_every_hand_still_in_along_the_direction() -> None:
    """Knocked-out seats are out of the chain (section 1.4)."""
    game = setup(
        {"ann": "R0 R1 R2", "ben": "G4", "cid": "Y1 Y2", "dan": "B1 B2 B3"}, top="R5", rules=NM
    )
    game.knocked_out = [1]
    game.set_aside[1], game.hands[1] = game.hands[1], []
    play(game, "ann", "R0")
    shown = {p: [game.face(c) for c in game.hand(p)] for p in game.players}
    assert shown == {
        "ann": faces("B1 B2 B3"),
        "ben": [],
        "cid": faces("R1 R2"),
        "dan": faces("Y1 Y2"),
    }


def test_a_one_card_hand_handed_over_must_be_called_out_of_turn() -> None:
    """Section 1.14.13: whoever comes to hold one card by a 0 can be caught, several at once."""
    game = setup({"ann": "R0 R1 R2", "ben": "G4", "cid": "Y1", "dan": "B1 B2"}, top="R5", rules=NM)
    play(game, "ann", "R0")
    assert {len(game.hand(p)) for p in ("cid", "dan")} == {1}
    legal = game.legal_moves("ann")
    assert Catch("cid") in legal and Catch("dan") in legal
    assert set(view_for(game, "ann").catchable_all) == {"cid", "dan"}
    game.apply("cid", CALL_UNO)
    assert Catch("cid") not in game.legal_moves("ann")
    game.apply("ann", Catch("dan"))
    assert len(game.hand("dan")) == 3


# ------------------------------------------------------------------ 1.7 the Mercy rule


def test_the_mercy_rule_stops_a_stack_at_25_and_the_rest_lapses() -> None:
    """Section 1.14.9: checked after every card; the hand is set aside; the turn moves on."""
    game = setup({"ann": "W+10 R1", "ben": big_hand(20), "cid": "Y1"}, top="R5", rules=NM)
    pile = len(game.draw_pile)
    play(game, "ann", "W+10")
    name_blue(game, "ann")
    out = game.apply("ben", ACCEPT)
    assert of_type(out, CardsDrawn)[0].count == 5
    assert of_type(out, PlayerKnockedOut) == [PlayerKnockedOut("ben", 25)]
    assert TurnSkipped("ben") not in out
    assert len(game.draw_pile) == pile - 5
    assert game.hand("ben") == [] and len(game.set_aside[1]) == 25
    assert game.current_player == "cid" and game.knocked_out == [1]
    assert cards_total(game) == 168


def test_a_knocked_out_player_never_acts_and_is_skipped() -> None:
    """No moves, not even UNO calls or catches; turn order passes over them."""
    game = setup({"ann": "RS R1", "ben": "G4", "cid": "Y1 Y2", "dan": "B1"}, top="R5", rules=NM)
    game.knocked_out = [1]
    game.set_aside[1], game.hands[1] = game.hands[1], []
    game.uno_exposed = 3
    assert game.legal_moves("ben") == []
    play(game, "ann", "RS")  # skips cid, the next player still in
    assert game.current_player == "dan"
    view = view_for(game, "ann")
    assert view.knocked_out == ("ben",) and view.set_aside == (("ben", 1),)


def test_the_mercy_rule_applies_while_drawing_until_playable() -> None:
    """Drawing for a match stops at 25: knocked out, and the next player still in plays."""
    game = setup(
        {"ann": big_hand(23), "ben": "R4", "cid": "G1"},
        top="B5",
        rules=NM,
        draw="R1 R2 B9",
    )
    out = game.apply("ann", DRAW)
    assert of_type(out, CardsDrawn)[0].count == 2
    assert PlayerKnockedOut("ann", 25) in out
    assert game.current_player == "ben" and game.phase is Phase.PLAY


def test_the_mercy_rule_applies_to_a_roulette_reveal() -> None:
    """Checked after each revealed card."""
    game = setup(
        {"ann": "WCR R1", "ben": big_hand(24), "cid": "Y1"}, top="R5", rules=NM, draw="R2 B3"
    )
    play(game, "ann", "WCR")
    out = game.apply("ben", ChooseColor(Color.BLUE))
    assert of_type(out, CardsDrawn)[0].count == 1 and PlayerKnockedOut("ben", 25) in out
    assert game.current_player == "cid"


def test_set_aside_hands_go_into_the_next_reshuffle() -> None:
    """Section 1.14.10: out of play until the draw pile runs out, then shuffled in."""
    game = setup({"ann": "RS R1", "ben": "G4", "cid": "Y1 Y2"}, top="R5", rules=NM)
    game.knocked_out = [1]
    game.set_aside[1], game.hands[1] = game.hands[1], []
    set_aside = list(game.set_aside[1])
    game.discard = game.draw_pile[:-3] + game.discard
    game.draw_pile = game.draw_pile[-3:]
    out: list[Event] = []
    game._draw_cards(0, 4, "test", out)
    assert of_type(out, PileReshuffled) and game.set_aside[1] == []
    assert set(set_aside) <= set(game.draw_pile) | set(game.hands[0])
    assert cards_total(game) == 168


def test_knocking_out_the_last_opponent_wins() -> None:
    """With two players left, a knockout wins the hand for the one still in."""
    game = setup({"ann": "W+10 R1", "ben": big_hand(20)}, top="R5", rules=NM)
    play(game, "ann", "W+10")
    name_blue(game, "ann")
    out = game.apply("ben", ACCEPT)
    assert of_type(out, RoundEnded)[0].winner == "ann"
    assert of_type(out, MatchEnded)[0].winner == "ann"


# ------------------------------------------------------------------ 1.10 end, scoring


@pytest.mark.parametrize("token", ["R+2", "W+10", "R7", "R0", "RSE", "WCR", "RDA"])
def test_the_last_card_wins_at_once_with_no_effect(token: str) -> None:
    """Section 1.14.8: nobody draws, nothing swaps, passes or reveals."""
    game = setup({"ann": token, "ben": "G4 G5", "cid": "Y1"}, top="R5", rules=NM)
    hands = [list(h) for h in game.hands]
    out = play(game, "ann", token)
    assert of_type(out, RoundEnded)[0].winner == "ann"
    assert game.phase is Phase.MATCH_OVER
    assert game.hands[1:] == hands[1:]
    assert not of_type(out, CardsDrawn)


def test_one_hand_is_a_game_without_scoring() -> None:
    """Unscored (the default), the hand's winner wins the game."""
    assert NM.scoring == "one_hand" and NM.target == 1000
    game = setup({"ann": "R1", "ben": "G4"}, top="R5", rules=NM)
    out = play(game, "ann", "R1")
    assert of_type(out, MatchEnded)[0].winner == "ann"


def test_the_worked_scoring_example() -> None:
    """A goes out; B holds 7, Skip Everyone, Wild Draw 10; C a 3; D knocked out: 330."""
    game = setup({"a": "R1", "b": "G7 GSE W+10", "c": "Y3", "d": "B1"}, top="R5", rules=SCORED)
    game.knocked_out = [3]
    game.set_aside[3], game.hands[3] = game.hands[3], []
    out = play(game, "a", "R1")
    assert dict(of_type(out, RoundEnded)[0].awarded)["a"] == 330
    assert game.phase is Phase.ROUND_OVER


def test_knocked_out_players_are_dealt_back_in_a_scored_match() -> None:
    """Section 1.14.11: the next hand deals everyone, nobody is out."""
    game = setup({"a": "R1", "b": "G4", "c": "Y3"}, top="R5", rules=SCORED)
    game.knocked_out = [2]
    game.set_aside[2], game.hands[2] = game.hands[2], []
    play(game, "a", "R1")
    game.start_next_round()
    assert game.knocked_out == [] and all(len(h) == 7 for h in game.hands)
    assert cards_total(game) == 168


def test_no_mercy_refuses_alternative_scoring_and_the_house_rules() -> None:
    """The sheet has no alternative scoring; its stacking, 7s and 0s are its own."""
    for options in ({"scoring": "alternative"}, {"stacking": True}, {"jump_in": True}):
        with pytest.raises(ValidationError):
            RuleSet(variant="nomercy", **options)
    assert NM.draw_until_playable and NM.forced_play


# ------------------------------------------------------------------ saving


def test_a_hand_with_a_knockout_saves_and_loads() -> None:
    """Knocked-out seats, set-aside hands and extra UNO windows survive a JSON round trip."""
    game = setup({"ann": "W+10 R1", "ben": big_hand(20), "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "W+10")
    name_blue(game, "ann")
    game.apply("ben", ACCEPT)
    copy = loads(dumps(game))
    assert copy == game and copy.knocked_out == [1] and len(copy.set_aside[1]) == 25
    assert copy.current_player == "cid"


def test_a_seven_leaves_the_uno_call_of_a_player_whose_hand_did_not_move() -> None:
    """Only the two swapped hands need a new call: a third player's called UNO stands."""
    game = setup({"ann": "R7 R1", "ben": "G4 G5", "cid": "Y1"}, top="R5", rules=NM)
    game.apply("cid", CALL_UNO)
    play(game, "ann", "R7")
    game.apply("ann", SwapWith("ben"))
    assert game.uno_declared == [False, False, True]
    assert game.catchable() == "ben" and Catch("cid") not in game.legal_moves("ann")
