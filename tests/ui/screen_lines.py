"""How many lines an embed takes on a phone's screen: its texts wrapped at the embed's width.

An approximation of Discord's mobile client on a 360 px-wide phone: embed text about 262 px
wide; the title in 16 px bold, field names in 14 px bold, the rest in 14 px (measured with DejaVu
Sans Condensed, about as wide as Discord's gg sans; the bundled font where it is missing); emoji
about 19 px; markdown marks not shown, a mention shown as a name, a relative timestamp as
"in 40 seconds".
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import discord
from PIL import ImageFont

from bot.ui.cards.names import Font, font

TEXT_WIDTH = 262
TEXT_PX = 14
EMOJI_PX = 19

_MARKS = re.compile(r"\*\*|__|~~|(?<!\w)\*|\*(?!\w)")
_TIMESTAMP = re.compile(r"<t:\d+:R>")
_MENTION = re.compile(r"<@!?\d+>")
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>")


FONTS = Path("/usr/share/fonts/truetype/dejavu")
TITLE_PX = 16


@cache
def _font(size: int = TEXT_PX, bold: bool = False) -> Font:
    path = FONTS / ("DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf")
    return ImageFont.truetype(str(path), size) if path.is_file() else font(size)


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So" or ord(char) >= 0x1F000


def shown(text: str) -> str:
    """The text as the reader sees it: no markdown marks, mentions and timestamps resolved."""
    text = _TIMESTAMP.sub("in 40 seconds", text)
    text = _MENTION.sub("@Somebody", text)
    text = _CUSTOM_EMOJI.sub("\U0001f0cf", text)
    return _MARKS.sub("", text).replace("\\", "")


@cache
def width(word: str, size: int = TEXT_PX, bold: bool = False) -> float:
    """A word's width in pixels (emoji at their own width; variation selectors take none)."""
    total = 0.0
    plain = []
    for char in word:
        if char in "\ufe0f\u200d":
            continue
        if _is_emoji(char):
            total += EMOJI_PX
        else:
            plain.append(char)
    return total + _font(size, bold).getlength("".join(plain))


def wrapped_lines(line: str, size: int = TEXT_PX, bold: bool = False) -> int:
    """How many screen lines one line of text takes, wrapped at spaces (a word longer than the
    width breaks where it must)."""
    space = width(" ", size, bold)
    lines, used = 1, 0.0
    for word in shown(line).split(" "):
        needed = width(word, size, bold) + (space if used else 0)
        if used and used + needed > TEXT_WIDTH:
            lines += 1
            used = width(word, size, bold)
        else:
            used += needed
        while used > TEXT_WIDTH:  # a word wider than the line
            lines += 1
            used -= TEXT_WIDTH
    return lines


def screen_lines(embed: discord.Embed) -> int:
    """The lines an embed's texts take on a phone: title, description, each field's name and
    value, footer, each wrapped at TEXT_WIDTH."""
    parts = [(embed.title, TITLE_PX, True), (embed.description, TEXT_PX, False)]
    for field in embed.fields:
        parts += [(field.name, TEXT_PX, True), (field.value, TEXT_PX, False)]
    parts.append((embed.footer.text, 12, False))
    return sum(
        wrapped_lines(line, size, bold)
        for part, size, bold in parts
        if part
        for line in part.split("\n")
    )
