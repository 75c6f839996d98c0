"""A six-player UNO No Mercy game played to the end through Discord buttons, in English and in
Finnish: a draw stack, a knockout, a Roulette, a 7 swap and a 0 pass, then every turn by clicks
until one player is left with the win (issue 26's "done when")."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord.interactions

from bot.engine import Game, Phase, Side, view_for
from bot.engine.notation import parse_face, setup
from bot.sessions import GameSession
from bot.ui import words
from bot.ui.i18n import Lang, t, tn

from .driver import TERMINAL, ButtonInfo, buttons, embed_text, labels

NAMES = ("anna", "ben", "cara", "dan", "eve", "finn")

# Seats 0-5. Cara holds 19 cards: taking the stack of 6 brings her to 25, the Mercy limit.
CARA_19 = "Y2 Y3 Y5 Y6 Y8 Y9 G2 G3 G5 G6 G8 G9 Y2 Y3 Y5 Y6 Y8 Y9 G2"
HANDS = [
    "R+2 G1 Y1 B1 Y4",  # anna: starts the stack
    "R+4 G4 Y4 B4 R1",  # ben: stacks a Draw Four on it
    CARA_19,  # cara: takes 6, is knocked out
    "WCR G7 Y7 B2 R5",  # dan: the Roulette
    "G0 R6 R7 R8 R9",  # eve: names blue, reveals until a blue card
    "B7 B0 B3 B5 B6",  # finn: the 7, swaps with anna (who then plays the 0)
]
# The top of the draw pile: Cara's six, then Eve's reveals until blue (two cards, the second blue).
DRAWS = "R2 R2 G0 Y0 Y0 B9 G4 B9"


class Server:
    """A server in one language with a #uno channel and six members."""

    def __init__(self, env: Any, locale: str) -> None:
        self.env = env
        self.guild = env.create_guild("UNO Kahvila", preferred_locale=locale)
        self.channel = self.guild.create_text_channel("uno")
        self.members = [self.guild.add_member(env.create_user(n)) for n in NAMES]
        self.by_id = {str(m.id): m for m in self.members}
        self.last_session: GameSession | None = None

    @property
    def public(self) -> Any:
        """The channel's latest public message (the lobby, later the table)."""
        return self.channel.last_message

    @property
    def session(self) -> GameSession:
        """The channel's game session (kept after the game ends, to inspect its final state)."""
        current = self.env.bot.sessions.by_channel.get(self.channel.id)
        if current is not None:
            self.last_session = current
        assert self.last_session is not None, "no game was ever opened in the channel"
        return self.last_session

    @property
    def game(self) -> Game:
        """The engine game behind the session."""
        game = self.session.state.game
        assert game is not None
        return game


