"""RULES.md section 1: players, the deal, turns, matching, drawing, wilds and challenges."""

from __future__ import annotations

import pytest

from bot.engine import Color, Game, IllegalMove, Phase, RuleSet, Side
from bot.engine.events import (
    ChallengeResolved,
    DealerChosen,
    DrawStopped,
    Event,
    PileReshuffled,
    TurnSkipped,
)
from bot.engine.moves import (
    ACCEPT,
    CHALLENGE,
    DRAW,
    PASS,
    ChooseColor,
    PlayCard,
)
from bot.engine.notation import faces, setup
from bot.engine.snapshot import dump_state

from . import PLAYERS, ScriptedRandom, card, dealt_with, deck_card, of_type, play

CLASSIC = RuleSet(variant="classic")


# ------------------------------------------------------------------ players and the deal


@pytest.mark.parametrize("count", [2, 10])
def test_two_to_ten_players_can_play(count: int) -> None:
    """Games of 2 and of 10 players are dealt."""
    game = Game.new([f"p{i}" for i in range(count)], seed=1)
    assert len(game.players) == count


@pytest.mark.parametrize("count", [1, 11])
def test_fewer_than_two_or_more_than_ten_players_are_rejected(count: int) -> None:
    """A table of 1 or 11 players cannot start."""
    with pytest.raises(ValueError, match=r"2 to 10 players"):
        Game.new([f"p{i}" for i in range(count)], seed=1)


def _dealer_draw(*rounds: str) -> tuple[int, list[Event]]:
    """Choose the first dealer with each redraw round turning the given light faces."""
    game = Game(PLAYERS, RuleSet(), seed=3)
    script = [
        {position: deck_card(game, token) for position, token in enumerate(tokens.split())}
        for tokens in rounds
    ]
    game.rng = ScriptedRandom(3, script)
    out: list[Event] = []
    return game._choose_first_dealer(out), out


def test_first_dealer_is_the_highest_number_drawn() -> None:
    """Everyone draws; the highest number deals and a DealerChosen event records the draw."""
    dealer, out = _dealer_draw("R3 Y9 G5")
    assert dealer == 1
    assert out == [DealerChosen("ben", tuple(zip(PLAYERS, faces("R3 Y9 G5"), strict=True)))]


def test_symbol_cards_count_zero_in_the_dealer_draw() -> None:
    """A Skip or a Wild drawn for the deal is worth 0, less than a 1."""
    dealer, _ = _dealer_draw("RS W B1")
    assert dealer == 2


def test_dealer_draw_ties_are_drawn_again_by_the_tied_players() -> None:
    """Two 9s tie; only those two draw again and the higher second card deals."""
    dealer, out = _dealer_draw("R9 Y9 G2", "B3 G8")
    assert dealer == 1
    (chosen,) = of_type(out, DealerChosen)
    assert chosen.draws[3:] == (("ann", faces("B3")[0]), ("ben", faces("G8")[0]))


def test_each_player_is_dealt_seven_cards() -> None:
    """Every hand starts with 7 cards; the rest is the draw pile and one card is turned."""
    game, _ = dealt_with("R5", players=("a", "b", "c", "d"))
    assert [len(hand) for hand in game.hands] == [7, 7, 7, 7]
    assert len(game.discard) == 1
    assert len(game.draw_pile) == 112 - 28 - 1


def test_player_left_of_the_dealer_starts() -> None:
    """With an ordinary starting card the seat after the dealer plays first."""
    game, _ = dealt_with("R5", dealer=1)
    assert game.current_player == "cid"
    assert game.direction == 1


def test_play_goes_to_the_left() -> None:
    """After the first player's card, the next seat to the left is on turn."""
    game = setup({"ann": "R2 B7", "ben": "G3 Y3", "cid": "Y4 Y5"}, top="R9")
    play(game, "ann", "R2")
    assert game.current_player == "ben"


def test_deal_passes_one_seat_left_each_round() -> None:
    """start_next_round moves the deal to the next seat and that player's left starts."""
    game = setup({"ann": "R2", "ben": "G3 Y3", "cid": "Y4 Y5"}, top="R9")
    assert game.dealer == 2
    play(game, "ann", "R2")
    game.start_next_round()
    assert game.dealer == 0
    assert game.round_no == 2


def test_next_round_starts_on_the_light_side_with_full_hands() -> None:
    """A new round is dealt afresh: 7 cards each, light side, clockwise."""
    game = setup(
        {"ann": "P2", "ben": "T3 O3", "cid": "O4 O5"}, top="P9", side=Side.DARK, direction=-1
    )
    play(game, "ann", "P2")
    game.start_next_round()
    assert game.side is Side.LIGHT
    assert sum(len(hand) for hand in game.hands) >= 21
    assert sum(len(h) for h in game.hands) + len(game.draw_pile) + len(game.discard) == 112


