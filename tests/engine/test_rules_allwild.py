"""UNO All Wild: RULES-VARIANTS.md section 2, one test per rule and per choice marked [C]
(the ambiguities of section 2.10 included)."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest
from pydantic import ValidationError

from bot.engine import Game, IllegalMove, Phase, RuleSet, dumps, loads, view_for
from bot.engine.decks import deck_of
from bot.engine.events import (
    CardsDrawn,
    DealerChosen,
    DirectionChanged,
    HandsSwapped,
    MatchEnded,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
)
from bot.engine.moves import ACCEPT, CALL_UNO, DRAW, PASS, Catch, PlayCard, SwapWith, TargetDraw
from bot.engine.notation import parse_face, setup
from bot.engine.variants import ALL_WILD

from . import card, dealt_with, of_type, play

AW = RuleSet(variant="allwild")
STACKING = RuleSet(variant="allwild", stacking=True)
THREE = ("ann", "ben", "cid")


def table(hands: dict[str, str], rules: RuleSet = AW, current: int = 0, draw: str = "") -> Game:
    """An All Wild round in play with these hands and a plain Wild on the discard pile."""
    return setup(hands, "W", rules=rules, current=current, draw=draw)


# ------------------------------------------------------------------ 2.1 the deck (2.10.1)


def test_the_deck_is_112_wilds_in_eight_kinds_with_the_unverified_counts() -> None:
    """54 Wild, 14 Reverse, 14 Skip, 6 Skip Two, 10 Draw Two, 6 Draw Four, 4 and 4."""
    counts = Counter(card.light for card in deck_of(ALL_WILD))
    assert sum(counts.values()) == 112
    tokens = ("W", "WRV", "WSK", "WSK2", "W+2", "W+4", "WT+2", "WFS")
    assert [counts[parse_face(t)] for t in tokens] == [54, 14, 14, 6, 10, 6, 4, 4]
    assert all(face.color is None and face.number is None for face in counts)


def test_the_data_file_says_its_counts_are_unverified() -> None:
    """The counts' file opens with the warning, so a physical deck corrects them there."""
    text = resources.files("bot.engine").joinpath(f"data/{ALL_WILD.deck.file}").read_text()
    assert text.startswith("# UNVERIFIED COUNTS.")


# ------------------------------------------------------------------ 2.2 players, deal, start


def test_two_to_ten_players_and_seven_cards_each() -> None:
    """Ten players are dealt seven each; eleven are refused."""
    game = Game.new([f"p{i}" for i in range(10)], AW, seed=3)
    assert all(len(hand) == 7 for hand in game.hands)
    with pytest.raises(ValueError):
        Game.new([f"p{i}" for i in range(11)], AW, seed=3)


def test_the_first_dealer_is_chosen_at_random_as_no_card_has_a_number() -> None:
    """[C] Every card draws 0, so the draw cannot break ties: the dealer is a random seat."""
    dealers = set()
    for seed in range(40):
        game, events = Game.start(list(THREE), AW, seed)
        (chosen,) = of_type(events, DealerChosen)
        assert chosen.dealer == game.players[game.dealer]
        dealers.add(chosen.dealer)
    assert dealers == set(THREE)


@pytest.mark.parametrize("token", ["W+4", "WSK2", "WT+2", "WFS", "WRV"])
def test_the_first_card_turned_up_has_no_effect(token: str) -> None:
    """Whatever starts the pile, the player left of the dealer plays with nothing owed."""
    game, out = dealt_with(token, AW)
    assert game.face(game.discard[-1]) == parse_face(token)
    assert of_type(out, RoundStarted)[0].starter == parse_face(token)
    assert (game.current_player, game.phase, game.direction) == ("ben", Phase.PLAY, 1)
    assert not of_type(out, CardsDrawn) and not of_type(out, TurnSkipped)
    assert all(len(hand) == 7 for hand in game.hands)


# ------------------------------------------------------------------ 2.3 a turn (2.10.2, 2.10.6)


def test_every_card_plays_on_every_card() -> None:
    """On any top card every card in hand is offered, and a draw too."""
    for top in ("W+4", "WSK2", "WFS", "WT+2"):
        game = setup({"ann": "WRV WSK W+2 WFS", "ben": "W W"}, top, rules=AW)
        legal = game.legal_moves("ann")
        assert {PlayCard(c) for c in game.hand("ann")} | {DRAW} == set(legal)


