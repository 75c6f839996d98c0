"""python -m bot: load the settings, set up logging and run the bot until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from .config import ConfigError, Settings, load_settings


def configure_logging(level: str) -> None:
    """Log to stdout with timestamps."""
    logging.basicConfig(
        stream=sys.stdout,
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )


async def run(settings: Settings) -> None:
    """Run the bot until SIGINT/SIGTERM, then shut down cleanly."""
    from .client import UnoBot

    bot = UnoBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            logging.getLogger("bot").info("shutting down")
            await bot.close()
        stopper.cancel()
        await runner


def main() -> int:
    """Entry point; exit status 2 on bad configuration."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
