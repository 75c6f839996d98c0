"""The public round memory: each seat's last turn, cards received since, and what views show."""

from __future__ import annotations

import pytest

from bot.engine import Color, Game, Phase, RuleSet, Side, dumps, loads, view_for
from bot.engine.game import DREW
from bot.engine.moves import ACCEPT, DRAW, PASS, Catch, ChooseColor, Move, PlayCard, SwapWith
from bot.engine.notation import faces, parse_face, setup
from bot.engine.snapshot import dump_state, load_state

from . import card, play

CLASSIC = RuleSet(variant="classic")
FLIP = RuleSet(variant="flip")
RED = ChooseColor(Color.RED)
# ann holds nothing for a red 5: her turn there is a draw.
STUCK = {"ann": "B1 G2", "ben": "R3 Y4", "cid": "G5 G6"}


def _memory(game: Game, player: str) -> tuple[tuple[object, ...] | None, int]:
    """``player``'s remembered last turn (as side, top, colour, played, named) and the cards
    received since."""
    seat = game.players.index(player)
    last = game.last_turn(seat)
    return (None if last is None else tuple(last[:5])), game.received_since(seat)


# ------------------------------------------------------------------ what a turn records


def test_draw_records_what_was_faced_and_resets_received() -> None:
    """Drawing instead of playing records DREW, the top and colour faced; received restarts."""
    game = setup(
        {"ann": "B1 G2", "ben": "R+2 R3 B9"}, "R5", rules=CLASSIC, draw="Y8 Y9 Y7", current=1
    )
    play(game, "ben", "R+2")
    assert _memory(game, "ann")[1] == 2
    play(game, "ben", "R3")
    top = game.discard[-1]
    game.apply("ann", DRAW)
    assert _memory(game, "ann") == ((Side.LIGHT, top, Color.RED, DREW, None), 0)


def _drew_red_seven(rules: RuleSet = CLASSIC) -> tuple[Game, tuple[object, ...]]:
    """STUCK after ann drew a playable red 7 on the red 5, and the draw record expected."""
    game = setup(STUCK, "R5", rules=rules, draw="R7")
    drew: tuple[object, ...] = (Side.LIGHT, game.discard[-1], Color.RED, DREW, None)
    game.apply("ann", DRAW)
    return game, drew


def test_kept_playable_drawn_card_counts_as_received() -> None:
    """A playable card drawn and kept could be anything to the others: it counts as one."""
    game, drew = _drew_red_seven()
    game.apply("ann", PASS)
    assert _memory(game, "ann") == (drew, 1)


def test_drawn_card_then_played_keeps_the_draw_record() -> None:
    """Playing the card just drawn leaves the turn recorded as a draw."""
    game, drew = _drew_red_seven()
    assert game.drawn_card is not None
    game.apply("ann", PlayCard(game.drawn_card))
    assert _memory(game, "ann") == (drew, 0)


def test_forced_play_of_a_drawn_card_keeps_the_draw_record() -> None:
    """Under forced play the drawn playable card goes down at once; the turn is still a draw."""
    game, drew = _drew_red_seven(RuleSet(variant="classic", forced_play=True))
    assert game.face(game.discard[-1]) == parse_face("R7")
    assert _memory(game, "ann") == (drew, 0)


def test_play_records_the_card_and_what_was_faced() -> None:
    """A card played in turn is recorded with the top card and the colour it went on."""
    game = setup({"ann": "R3 B1", "ben": "Y4 Y5"}, "G5 R5", rules=CLASSIC)
    top, played = game.discard[-1], card(game, "ann", "R3")
    game.apply("ann", PlayCard(played))
    assert _memory(game, "ann") == ((Side.LIGHT, top, Color.RED, played, None), 0)


def test_wild_records_the_colour_named() -> None:
    """The colour named for a wild joins the record of the turn it was played in."""
    game = setup({"ann": "W B1", "ben": "Y4 Y5"}, "R5", rules=CLASSIC)
    top, wild = game.discard[-1], card(game, "ann", "W")
    game.apply("ann", PlayCard(wild))
    game.apply("ann", ChooseColor(Color.GREEN))
    assert _memory(game, "ann") == ((Side.LIGHT, top, Color.RED, wild, Color.GREEN), 0)


