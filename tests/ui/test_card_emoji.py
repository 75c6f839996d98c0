"""Card emoji: one per face, reused by name after a restart, and a text fallback on failure."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace

import discord
import pytest

from bot.engine.cards import Color, Face, Kind, Side
from bot.ui.cards import COLOR_BLIND, CardArt, Family, all_family_faces
from bot.ui.cards.emoji import (
    APP_EMOJI_LIMIT,
    EMOJI_REVISIONS,
    EMOJI_VERSION,
    NAME_RE,
    CardEmojis,
    EmojiHost,
    emoji_name,
)
from bot.ui.text import COLOR_EMOJI

RED_5 = Face(Color.RED, Kind.NUMBER, 5)


@pytest.fixture(scope="module")
def art() -> CardArt:
    """One art cache for the module, so the 242 emoji pictures are drawn once."""
    return CardArt()


@dataclass
class FakeEmoji:
    """What the module uses of a discord.Emoji: three fields and delete()."""

    name: str
    id: int
    animated: bool = False
    client: FakeClient | None = None

    async def delete(self) -> None:
        assert self.client is not None
        self.client.emojis.remove(self)


@dataclass
class FakeClient:
    """Application emoji kept in a list; fails on demand like Discord would."""

    emojis: list[FakeEmoji] = field(default_factory=list)
    creates: int = 0
    fail_after: int | None = None
    fail_listing: bool = False
    images: list[bytes] = field(default_factory=list)

    async def fetch_application_emojis(self) -> list[FakeEmoji]:
        if self.fail_listing:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="Server Error"), "down")
        return list(self.emojis)

    async def create_application_emoji(self, *, name: str, image: bytes) -> FakeEmoji:
        if self.fail_after is not None and self.creates >= self.fail_after:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "no")
        self.creates += 1
        self.images.append(image)
        emoji = FakeEmoji(name, 1000 + len(self.emojis), client=self)
        self.emojis.append(emoji)
        return emoji


def test_discord_client_fits_the_host_protocol() -> None:
    """discord.Client has the two calls CardEmojis uses (checked by mypy and at run time)."""
    host: EmojiHost = discord.Client(intents=discord.Intents.none())
    assert callable(host.fetch_application_emojis) and callable(host.create_application_emoji)


def test_names_are_valid_unique_and_fit_the_limit() -> None:
    """242 names per palette (No Mercy's and Junior's faces apart), 2-32 chars of
    [A-Za-z0-9_], distinct across palettes too."""
    names = CardEmojis(CardArt()).names + CardEmojis(CardArt(palette=COLOR_BLIND)).names
    assert len(names) == len(set(names)) == 2 * len(all_family_faces()) == 484
    assert all(NAME_RE.fullmatch(n) for n in names)
    assert len(names) < APP_EMOJI_LIMIT
    assert emoji_name(Face(None, Kind.WILD), Side.DARK, "std") != emoji_name(
        Face(None, Kind.WILD), Side.LIGHT, "std"
    )


async def test_missing_emoji_are_created_once_and_reused_after_a_restart(art: CardArt) -> None:
    """First start creates 242; a new CardEmojis (a restart) creates none and finds them all."""
    client = FakeClient()
    first = CardEmojis(art)
    await first.ensure(client)
    assert client.creates == first.created == 242
    assert all(len(image) < 256 * 1024 for image in client.images)
    again = CardEmojis(art)
    await again.ensure(client)
    assert client.creates == 242 and again.created == 0
    emoji = again.emoji_for(RED_5)
    assert isinstance(emoji, discord.PartialEmoji)
    assert emoji.name == emoji_name(RED_5, None, "std") and emoji.id is not None


async def test_only_the_missing_ones_are_created(art: CardArt) -> None:
    """Emoji that exist are kept; the rest are made; foreign emoji are left alone."""
    client = FakeClient(emojis=[FakeEmoji("someone_elses", 1)])
    client.emojis.append(FakeEmoji(emoji_name(RED_5, None, "std"), 2))
    cards = CardEmojis(art)
    await cards.ensure(client)
    assert client.creates == 241
    assert cards.emoji_for(RED_5) == discord.PartialEmoji(name=emoji_name(RED_5, None, "std"), id=2)


async def test_a_refused_create_falls_back_with_one_warning(
    art: CardArt,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Forbidden after 3 creates: those 3 show pictures, the rest colour emoji, one warning."""
    client = FakeClient(fail_after=3)
    cards = CardEmojis(art)
    with caplog.at_level(logging.WARNING):
        await cards.ensure(client)
        await cards.ensure(client)  # a retry fails again, but says nothing new
    assert cards.created == 3
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "colour emoji" in warnings[0].getMessage()
    fallback = Face(None, Kind.WILD_DRAW_COLOR)
    assert cards.emoji_for(fallback) == COLOR_EMOJI[None]
    assert cards.emoji_for(Face(Color.TEAL, Kind.NUMBER, 9)) == COLOR_EMOJI[Color.TEAL]


