"""Round end, scoring by the side the round ended on, and the match to the target."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine import Color, Game, IllegalMove, Phase, RuleSet, Side
from bot.engine.events import CardsDrawn, Event, Flipped, MatchEnded, RoundEnded
from bot.engine.moves import CHALLENGE, ChooseColor, PlayCard
from bot.engine.notation import setup

from . import of_type, play

CLASSIC = RuleSet(variant="classic")
ALTERNATIVE = RuleSet(scoring="alternative")


def _round_end(out: Sequence[Event]) -> RoundEnded:
    (ended,) = of_type(out, RoundEnded)
    assert isinstance(ended, RoundEnded)
    return ended


def test_playing_the_last_card_ends_the_round() -> None:
    """Going out ends the round and the winner is recorded."""
    game = setup({"ann": "R2", "ben": "G3 Y4"}, top="R9")
    ended = _round_end(play(game, "ann", "R2"))
    assert ended.winner == "ann"
    assert game.phase is Phase.ROUND_OVER
    assert game.current_player is None


def test_last_card_draw_one_still_makes_the_next_player_draw() -> None:
    """Going out on a Draw One: the next player draws 1 and it counts in the score."""
    game = setup({"ann": "R+1", "ben": "G3", "cid": "Y4"}, top="R9", draw="B7")
    out = play(game, "ann", "R+1")
    assert of_type(out, CardsDrawn)[0].player == "ben"
    assert _round_end(out).awarded == (("ann", 3 + 7 + 4), ("ben", 0), ("cid", 0))


def test_last_card_draw_two_counts_in_the_score() -> None:
    """Going out on a classic Draw Two: the next player's two drawn cards are scored."""
    game = setup({"ann": "R+2", "ben": "G3"}, top="R9", draw="B7 B8", rules=CLASSIC)
    ended = _round_end(play(game, "ann", "R+2"))
    assert dict(ended.hand_points)["ben"] == 3 + 7 + 8


def test_last_card_wild_draw_color_draws_until_the_colour_and_counts() -> None:
    """Going out on a Wild Draw Color: name the colour, the next player draws until it."""
    game = setup({"ann": "W+C", "ben": "O3", "cid": "U5"}, top="P9", side=Side.DARK, draw="P1 T2")
    play(game, "ann", "W+C")
    assert game.phase is Phase.CHOOSE_COLOR
    ended = _round_end(game.apply("ann", ChooseColor(Color.TEAL)))
    assert dict(ended.hand_points)["ben"] == 3 + 1 + 2


def test_last_card_flip_flips_before_scoring() -> None:
    """Going out on a Flip: the flip happens and hands are scored on the dark side."""
    game = setup({"ann": "RF", "ben": "R7|O1"}, top="R9")
    out = play(game, "ann", "RF")
    assert of_type(out, Flipped)
    ended = _round_end(out)
    assert ended.side is Side.DARK
    assert dict(ended.hand_points)["ben"] == 1


def test_hands_are_scored_on_the_side_the_round_ended_on() -> None:
    """A round ending on the light side scores the light faces, not the dark ones."""
    game = setup({"ann": "R2", "ben": "R7|O1"}, top="R9")
    ended = _round_end(play(game, "ann", "R2"))
    assert ended.side is Side.LIGHT
    assert dict(ended.hand_points)["ben"] == 7


def test_worked_example_dark_draw_five_skip_everyone_and_seven_score_57() -> None:
    """RULES.md's example: Draw Five + Skip Everyone + 7 left on the dark side is 57."""
    game = setup({"ann": "P2", "ben": "T+5 TSE O7"}, top="P9", side=Side.DARK)
    ended = _round_end(play(game, "ann", "P2"))
    assert ended.awarded == (("ann", 57), ("ben", 0))
    assert game.scores == {"ann": 57, "ben": 0}


def test_standard_scoring_gives_the_winner_every_other_hand() -> None:
    """Standard scoring: the winner scores the sum of all other hands."""
    game = setup({"ann": "R2", "ben": "G3 Y4", "cid": "RS W"}, top="R9")
    ended = _round_end(play(game, "ann", "R2"))
    assert ended.awarded == (("ann", 7 + 60), ("ben", 0), ("cid", 0))


def test_alternative_scoring_records_each_players_own_hand() -> None:
    """Alternative scoring: every player adds the points left in their own hand."""
    game = setup({"ann": "R2", "ben": "G3 Y4", "cid": "RS W"}, top="R9", rules=ALTERNATIVE)
    play(game, "ann", "R2")
    assert game.scores == {"ann": 0, "ben": 7, "cid": 60}


