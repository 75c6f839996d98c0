"""Who sits at a table: people, by their Discord id, and computer players "ai1".."ai9".

The one place that decides whether a player id belongs to a computer player; the table, the
store and the sessions all ask here.
"""

from __future__ import annotations

import re
from typing import Literal

Difficulty = Literal["easy", "normal", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "normal", "hard")

_COMPUTER = re.compile(r"ai([1-9][0-9]*)")


def computer_id(number: int) -> str:
    """The player id of computer player ``number`` (1-based)."""
    if number < 1:
        raise ValueError("computer players are numbered from 1")
    return f"ai{number}"


def computer_number(player: str) -> int | None:
    """The number of a computer player's id, or None for anyone else."""
    match = _COMPUTER.fullmatch(player)
    return None if match is None else int(match[1])


def is_computer(player: str | None) -> bool:
    """Whether a player id belongs to a computer player."""
    return player is not None and computer_number(player) is not None