def test_no_colour_is_ever_asked_or_in_play() -> None:
    """[C] A wild passes the turn at once: no colour prompt, no colour in play."""
    game = table({"ann": "W W", "ben": "W W", "cid": "W W"})
    play(game, "ann", "W")
    assert game.color is None and game.phase is Phase.PLAY and game.current_player == "ben"
    assert game.color_choices() == ()


def test_a_draw_is_one_card_then_only_it_may_be_played_or_kept() -> None:
    """[C] Drawing is allowed at any time; the drawn card is the only one that may be played."""
    game = table({"ann": "W WSK", "ben": "W W", "cid": "W W"}, draw="WFS")
    game.apply("ann", DRAW)
    drawn = game.hand("ann")[-1]
    assert game.phase is Phase.DRAWN and game.legal_moves("ann")[:2] == [PlayCard(drawn), PASS]
    with pytest.raises(IllegalMove):
        play(game, "ann", "WSK")
    game.apply("ann", PASS)
    assert game.current_player == "ben" and len(game.hand("ann")) == 3


# ------------------------------------------------------------------ 2.4 each card's effect


def test_wild_reverse_reverses_the_direction() -> None:
    """With three players the play goes back the other way."""
    game = table({"ann": "WRV W", "ben": "W W", "cid": "W W"})
    events = play(game, "ann", "WRV")
    assert of_type(events, DirectionChanged) and game.current_player == "cid"


def test_wild_skip_skips_the_next_player() -> None:
    """The next player loses their turn."""
    game = table({"ann": "WSK W", "ben": "W W", "cid": "W W"})
    events = play(game, "ann", "WSK")
    assert [e.player for e in of_type(events, TurnSkipped)] == ["ben"]
    assert game.current_player == "cid"


def test_wild_skip_two_skips_the_next_two_players() -> None:
    """With four players the fourth plays next; with three the turn comes back."""
    game = table({"ann": "WSK2 W", "ben": "W", "cid": "W", "dan": "W"})
    events = play(game, "ann", "WSK2")
    assert [e.player for e in of_type(events, TurnSkipped)] == ["ben", "cid"]
    assert game.current_player == "dan"
    game = table({"ann": "WSK2 W", "ben": "W W", "cid": "W W"})
    play(game, "ann", "WSK2")
    assert game.current_player == "ann"


@pytest.mark.parametrize(("token", "count"), [("W+2", 2), ("W+4", 4)])
def test_draw_wilds_make_the_next_player_draw_and_lose_the_turn(token: str, count: int) -> None:
    """No challenge (section 2.6): the next player draws at once and is skipped."""
    game = table({"ann": f"{token} W", "ben": "W W", "cid": "W W"})
    events = play(game, "ann", token)
    assert len(game.hand("ben")) == 2 + count and of_type(events, TurnSkipped)
    assert game.current_player == "cid" and game.phase is Phase.PLAY


def test_the_targeted_draw_two_picks_any_other_player_who_keeps_the_turn() -> None:
    """The player picks among the others; the target draws 2 and play goes on to the next."""
    game = table({"ann": "WT+2 W W", "ben": "W W", "cid": "W W"})
    play(game, "ann", "WT+2")
    assert game.phase is Phase.DRAW_TARGET and game.current_player == "ann"
    assert game.legal_moves("ann")[:2] == [TargetDraw("ben"), TargetDraw("cid")]
    events = game.apply("ann", TargetDraw("cid"))
    assert len(game.hand("cid")) == 4 and not of_type(events, TurnSkipped)
    assert game.current_player == "ben"


def test_the_targeted_draw_two_may_target_the_next_player_who_still_plays() -> None:
    """[C] Targeting the next player: they draw 2 and then take their turn."""
    game = table({"ann": "WT+2 W", "ben": "W W", "cid": "W W"})
    play(game, "ann", "WT+2")
    game.apply("ann", TargetDraw("ben"))
    assert len(game.hand("ben")) == 4 and game.current_player == "ben"


def test_nothing_else_may_be_done_before_the_target_is_picked() -> None:
    """Playing or drawing before picking a target is refused with the reason."""
    game = table({"ann": "WT+2 W", "ben": "W W", "cid": "W W"})
    play(game, "ann", "WT+2")
    with pytest.raises(IllegalMove, match="Choose who draws two first"):
        play(game, "ann", "W")


