"""Prometheus metrics and a health endpoint on ``metrics_port`` (off unless it is set).

``/metrics`` (Prometheus' text format) and ``/healthz`` (200 when the bot is ready, connected
and has its store, else 503; the same three checks as the heartbeat file). What is measured:

- ``unoflip_engine_info``: which copy of the engine runs (compiled or source);
- ``unoflip_live_games``, ``unoflip_open_lobbies``: read from the sessions at each scrape;
- ``unoflip_clicks_total`` and ``unoflip_click_seconds``: every button click, from its arrival
  to its answer (the latency a player feels, less Discord's own);
- ``unoflip_discord_requests_total`` by method, route and status, and
  ``unoflip_discord_rate_limited_total`` by route (the 429s): every REST request discord.py
  sends, seen through aiohttp's tracing (routes with their ids replaced by ``{id}``);
- ``unoflip_table_edits_total``, ``unoflip_table_edits_pending``,
  ``unoflip_table_edit_staleness_seconds`` and ``unoflip_table_edits_per_second_budget``: the
  table-edit budget (bot/edits.py), read at each scrape;
- ``unoflip_store_seconds`` and ``unoflip_store_errors_total`` by operation (read, write,
  statement): every store transaction;
- ``unoflip_shard_lease_held``: in a shard cluster on PostgreSQL, 1 while this process holds
  its shards' lease.

The hooks stay here: the bot hands this module its session manager's ``click``, its store's
backend and its HTTP trace once (``UnoBot``), so the modules that do the work carry no
metrics code. Only the standard library, aiohttp and prometheus-client are imported.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from typing import Any, ParamSpec, Protocol, TypeVar

import aiohttp
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram, Info
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from .compiled import describe_engine

log = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")
# Seconds: a click answered within 50 ms is good, past 3 s Discord has given up on it.
CLICK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 3.0, 5.0)
STORE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
STORE_OPERATIONS = ("read", "write", "statement")
# A snowflake (a Discord id) or an interaction/webhook token in a REST path.
SNOWFLAKE = re.compile(r"/\d{15,21}(?=/|$)")
TOKEN = re.compile(r"(/(?:interactions|webhooks)/\{id\})/[A-Za-z0-9_.-]{20,}(?=/|$)")


class Observed(Protocol):
    """What the scrape reads of the bot: its sessions, its edit budget, its store's lease."""

    def scrape(self) -> Mapping[str, float]:
        """The current values, by name (see ``BotCollector``)."""
        ...


def route_of(path: str) -> str:
    """A REST path with its ids and tokens replaced, so one route is one label value."""
    path = path.split("/api/v", 1)[-1]
    path = path.split("/", 1)[1] if "/" in path else path
    templated = SNOWFLAKE.sub("/{id}", "/" + path.split("?", 1)[0])
    return TOKEN.sub(r"\1/{token}", templated)


class BotCollector(Collector):
    """Reads the bot's gauges at each scrape, so nothing is counted twice or goes stale."""

    GAUGES = {
        "live_games": "Games being played",
        "open_lobbies": "Lobbies waiting for players",
        "table_edits_pending": "Tables with a change waiting for its edit",
        "table_edit_staleness_seconds": "How long the most out-of-date table has waited",
        "table_edits_per_second_budget": "Table edits a second this process may start",
        "shard_lease_held": "1 while this process holds its shards' lease (cluster only)",
    }
    COUNTERS = {"table_edits": "Table edits (and other budgeted REST calls) started"}

    def __init__(self) -> None:
        self.observed: Observed | None = None

    def collect(self) -> Iterator[Metric]:
        """One family per value the bot reports; none before the bot is watched."""
        values = self.observed.scrape() if self.observed is not None else {}
        for name, help_text in self.GAUGES.items():
            if name in values:
                yield GaugeMetricFamily(f"unoflip_{name}", help_text, value=values[name])
        for name, help_text in self.COUNTERS.items():
            if name in values:
                yield CounterMetricFamily(f"unoflip_{name}", help_text, value=values[name])