# ------------------------------------------------------------------ matching


def test_card_of_the_same_colour_is_playable() -> None:
    """A red card may be played on a red card."""
    game = setup({"ann": "R2 B7", "ben": "G3"}, top="R9")
    assert PlayCard(card(game, "ann", "R2")) in game.legal_moves("ann")


def test_card_of_the_same_number_is_playable() -> None:
    """A blue 9 may be played on a red 9."""
    game = setup({"ann": "B9 B7", "ben": "G3"}, top="R9")
    assert PlayCard(card(game, "ann", "B9")) in game.legal_moves("ann")


def test_card_of_the_same_symbol_is_playable() -> None:
    """A blue Skip may be played on a red Skip (same action kind)."""
    game = setup({"ann": "BS B7", "ben": "G3"}, top="RS")
    assert PlayCard(card(game, "ann", "BS")) in game.legal_moves("ann")


def test_different_draw_cards_do_not_match_by_symbol() -> None:
    """A blue Draw One does not match a red Skip: symbols must be the same kind."""
    game = setup({"ann": "B+1 B7", "ben": "G3"}, top="RS")
    assert PlayCard(card(game, "ann", "B+1")) not in game.legal_moves("ann")


def test_card_matching_nothing_is_rejected_with_a_reason() -> None:
    """A blue 7 on a red 9 is an IllegalMove naming both cards."""
    game = setup({"ann": "B7 W", "ben": "G3"}, top="R9")
    with pytest.raises(IllegalMove, match=r"^Blue 7 does not match Red 9 \(colour in play: red\)"):
        play(game, "ann", "B7")


def test_wild_is_playable_on_anything() -> None:
    """A plain Wild may be played whatever the top card."""
    game = setup({"ann": "W B7", "ben": "G3"}, top="R9")
    assert PlayCard(card(game, "ann", "W")) in game.legal_moves("ann")


def test_exactly_one_card_per_turn() -> None:
    """After playing one card the turn has passed: a second card is out of turn."""
    game = setup({"ann": "R2 R3 R4", "ben": "G3 G4"}, top="R9")
    play(game, "ann", "R2")
    with pytest.raises(IllegalMove, match=r"It is not your turn: waiting for ben."):
        play(game, "ann", "R3")


# ------------------------------------------------------------------ drawing


def test_drawing_is_allowed_while_holding_a_playable_card() -> None:
    """Draw is a legal move even with a playable card in hand."""
    game = setup({"ann": "R2 B7", "ben": "G3"}, top="R9")
    assert DRAW in game.legal_moves("ann")


def test_playable_drawn_card_may_be_played_at_once() -> None:
    """A playable drawn card waits to be played or kept; playing it ends the turn."""
    game = setup({"ann": "B2 B7", "ben": "G3 G4"}, top="R9", draw="R4")
    game.apply("ann", DRAW)
    drawn = card(game, "ann", "R4")
    assert game.phase is Phase.DRAWN
    assert game.legal_moves("ann") == [PlayCard(drawn), PASS]
    game.apply("ann", PlayCard(drawn))
    assert game.top_face() == faces("R4")[0]
    assert game.current_player == "ben"


def test_no_other_card_may_be_played_after_drawing() -> None:
    """After drawing, a card that was already in hand cannot be played that turn."""
    game = setup({"ann": "R2 B7", "ben": "G3 G4"}, top="R9", draw="R4")
    game.apply("ann", DRAW)
    with pytest.raises(IllegalMove, match=r"You already drew: play the card you drew or keep it."):
        play(game, "ann", "R2")


def test_playable_drawn_card_may_be_kept() -> None:
    """Passing keeps the drawn card and hands the turn on."""
    game = setup({"ann": "B2 B7", "ben": "G3 G4"}, top="R9", draw="R4")
    game.apply("ann", DRAW)
    game.apply("ann", PASS)
    assert len(game.hand("ann")) == 3
    assert game.current_player == "ben"


def test_unplayable_drawn_card_passes_the_turn() -> None:
    """Drawing a card that does not match ends the turn at once."""
    game = setup({"ann": "B2 B7", "ben": "G3 G4"}, top="R9", draw="Y4")
    game.apply("ann", DRAW)
    assert len(game.hand("ann")) == 3
    assert game.current_player == "ben"
    assert game.phase is Phase.PLAY