def test_the_forced_swap_swaps_with_the_chosen_player_who_keeps_the_turn() -> None:
    """The player must swap with a player of their choice; play passes on as usual."""
    game = table({"ann": "WFS W W", "ben": "WSK", "cid": "W+2 W+4 W+4 W+4"})
    play(game, "ann", "WFS")
    assert game.phase is Phase.SWAP_TARGET
    assert game.legal_moves("ann")[:2] == [SwapWith("ben"), SwapWith("cid")]
    events = game.apply("ann", SwapWith("cid"))
    assert of_type(events, HandsSwapped) and len(game.hand("ann")) == 4
    assert len(game.hand("cid")) == 2 and game.current_player == "ben"


def test_a_swap_that_hands_over_one_card_opens_the_uno_window() -> None:
    """[C] Whoever ends up with one card through a Forced Swap must call UNO (section 2.7)."""
    game = table({"ann": "WFS W W", "ben": "WSK", "cid": "W W W"})
    play(game, "ann", "WFS")
    game.apply("ann", SwapWith("ben"))
    assert game.catchable() == "ann"
    assert Catch("ann") in game.legal_moves("cid")
    assert CALL_UNO in game.legal_moves("ann")


# ------------------------------------------------------------------ 2.5 stacking (2.10.7)


def test_draw_wilds_do_not_stack_by_default() -> None:
    """[C] Stacking is off: a Wild Draw Two is taken at once even by a holder of another."""
    game = table({"ann": "W+2 W", "ben": "W+2 W", "cid": "W W"})
    play(game, "ann", "W+2")
    assert game.phase is Phase.PLAY and game.current_player == "cid"


def test_the_stacking_option_stacks_only_the_same_draw_wild() -> None:
    """[C] With stacking on, Wild Draw Two goes on Two and Four on Four, nothing else."""
    game = table({"ann": "W+2 W W", "ben": "W+2 W+4 WT+2", "cid": "W W"}, rules=STACKING)
    play(game, "ann", "W+2")
    assert game.phase is Phase.PENALTY and game.current_player == "ben"
    assert set(game.legal_moves("ben")) == {PlayCard(card(game, "ben", "W+2")), ACCEPT}
    play(game, "ben", "W+2")
    assert game.current_player == "cid" and game.pending_draw == 4
    game.apply("cid", ACCEPT)
    assert len(game.hand("cid")) == 6 and game.current_player == "ann"


def test_the_option_of_wild_draw_four_on_draw_two_is_refused() -> None:
    """Only the same kind stacks in All Wild (section 2.5)."""
    with pytest.raises(ValidationError):
        RuleSet(variant="allwild", stacking=True, stack_wild_draw_four_on_draw_two=True)


# ------------------------------------------------------------------ 2.8 end, scoring (2.10.5, 8)


def test_the_winner_scores_20_per_plain_wild_and_50_per_other_card() -> None:
    """Two plain Wilds and a Skip Two left in hands: 20 + 20 + 50."""
    game = table({"ann": "WSK", "ben": "W WSK2", "cid": "W"})
    events = play(game, "ann", "WSK")
    (ended,) = of_type(events, RoundEnded)
    assert dict(ended.awarded)["ann"] == 90


def test_lowest_total_is_the_alternative_scoring() -> None:
    """[C] Alternative scoring: each player is charged their own hand, lowest total wins."""
    rules = RuleSet(variant="allwild", scoring="alternative", target=60)
    game = table({"ann": "WSK", "ben": "W WSK2", "cid": "W"}, rules=rules)
    events = play(game, "ann", "WSK")
    assert dict(of_type(events, RoundEnded)[0].awarded) == {"ann": 0, "ben": 70, "cid": 20}
    assert of_type(events, MatchEnded)[0].winner == "ann"


def test_the_match_is_played_to_500() -> None:
    """The default target is 500."""
    assert AW.target == 500


@pytest.mark.parametrize(("token", "count"), [("W+2", 2), ("W+4", 4)])
def test_a_draw_wild_played_last_still_makes_the_next_draw(token: str, count: int) -> None:
    """[C] The last card's draw happens and those cards count in the score."""
    game = table({"ann": token, "ben": "W", "cid": "W"})
    events = play(game, "ann", token)
    assert len(game.hand("ben")) == 1 + count
    assert dict(of_type(events, RoundEnded)[0].hand_points)["ben"] > 20


def test_a_targeted_draw_two_played_last_makes_its_target_draw_first() -> None:
    """[C] The player still picks a target, who draws 2; then the round ends, those counted."""
    game = table({"ann": "WT+2", "ben": "W", "cid": "W"})
    play(game, "ann", "WT+2")
    assert game.legal_moves("ann")[:2] == [TargetDraw("ben"), TargetDraw("cid")]
    events = game.apply("ann", TargetDraw("cid"))
    assert len(game.hand("cid")) == 3 and game.phase is Phase.ROUND_OVER
    assert of_type(events, RoundEnded)[0].winner == "ann"


