"""The bot speaks each reader's language: private answers in the user's Discord language, public
messages in the server's, commands localized in the synced payload, and a restored table keeps
its language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord.interactions

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import view_for
from bot.ui import words
from bot.ui.i18n import ENGLISH, Lang, t, tn

from .driver import buttons, embed_text, labels

FI, SV, NB = Lang("fi"), Lang("sv"), Lang("nb")


@pytest.fixture
def user_locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """Discord locales by user id for the interactions SimCord sends.

    SimCord 3.2 writes "en-US" as every interaction's ``locale`` and ``guild_locale``; Discord
    sends the user's client language and the server's preferred locale. This fills both in as
    Discord does (users not in the mapping keep "en-US").
    """
    locales: dict[int, str] = {}
    build = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    yield locales


class Server:
    """A server with a preferred locale, a #uno channel and three members."""

    def __init__(self, env: Any, preferred_locale: str) -> None:
        self.env = env
        self.guild = env.create_guild("Kahvila", preferred_locale=preferred_locale)
        self.channel = self.guild.create_text_channel("uno")
        self.members = [self.guild.add_member(env.create_user(n)) for n in ("anna", "ben", "cara")]

    @property
    def bot(self) -> UnoBot:
        """The bot attached to the simulator now."""
        bot: UnoBot = self.env.bot
        return bot

    @property
    def public(self) -> Any:
        """The channel's latest public message (the lobby, later the table)."""
        return self.channel.last_message


async def press(member: Any, message: Any, label: str) -> Any:
    """Press the button labelled ``label`` (it must be there)."""
    assert label in labels(message), (label, labels(message))
    return await member.click(message, label=label)


async def test_a_finnish_user_in_a_swedish_server(
    simcord_env: Any, user_locales: dict[int, str]
) -> None:
    """A Finnish player gets a Finnish hand while everyone sees a Swedish lobby and table."""
    server = Server(simcord_env, "sv-SE")
    anna, ben, _ = server.members
    user_locales[anna.id] = "fi"
    await anna.slash(server.channel, "uno flip start")
    lobby = server.public
    assert embed_text(lobby).startswith(t(SV, "lobby.title.flip"))
    await press(ben, lobby, t(SV, "button.join"))
    await press(anna, server.public, t(SV, "button.start"))
    table = server.public
    text = embed_text(table)
    session = server.bot.sessions.by_channel[server.channel.id]
    game = session.state.game
    assert game is not None
    # The side follows the deal (a Flip card turned up first starts the round on the dark side).
    assert t(SV, "table.title.flip", round=1, side=words.side_name(SV, game.side)) in text
    assert t(SV, "table.events") in text
    assert labels(table) == [t(SV, "button.hand")]
    assert session.state.options.language == SV and list(session.state.log)
    # The log was narrated in Swedish when it was recorded ("Runda 1: ben gav, ...").
    dealt = t(SV, "event.round_started", round=1, dealer="{dealer}", card="{card}")
    assert any(
        re.fullmatch(dealt.format(dealer=r"\w+", card=".+"), line) for line in session.state.log
    )
    # Hand sizes depend on the deal (a Draw One turned up first makes the first player draw).
    anna_cards, ben_cards = (len(view_for(game, str(m.id)).hand) for m in (anna, ben))
    hand = (await press(anna, table, t(SV, "button.hand"))).response
    assert embed_text(hand).startswith(tn(FI, "hand.title", anna_cards))
    prompt = words.hand_prompt(FI, view_for(game, str(anna.id)), session.name)
    assert t(FI, "table.line.now", prompt=prompt) in embed_text(hand)
    assert t(FI, "button.refresh") in labels(hand)
    # Ben's Discord is English: his hand is English, the table stays Swedish.
    ben_hand = (await press(ben, table, t(SV, "button.hand"))).response
    assert embed_text(ben_hand).startswith(tn(ENGLISH, "hand.title", ben_cards))


async def test_a_norwegian_refusal(simcord_env: Any, user_locales: dict[int, str]) -> None:
    """Refusals are said in the refused user's language, with their details filled in."""
    server = Server(simcord_env, "fi")
    anna, ben, cara = server.members
    user_locales[ben.id] = "no"
    await anna.slash(server.channel, "uno classic start")
    await press(ben, server.public, t(FI, "button.join"))
    twice = await press(ben, server.public, t(FI, "button.join"))
    assert twice.ephemeral and twice.response.content == t(NB, "lobby.join.already")
    start = await press(ben, server.public, t(FI, "button.start"))
    assert start.ephemeral and start.response.content == t(NB, "lobby.start.not_host", host="anna")
    # Cara's Discord language has no catalog: the server's language answers her.
    user_locales[cara.id] = "de"
    refused = await press(cara, server.public, t(FI, "button.leave"))
    assert refused.response.content == t(FI, "lobby.not_in")


