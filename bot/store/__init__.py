"""Persistence for unoflip: games, rounds, standings, live-game snapshots and lobbies.

SQLite (one process, the default) or PostgreSQL (several processes sharing one database),
behind the same repositories. Open once in the bot's setup hook and close on shutdown::

    store = await open_store("sqlite:///data/uno.db")    # or "postgresql://user@host:5432/db"
    game = await store.games.create_game(guild_id, channel_id, "flip", rules.model_dump_json(),
                                         [(anna_id, "Anna"), (ben_id, "Ben")])
    await store.snapshots.save_snapshot(game.id, dumps(engine), ui_json)  # each move
    record = RoundRecord.from_engine(result, rules.scoring, engine.match_winner)  # "ai3" -> -3
    await store.games.record_round(game.id, record, snapshot=(state_json, ui_json))
    for live in await store.snapshots.load_live_games():   # at start-up
        ...
    await store.lobbies.save(channel_id, session_id, guild_id, lobby_json)  # each lobby change
    for lobby in await store.lobbies.load_all():   # at start-up, after the live games
        ...
    page = await store.standings.leaderboard(scope="guild", guild_id=guild_id, sort="points")
    mine = await store.standings.rank_of(user_id, scope="guild", guild_id=guild_id)
    stats = await store.standings.stats(user_id, guild_id)
    await store.server_settings.save(guild_id, settings_json)  # /uno-settings
    settings_json = await store.server_settings.load(guild_id)  # None: never changed
    await store.close()

Every method is one coroutine and one transaction (all or nothing). record_round returns False
for a round number already recorded (a retry or double click), finish_game/abandon_game return
False for a game that is no longer live. A lobby's row ends when it closes (lobbies.delete) or
in the transaction that creates its game (create_game with lobby_session_id). A database that
stays locked (SQLite) or conflicting (PostgreSQL) through every retry raises StoreBusyError;
a failing file (disk full, I/O error, read-only) or an unreachable PostgreSQL raises
StoreIOError, and the next call connects again; nothing is ever dropped without an exception.
Every fault of either engine (a transaction cut off by a server restart, a constraint, text
the engine cannot encode) is one of the StoreError family: nothing of sqlite3's or asyncpg's
escapes. Display names are cleaned on the way in (storable_text: no NUL, no lone surrogate),
so both backends store and return the same text.

Player ids are Discord user ids; a computer player "aiN" is stored as -N (store_player_id) with
its table name ("Cara 🤖"). Its rounds are recorded like anyone's, but it never gets
leaderboard totals, a rank or stats.
"""

from .connection import ConnectionSettings, RetryPolicy
from .errors import (
    GameNotFoundError,
    GameNotLiveError,
    SchemaTooNewError,
    StoreBusyError,
    StoreError,
    StoreIOError,
    StoreUnavailableError,
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
    SavedLobby,
    is_computer,
    store_player_id,
)
from .postgres import PostgresSettings
from .shards import ClusterShapeError, Shards, ShardTakenError, process_shards
from .store import Store, describe_url, open_store

__all__ = [
    "LATEST_VERSION",
    "ClusterShapeError",
    "ConnectionSettings",
    "GameNotFoundError",
    "GameNotLiveError",
    "GamePlayer",
    "GameRecord",
    "LeaderboardPage",
    "LeaderboardRow",
    "LiveGame",
    "PlayerStats",
    "PostgresSettings",
    "RetryPolicy",
    "RoundRecord",
    "RoundScore",
    "SavedLobby",
    "SchemaTooNewError",
    "ShardTakenError",
    "Shards",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StoreIOError",
    "StoreUnavailableError",
    "describe_url",
    "is_computer",
    "open_store",
    "process_shards",
    "store_player_id",
]