@pytest.fixture
def everyone_speaks(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Interactions carry the server's locale as the user's (SimCord writes "en-US")."""
    locale = {"value": "en-US"}
    build = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **kwargs)
        payload["locale"] = payload["guild_locale"] = locale["value"]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locale


def by_code(message: Any, suffix: str) -> ButtonInfo:
    """The one button whose custom_id ends with ``suffix``."""
    found = [b for b in buttons(message) if b.custom_id.endswith(suffix)]
    assert len(found) == 1, (suffix, [b.custom_id for b in buttons(message)])
    return found[0]


async def open_hand(server: Server, player: str) -> Any:
    """Press the table's Hand button as ``player``; the private hand."""
    member = server.by_id[player]
    result = await member.click(server.public, custom_id=by_code(server.public, ":hand").custom_id)
    return result.response


async def press_code(server: Server, player: str, hand: Any, code: str) -> Any:
    """Press the hand button with action ``code``, turning the hand's pages to find it."""
    member = server.by_id[player]
    for _ in range(10):
        match = [b for b in buttons(hand) if b.code == code and not b.disabled]
        if match:
            return await member.click(hand, custom_id=match[0].custom_id)
        pages = [b for b in buttons(hand) if b.code.startswith("g") and not b.disabled]
        assert pages, f"no button {code!r} in {labels(hand)}"
        await member.click(hand, custom_id=pages[-1].custom_id)
    raise AssertionError(f"no button {code!r} on any page")


async def play_card(server: Server, token: str) -> Any:
    """The current player opens their hand and presses the card ``token``."""
    game = server.game
    player = game.current_player
    assert player is not None
    seat = game.players.index(player)
    wanted = parse_face(token)
    card = next(c for c in game.hands[seat] if game.face(c, Side.LIGHT) == wanted)
    hand = await open_hand(server, player)
    await press_code(server, player, hand, f"p{card}")
    return hand


async def play_to_the_end(server: Server, rng: random.Random) -> None:
    """Every turn by clicks (a random legal button) until the game is over."""
    for _ in range(3000):
        game = server.game
        if game.phase in TERMINAL:
            return
        player = game.current_player
        assert player is not None
        member = server.by_id[player]
        hand = await open_hand(server, player)
        while game.current_player == player and game.phase not in TERMINAL:
            choices = [b for b in buttons(hand) if not b.disabled and b.code[:1] not in "rgut"]
            if not choices:
                await member.click(hand, custom_id=by_code(hand, ":r").custom_id)
                continue
            plays = [b for b in choices if b.code.startswith(("p", "c", "s", "a"))]
            pick = rng.choice(plays or choices)
            await member.click(hand, custom_id=pick.custom_id)
    raise AssertionError("the game did not end")


# The Finnish game is the same game in other words: the full run (CI) plays it.
@pytest.mark.parametrize("locale", ["en-US", pytest.param("fi", marks=pytest.mark.slow)])
async def test_a_six_player_no_mercy_game_by_buttons(
    simcord_env: Any, everyone_speaks: dict[str, str], locale: str
) -> None:
    """Stack, knockout, Roulette, 7 swap and 0 pass by buttons; the game then plays to its end."""
    everyone_speaks["value"] = locale
    lang = Lang("en" if locale == "en-US" else "fi")
    server = Server(simcord_env, locale)
    host = server.members[0]
    await host.slash(server.channel, "uno nomercy start")
    assert embed_text(server.public).startswith(t(lang, "lobby.title.nomercy"))
    for member in server.members[1:]:
        await member.click(server.public, custom_id=by_code(server.public, ":join").custom_id)
    await host.click(server.public, custom_id=by_code(server.public, ":start").custom_id)
    session = server.session
    players = list(server.game.players)
    assert len(players) == 6
    anna, ben, cara, dan, eve, finn = players
    # Script the deal: known hands and the next cards of the draw pile.
    game = setup(
        dict(zip(players, HANDS, strict=True)), "R3", rules=session.state.rules, draw=DRAWS
    )
    game.set_names({p: session.name(p) for p in players})
    session.state.game = game
    await session.public_messages.edit_now()

    # The stack: Anna's Draw Two, Ben's Draw Four on it; Cara is told and can only take it.
    await play_card(server, "R+2")
    # Ben's hand offers only the legal answers: the Draw Four (worth 4 >= 2), or taking 2.
    ben_hand = await open_hand(server, ben)
    draw_four = next(c for c in server.game.hands[1] if server.game.face(c) == parse_face("R+4"))
    answers = [b.code for b in buttons(ben_hand) if not b.disabled and b.code[:1] in "pad"]
    assert sorted(answers) == ["a", f"p{draw_four}"]
    await play_card(server, "R+4")
    told = list(session.state.log)  # the table's log keeps its last lines: gather them
    assert server.game.current_player == cara
    cara_view = view_for(server.game, cara)
    cara_hand = await open_hand(server, cara)
    prompt = words.hand_prompt(lang, cara_view, session.name)
    assert prompt in embed_text(cara_hand)
    # The table says who faces the stack, and its total (the name in bold there).
    facing = words.turn_prompt(lang, cara_view, lambda p: f"**{session.name(p)}**")
    assert facing in embed_text(server.public)
    assert [b.code for b in buttons(cara_hand) if not b.disabled and b.code[:1] == "p"] == []
    await press_code(server, cara, cara_hand, "a")
    # Her 25th card knocks her out; the rest of the stack lapses.
    assert cara in view_for(server.game, anna).knocked_out
    told += session.state.log
    table_text = embed_text(server.public)
    assert tn(lang, "table.seat.knocked_out", 25, name="~~cara~~") in table_text

    # The Roulette: Dan plays it, Eve names blue with a colour button and reveals until blue.
    assert server.game.current_player == dan
    await play_card(server, "WCR")
    assert server.game.current_player == eve
    eve_hand = await open_hand(server, eve)
    colours = [b.code for b in buttons(eve_hand) if b.code.startswith("c") and not b.disabled]
    assert sorted(colours) == ["cb", "cg", "cr", "cy"]
    told += session.state.log
    await press_code(server, eve, eve_hand, "cb")

    # The 7: Finn swaps with Anna; the knocked-out Cara is no target.
    assert server.game.current_player == finn
    finn_cards = len(server.game.hands[5]) - 1
    finn_hand = await play_card(server, "B7")
    targets = [b.code for b in buttons(finn_hand) if b.code.startswith("s") and not b.disabled]
    assert sorted(targets) == sorted(f"s{p}" for p in (anna, ben, dan, eve))
    anna_cards = len(server.game.hands[0])
    await press_code(server, finn, finn_hand, f"s{anna}")
    told += session.state.log
    assert [len(server.game.hands[s]) for s in (0, 5)] == [finn_cards, anna_cards]

    # The 0: Anna, now holding Finn's hand, plays its 0; every hand still in passes on.
    assert server.game.current_player == anna and server.game.phase is Phase.PLAY
    before = {p: sorted(server.game.hands[players.index(p)]) for p in (anna, ben, dan, eve, finn)}
    await play_card(server, "B0")
    told += session.state.log
    after = {p: sorted(server.game.hands[players.index(p)]) for p in (anna, ben, dan, eve, finn)}
    before[anna] = [c for c in before[anna] if c != server.game.discard[-1]]
    assert (after[ben], after[dan], after[eve], after[finn], after[anna]) == (
        before[anna],
        before[ben],
        before[dan],
        before[eve],
        before[finn],
    )
    assert server.game.hands[2] == []  # Cara is out and passes nothing

    # Every event was narrated at the table in the server's language.
    log = told
    for line in (
        tn(lang, "event.stacked", 6, name="ben"),
        tn(lang, "event.knocked_out", 25, name="cara"),
        t(lang, "event.roulette_asked", name="eve"),
        t(lang, "event.hands_swapped", name="finn", target="anna"),
        t(lang, "event.hands_rotated"),
    ):
        assert line in log, (line, log)

    # The rest of the game by clicks, until one player has won.
    await play_to_the_end(server, random.Random(7))
    ended = server.game  # (a new name: mypy still holds the phase asserted above)
    assert ended.phase is Phase.MATCH_OVER
    assert session.state.options.rules.scoring == "one_hand"  # the server's 500 is not No Mercy's
    # The final hands list the knocked-out players as knocked out, not as gone out.
    final = view_for(server.game, anna)
    final_text = embed_text(server.public)
    assert final.knocked_out and final.match_winner not in final.knocked_out
    assert (
        t(
            lang,
            "match.footer.variant",
            command="/uno nomercy " + t(lang, "cmd.uno.nomercy.start.name"),
        )
        in final_text
    )
    for player, aside in final.set_aside:
        line = tn(lang, "table.seat.knocked_out", aside, name=f"~~{session.name(player)}~~")
        assert line in final_text


async def test_must_play_if_able_is_a_no_mercy_start_option(
    simcord_env: Any, everyone_speaks: dict[str, str]
) -> None:
    """`/uno nomercy start must_play:on` makes the table refuse a draw to a player who can
    play; the lobby says it is not the official rule; Flip's start has no such option."""
    server = Server(simcord_env, "en-US")
    synced = simcord_env.backend.commands[None]
    uno = next(command for (name, _), command in synced.items() if name == "uno")
    starts = {
        group["name"]: {o["name"] for o in group["options"][0]["options"]}
        for group in uno["options"]
        if group.get("options") and group["options"][0]["name"] == "start"
    }
    assert "must_play" in starts["nomercy"] and "must_play" not in starts["flip"]
    await server.members[0].slash(server.channel, "uno nomercy start", must_play="on")
    assert t(Lang("en"), "differs.must_play") in embed_text(server.public)
    assert server.session.state.options.rules.must_play == "on"
