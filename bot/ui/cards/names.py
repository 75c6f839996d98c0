"""Text made safe to draw: player names and translated words in, a short drawable line out,
never a crash."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

# A wider-coverage font (Latin, Greek, Cyrillic, Arabic, Hebrew...) when the system has one, as
# Debian's fonts-dejavu-core installs it; otherwise Pillow's bundled font (ASCII letters only).
NAME_FONT_FILES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
)
# Control, format (bidi overrides, zero-width joiners), surrogate, private-use, unassigned and
# combining marks (which stack into "zalgo" towers) are never drawn.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"})
_MISSING_PROBE = "\uffff"
# Latin letters that do not decompose into a plain letter plus an accent.
_PLAIN_LATIN = str.maketrans(
    {
        "Ł": "L",
        "ł": "l",
        "Ø": "O",
        "ø": "o",
        "ß": "ss",
        "Đ": "D",
        "đ": "d",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "Þ": "Th",
        "þ": "th",
        "ı": "i",
    }
)


@lru_cache(maxsize=128)
def font(size: int) -> Font:
    """Pillow's bundled scalable font at ``size`` pixels (no font files needed)."""
    loaded = ImageFont.load_default(size=max(1, size))
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType; the card art needs it")
    return loaded


@lru_cache(maxsize=64)
def name_font(size: int) -> Font:
    """The font names are drawn in, ``size`` pixels."""
    for path in NAME_FONT_FILES:
        if path.is_file():
            try:
                return ImageFont.truetype(str(path), size)
            except OSError:
                continue
    return font(size)


@lru_cache(maxsize=4096)
def has_glyph(face: Font, char: str) -> bool:
    """True when ``face`` draws ``char`` as itself rather than as its missing-glyph box."""
    return bytes(face.getmask(char)) != bytes(face.getmask(_MISSING_PROBE)) or char == " "


def drawable(name: str, face: Font) -> str:
    """``name`` with what ``face`` cannot draw dropped (accents fall back to plain letters)."""
    out: list[str] = []
    for char in unicodedata.normalize("NFKC", name):
        category = unicodedata.category(char)
        if category in _DROPPED:
            continue
        if category == "Zs":
            out.append(" ")
        elif has_glyph(face, char):
            out.append(char)
        else:
            plain = "".join(
                c
                for c in unicodedata.normalize("NFKD", char.translate(_PLAIN_LATIN))
                if unicodedata.category(c) not in _DROPPED
            )
            if plain and all(has_glyph(face, c) for c in plain):
                out.append(plain)
    return " ".join("".join(out).split())


def fit(text: str, face: Font, width: float) -> str:
    """``text`` cut with an ellipsis so it is at most ``width`` pixels wide."""
    if face.getlength(text) <= width:
        return text
    ellipsis = "…" if has_glyph(face, "…") else "..."
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid].rstrip() + ellipsis) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ellipsis


def safe_name(name: str, face: Font, width: float, fallback: str) -> str:
    """A drawable, width-limited form of ``name``; ``fallback`` when nothing of it is drawable."""
    # Cut absurd inputs before the per-character work.
    text = drawable(name[:200], face)
    if not any(c.isalnum() for c in text):
        text = fallback
    return fit(text, face, width)


@lru_cache(maxsize=512)
def fitted_text(text: str, size: int, width: int) -> tuple[str, Font]:
    """``text`` in the names' font, ``size`` pixels or smaller (down to two thirds) so that it
    fits ``width``; cut with an ellipsis when even that is too wide. DejaVu draws å ä ö æ ø;
    without it the bundled font shows them as plain letters (``drawable``) rather than boxes."""
    shown, smallest = drawable(text, name_font(size)), size * 2 // 3
    for pixels in range(size, smallest, -1):
        face = name_font(pixels)
        if face.getlength(shown) <= width:
            return shown, face
    face = name_font(smallest)
    return fit(shown, face, width), face