async def test_the_language_setting_overrides_the_server_locale(
    simcord_env: Any, user_locales: dict[int, str], settings: Settings
) -> None:
    """With ``language = "nb"`` a Finnish server's lobby is Norwegian."""
    settings.language = "nb"
    server = Server(simcord_env, "fi")
    await server.members[0].slash(server.channel, "uno flip start")
    assert embed_text(server.public).startswith(t(NB, "lobby.title.flip"))


async def test_commands_are_synced_with_their_localizations(simcord_env: Any) -> None:
    """The synced payload names and describes /uno in Finnish, Swedish and Norwegian."""
    synced = simcord_env.backend.commands[None]
    uno = next(command for (name, _), command in synced.items() if name == "uno")
    for locale, lang in (("fi", FI), ("sv-SE", SV), ("no", NB)):
        assert uno["name_localizations"][locale] == t(lang, "cmd.uno.name")
        assert uno["description_localizations"][locale] == t(lang, "cmd.uno.description")
        flip = next(o for o in uno["options"] if o["name"] == "flip")
        start = next(o for o in flip["options"] if o["name"] == "start")
        assert start["name_localizations"][locale] == t(lang, "cmd.uno.flip.start.name")
        target = next(o for o in start["options"] if o["name"] == "target")
        assert target["description_localizations"][locale] == t(lang, "opt.target.description")
    assert "en-US" not in uno.get("name_localizations", {})


async def test_a_restored_table_keeps_its_language(
    simcord_env: Any, user_locales: dict[int, str], settings: Settings
) -> None:
    """After a restart a Swedish table stays Swedish, also if the server's locale changed."""
    server = Server(simcord_env, "sv-SE")
    anna, ben, _ = server.members
    await anna.slash(server.channel, "uno flip start")
    await press(ben, server.public, t(SV, "button.join"))
    await press(anna, server.public, t(SV, "button.start"))
    session = server.bot.sessions.by_channel[server.channel.id]
    assert await session.saved(timeout=None)
    settings.language = "fi"  # a new setting applies to new lobbies, not to a running game
    await simcord_env.restart_bot(UnoBot(settings, shard_count=1))
    restored = server.bot.sessions.by_channel[server.channel.id]
    assert restored.state.options.language == SV
    assert restored.state.log[-1] == t(SV, "log.restarted_game")
    assert restored.state.game is not None
    ben_cards = len(view_for(restored.state.game, str(ben.id)).hand)  # 7, or more after a Draw
    hand = (await press(ben, server.public, t(SV, "button.hand"))).response
    assert embed_text(hand).startswith(tn(ENGLISH, "hand.title", ben_cards))
    assert [b.label for b in buttons(server.public)][:1] == [t(SV, "button.hand")]


async def test_standings_and_rules_in_each_readers_language(
    simcord_env: Any, user_locales: dict[int, str]
) -> None:
    """/leaderboard is public (the server's language); /stats and /uno rules answer privately
    in the caller's."""
    server = Server(simcord_env, "fi")
    anna, ben, _ = server.members
    user_locales[anna.id] = "sv-SE"
    user_locales[ben.id] = "no"
    board = await anna.slash(server.channel, "leaderboard")
    assert not board.ephemeral
    assert board.response.embeds[0].description == words.board_empty(FI, True, "all")
    stats = await anna.slash(server.channel, "stats")
    assert stats.ephemeral and stats.response.content == words.no_stats_text(SV, True, "anna", True)
    rules = await ben.slash(server.channel, "uno rules")
    shown = words.rules_text(NB, "flip")
    assert rules.ephemeral and embed_text(rules.response).startswith(shown.title)
    assert shown.fields[0][1] in embed_text(rules.response)


# The words of each language that say Junior's deck is a guess, not the real one.
PROVISIONAL = {
    ENGLISH: "best guess",
    FI: "paras arvauksemme",
    SV: "bästa gissning",
    NB: "beste gjetning",
}


@pytest.mark.parametrize("variant", ["allwild", "junior"])
@pytest.mark.parametrize(
    ("locale", "lang"), [("en-US", ENGLISH), ("fi", FI), ("sv-SE", SV), ("no", NB)]
)
async def test_uno_rules_of_a_chosen_game_in_each_language(
    simcord_env: Any, user_locales: dict[int, str], variant: str, locale: str, lang: Lang
) -> None:
    """/uno rules variant:allwild or junior answers that game's rules in the reader's language;
    Junior's page says its deck is a guess."""
    server = Server(simcord_env, "en-US")
    anna = server.members[0]
    user_locales[anna.id] = locale
    rules = await anna.slash(server.channel, "uno rules", variant=variant)
    shown = words.rules_text(lang, variant)
    text = embed_text(rules.response)
    assert rules.ephemeral and text.startswith(shown.title)
    assert all(body in text for _, body in shown.fields)
    assert (PROVISIONAL[lang] in text) == (variant == "junior")
