"""/leaderboard and /stats (placeholder module replaced by the standings work)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import UnoBot


async def setup(bot: UnoBot) -> None:
    """Extension entry point."""
