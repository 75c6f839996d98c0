"""Repositories: each owns the SQL of one concern and returns models from bot.store.models."""

from .games import GameRepository
from .history import HistoryRepository
from .lobbies import LobbyRepository
from .servers import ServerSettingsRepository
from .snapshots import SnapshotRepository
from .standings import StandingsRepository

__all__ = [
    "GameRepository",
    "HistoryRepository",
    "LobbyRepository",
    "ServerSettingsRepository",
    "SnapshotRepository",
    "StandingsRepository",
]
