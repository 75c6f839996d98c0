"""Text that carries user input is cut to fit before it is sent, and a name can never
reorder the bot's own words (an unterminated right-to-left override, right-to-left letters)."""

from __future__ import annotations

import logging
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from bot.store import LeaderboardRow
from bot.ui.i18n import ENGLISH
from bot.ui.respond import MESSAGE_LIMIT, reply, safe_name
from cogs.leaderboard import NAME_WIDTH, board_table

from .conftest import World
from .driver import Table, embed_text, labels
from .hostile import forged_select

OVERRIDE = "\u202e"  # RIGHT-TO-LEFT OVERRIDE, left open
# Embeddings and overrides, and an isolate opened without its end: none may reach a message.
OPENERS = "\u202a\u202b\u202d\u202e\u2066\u2067"


def contained(text: str) -> bool:
    """No embedding or override, and on every line each isolate opened is closed."""
    if any(char in OPENERS for char in text):
        return False
    for line in text.splitlines():
        depth = 0
        for char in line:
            depth += (char == "\u2068") - (char == "\u2069")
            if depth < 0:
                return False
        if depth:
            return False
    return True


@pytest.mark.parametrize(
    ("control", "value"), [("switches", "x" * 3000), ("choice", "y" * 3000 + ":on")]
)
async def test_a_3000_character_settings_value_gets_a_short_refusal(
    world: World, admin: Any, caplog: pytest.LogCaptureFixture, control: str, value: str
) -> None:
    """A forged select value of 3,000 characters is refused in a short line, not repeated."""
    shown = (await admin.slash(world.channel, "uno-settings")).response
    answer = await forged_select(admin, shown, f"uno:s:{control}", [value])
    assert answer.ephemeral and "cannot take that value" in answer.response.content
    assert len(answer.response.content) < 300
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


class _Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, ephemeral: bool) -> None:
        self.sent.append(text)


class _Interaction:
    def __init__(self) -> None:
        self.response = _Response()


async def test_reply_never_sends_more_than_discord_accepts() -> None:
    """A 5,000-character answer goes out cut to 2,000 characters, its cut marked."""
    interaction = _Interaction()
    await reply(interaction, "z" * 5000)  # type: ignore[arg-type]
    (sent,) = interaction.response.sent
    assert len(sent) == MESSAGE_LIMIT and sent.endswith("…")


def test_a_forged_enormous_name_is_cut() -> None:
    """A name far past Discord's own limits shows as its first hundred characters."""
    assert len(safe_name("n" * 5000)) == 100


@pytest.mark.parametrize("nick", [OVERRIDE + "evil", OVERRIDE + "שלום", "שלום 12", "a\u2066b"])
async def test_a_name_never_reorders_the_bots_words(world: World, nick: str) -> None:
    """A right-to-left override or right-to-left letters in a display name reach the lobby,
    the table, the log and the buttons only stripped and isolated."""
    hostile = world.guild.add_member(world.env.create_user("mallory"), nick=nick)
    host = world.members[0]
    await host.slash(world.channel, "uno classic start")
    await hostile.click(world.channel.last_message, label="Join")
    lobby = embed_text(world.channel.last_message)
    assert contained(lobby) and OVERRIDE not in lobby
    await host.click(world.channel.last_message, label="Start")
    table = Table(world, 1)
    assert contained(embed_text(table.public))
    player = str(hostile.id)
    hand = (await hostile.click(table.public, label="Hand")).response
    assert contained(embed_text(hand)) and all(contained(label) for label in labels(hand))
    assert player in table.game.players
    assert contained("\n".join(table.session.state.log))


def test_a_right_to_left_name_is_isolated() -> None:
    """Right-to-left letters come back wrapped in an isolate; a plain name comes back as is."""
    assert safe_name(OVERRIDE + "שלום") == "\u2068שלום\u2069"
    assert safe_name(OVERRIDE + "evil **x**") == "evil \\*\\*x\\*\\*"


def test_the_leaderboard_column_holds_with_a_right_to_left_name() -> None:
    """A right-to-left name in the standings' monospace table is isolated and padded to the
    same visible width as any other."""
    rows = [
        LeaderboardRow(
            rank=1,
            player_id=1,
            name=OVERRIDE + "שלום",
            points=9,
            matches_won=1,
            rounds_won=2,
            games_played=3,
        ),
        LeaderboardRow(
            rank=2, player_id=2, name="anna", points=5, matches_won=0, rounds_won=1, games_played=3
        ),
    ]
    lines = board_table(rows, 2, ENGLISH).splitlines()[2:4]
    assert contained("\n".join(lines))
    visible = ["".join(c for c in line if unicodedata.category(c) != "Cf") for line in lines]
    assert len(visible[0]) == len(visible[1])
    assert "\u2068שלום\u2069" + " " * (NAME_WIDTH - 4) in lines[0]


# Where a user's own text is read (names of people, servers and standings rows, a refused
# setting's name as sent), and the lines that read it without sending it: storing, comparing
# or looking up. Every other line must pass it through safe_name or plain_name.
USER_TEXT = re.compile(r"display_name|guild\.name|seat\.name|row\.name|refused\.name")
NOT_SENT = (
    "state.join(user.id, user.display_name)",  # kept in the table; shown by GameSession.name
    "Seat(str(interaction.user.id), interaction.user.display_name)",
    "return interaction.guild.name if",  # settings_panel._where: panel_embed makes it safe
    "where = guild.name if",  # /stats: stats_embed makes it safe
    "refused.name in",
    "bounds(refused.name)",
    "refused.name ==",
    "if not refused.name",
    "setting_name(lang, refused.name)",  # the setting's own name from the catalog
    "self._names[seat.player_id] = seat.name",
    "{seat.player_id: seat.name for seat in saved.seats}",  # TableState._take keeps them too
    "seat.name.casefold()",
    "name = player.display_name if player is not None",  # /uno history: history_page makes it safe
)


def test_no_user_text_is_sent_without_the_helpers() -> None:
    """Every line of the bot and its cogs that reads a name a user chose either passes it through
    safe_name or plain_name (escaped, cut to fit, bidi-safe) or does not send it."""
    root = Path(__file__).resolve().parents[2]
    unsafe = []
    # The rooms that send messages (the store, the engine and the AI send none).
    rooms = [*root.glob("bot/*.py"), *root.glob("bot/ui/**/*.py"), *root.glob("cogs/*.py")]
    for path in sorted(rooms):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not USER_TEXT.search(line) or "safe_name(" in line or "plain_name(" in line:
                continue
            if not any(allowed in line for allowed in NOT_SENT):
                unsafe.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert unsafe == []
