"""Players leaving mid-game (remove_player) and timed-out turns (default_move, auto_play)."""

from __future__ import annotations

import pytest

from bot.engine import Color, IllegalMove, Phase, RuleSet
from bot.engine.events import (
    ColorChosen,
    DrawnCardKept,
    GameAbandoned,
    PlayerRemoved,
    TurnSkipped,
    TurnStarted,
)
from bot.engine.moves import ACCEPT, CHALLENGE, DRAW, PASS, ChooseColor, SwapWith
from bot.engine.notation import setup

from . import card, dealt_with, play

CLASSIC = RuleSet(variant="classic")


# ------------------------------------------------------------------ remove_player


def test_removed_players_cards_go_into_the_draw_pile() -> None:
    """A leaving player's cards are shuffled into the draw pile; no card is lost."""
    game = setup({"ann": "R1 R2", "ben": "G1 G2 G3", "cid": "B1"}, top="R9")
    ben_cards = set(game.hand("ben"))
    pile = len(game.draw_pile)
    out = game.remove_player("ben", "left the channel")
    assert PlayerRemoved("ben", "left the channel") in out
    assert ben_cards <= set(game.draw_pile)
    assert len(game.draw_pile) == pile + 3
    assert game.players == ["ann", "cid"]


def test_removing_the_current_player_passes_the_turn() -> None:
    """When the player on turn leaves, the next player in the direction of play starts."""
    game = setup({"ann": "R1 R2", "ben": "G1 G2 G3", "cid": "B1"}, top="R9")
    out = game.remove_player("ann")
    assert TurnStarted("ben") in out
    assert game.current_player == "ben"


def test_removing_the_current_player_passes_the_turn_to_the_right_when_reversed() -> None:
    """Counter-clockwise, the player on the leaver's right starts."""
    game = setup(
        {"ann": "R1", "ben": "G1", "cid": "B1", "dee": "Y1"}, top="R9", current=1, direction=-1
    )
    game.remove_player("ben")
    assert game.current_player == "ann"


def test_removing_another_player_keeps_the_turn() -> None:
    """Someone else leaving does not change whose turn it is."""
    game = setup({"ann": "R1 R2", "ben": "G1 G2 G3", "cid": "B1"}, top="R9", current=2)
    game.remove_player("ann")
    assert game.current_player == "cid"
    assert game.phase is Phase.PLAY


def test_fewer_than_two_players_abandons_the_game() -> None:
    """With one player left the game ends without a winner."""
    game = setup({"ann": "R1 R2", "ben": "G1 G2"}, top="R9")
    out = game.remove_player("ben")
    assert GameAbandoned(("ann",)) in out
    assert game.phase is Phase.ABANDONED
    assert game.legal_moves("ann") == []


def test_removing_from_an_abandoned_game_is_rejected() -> None:
    """After the game is over nobody can be removed any more."""
    game = setup({"ann": "R1 R2", "ben": "G1 G2"}, top="R9")
    game.remove_player("ben")
    with pytest.raises(IllegalMove, match=r"^The game is already over.$"):
        game.remove_player("ann")


def test_leaving_during_a_colour_choice_chooses_for_them() -> None:
    """A player who leaves before naming a colour has it named for them; play goes on."""
    game = setup({"ann": "W R1 R2", "ben": "G1 G2", "cid": "B1"}, top="R9")
    play(game, "ann", "W")
    out = game.remove_player("ann")
    assert ColorChosen("ann", Color.RED) in out
    assert game.current_player == "ben"
    assert game.phase is Phase.PLAY


def test_victim_leaving_during_a_penalty_cancels_it() -> None:
    """The victim of a draw-wild leaves: the penalty goes with them, the next player starts."""
    game = setup({"ann": "W+2 R1", "ben": "G1 G2", "cid": "B1 B2"}, top="R9")
    play(game, "ann", "W+2")
    game.apply("ann", ChooseColor(Color.BLUE))
    game.remove_player("ben")
    assert game.current_player == "cid"
    assert game.phase is Phase.PLAY
    assert game.pending_draw == 0


