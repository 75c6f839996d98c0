"""Persistence for unoflip: games, rounds, standings and live-game snapshots in SQLite.

Usage::

    store = await Store.open("uno.sqlite3")
    game = await store.games.create_game(guild_id, channel_id, "flip", rules_json,
                                         [(user_id, "Anna"), (other_id, "Ben")])
    await store.snapshots.save_snapshot(game.id, engine.model_dump_json(), ui_json)
    await store.games.record_round(game.id, RoundRecord(...), snapshot=(state, ui))
    page = await store.standings.leaderboard(scope="guild", guild_id=guild_id)
    await store.close()
"""

from .connection import RetryPolicy
from .errors import (
    GameNotFoundError,
    GameNotLiveError,
    SchemaTooNewError,
    StoreBusyError,
    StoreError,
)
from .migrate import LATEST_VERSION
from .models import (
    GamePlayer,
    GameRecord,
    LeaderboardPage,
    LeaderboardRow,
    LiveGame,
    PlayerStats,
    RoundRecord,
    RoundScore,
)
from .store import Store

__all__ = [
    "LATEST_VERSION",
    "GameNotFoundError",
    "GameNotLiveError",
    "GamePlayer",
    "GameRecord",
    "LeaderboardPage",
    "LeaderboardRow",
    "LiveGame",
    "PlayerStats",
    "RetryPolicy",
    "RoundRecord",
    "RoundScore",
    "SchemaTooNewError",
    "Store",
    "StoreBusyError",
    "StoreError",
]
