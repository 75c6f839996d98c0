"""Every counted request goes through one window that holds where Discord counts: at the
request's arrival, whatever the network's delays, retries after a 429 included."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import HTTPClient, Route

from bot.client import UnoBot
from bot.edits import EditBudget, RequestWindow
from bot.rest_gate import RequestGate, counted
from bot.store import open_store
from bot.ui.cards import CardArt
from bot.ui.cards.emoji import CardEmojis

from .test_edits import most_in_any_window
from .virtual_clock import run_on_fake_clock

LIMIT = 50  # Discord's global limit, per second


class WindowedDiscord:
    """A stand-in for Discord's REST API that holds each request a random while on the way
    (in bunches, as a congested network delivers them), counts it on arrival, refuses one
    past ``LIMIT`` in any second with a global 429, and answers after another delay."""

    def __init__(self, seed: int = 7, refuse_first: int = 0) -> None:
        self.rng = random.Random(seed)
        self.arrivals: list[float] = []
        self.refused = 0
        # This many first channel requests get a 429 whatever the count.
        self.refuse_first = refuse_first

    async def handle(self, path: str) -> int:
        """One request's trip; its status."""
        loop = asyncio.get_running_loop()
        sent = loop.time()
        # Delivered at the next 0.25 s mark plus up to 0.3 s: requests pile up and land together.
        await asyncio.sleep((0.25 - sent % 0.25) + self.rng.uniform(0.0, 0.3))
        arrived = loop.time()
        recent = sum(1 for t in self.arrivals if t > arrived - 1.0)
        self.arrivals.append(arrived)
        status = 200
        refuse = self.refuse_first > 0 and path.startswith("/api/v10/channels/")
        if refuse or recent >= LIMIT:
            self.refuse_first -= refuse
            self.refused += 1
            status = 429
        await asyncio.sleep(self.rng.uniform(0.0, 0.2))
        return status


def test_counted_paths_are_the_bots_own_and_not_an_interactions() -> None:
    """Channel and application calls count; interaction callbacks and token webhooks do not."""
    assert counted("/api/v10/channels/1/messages/2")
    assert counted("/api/v10/applications/1/emojis")
    assert not counted("/api/v10/interactions/1/abc/callback")
    assert not counted("/api/v10/webhooks/1/abc/messages/@original")
    assert not counted("/api/v10/webhooks/1/abc")


def test_a_burst_delayed_together_still_fits_the_window_where_discord_counts() -> None:
    """2,000 requests from 400 senders at once, held and bunched by the network, arrive at
    most 50 in any second: none is refused."""
    discord_ = WindowedDiscord()
    gate = RequestGate(RequestWindow(LIMIT))

    async def sender() -> None:
        for _ in range(5):
            slot = await gate.before("/api/v10/channels/1/messages/2")
            status = await discord_.handle("/api/v10/channels/1/messages/2")
            gate.after(slot, "PATCH", "", status, {})

    async def main() -> None:
        await asyncio.gather(*(sender() for _ in range(400)))

    run_on_fake_clock(main())
    assert len(discord_.arrivals) == 2000
    assert most_in_any_window(discord_.arrivals, 1.0) <= LIMIT
    assert discord_.refused == 0