def test_stacked_draw_card_is_not_a_turn() -> None:
    """Passing a Draw Two on by stacking leaves the stacker's record as it was."""
    rules = RuleSet(variant="classic", stacking=True)
    game = setup({"ann": "R+2 B1", "ben": "G+2 B2", "cid": "Y3 Y4"}, "R5", rules=rules)
    play(game, "ann", "R+2")
    before = _memory(game, "ben")
    play(game, "ben", "G+2")
    assert game.phase is Phase.PENALTY
    assert _memory(game, "ben") == before == (None, 0)


# ------------------------------------------------------------------ cards received since


@pytest.mark.parametrize(
    ("token", "then", "received"),
    [("R+2", None, 2), ("W+4", ChooseColor(Color.BLUE), 4)],
)
def test_penalty_cards_count_as_received(token: str, then: Move | None, received: int) -> None:
    """Cards taken for a draw card count as received by the player who drew them."""
    game = setup({"ann": f"{token} R3", "ben": "Y4 Y5", "cid": "G1"}, "R5", rules=CLASSIC)
    play(game, "ann", token)
    if then is not None:
        game.apply("ann", then)
        game.apply("ben", ACCEPT)
    assert _memory(game, "ben") == (None, received)


def test_uno_catch_penalty_counts_as_received() -> None:
    """Two cards for a missed UNO call count as received after the turn that exposed them."""
    game = setup({"ann": "R3 B4", "ben": "Y4 Y5", "cid": "G1 G2"}, "R5", rules=CLASSIC)
    play(game, "ann", "R3")
    game.apply("ben", Catch("ann"))
    last, received = _memory(game, "ann")
    assert last is not None and received == 2


# ------------------------------------------------------------------ forgetting


def test_new_round_forgets_every_turn() -> None:
    """The next deal starts with nothing remembered."""
    game = setup(
        {"ann": "R3", "ben": "Y4 Y5", "cid": "G1 G2"}, "R5", rules=CLASSIC, draw="Y7 B7", current=1
    )
    game.apply("ben", DRAW)
    game.apply("cid", DRAW)
    play(game, "ann", "R3")
    assert game.phase is Phase.ROUND_OVER
    game.start_next_round()
    assert game.turn_log == [[], [], []]
    assert game.received == [0, 0, 0]


SEVEN_O = RuleSet(variant="classic", seven_o=True)


@pytest.mark.parametrize(
    ("rules", "token", "then"),
    [
        (SEVEN_O, "R7", [SwapWith("cid")]),
        (SEVEN_O, "R0", []),
        (RuleSet(variant="classic", edition="swap_hands"), "WSW", [SwapWith("cid"), RED]),
        (RuleSet(variant="classic", edition="shuffle_hands"), "WSH", [RED]),
    ],
)
def test_hands_changing_owner_forgets_every_turn(
    rules: RuleSet, token: str, then: list[Move]
) -> None:
    """A swap, a rotation or a shuffle of the hands makes every remembered turn meaningless."""
    hands = {"ann": f"{token} B1 B2", "ben": "Y4 Y5", "cid": "G1 G2"}
    game = setup(hands, "R5", rules=rules, draw="Y7 R9", current=1)
    game.apply("ben", DRAW)
    game.apply("cid", DRAW)
    game.apply("cid", PASS)
    assert game.last_turn(1) is not None and game.received_since(2) == 1
    play(game, "ann", token)
    for move in then:
        game.apply("ann", move)
    assert game.turn_log == [[], [], []]
    assert game.received == [0, 0, 0]


def test_jump_in_is_not_a_turn() -> None:
    """A card jumped in out of turn leaves the jumper's record as it was."""
    rules = RuleSet(variant="classic", jump_in=True)
    game = setup({"ann": "B1 G2", "ben": "Y4 Y5", "cid": "R5 G6"}, "R5", rules=rules, draw="Y7")
    game.apply("ann", DRAW)
    play(game, "cid", "R5")
    assert game.current_player == "ann"  # play goes on from the jumper's seat
    assert _memory(game, "cid") == (None, 0)
    assert _memory(game, "ann")[0] is not None


def test_removed_player_takes_only_their_own_memory() -> None:
    """After a player leaves, the others' records stay with the right seats."""
    hands = {"ann": "B1 G2", "ben": "R3 Y4", "cid": "G5 G6 B6"}
    game = setup(hands, "R5", rules=CLASSIC, draw="Y7 R9")
    game.apply("ann", DRAW)
    play(game, "ben", "R3")
    game.apply("cid", DRAW)
    game.apply("cid", PASS)
    ann, cid = _memory(game, "ann"), _memory(game, "cid")
    game.remove_player("ben")
    assert game.players == ["ann", "cid"]
    assert (_memory(game, "ann"), _memory(game, "cid")) == (ann, cid)
    assert cid[1] == 1