async def test_a_failed_listing_falls_back_without_creating(
    art: CardArt,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """When the emoji cannot even be listed, nothing is created (no duplicates) and text is used."""
    client = FakeClient(fail_listing=True)
    cards = CardEmojis(art)
    with caplog.at_level(logging.WARNING):
        await cards.ensure(client)
    assert client.creates == 0
    assert cards.emoji_for(RED_5) == COLOR_EMOJI[Color.RED]
    assert len(caplog.records) == 1


async def test_the_application_limit_is_respected(
    art: CardArt, caplog: pytest.LogCaptureFixture
) -> None:
    """An app already near 2,000 emoji creates none and warns once."""
    client = FakeClient(emojis=[FakeEmoji(f"other_{i}", i) for i in range(APP_EMOJI_LIMIT - 50)])
    cards = CardEmojis(art)
    with caplog.at_level(logging.WARNING):
        await cards.ensure(client)
    assert client.creates == 0
    assert len(caplog.records) == 1 and "2000" in caplog.records[0].getMessage()
    assert cards.emoji_for(RED_5) == COLOR_EMOJI[Color.RED]


async def test_emoji_of_older_designs_are_deleted_and_others_kept(art: CardArt) -> None:
    """A redesign replaces the set: old-version card emoji go, other emoji stay."""
    client = FakeClient()
    old = FakeEmoji(f"uf{EMOJI_VERSION + 7}std_red_5", 1, client=client)
    foreign = FakeEmoji("party_parrot", 2, client=client)
    client.emojis += [old, foreign]
    cards = CardEmojis(art)
    await cards.ensure(client)
    assert cards.deleted == 1 and old not in client.emojis and foreign in client.emojis
    assert client.creates == 242


def test_a_redesign_of_the_faces_keeps_the_emoji_names() -> None:
    """Emoji names carry their own version, not the card art's: the cards' words changing
    (or any face redesign) renames no emoji, and only redrawn emoji get a new name."""
    assert emoji_name(RED_5, None, "std") == f"uf{EMOJI_VERSION}std_red_5"
    assert emoji_name(Face(None, Kind.WILD_SHUFFLE_HANDS), None, "cb") == (
        f"uf{EMOJI_VERSION}cb_wild_shuffle_hands_r2"
    )
    assert EMOJI_REVISIONS == {Kind.WILD_SHUFFLE_HANDS: 2, Kind.WILD_CUSTOMIZABLE: 2}


async def test_a_redrawn_emoji_replaces_only_its_old_self(art: CardArt) -> None:
    """After a restart with the set in place, only the retired revisions of this palette are
    deleted and redrawn; every other emoji, and the other palette's set, is found by name."""
    client = FakeClient()
    ours = CardEmojis(art)
    kept_names = [n for n in ours.names if not n.endswith("_r2")]
    retired = [f"uf{EMOJI_VERSION}std_{kind.value}" for kind in EMOJI_REVISIONS]
    other_palette = [f"uf{EMOJI_VERSION}cb_wild_shuffle_hands", f"uf{EMOJI_VERSION}cb_red_5"]
    for i, name in enumerate(kept_names + retired + other_palette):
        client.emojis.append(FakeEmoji(name, i, client=client))
    await ours.ensure(client)
    left = {e.name for e in client.emojis}
    assert ours.deleted == 2 and not left & set(retired)
    assert client.creates == 2 and set(other_palette) <= left
    assert {e.id for e in client.emojis if e.name in kept_names} == set(range(len(kept_names)))
    shuffle = ours.emoji_for(Face(None, Kind.WILD_SHUFFLE_HANDS))
    assert isinstance(shuffle, discord.PartialEmoji) and shuffle.name.endswith("_r2")


async def test_a_familys_own_emoji_replace_its_classic_framed_ones(art: CardArt) -> None:
    """No Mercy's faces once drawn in the classic frame (``uf2std_wild_draw_six``) are retired
    when its own set arrives; the classic set keeps its names and ids."""
    client = FakeClient()
    ours = CardEmojis(art)
    classic = [
        n
        for n in ours.names
        if not n.startswith((f"uf{EMOJI_VERSION}std_nm_", f"uf{EMOJI_VERSION}std_jr_"))
    ]
    retired = f"uf{EMOJI_VERSION}std_{Kind.WILD_DRAW_SIX.value}"
    for i, name in enumerate([*classic, retired]):
        client.emojis.append(FakeEmoji(name, i, client=client))
    await ours.ensure(client)
    assert ours.deleted == 1 and retired not in {e.name for e in client.emojis}
    assert client.creates == len(ours.names) - len(classic) == 242 - 125
    six = ours.emoji_for(Face(None, Kind.WILD_DRAW_SIX), None, Family.NO_MERCY)
    assert isinstance(six, discord.PartialEmoji) and six.name.startswith(
        f"uf{EMOJI_VERSION}std_nm_"
    )
    assert ours.emoji_for(RED_5) != ours.emoji_for(RED_5, None, Family.JUNIOR)
