"""Drive the bot like people do: slash commands and button clicks through SimCord.

Tests may read the session's engine state to decide which button a person would press, but
every change goes through a real interaction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.engine import Game, Phase
from bot.sessions import GameSession

from .conftest import World

TERMINAL = (Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.ABANDONED)


@dataclass(frozen=True)
class ButtonInfo:
    """One button of a message, from its raw component payload."""

    label: str
    custom_id: str
    disabled: bool

    @property
    def code(self) -> str:
        """The action part of a hand button's custom_id (after the serial)."""
        return self.custom_id.split(":", 4)[-1]


def buttons(message: Any) -> list[ButtonInfo]:
    """Every button on a message (a discord.Message or a SimCord ResponseMessage)."""
    found: list[ButtonInfo] = []
    rows = message.components
    for row in rows:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict):
                found.append(
                    ButtonInfo(
                        child.get("label") or "", child["custom_id"], child.get("disabled", False)
                    )
                )
            else:
                found.append(ButtonInfo(child.label or "", child.custom_id, child.disabled))
    return found


def labels(message: Any) -> list[str]:
    """The labels of every button on a message."""
    return [b.label for b in buttons(message)]


def enabled(message: Any) -> list[str]:
    """The labels of the buttons that can be pressed."""
    return [b.label for b in buttons(message) if not b.disabled]


def embed_text(message: Any) -> str:
    """All text of a message's embeds (title, description, fields, footer) in one string."""
    parts: list[str] = []
    for embed in message.embeds:
        data = embed if isinstance(embed, dict) else embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        for field in data.get("fields", []):
            parts += [field["name"], field["value"]]
        parts.append(data.get("footer", {}).get("text", ""))
    return "\n".join(p for p in parts if p)


class Table:
    """One channel's game as the members of a World see and play it."""

    def __init__(self, world: World, seats: int) -> None:
        """The first ``seats`` members of the world will play."""
        self.world = world
        self.players = world.members[:seats]
        self.by_id = {str(m.id): m for m in world.members}
        self._session: GameSession | None = None

    @property
    def session(self) -> GameSession:
        """The channel's session (kept after it finishes, to inspect the final state)."""
        current = self.world.bot.sessions.by_channel.get(self.world.channel.id)
        if current is not None:
            self._session = current
        assert self._session is not None, "no session was ever opened in the channel"
        return self._session

    @property
    def game(self) -> Game:
        """The engine game behind the session."""
        game = self.session.state.game
        assert game is not None
        return game

    @property
    def public(self) -> Any:
        """The latest public message in the channel (the lobby, later the table)."""
        return self.world.channel.last_message

    def forget_session(self) -> None:
        """Look the session up afresh (after a restart the bot has new session objects)."""
        self._session = None

    async def redraw(self) -> None:
        """Edit the public table now, as the next move would (after ``rig`` changed the game)."""
        # Drawn and sent at once, past the edit budget, whose timer would also need the
        # simulated clock moved (and with it every turn timer).
        await self.session.public_messages.edit_now()

    async def save_now(self) -> None:
        """Save the session as the bot does after a move (its state may have been rigged),
        and wait until it is written."""
        self.session.state.revision += 1  # a rigged game counts as a change
        self.session.settle()
        assert await self.session.saved(timeout=None)

    @property
    def game_id(self) -> int | None:
        """The store's row id of this table's game."""
        persistence = self.world.bot.sessions.persistence
        assert persistence is not None
        return persistence.game_id(self.session.id)

    async def open(self, command: str = "uno flip start", **options: Any) -> Any:
        """The first player opens a lobby; the others join."""
        host = self.players[0]
        await host.slash(self.world.channel, command, **options)
        assert self.session is not None  # remember it: it is forgotten once the game ends
        for member in self.players[1:]:
            await member.click(self.public, label="Join")
        return self.public

    async def start(self, command: str = "uno flip start", **options: Any) -> Any:
        """Open a lobby, fill it and press Start."""
        await self.open(command, **options)
        await self.players[0].click(self.public, label="Start")
        return self.public

    def actor(self, player: str) -> Any:
        """The member actor for an engine player id."""
        return self.by_id[player]

    async def hand(self, player: str) -> Any:
        """Press Hand on the table as ``player``; returns the ephemeral response."""
        result = await self.actor(player).click(self.public, label="Hand")
        return result.response

    async def press(self, player: str, hand: Any, code: str) -> Any:
        """Press the hand button whose action code is ``code``."""
        match = [b for b in buttons(hand) if b.code == code]
        assert match, f"no button {code!r} in {labels(hand)}"
        return await self.actor(player).click(hand, custom_id=match[0].custom_id)

    async def play_turn(self, rng: random.Random) -> None:
        """The current player opens their hand and presses buttons until their turn is done."""
        game = self.game
        player = game.current_player
        assert player is not None
        hand = await self.hand(player)
        while game.current_player == player and game.phase not in TERMINAL:
            choices = [b for b in buttons(hand) if not b.disabled and b.code[:1] not in "rgut"]
            if not choices:  # the hand was rendered before others moved: refresh it
                await self.actor(player).click(hand, label="Refresh")
                continue
            plays = [b for b in choices if b.code.startswith(("p", "c", "s", "a", "x"))]
            pick = rng.choice(plays or choices)
            await self.actor(player).click(hand, custom_id=pick.custom_id)

    async def play_round(self, rng: random.Random, max_turns: int = 2000) -> None:
        """Play turns by clicks until the round ends."""
        for _ in range(max_turns):
            if self.game.phase in TERMINAL:
                return
            await self.play_turn(rng)
        raise AssertionError("the round did not end")


def rig(table: Table, hands: list[str], top: str, **options: Any) -> Game:
    """Replace the dealt round with known hands (by seat) and piles, as a test setup step."""
    from bot.engine.notation import setup

    session = table.session
    old = table.game
    game = setup(
        dict(zip(old.players, hands, strict=True)), top, rules=session.state.rules, **options
    )
    game.set_names({p: session.name(p) for p in old.players})
    session.state.game = game
    return game


async def wild_draw_four_on_ben(
    world: World, anna_hand: str, ben_hand: str = "G1 G+2 G3", **options: Any
) -> Table:
    """A 3-player classic table where Anna (holding ``anna_hand``) has just played a Wild Draw
    Four and chosen blue: Ben (``ben_hand``) must answer it."""
    table = Table(world, 3)
    await table.start("uno classic start", **options)
    rig(table, [anna_hand, ben_hand, "Y1 Y2 Y3"], top="R3")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(
        anna, hand, next(b.code for b in buttons(hand) if b.label == "Wild Draw Four")
    )
    await table.press(anna, hand, "cb")
    return table