def test_every_turn_of_the_round_is_logged_with_its_table() -> None:
    """The log keeps each turn in order with the smallest other hand at the time."""
    hands = {"ann": "R3 R4 B1", "ben": "Y4 Y6 Y8", "cid": "G6 G7"}
    game = setup(hands, "R5", rules=CLASSIC, draw="B8 B9")
    play(game, "ann", "R3")
    game.apply("ben", DRAW)
    game.apply("cid", DRAW)
    play(game, "ann", "R4")
    log = game.turn_log[0]
    assert [(game.face(t.played).name(), t.fewest_other) for t in log] == [
        ("Red 3", 2),
        ("Red 4", 3),
    ]
    assert [game.received_since(0, t) for t in log] == [0, 0]
    (ben_drew,) = game.turn_log[1]
    assert (ben_drew.played, ben_drew.fewest_other, game.received_since(1, ben_drew)) == (
        DREW,
        2,
        0,
    )


def test_received_since_counts_from_each_logged_turn() -> None:
    """Cards received after an older turn count for it and for none made after them."""
    hands = {"ben": "R+2 R3 R6 R7", "ann": "B1 G2", "cid": "B3 B4"}
    game = setup(hands, "R5", rules=CLASSIC, draw="Y7 Y8 Y9 G8 G9 B8 B9")
    play(game, "ben", "R3")
    game.apply("ann", DRAW)  # no red, no 3: one card, and the turn passes
    game.apply("cid", DRAW)
    play(game, "ben", "R+2")  # ann receives two
    (drew,) = game.turn_log[1]
    assert drew.played == DREW
    assert game.received_since(1, drew) == game.received_since(1) == 2
    game.apply("cid", DRAW)  # ann was skipped
    play(game, "ben", "R6")
    game.apply("ann", DRAW)
    first, second = game.turn_log[1]
    assert (game.received_since(1, first), game.received_since(1, second)) == (3, 0)
    view = view_for(game, "ben")
    (ann,) = [o for o in view.opponents if o.player == "ann"]
    assert [t.played for t in ann.turns] == [None, None]
    assert [t.received_since for t in ann.turns] == [3, 0]
    assert (ann.last_played, ann.received_since) == (None, 0)


# ------------------------------------------------------------------ snapshots


def _remembering() -> Game:
    """A game remembering a named wild, a draw, a kept drawn card and a seat with no turn yet."""
    hands = {"ann": "W B1 B2", "ben": "Y4 Y5", "cid": "B3 B4", "dan": "Y1 Y2"}
    game = setup(hands, "R5", rules=CLASSIC, draw="Y7 G7")
    play(game, "ann", "W")
    game.apply("ann", ChooseColor(Color.GREEN))
    game.apply("ben", DRAW)
    game.apply("cid", DRAW)
    game.apply("cid", PASS)
    return game


def test_json_round_trip_keeps_the_memory() -> None:
    """model_dump_json and model_validate_json carry every record and count."""
    game = _remembering()
    copy = loads(dumps(game))
    assert copy.turn_log == game.turn_log
    assert [copy.received_since(seat) for seat in range(4)] == [0, 0, 1, 0]
    named = copy.last_turn(0)
    assert named is not None and named.named is Color.GREEN and copy.last_turn(3) is None


def test_snapshot_without_memory_loads_with_nothing_remembered() -> None:
    """A snapshot from before the memory existed loads with no turns remembered."""
    data = dump_state(_remembering())
    del data["turn_log"], data["received"]
    game = load_state(data)
    assert game.turn_log == [[]] * 4
    assert game.received == [0] * 4


def test_snapshot_with_the_first_form_of_the_memory_keeps_each_latest_turn() -> None:
    """Live games saved when only the latest turn was kept load it, its table unknown (0)."""
    game = _remembering()
    data = dump_state(game)
    del data["turn_log"], data["received"]
    data["last_turn"] = [
        None if t is None else [int(t.side), t.top, t.color, t.played, t.named]
        for t in map(game.last_turn, range(4))
    ]
    data["received_since"] = [game.received_since(seat) for seat in range(4)]
    loaded = load_state(data)
    assert [loaded.last_turn(s) for s in range(4)] == [
        None if t is None else t._replace(fewest_other=0, received_at=0)
        for t in map(game.last_turn, range(4))
    ]
    assert [loaded.received_since(s) for s in range(4)] == [0, 0, 1, 0]


