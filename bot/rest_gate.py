"""Every counted REST request of the process, on the wire, through one ``RequestWindow``.

discord.py sends every request (its own retries after a 429 included) through one aiohttp
session, and aiohttp awaits a trace's hooks around each attempt: before it is sent, and once
its answer (or failure) is back. The gate takes a slot of the window before each counted
attempt and frees it from the answer on, so nothing the bot sends bypasses the budget: not a
retry, not the start-up's card emoji, not a command's channel call.

Not counted (Discord exempts interaction endpoints from the global limit): interaction
callbacks (``/interactions/...``) and everything sent through an interaction's token
(``/webhooks/<application>/<token>...``: follow-ups and edits of the messages they posted).
"""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.edits import RequestWindow, Slot

log = logging.getLogger(__name__)

# An interaction callback, or any request made with an interaction's (or a webhook's) token.
_EXEMPT = re.compile(r"/api(?:/v[0-9]+)?/(?:interactions/|webhooks/[0-9]+/[^/]+)")
# The headers a 429 explains itself by (logged, so the real limits can be read off them).
LIMIT_HEADERS = (
    "X-RateLimit-Scope",
    "X-RateLimit-Global",
    "X-RateLimit-Bucket",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset-After",
    "Retry-After",
)


def counted(path: str) -> bool:
    """Whether a request to ``path`` (the URL's path) counts against the global limit."""
    return _EXEMPT.match(path) is None


class RequestGate:
    """The aiohttp trace that holds each counted request to ``window`` (set before the first
    request: the bot builds its sessions after its HTTP client)."""

    def __init__(
        self, window: RequestWindow | None = None, config: aiohttp.TraceConfig | None = None
    ) -> None:
        """A gate for ``window``, hooked into ``config`` (discord.py takes one trace config:
        another's, such as the metrics', is shared) or a new one; discord.py takes ``config``."""
        self.window = window
        self.rate_limited = 0  # 429 answers seen, counted or not
        self.config = config if config is not None else aiohttp.TraceConfig()
        self.config.on_request_start.append(self._start)
        self.config.on_request_end.append(self._end)
        self.config.on_request_exception.append(self._failed)

    async def before(self, path: str) -> Slot | None:
        """Wait for a slot if a request to ``path`` is counted; the slot, or None."""
        if self.window is None or not counted(path):
            return None
        return await self.window.for_request()

    def after(self, slot: Slot | None, method: str, path: str, status: int, headers: Any) -> None:
        """A request's answer is back (``status`` 0: it failed): free its slot from now on."""
        if slot is not None:
            slot.answered()
        if status == 429:
            self.rate_limited += 1
            limits = {name: headers.get(name) for name in LIMIT_HEADERS if name in headers}
            log.warning("429 on %s %s (counted: %s): %s", method, path, slot is not None, limits)

    async def _start(self, _: Any, context: SimpleNamespace, params: Any) -> None:
        context.slot = await self.before(params.url.path)

    async def _end(self, _: Any, context: SimpleNamespace, params: Any) -> None:
        response = params.response
        self.after(context.slot, params.method, params.url.path, response.status, response.headers)

    async def _failed(self, _: Any, context: SimpleNamespace, params: Any) -> None:
        self.after(context.slot, params.method, params.url.path, 0, {})
