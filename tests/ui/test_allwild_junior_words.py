"""All Wild's and Junior's words: the new wilds, the targeted draw's prompts, button and
refusal, and seeded games of both narrated and labelled in every language."""

from __future__ import annotations

import pytest

from bot.engine import IllegalMove, RuleSet, TargetDraw, public_view, view_for
from bot.engine.notation import faces, setup
from bot.ui import buttons, words
from bot.ui.i18n import Lang, languages, t
from tests.engine import play
from tests.ui.games import name
from tests.ui.games import play as play_tables

EN, FI = Lang("en"), Lang("fi")
AW = RuleSet(variant="allwild")
TABLES = (
    (RuleSet(variant="allwild", target=150), 2),
    (RuleSet(variant="allwild", target=150, stacking=True), 5),
    (RuleSet.model_validate({"variant": "junior", "level": 2}), 3),
    (RuleSet(variant="junior"), 4),
)


def test_the_five_new_wilds_have_their_names() -> None:
    """Wild Reverse, Skip, Skip Two, Targeted Draw Two and Forced Swap, in English and Finnish."""
    shown = [words.card_name(EN, face) for face in faces("WRV WSK WSK2 WT+2 WFS")]
    assert shown == [
        "Wild Reverse",
        "Wild Skip",
        "Wild Skip Two",
        "Wild Targeted Draw Two",
        "Wild Forced Swap",
    ]
    assert words.card_name(FI, faces("WT+2")[0]) == "villi kohdennettu nosta 2"
    assert words.card_label(FI, faces("WT+2")[0]) == "Villi kohdennettu nosta 2"


def test_picking_a_target_is_prompted_and_labelled() -> None:
    """The table says who is choosing; the hand asks; each button names who draws."""
    game = setup({"p0": "WT+2 W W", "p1": "W W", "p2": "W W"}, "W", rules=AW)
    play(game, "p0", "WT+2")
    view = view_for(game, "p0")
    assert words.turn_prompt(EN, view, name) == "Anna is choosing who draws 2."
    assert words.hand_prompt(EN, view, name) == "Choose who draws 2 cards."
    labels = [words.move_label(FI, move, view, name) for move in view.legal_moves]
    assert labels[:2] == ["Ben nostaa 2", "Cara nostaa 2"]


def test_a_target_button_round_trips_through_its_custom_id() -> None:
    """The custom_id of a targeted draw parses back to the same move."""
    click = buttons.HandClick("s1", 3, move=TargetDraw("123456789012345678"))
    assert buttons.parse(buttons.custom_id(click)) == click


def test_the_target_refusal_is_said_in_the_language() -> None:
    """Playing before picking the target is refused in the player's language."""
    game = setup({"p0": "WT+2 W W", "p1": "W W", "p2": "W W"}, "W", rules=AW)
    play(game, "p0", "WT+2")
    with pytest.raises(IllegalMove) as refused:
        play(game, "p0", "W")
    assert words.illegal_move_text(FI, str(refused.value)) == t(FI, "illegal.choose_target_first")


@pytest.mark.parametrize("lang", languages())
def test_seeded_games_narrate_prompt_and_label_in_every_language(lang: Lang) -> None:
    """Every batch narrates line for line as in English; every prompt and label renders."""
    played = play_tables(tables=TABLES)
    for batch in played.batches:
        lines = words.narrate(lang, batch, name)
        assert all(line.strip() for line in lines)
        assert len(lines) == len(words.narrate(EN, batch, name))
    for game in played.games:
        for player in [None, *game.players]:
            view = view_for(game, player) if player else public_view(game)
            assert words.turn_prompt(lang, view, name)
            if player:
                assert words.hand_prompt(lang, view, name)
                labels = [words.move_label(lang, m, view, name) for m in view.legal_moves]
                assert all(0 < len(label) <= 80 for label in labels)
    for message in played.refusals:
        assert words.illegal_move_text(EN, message) == message


def test_a_junior_table_says_its_level_and_that_one_hand_is_the_game() -> None:
    """The summary: the level's deck, no score kept, no house rules."""
    rules = RuleSet.model_validate({"variant": "junior", "level": 1})
    lines = words.rules_summary(EN, rules, 45, True).splitlines()
    assert lines[:2] == ["UNO Junior, level 1 (numbers only)", t(EN, "summary.target.one_hand")]
    assert words.rules_summary(FI, RuleSet(variant="junior"), 45, True).startswith(
        "UNO Junior, taso 3 (kaikki kortit)"
    )
    assert lines[-1] == t(EN, "summary.house.none")