def test_empty_draw_pile_is_rebuilt_from_the_discard_pile() -> None:
    """With no draw pile, the discard pile except its top is shuffled into a new one."""
    game = setup({"ann": "B2 B7", "ben": "G3 G4"}, top="Y1 Y2 R9")
    top = game.discard[-1]
    game.discard[:0] = game.draw_pile
    game.draw_pile = []
    out = game.apply("ann", DRAW)
    assert of_type(out, PileReshuffled)
    assert game.discard == [top]
    assert len(game.draw_pile) + len(game.hands[0]) + len(game.hands[1]) == 112 - 1


def test_reshuffle_keeps_the_side_in_play() -> None:
    """A reshuffle on the dark side leaves the dark side in play."""
    game = setup({"ann": "P2 U7", "ben": "T3 T4"}, top="O1 O9", side=Side.DARK)
    game.discard[:0] = game.draw_pile
    game.draw_pile = []
    game.apply("ann", DRAW)
    assert game.side is Side.DARK
    assert game.top_face() == faces("O9")[0]


def test_drawing_stops_when_both_piles_are_empty() -> None:
    """With nothing to draw the draw stops and the turn passes."""
    game = setup({"ann": "B2 B7", "ben": "G3 G4"}, top="R9")
    game.draw_pile = []
    out = game.apply("ann", DRAW)
    assert of_type(out, DrawStopped) == [DrawStopped("ann")]
    assert game.current_player == "ben"


# ------------------------------------------------------------------ wild colours


def test_wild_colour_is_a_pending_choice_of_the_light_colours() -> None:
    """A light Wild waits for ChooseColor of red, yellow, green or blue."""
    game = setup({"ann": "W B7", "ben": "G3"}, top="R9")
    play(game, "ann", "W")
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current_player == "ann"
    choices = [ChooseColor(c) for c in (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)]
    assert [m for m in game.legal_moves("ann") if isinstance(m, ChooseColor)] == choices


def test_dark_wild_offers_the_dark_colours() -> None:
    """A dark Wild waits for pink, teal, orange or purple."""
    game = setup({"ann": "W U7", "ben": "T3"}, top="P9", side=Side.DARK)
    play(game, "ann", "W")
    choices = [ChooseColor(c) for c in (Color.PINK, Color.TEAL, Color.ORANGE, Color.PURPLE)]
    assert [m for m in game.legal_moves("ann") if isinstance(m, ChooseColor)] == choices


def test_classic_wild_offers_the_four_classic_colours() -> None:
    """A classic Wild waits for red, yellow, green or blue."""
    game = setup({"ann": "W B7", "ben": "G3"}, top="R9", rules=CLASSIC)
    play(game, "ann", "W")
    assert {m.color for m in game.legal_moves("ann") if isinstance(m, ChooseColor)} == {
        Color.RED,
        Color.YELLOW,
        Color.GREEN,
        Color.BLUE,
    }


def test_named_colour_is_the_colour_in_play() -> None:
    """After naming blue, a blue card matches the Wild and the next player is on turn."""
    game = setup({"ann": "W B7", "ben": "B3 R3"}, top="R9")
    play(game, "ann", "W")
    game.apply("ann", ChooseColor(Color.BLUE))
    assert game.color is Color.BLUE
    assert game.current_player == "ben"
    assert PlayCard(card(game, "ben", "B3")) in game.legal_moves("ben")
    assert PlayCard(card(game, "ben", "R3")) not in game.legal_moves("ben")


def test_playing_before_choosing_the_colour_is_rejected() -> None:
    """Until the colour is named no other move of that player is accepted."""
    game = setup({"ann": "W B7 R1", "ben": "B3 R3"}, top="R9")
    play(game, "ann", "W")
    with pytest.raises(IllegalMove, match=r"Choose a colour for your wild first."):
        play(game, "ann", "R1")


# ------------------------------------------------------------------ draw-wild challenges


def _bluff(hand: str = "R2 W+4 B5", top: str = "R9") -> Game:
    """ann has played a classic Wild Draw Four naming green on ben."""
    game = setup({"ann": hand, "ben": "Y3 Y4", "cid": "G7 G8"}, top=top, rules=CLASSIC)
    play(game, "ann", "W+4")
    game.apply("ann", ChooseColor(Color.GREEN))
    return game


def test_draw_wild_is_playable_while_holding_the_colour_in_play() -> None:
    """Holding the colour in play, a Wild Draw Four is still offered: it is a bluff."""
    game = setup({"ann": "R2 W+4", "ben": "Y3"}, top="R9", rules=CLASSIC)
    assert PlayCard(card(game, "ann", "W+4")) in game.legal_moves("ann")


def test_victim_of_a_draw_wild_may_challenge_or_accept() -> None:
    """The next player answers the draw-wild: accept or challenge."""
    game = _bluff()
    assert game.current_player == "ben"
    assert game.phase is Phase.PENALTY
    assert {ACCEPT, CHALLENGE} <= set(game.legal_moves("ben"))


