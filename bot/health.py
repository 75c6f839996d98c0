"""The heartbeat file the container's HEALTHCHECK reads, and ``python -m bot.health``.

The bot rewrites a small JSON file every few seconds: whether it is ready, whether every
gateway shard is connected, whether the store is open, and when it wrote. The check reads it
and exits 0 when all three hold and the file is fresh, 1 otherwise. A file rather than a local
HTTP endpoint: no port to open or secure, nothing to install, and a stuck event loop shows as
a stale time just as a dead process does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

HEALTH_FILE_ENV = "UNO_HEALTH_FILE"
INTERVAL = 10.0
"""Seconds between two heartbeats."""
MAX_AGE = 45.0
"""A heartbeat older than this means the bot's loop is stuck or the process is gone."""
CHECKS = {"ready": "ready", "gateway": "gateway connected", "store": "store open"}
"""What must all be true for the bot to be healthy, and how a failing one reads."""

log = logging.getLogger(__name__)

Status = Mapping[str, bool]


class Heartbeat:
    """Writes the bot's status to ``path``, atomically, until stopped."""

    def __init__(self, path: Path) -> None:
        """A heartbeat written to ``path`` (its folder is created if missing)."""
        self.path = Path(path)
        self._warned = False

    def beat(self, status: Status) -> None:
        """Write ``status`` now, with the time and this process's id."""
        record = {name: bool(status.get(name, False)) for name in CHECKS}
        record_with_time = {**record, "time": time.time(), "pid": os.getpid()}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            # The folder may be the database's, which the bot creates only once logged in.
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(record_with_time))
            # A reader sees the old file or the new one, never half of one.
            os.replace(temporary, self.path)
        except OSError as exc:
            if not self._warned:
                log.warning("cannot write the heartbeat file %s: %s", self.path, exc.strerror)
                self._warned = True

    async def run(self, status: Callable[[], Status], interval: float = INTERVAL) -> None:
        """Beat every ``interval`` seconds until cancelled."""
        while True:
            self.beat(status())
            await asyncio.sleep(interval)

    def remove(self) -> None:
        """Remove the file at shutdown, so no later check reads a dead process as alive."""
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)


def problem(path: Path, now: float, max_age: float = MAX_AGE) -> str | None:
    """Why the heartbeat at ``path`` is not healthy, or None when it is."""
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        return f"no heartbeat at {path} (starting, stopped, or health_file not set)"
    except (OSError, ValueError) as exc:
        return f"cannot read the heartbeat {path}: {exc}"
    if not isinstance(record, dict) or not isinstance(record.get("time"), int | float):
        return f"the heartbeat {path} is not one this version writes"
    age = now - record["time"]
    if age > max_age:
        return f"the last heartbeat is {age:.0f} s old (limit {max_age:.0f} s)"
    failing = [words for name, words in CHECKS.items() if record.get(name) is not True]
    return "not " + ", not ".join(failing) if failing else None


def main(argv: list[str]) -> int:
    """Check the heartbeat named on the command line or by UNO_HEALTH_FILE; 0 healthy, 1 not."""
    named = argv[1] if len(argv) > 1 else os.environ.get(HEALTH_FILE_ENV)
    if not named:
        print(f"unhealthy: no heartbeat file named (argument or {HEALTH_FILE_ENV})")
        return 1
    found = problem(Path(named), time.time())
    print("healthy" if found is None else f"unhealthy: {found}")
    return 0 if found is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