def _json(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON answer as Discord sends it (discord.py reads JSON only under exactly this type)."""
    headers = {**(headers or {}), "Content-Type": "application/json"}
    return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


@asynccontextmanager
async def discord_py_client(
    stand_in: WindowedDiscord, gate: RequestGate, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[HTTPClient]:
    """discord.py's own HTTP client, traced by ``gate``, talking to ``stand_in`` over a local
    socket (its retries after a 429 are its own code, unchanged)."""

    async def answer(request: web.Request) -> web.Response:
        status = await stand_in.handle(request.path)
        if status == 429:
            body = {"message": "You are being rate limited.", "retry_after": 0.5, "global": True}
            headers = {"Via": "1.1 google", "X-RateLimit-Scope": "global", "Retry-After": "1"}
            return _json(body, 429, headers)
        return _json({"id": "1", "username": "bot", "discriminator": "0"})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    http = HTTPClient(asyncio.get_running_loop(), http_trace=gate.config)
    try:
        await http.static_login("token")
        yield http
    finally:
        await http.close()
        await runner.cleanup()


def test_discord_pys_retry_after_a_429_takes_a_slot_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A request refused with a 429 is retried by discord.py, and the retry waits for a slot
    like any request: the window counts every attempt Discord saw."""
    stand_in = WindowedDiscord(refuse_first=1)
    gate = RequestGate(RequestWindow(LIMIT))

    async def main() -> None:
        async with discord_py_client(stand_in, gate, monkeypatch) as http:
            await http.request(Route("PATCH", "/channels/1/messages/2"))

    run_on_fake_clock(main())
    # The login, the refused edit and its retry: three arrivals, three slots.
    assert len(stand_in.arrivals) == 3
    assert gate.window is not None and gate.window.taken == 3
    assert gate.rate_limited == 1


def test_discord_py_under_load_draws_no_429_from_a_windowed_stand_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """300 edits asked of discord.py at once, over a network that bunches them, all succeed
    with no 429: the gate holds them where Discord counts."""
    stand_in = WindowedDiscord(seed=3)
    gate = RequestGate(RequestWindow(LIMIT))

    async def main() -> None:
        async with discord_py_client(stand_in, gate, monkeypatch) as http:
            edits = (http.request(Route("PATCH", f"/channels/1/messages/{n}")) for n in range(300))
            await asyncio.gather(*edits)

    run_on_fake_clock(main())
    assert stand_in.refused == 0
    assert most_in_any_window(stand_in.arrivals, 1.0) <= LIMIT


def test_the_budget_starts_no_edit_while_the_window_is_full() -> None:
    """Slots held by requests outside the budget (retries, emoji) hold back its edits until
    one frees, a second after its answer."""
    started: list[float] = []

    async def main() -> None:
        budget = EditBudget(rate=2, min_interval=0.0)
        budget.on_start = lambda key, since, now: started.append(now)
        held = [budget.window.try_take(), budget.window.try_take()]
        budget.request("table", _nothing)
        await asyncio.sleep(0.5)
        assert started == []
        for slot in held:
            assert slot is not None
            slot.sent = True
            slot.answered()
        await asyncio.sleep(2.0)
        await budget.stop()

    run_on_fake_clock(main())
    assert started == [pytest.approx(1.5)]


async def _nothing() -> None:
    return None


class RateLimitedHost:
    """Application emoji that refuse the first upload with a 429, then accept every one."""

    def __init__(self) -> None:
        self.refused = 0
        self.created: list[str] = []

    async def fetch_application_emojis(self) -> list[Any]:
        return []

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        if self.refused == 0:
            self.refused += 1
            response = aiohttp.web.Response(status=429, headers={"Retry-After": "0.5"})
            raise discord.HTTPException(response, {"message": "rate limited"})
        self.created.append(name)
        return discord.PartialEmoji(name=name, id=len(self.created))


@pytest.mark.slow
async def test_an_emoji_upload_refused_with_a_429_waits_and_goes_on(tmp_path: Any) -> None:
    """A 429 on an emoji upload costs a wait, not the card pictures: every emoji is made and
    none falls back to colour emoji."""
    emojis = CardEmojis(CardArt(tmp_path))
    host = RateLimitedHost()
    await emojis.ensure(host)
    assert host.refused == 1
    assert sorted(host.created) == sorted(emojis.names)
    assert not emojis.failed


async def test_the_bots_http_client_sends_through_the_gate_of_its_budget(settings: Any) -> None:
    """The bot's discord.py HTTP client is traced by its gate, and once its services are
    built over the store the gate holds requests to the same window as the table edits'
    budget."""
    bot = UnoBot(settings, shard_count=1)
    assert bot.http.http_trace is bot.gate.config
    store = await open_store(settings.store_url)
    try:
        sessions = bot.build_services(store)
        assert bot.gate.window is sessions.edits.window
    finally:
        await store.close()


def test_the_gate_shares_a_trace_config_it_is_given() -> None:
    """discord.py takes one trace config: the gate hooks into one it is given (another
    reporter's) and leaves that one's hooks in place."""
    shared = aiohttp.TraceConfig()

    async def reporter(*_: Any) -> None:
        return None

    shared.on_request_end.append(reporter)
    gate = RequestGate(RequestWindow(LIMIT), shared)
    assert gate.config is shared
    assert len(shared.on_request_start) == 1 and len(shared.on_request_end) == 2
