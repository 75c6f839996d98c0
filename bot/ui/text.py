"""Language-free helpers of the words: colour emoji, the order of a hand, cutting to a limit.

Every word a player reads comes from the catalogs through ``bot/ui/words.py``.
"""

from __future__ import annotations

from bot.engine.cards import Color, Face

COLOR_EMOJI: dict[Color | None, str] = {
    Color.RED: "🔴",
    Color.YELLOW: "🟡",
    Color.GREEN: "🟢",
    Color.BLUE: "🔵",
    Color.PINK: "🩷",
    Color.TEAL: "🩵",
    Color.ORANGE: "🧡",
    Color.PURPLE: "💜",
    None: "🌈",
}
COLOR_ORDER = {color: i for i, color in enumerate(Color)}


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sort_key(face: Face) -> tuple[int, int, str]:
    """Order hands by colour (wilds last), then numbers before symbols."""
    color_rank = len(COLOR_ORDER) if face.color is None else COLOR_ORDER[face.color]
    number = face.number if face.number is not None else 10
    return color_rank, number, face.kind.value