@pytest.mark.parametrize("key", ["turn_log", "received"])
def test_snapshot_with_memory_of_the_wrong_length_is_rejected(key: str) -> None:
    """A memory list that does not have one entry per player is refused."""
    data = dump_state(_remembering())
    data[key] = data[key][:-1]
    with pytest.raises(ValueError, match="seats do not match"):
        load_state(data)


def test_snapshot_with_only_one_memory_list_is_rejected() -> None:
    """Turns without their received counts (or the reverse) cannot be lined up and are refused."""
    data = dump_state(_remembering())
    del data["received"]
    with pytest.raises(ValueError, match="seats do not match"):
        load_state(data)


# ------------------------------------------------------------------ views


def test_view_shows_the_discard_pile_bottom_to_top() -> None:
    """Every discard face is in the view in the order played; classic has no backs."""
    game = setup({"ann": "R3 B1", "ben": "Y4 Y5"}, "G5 R5", rules=CLASSIC)
    play(game, "ann", "R3")
    view = view_for(game, "ben")
    assert view.discards == tuple(faces("G5 R5 R3"))
    assert view.discard_backs is None


def test_flip_view_shows_the_backs_of_the_discards() -> None:
    """In Flip the view also holds the other side of every discard, in the same order."""
    game = setup({"ann": "R3|P7 B1|USE", "ben": "Y4|P+5 Y5|U9"}, "B2|O8 R5|P2", rules=FLIP)
    play(game, "ann", "R3")
    view = view_for(game, "ben")
    assert view.discards == tuple(faces("B2 R5 R3"))
    assert view.discard_backs == tuple(faces("O8 P2 P7"))


def test_view_shows_an_opponents_draw() -> None:
    """Another player sees what the drawer faced, that they drew, and nothing received since."""
    game = setup(STUCK, "R5", rules=CLASSIC, draw="Y7")
    game.apply("ann", DRAW)
    (ann,) = [o for o in view_for(game, "ben").opponents if o.player == "ann"]
    assert (ann.last_top, ann.last_color, ann.last_played, ann.last_named) == (
        parse_face("R5"),
        Color.RED,
        None,
        None,
    )
    assert ann.received_since == 0


def test_view_shows_an_opponents_wild_and_colour() -> None:
    """Another player sees the wild played and the colour named for it."""
    game = setup({"ann": "W B1", "ben": "Y4 Y5"}, "R5", rules=CLASSIC)
    play(game, "ann", "W")
    game.apply("ann", ChooseColor(Color.GREEN))
    (ann,) = view_for(game, "ben").opponents
    assert (ann.last_top, ann.last_played, ann.last_named) == (
        parse_face("R5"),
        parse_face("W"),
        Color.GREEN,
    )


def test_view_hides_turns_made_before_a_flip() -> None:
    """Once the side in play changes, turns recorded on the other side are not shown."""
    hands = {"ann": "B2|O8 B3|U8", "ben": "RF|P8 B5|P9", "cid": "Y2|T1 Y3|U1"}
    game = setup(hands, "R5|P2", rules=FLIP, draw="Y8|P1")
    game.apply("ann", DRAW)
    shown = {o.player: o.last_top for o in view_for(game, "cid").opponents}
    assert shown["ann"] == parse_face("R5")
    play(game, "ben", "RF")
    assert game.side is Side.DARK
    for opponent in view_for(game, "cid").opponents:
        assert (opponent.last_top, opponent.last_color, opponent.last_played) == (None,) * 3
        assert (opponent.last_named, opponent.received_since) == (None, 0)


def test_memory_switched_off_records_nothing_and_plays_the_same() -> None:
    """A simulation without the memory makes the same moves and remembers no turn."""
    hands = {"ann": "R3 R4 B1", "ben": "Y4 Y6 Y8", "cid": "G6 G7"}
    remembering = setup(hands, "R5", rules=CLASSIC, draw="B8 B9")
    forgetting = setup(hands, "R5", rules=CLASSIC, draw="B8 B9")
    forgetting.remember_turns = False
    for game in (remembering, forgetting):
        play(game, "ann", "R3")
        game.apply("ben", DRAW)
        game.apply("cid", DRAW)
        play(game, "ann", "R4")
    assert forgetting.hands == remembering.hands
    assert forgetting.turn_log == [[], [], []]
    assert remembering.turn_log[0]