class Metrics:
    """The bot's metrics, in a registry of their own, and the server that exposes them."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.collector = BotCollector()
        self.registry.register(self.collector)
        engine = Info("unoflip_engine", "Which copy of the engine runs", registry=self.registry)
        engine.info({"build": "compiled" if describe_engine().compiled else "source"})
        self.clicks = Counter("unoflip_clicks", "Button clicks answered", registry=self.registry)
        self.click_seconds = Histogram(
            "unoflip_click_seconds",
            "Seconds from a click's arrival to its answer",
            buckets=CLICK_BUCKETS,
            registry=self.registry,
        )
        self.requests = Counter(
            "unoflip_discord_requests",
            "REST requests to Discord, by method, route and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "unoflip_discord_rate_limited",
            "REST requests Discord answered with 429, by route",
            ["route"],
            registry=self.registry,
        )
        self.store_seconds = Histogram(
            "unoflip_store_seconds",
            "Seconds per store transaction, by operation",
            ["operation"],
            buckets=STORE_BUCKETS,
            registry=self.registry,
        )
        self.store_errors = Counter(
            "unoflip_store_errors",
            "Store transactions that failed, by operation",
            ["operation"],
            registry=self.registry,
        )
        self._runner: web.AppRunner | None = None

    def watch(self, observed: Observed) -> None:
        """Read the bot's gauges from ``observed`` at each scrape."""
        self.collector.observed = observed

    def timed_click(
        self, click: Callable[P, Coroutine[Any, Any, None]]
    ) -> Callable[P, Coroutine[Any, Any, None]]:
        """``click`` (the session manager's), counted and timed."""

        @functools.wraps(click)
        async def timed(*args: P.args, **kwargs: P.kwargs) -> None:
            started = time.perf_counter()
            try:
                await click(*args, **kwargs)
            finally:
                self.clicks.inc()
                self.click_seconds.observe(time.perf_counter() - started)

        return timed

    def time_store(self, database: Any) -> None:
        """Time every transaction of the store's ``database`` (its read, write and statement)."""
        for operation in STORE_OPERATIONS:
            run = getattr(database, operation)
            setattr(database, operation, self._timed_store(operation, run))

    def _timed_store(
        self, operation: str, run: Callable[[Any], Awaitable[T]]
    ) -> Callable[[Any], Awaitable[T]]:
        seconds = self.store_seconds.labels(operation)
        errors = self.store_errors.labels(operation)

        @functools.wraps(run)
        async def timed(work: Any) -> T:
            started = time.perf_counter()
            try:
                return await run(work)
            except Exception:
                errors.inc()
                raise
            finally:
                seconds.observe(time.perf_counter() - started)

        return timed

    def http_trace(self) -> aiohttp.TraceConfig:
        """The trace discord.py's HTTP client reports each request's end to."""
        trace = aiohttp.TraceConfig()

        async def ended(
            session: aiohttp.ClientSession,
            context: Any,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            route = route_of(params.url.path)
            status = params.response.status
            self.requests.labels(params.method, route, str(status)).inc()
            if status == 429:
                self.rate_limited.labels(route).inc()

        trace.on_request_end.append(ended)
        return trace

    async def serve(
        self, port: int, health: Callable[[], Mapping[str, bool]], host: str | None = None
    ) -> int:
        """Serve ``/metrics`` and ``/healthz`` on ``port`` of ``host`` (None: every address;
        port 0: a free one) until ``stop``; the port it listens on."""

        async def metrics(request: web.Request) -> web.Response:
            body = generate_latest(self.registry)
            return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

        async def healthz(request: web.Request) -> web.Response:
            status = dict(health())
            healthy = bool(status) and all(status.values())
            return web.Response(
                text=json.dumps(status) + "\n",
                status=200 if healthy else 503,
                content_type="application/json",
            )

        app = web.Application()
        app.router.add_get("/metrics", metrics)
        app.router.add_get("/healthz", healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        listening = int(self._runner.addresses[0][1])
        log.info("metrics on port %d: /metrics, /healthz", listening)
        return listening

    async def stop(self) -> None:
        """Stop serving."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