def test_match_ends_when_a_player_reaches_the_default_target_of_500() -> None:
    """Reaching 500 ends the match with MatchEnded for the winner."""
    game = setup({"ann": "R2", "ben": "G3 Y4"}, top="R9")
    assert game.rules.target == 500
    game.scores["ann"] = 493
    out = play(game, "ann", "R2")
    assert of_type(out, MatchEnded) == [MatchEnded("ann", (("ann", 500), ("ben", 0)))]
    assert game.phase is Phase.MATCH_OVER
    assert game.match_winner == "ann"


def test_match_goes_on_below_the_target() -> None:
    """Short of the target, the round ends but the match does not."""
    game = setup({"ann": "R2", "ben": "G3 Y4"}, top="R9")
    game.scores["ann"] = 492
    out = play(game, "ann", "R2")
    assert not of_type(out, MatchEnded)
    assert game.phase is Phase.ROUND_OVER


def test_custom_target_ends_the_match() -> None:
    """A target of 5 ends the match after a 7-point round."""
    game = setup({"ann": "R2", "ben": "G3 Y4"}, top="R9", rules=RuleSet(target=5))
    play(game, "ann", "R2")
    assert game.match_winner == "ann"


def test_alternative_scoring_lowest_total_wins_when_someone_reaches_the_target() -> None:
    """Alternative scoring: ben passes the target and the lowest total (cid) wins."""
    game = setup({"ann": "R2", "ben": "G3 Y4", "cid": "Y1"}, top="R9", rules=ALTERNATIVE)
    game.scores.update(ann=40, ben=495, cid=30)
    play(game, "ann", "R2")
    assert game.match_winner == "cid"


def test_alternative_scoring_tie_goes_to_more_rounds_won() -> None:
    """Alternative scoring tie on the lowest total: more rounds won breaks it."""
    game = setup({"ann": "R2", "ben": "G3 Y4", "cid": "Y1"}, top="R9", rules=ALTERNATIVE)
    game.scores.update(ann=31, ben=495, cid=30)
    play(game, "ann", "R2")
    assert game.scores["ann"] == game.scores["cid"] == 31
    assert game.match_winner == "ann"


def test_next_round_cannot_start_before_the_round_is_over() -> None:
    """start_next_round during play is an IllegalMove."""
    game = setup({"ann": "R2 R3", "ben": "G3 Y4"}, top="R9")
    with pytest.raises(IllegalMove, match=r"^The round is not over yet.$"):
        game.start_next_round()


def test_match_over_refuses_a_next_round() -> None:
    """After MatchEnded no further round can be dealt."""
    game = setup({"ann": "R2", "ben": "G3 Y4"}, top="R9", rules=RuleSet(target=5))
    play(game, "ann", "R2")
    with pytest.raises(IllegalMove):
        game.start_next_round()


def test_round_results_are_kept_in_the_history() -> None:
    """Each scored round is appended to the history with its side and points."""
    game = setup({"ann": "R2", "ben": "G3 Y4"}, top="R9")
    play(game, "ann", "R2")
    (result,) = game.history
    assert (result.round_no, result.winner, result.side) == (1, "ann", Side.LIGHT)
    assert result.awarded == {"ann": 7, "ben": 0}


def test_full_seeded_match_reaches_the_target() -> None:
    """Auto-played rounds from a seed end in a match winner at or above the target."""
    game = Game.new(["ann", "ben", "cid"], RuleSet(target=150), seed=11)
    for _ in range(5000):
        if game.phase is Phase.MATCH_OVER:
            break
        if game.phase is Phase.ROUND_OVER:
            game.start_next_round()
            continue
        player = game.current_player
        assert player is not None
        plays = [m for m in game.legal_moves(player) if isinstance(m, PlayCard)]
        move = plays[0] if plays else game.default_move(player)
        assert move is not None
        game.apply(player, move)
    assert game.match_winner is not None
    assert game.scores[game.match_winner] >= 150


def test_last_card_wild_draw_four_cannot_be_challenged() -> None:
    """Going out on a Wild Draw Four: the next player draws 4 at once and the round ends."""
    game = setup({"ann": "W+4", "ben": "R3"}, top="R9", draw="B1 B2 B4 B5", rules=CLASSIC)
    out = play(game, "ann", "W+4")
    assert game.phase is Phase.ROUND_OVER
    assert CHALLENGE not in game.legal_moves("ben")
    assert dict(_round_end(out).hand_points)["ben"] == 3 + 1 + 2 + 4 + 5