def test_only_the_victim_may_challenge() -> None:
    """A third player's challenge is rejected and changes nothing."""
    game = _bluff()
    before = dump_state(game)
    with pytest.raises(IllegalMove, match=r"It is not your turn: waiting for ben."):
        game.apply("cid", CHALLENGE)
    assert dump_state(game) == before


def test_challenge_is_impossible_after_drawing() -> None:
    """Once the victim accepted and drew, the challenge is gone."""
    game = _bluff()
    game.apply("ben", ACCEPT)
    with pytest.raises(IllegalMove):
        game.apply("ben", CHALLENGE)


def test_challenger_sees_the_challenged_hand() -> None:
    """ChallengeResolved carries the challenged player's hand for the challenger only."""
    game = _bluff()
    (resolved,) = of_type(game.apply("ben", CHALLENGE), ChallengeResolved)
    assert resolved.challenger == "ben"
    assert resolved.challenged == "ann"
    assert resolved.hand == tuple(faces("R2 B5"))


def test_successful_challenge_lets_the_victim_play_normally() -> None:
    """A guilty player draws; the victim draws nothing and takes the turn."""
    game = _bluff()
    game.apply("ben", CHALLENGE)
    assert len(game.hand("ben")) == 2
    assert game.current_player == "ben"
    assert game.phase is Phase.PLAY


def test_failed_challenge_loses_the_victims_turn() -> None:
    """An innocent player draws nothing; the challenger draws and is skipped."""
    game = _bluff(hand="Y2 W+4 B5")
    out = game.apply("ben", CHALLENGE)
    assert len(game.hand("ann")) == 2
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"


def test_accepting_a_draw_wild_draws_and_loses_the_turn() -> None:
    """Without a challenge the victim draws the penalty and is skipped."""
    game = _bluff()
    game.apply("ben", ACCEPT)
    assert len(game.hand("ben")) == 6
    assert game.current_player == "cid"


def test_same_number_does_not_make_a_draw_wild_illegal() -> None:
    """Holding a blue 9 on a red 9 (but no red) is no reason to be guilty."""
    game = _bluff(hand="B9 W+4 Y5")
    (resolved,) = of_type(game.apply("ben", CHALLENGE), ChallengeResolved)
    assert not resolved.guilty


def test_another_wild_does_not_make_a_draw_wild_illegal() -> None:
    """Holding another wild (but no red) is no reason to be guilty."""
    game = _bluff(hand="W W+4 Y5")
    (resolved,) = of_type(game.apply("ben", CHALLENGE), ChallengeResolved)
    assert not resolved.guilty


def test_colour_named_for_a_wild_on_top_is_the_colour_in_play() -> None:
    """On a Wild named green, holding a green card makes a draw-wild guilty."""
    game = setup({"ann": "G2 W+4 Y5", "ben": "Y3 Y4"}, top="W", color=Color.GREEN, rules=CLASSIC)
    play(game, "ann", "W+4")
    game.apply("ann", ChooseColor(Color.RED))
    (resolved,) = of_type(game.apply("ben", CHALLENGE), ChallengeResolved)
    assert resolved.guilty


# ------------------------------------------------------------------ illegal moves


def test_illegal_move_leaves_the_state_unchanged() -> None:
    """A rejected move leaves every field of the state, RNG included, as it was."""
    game = setup({"ann": "R2 B7", "ben": "G3"}, top="R9")
    before = dump_state(game)
    with pytest.raises(IllegalMove):
        play(game, "ann", "B7")
    with pytest.raises(IllegalMove):
        game.apply("ben", DRAW)
    assert dump_state(game) == before


def test_move_by_a_stranger_is_rejected() -> None:
    """Someone not seated gets a sentence saying so."""
    game = setup({"ann": "R2 B7", "ben": "G3"}, top="R9")
    with pytest.raises(IllegalMove, match=r"^You are not playing in this game.$"):
        game.apply("zed", DRAW)


def test_card_not_in_hand_is_rejected() -> None:
    """Playing another player's card is refused with a readable reason."""
    game = setup({"ann": "R2 B7", "ben": "R3"}, top="R9")
    with pytest.raises(IllegalMove, match=r"^That card is not in your hand.$"):
        game.apply("ann", PlayCard(card(game, "ben", "R3")))


def test_moves_after_the_round_are_rejected() -> None:
    """Once the round is over, moves are refused until the next deal."""
    game = setup({"ann": "R2", "ben": "R3 R4"}, top="R9")
    play(game, "ann", "R2")
    with pytest.raises(IllegalMove, match=r"^The round is over: wait for the next one.$"):
        play(game, "ben", "R3")
