"""Card art drawn by code: every face and back, the table picture and the hand-button emoji.

Pure apart from CardArt's disk cache; nothing here imports Discord except ``emoji``. The table
picture's words come from the caller (``bot.ui.words.picture_words``).
"""

from .cache import CARD_HEIGHT, DESIGN_VERSION, EMOJI_SIZE, CardArt, png_bytes
from .catalog import all_faces, face_name
from .draw import Back, draw_back, draw_emoji, draw_face, draw_mini, side_of
from .palette import COLOR_BLIND, PALETTES, SHAPES, STANDARD, Palette, Shape
from .table import (
    MAX_BYTES,
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
    "MAX_BYTES",
    "PALETTES",
    "SHAPES",
    "STANDARD",
    "Back",
    "CardArt",
    "Palette",
    "PictureWords",
    "SeatPicture",
    "Shape",
    "TablePicture",
    "all_faces",
    "draw_back",
    "draw_emoji",
    "draw_face",
    "draw_mini",
    "face_name",
    "png_bytes",
    "render_table",
    "side_of",
    "table_picture",
    "table_png",
    "warm",
]
