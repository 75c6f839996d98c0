"""Errors the store raises; the Discord layer turns them into messages."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised by bot.store."""


class StoreBusyError(StoreError):
    """The database stayed locked or busy through every retry; nothing was written."""


class StoreIOError(StoreError):
    """The database could not be read or written (disk full, I/O error, read-only file)."""


class StoreUnavailableError(StoreIOError):
    """The database server could not be reached (refused, timed out, starting or shutting
    down): a fault that clears by itself, worth trying again later."""


class GameNotFoundError(StoreError):
    """No game has this id."""


class GameNotLiveError(StoreError):
    """The game is finished or abandoned and takes no new rounds."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot than this one."""
