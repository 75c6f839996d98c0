"""Every message the bot can draw stays within Discord's limits: a property test renders the
table and hands at every step of random games (both variants, 2 to 10 players, hostile
names), and checks each payload the way Discord would."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Phase, RuleSet
from bot.sessions import GameSession, Seat
from bot.ui.render import Rendered

from .conftest import _check_like_discord, make_settings

# Discord's longest display name (32) full of markdown, to push every line to its limit.
HOSTILE_NAMES = ["*_`~|>#[x](y)@everyone**__||", "W" * 32, "🃏" * 16, "a", "\\" * 32]
TERMINAL = (Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.ABANDONED)


def check_payload(shown: Rendered) -> None:
    """Raise as Discord would (400) for a message it refuses."""
    _check_like_discord([shown.embed.to_dict()])
    assert shown.content is None or len(shown.content) <= 2000
    if shown.view is None:
        return
    rows = shown.view.to_components()
    assert len(rows) <= 5
    for row in rows:
        assert len(row["components"]) <= 5
        for button in row["components"]:
            assert len(button.get("custom_id", "")) <= 100
            label = button.get("label")
            assert label is None or 1 <= len(label) <= 80


def playing_session(tmp_path: Any, players: int, variant: str, seed: int) -> GameSession:
    """A real session with a started game and no Discord behind it (rendering only)."""
    settings = make_settings(tmp_path)
    manager: Any = SimpleNamespace(settings=settings, spawn=lambda *args: None)
    seats = [Seat(str(10**17 + i), HOSTILE_NAMES[i % len(HOSTILE_NAMES)]) for i in range(players)]
    session = GameSession(manager, "abcdef0123", 1, 2, seats[0], RuleSet(variant=variant), 60)
    for seat in seats[1:]:
        session.add_seat(seat)
    session._after_state_change = lambda: None  # type: ignore[method-assign]
    session.request_table_update = lambda: None  # type: ignore[method-assign]
    session.start_game()
    return session


def play_and_render(session: GameSession, seed: int, steps: int = 200) -> int:
    """Play random legal moves, rendering the table and two hands at every step."""
    game = session.game
    assert game is not None
    rng = random.Random(seed)
    rendered = 0
    for _ in range(steps):
        check_payload(session.render_public())
        rendered += 1
        if game.phase in TERMINAL:
            break
        current = game.current_player
        assert current is not None
        onlooker = rng.choice(game.players)
        for player in {current, onlooker}:
            check_payload(session.render_hand(player, page=rng.randint(0, 3)))
            rendered += 1
        moves = game.legal_moves(current)
        session._record(game.apply(current, rng.choice(moves)), current, turn_move=True)
    return rendered


@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    players=st.integers(min_value=2, max_value=10),
    variant=st.sampled_from(["flip", "classic"]),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_every_rendered_message_is_one_discord_accepts(
    tmp_path: Any, players: int, variant: str, seed: int
) -> None:
    """Tables and hands at every step of a random round pass Discord's checks."""
    session = playing_session(tmp_path, players, variant, seed)
    assert play_and_render(session, seed) > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_every_rendered_message_over_many_rounds(tmp_path: Any, variant: str) -> None:
    """The same over 60 seeded rounds per variant, up to 10 players."""
    for seed in range(60):
        session = playing_session(tmp_path, 2 + seed % 9, variant, seed)
        play_and_render(session, seed, steps=1500)


def test_a_round_over_message_with_ten_full_hands_fits(tmp_path: Any) -> None:
    """Ten players each holding many cards at the round's end still make one valid embed."""
    session = playing_session(tmp_path, 10, "flip", 7)
    game = session.game
    assert game is not None
    for _ in range(30):  # everyone draws a lot first
        for seat in range(len(game.players)):
            if game.draw_pile:
                game.hands[seat].append(game.draw_pile.pop())
    check_payload(session.render_public())
    for player in game.players:
        check_payload(session.render_hand(player))
