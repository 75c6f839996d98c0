"""Card art drawn by code: every face and back, the table picture and the hand-button emoji.

Pure apart from CardArt's disk cache; nothing here imports Discord except ``emoji``. The words
of the table picture and of the card faces come from the caller (``bot.ui.words``); the emoji
and the fanned cards carry none.
"""

from .cache import CARD_HEIGHT, DESIGN_VERSION, EMOJI_SIZE, CardArt, png_bytes
from .catalog import all_faces, all_family_faces, face_name
from .draw import (
    ENGLISH_CARD_WORDS,
    Back,
    CardWords,
    Family,
    draw_back,
    draw_emoji,
    draw_face,
    draw_mini,
    side_of,
)
from .palette import COLOR_BLIND, PALETTES, SHAPES, STANDARD, Palette, Shape
from .round_end import (
    HandShown,
    RoundEndPicture,
    RoundEndWords,
    render_round_end,
    round_end_picture,
    round_end_png,
)
from .table import (
    MAX_BYTES,
    DrawnReport,
    DrawnText,
    PictureWords,
    SeatPicture,
    TablePicture,
    render_table,
    table_picture,
    table_png,
    warm,
)

__all__ = [
    "CARD_HEIGHT",
    "COLOR_BLIND",
    "DESIGN_VERSION",
    "EMOJI_SIZE",
    "ENGLISH_CARD_WORDS",
    "MAX_BYTES",
    "PALETTES",
    "SHAPES",
    "STANDARD",
    "Back",
    "CardArt",
    "CardWords",
    "DrawnReport",
    "DrawnText",
    "Family",
    "HandShown",
    "Palette",
    "PictureWords",
    "RoundEndPicture",
    "RoundEndWords",
    "SeatPicture",
    "Shape",
    "TablePicture",
    "all_faces",
    "all_family_faces",
    "draw_back",
    "draw_emoji",
    "draw_face",
    "draw_mini",
    "face_name",
    "png_bytes",
    "render_round_end",
    "render_table",
    "round_end_picture",
    "round_end_png",
    "side_of",
    "table_picture",
    "table_png",
    "warm",
]
