"""Metrics (bot/metrics.py): what /metrics and /healthz serve, and what the bot feeds them."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from prometheus_client.exposition import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import BotCollector, Metrics, route_of
from bot.store import Store

from .conftest import World
from .driver import Table

ROOT = Path(__file__).resolve().parents[2]


class Readings:
    """Stands in for the bot at a scrape: fixed values."""

    def __init__(self, values: Mapping[str, float]) -> None:
        self.values = dict(values)

    def scrape(self) -> Mapping[str, float]:
        """The fixed values."""
        return self.values


def samples(metrics: Metrics) -> dict[str, float]:
    """Every sample of the registry as ``name{label=value,...}`` to its value."""
    found = {}
    exposed = generate_latest(metrics.registry).decode()
    for family in text_string_to_metric_families(exposed):
        for sample in family.samples:
            labels = ",".join(f"{key}={value}" for key, value in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return found


@pytest.fixture
async def served() -> AsyncIterator[tuple[Metrics, dict[str, bool], str]]:
    """Metrics served on a free port, a health the test sets, and the server's base URL."""
    metrics = Metrics()
    health = {"ready": True, "gateway": True, "store": True}
    port = await metrics.serve(0, lambda: health, host="127.0.0.1")
    try:
        yield metrics, health, f"http://127.0.0.1:{port}"
    finally:
        await metrics.stop()


SNOWFLAKE = "123456789012345678"
TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEy"


@pytest.mark.parametrize(
    ("path", "route"),
    [
        (f"/api/v10/channels/{SNOWFLAKE}/messages/{SNOWFLAKE}", "/channels/{id}/messages/{id}"),
        (f"/api/v10/interactions/{SNOWFLAKE}/{TOKEN}/callback", "/interactions/{id}/{token}/callback"),  # noqa: E501
        (f"/api/v10/webhooks/{SNOWFLAKE}/{TOKEN}/messages/@original", "/webhooks/{id}/{token}/messages/@original"),  # noqa: E501
        ("/api/v10/users/@me", "/users/@me"),
    ],
)  # fmt: skip
def test_routes_are_labelled_without_ids_or_tokens(path: str, route: str) -> None:
    """One route is one label value: ids become {id}, interaction tokens {token} (never kept)."""
    assert route_of(path) == route


async def test_metrics_serves_the_bots_gauges_and_the_engine(
    served: tuple[Metrics, dict[str, bool], str],
) -> None:
    """/metrics reads the bot at each scrape, in Prometheus' text format, with the engine."""
    metrics, _, base = served
    metrics.watch(Readings({"live_games": 3, "open_lobbies": 1, "table_edits": 7}))
    async with aiohttp.ClientSession() as client, client.get(f"{base}/metrics") as answer:
        assert answer.status == 200
        body = await answer.text()
    assert "unoflip_live_games 3.0" in body and "unoflip_open_lobbies 1.0" in body
    assert "unoflip_table_edits_total 7.0" in body
    assert 'unoflip_engine_info{build="' in body


async def test_healthz_is_200_only_when_every_check_holds(
    served: tuple[Metrics, dict[str, bool], str],
) -> None:
    """/healthz: 200 while ready, connected and with a store; 503 naming the failing check."""
    _, health, base = served
    async with aiohttp.ClientSession() as client:
        async with client.get(f"{base}/healthz") as answer:
            assert answer.status == 200
        health["gateway"] = False
        async with client.get(f"{base}/healthz") as answer:
            assert answer.status == 503
            assert (await answer.json())["gateway"] is False


async def test_store_transactions_are_timed_and_failures_counted() -> None:
    """Each read, write or statement is observed once; a failing one also counts an error."""
    metrics = Metrics()
    store = await Store.open(":memory:")
    try:
        metrics.time_store(store.database)
        await store.standings.stats(101)

        async def broken(connection: object) -> None:
            raise RuntimeError("no")

        with pytest.raises(RuntimeError):
            await store.database.write(broken)
    finally:
        await store.close()
    found = samples(metrics)
    assert found["unoflip_store_seconds_count{operation=statement}"] == 1
    assert found["unoflip_store_errors_total{operation=write}"] == 1
    assert found["unoflip_store_errors_total{operation=statement}"] == 0


async def test_the_bot_counts_clicks_and_reports_its_tables(world: World) -> None:
    """Through the real bot: every click counted and timed, the lobby then the game reported."""
    table = Table(world, 3)
    await table.open()
    found = samples(world.bot.metrics)
    assert found["unoflip_open_lobbies"] == 1 and found["unoflip_live_games"] == 0
    assert found["unoflip_clicks_total"] == 2  # the two Join presses
    await table.players[0].click(table.public, label="Start")
    found = samples(world.bot.metrics)
    assert found["unoflip_live_games"] == 1 and found["unoflip_open_lobbies"] == 0
    assert found["unoflip_click_seconds_count"] == 3
    assert found["unoflip_store_seconds_count{operation=write}"] > 0


async def test_rest_requests_and_429s_are_counted_by_route() -> None:
    """The trace discord.py's HTTP client gets counts each request by route and status, and
    each 429 once more as rate limited."""
    metrics = Metrics()

    async def limited(request: web.Request) -> web.Response:
        return web.Response(status=429, text="{}")

    app = web.Application()
    app.router.add_get("/api/v10/channels/{channel}/messages", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as client:
            url = f"http://127.0.0.1:{port}/api/v10/channels/{SNOWFLAKE}/messages"
            async with client.get(url) as answer:
                assert answer.status == 429
    finally:
        await runner.cleanup()
    found = samples(metrics)
    route = "/channels/{id}/messages"
    assert found[f"unoflip_discord_requests_total{{method=GET,route={route},status=429}}"] == 1
    assert found[f"unoflip_discord_rate_limited_total{{route={route}}}"] == 1


def test_the_grafana_dashboard_asks_only_for_metrics_the_bot_exports() -> None:
    """Every unoflip_* series in docs/monitoring/grafana-dashboard.json is one /metrics has."""
    metrics = Metrics()
    metrics.watch(Readings(dict.fromkeys(BotCollector.GAUGES, 1) | {"table_edits": 1}))
    metrics.clicks.inc()
    metrics.click_seconds.observe(0.01)
    metrics.requests.labels("GET", "/users/@me", "200").inc()
    metrics.rate_limited.labels("/users/@me").inc()
    metrics.store_seconds.labels("write").observe(0.01)
    metrics.store_errors.labels("write").inc()
    exported = {name.split("{")[0] for name in samples(metrics)}
    dashboard = (ROOT / "docs" / "monitoring" / "grafana-dashboard.json").read_text()
    queries = [
        target["expr"] for panel in json.loads(dashboard)["panels"] for target in panel["targets"]
    ]
    asked = {name for query in queries for name in re.findall(r"unoflip_\w+", query)}
    assert asked and asked <= exported, asked - exported