def test_draw_wild_still_counts_after_its_player_leaves() -> None:
    """The player of a pending draw-wild leaves: the victim still draws, but cannot challenge."""
    game = setup({"ann": "W+2 R1", "ben": "G1 G2", "cid": "B1 B2"}, top="R9")
    play(game, "ann", "W+2")
    game.apply("ann", ChooseColor(Color.BLUE))
    game.remove_player("ann")
    assert game.phase is Phase.PENALTY
    assert CHALLENGE not in game.legal_moves("ben")
    game.apply("ben", ACCEPT)
    assert len(game.hand("ben")) == 4
    assert game.current_player == "cid"


def test_dealer_leaving_passes_the_next_deal_to_the_next_seat() -> None:
    """If the dealer leaves, the next round is dealt by the player who sat after them."""
    game = setup({"ann": "R1", "ben": "G1 G2", "cid": "R3", "dee": "Y1"}, top="R9", current=2)
    assert game.players[game.dealer] == "ben"
    game.remove_player("ben")
    play(game, "cid", "R3")
    game.start_next_round()
    assert game.players[game.dealer] == "cid"


# ------------------------------------------------------------------ timeouts


def test_timed_out_turn_draws() -> None:
    """The default move on a normal turn is to draw."""
    game = setup({"ann": "R1 R2", "ben": "G1"}, top="R9")
    assert game.default_move("ann") == DRAW


def test_default_move_is_none_for_a_player_not_on_turn() -> None:
    """Only the player the game waits for has a default move."""
    game = setup({"ann": "R1 R2", "ben": "G1"}, top="R9")
    assert game.default_move("ben") is None


def test_auto_play_draws_and_keeps_a_playable_card() -> None:
    """A timed-out turn draws; a playable drawn card is kept and the turn passes."""
    game = setup({"ann": "R1 R2", "ben": "G1"}, top="R9", draw="R5")
    out = game.auto_play("ann")
    assert DrawnCardKept("ann") in out
    assert len(game.hand("ann")) == 3
    assert game.current_player == "ben"


def test_auto_play_draws_and_passes_an_unplayable_card() -> None:
    """A timed-out turn that draws an unplayable card simply ends."""
    game = setup({"ann": "R1 R2", "ben": "G1"}, top="R9", draw="B5")
    game.auto_play("ann")
    assert len(game.hand("ann")) == 3
    assert game.current_player == "ben"


def test_timed_out_drawn_card_is_kept() -> None:
    """After drawing a playable card, the default move keeps it."""
    game = setup({"ann": "R1 R2", "ben": "G1"}, top="R9", draw="R5")
    game.apply("ann", DRAW)
    assert game.default_move("ann") == PASS


def test_auto_play_accepts_a_penalty() -> None:
    """A timed-out victim of a draw-wild accepts: draws and loses the turn."""
    game = setup({"ann": "W+2 R1", "ben": "G1 G2", "cid": "B1"}, top="R9")
    play(game, "ann", "W+2")
    game.apply("ann", ChooseColor(Color.BLUE))
    assert game.default_move("ben") == ACCEPT
    out = game.auto_play("ben")
    assert TurnSkipped("ben") in out
    assert len(game.hand("ben")) == 4
    assert game.current_player == "cid"


def test_auto_play_names_the_colour_most_held() -> None:
    """A timed-out colour choice names the colour the player holds most of."""
    game = setup({"ann": "W G1 G2 B3", "ben": "Y1"}, top="R9")
    play(game, "ann", "W")
    out = game.auto_play("ann")
    assert ColorChosen("ann", Color.GREEN) in out
    assert game.current_player == "ben"


def test_auto_play_of_a_starting_wild_names_the_colour_and_starts_a_fresh_turn() -> None:
    """A timed-out first player facing a starting Wild gets a colour named, then a new turn."""
    game, _ = dealt_with("W")
    out = game.auto_play("ben")
    assert isinstance(out[0], ColorChosen)
    assert out[-1] == TurnStarted("ben")
    assert game.phase is Phase.PLAY
    assert game.current_player == "ben"


def test_timed_out_swap_picks_the_smallest_hand() -> None:
    """A timed-out Seven-O swap goes to the player with the fewest cards."""
    game = setup(
        {"ann": "R7 R1 R2", "ben": "G1 G2 G3", "cid": "B1"},
        top="R9",
        rules=RuleSet(variant="classic", seven_o=True),
    )
    play(game, "ann", "R7")
    assert game.default_move("ann") == SwapWith("cid")
    game.auto_play("ann")
    assert len(game.hand("ann")) == 1
    assert card(game, "cid", "R1") in game.hand("cid")