def test_a_forced_swap_played_last_wins_at_once_without_a_swap() -> None:
    """[C] An empty hand cannot be swapped into a win: the round ends, nobody swaps."""
    game = table({"ann": "WFS", "ben": "W", "cid": "W W"})
    events = play(game, "ann", "WFS")
    assert game.phase is Phase.ROUND_OVER and not of_type(events, HandsSwapped)
    assert game.hand("ann") == []


# ------------------------------------------------------------------ 2.9 two players (2.10.3)


@pytest.mark.parametrize("token", ["WRV", "WSK"])
def test_with_two_players_reverse_and_skip_give_another_turn(token: str) -> None:
    """[C] Wild Reverse acts as a Skip; either way the player plays again."""
    game = table({"ann": f"{token} W W", "ben": "W W"})
    play(game, "ann", token)
    assert game.current_player == "ann" and game.direction == 1


def test_with_two_players_skip_two_gives_three_turns_in_a_row() -> None:
    """[C] The opponent loses two turns: the player plays the card and two turns more."""
    game = table({"ann": "WSK2 W W W", "ben": "W W"})
    play(game, "ann", "WSK2")
    assert game.current_player == "ann"
    events = play(game, "ann", "W")
    assert [e.player for e in of_type(events, TurnSkipped)] == ["ben"]
    assert game.current_player == "ann"
    play(game, "ann", "W")
    assert game.current_player == "ben" and game.lost_turns == [0, 0]


def test_every_view_shows_the_turn_still_owed() -> None:
    """Both players' views say that the opponent still loses a turn."""
    game = table({"ann": "WSK2 W W W", "ben": "W W"})
    play(game, "ann", "WSK2")
    assert view_for(game, "ann").lost_turns == view_for(game, "ben").lost_turns == (("ben", 1),)


def test_owed_turns_survive_a_save_and_load() -> None:
    """The turn the opponent still loses is in the saved state."""
    game = table({"ann": "WSK2 W W W", "ben": "W W"})
    play(game, "ann", "WSK2")
    restored = loads(dumps(game))
    assert restored == game and restored.lost_turns == [0, 1]
    play(restored, "ann", "W")
    assert restored.current_player == "ann"


def test_with_two_players_the_targeted_draw_hits_the_opponent_who_then_plays() -> None:
    """[C] The only target is the opponent: they draw 2 and take their turn."""
    game = table({"ann": "WT+2 W W", "ben": "W W"})
    play(game, "ann", "WT+2")
    assert [m for m in game.legal_moves("ann") if isinstance(m, TargetDraw)] == [TargetDraw("ben")]
    game.apply("ann", TargetDraw("ben"))
    assert len(game.hand("ben")) == 4 and game.current_player == "ben"


def test_with_two_players_the_forced_swap_swaps_with_the_opponent() -> None:
    """[C] The player swaps with the opponent, whose turn it then is."""
    game = table({"ann": "WFS W W", "ben": "WSK"})
    play(game, "ann", "WFS")
    game.apply("ann", SwapWith("ben"))
    assert len(game.hand("ann")) == 1 and len(game.hand("ben")) == 2
    assert game.current_player == "ben"


# ------------------------------------------------------------------ options and timeouts


@pytest.mark.parametrize("option", ["seven_o", "jump_in", "draw_until_playable"])
def test_house_rules_that_need_colours_or_numbers_are_refused(option: str) -> None:
    """Seven-O, jump-in and drawing until playable mean nothing without colours."""
    with pytest.raises(ValidationError, match="All Wild has no colours"):
        RuleSet.model_validate({"variant": "allwild", option: True})


def test_a_timed_out_target_choice_picks_the_smallest_hand() -> None:
    """The default target is the opponent closest to going out."""
    game = table({"ann": "WT+2 W", "ben": "W W W", "cid": "W W"})
    play(game, "ann", "WT+2")
    assert game.default_move("ann") == TargetDraw("cid")


def test_a_player_leaving_while_picking_a_target_picks_for_them() -> None:
    """Their card keeps its effect: the default target draws, then they leave."""
    game = table({"ann": "WT+2 W", "ben": "W W W", "cid": "W W"})
    play(game, "ann", "WT+2")
    game.remove_player("ann")
    assert len(game.hand("cid")) == 4 and game.players == ["ben", "cid"]
