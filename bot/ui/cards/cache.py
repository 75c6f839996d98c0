"""CardArt: card pictures rendered once, kept in memory (LRU) and on disk beside the database.

Disk files carry DESIGN_VERSION in their names, so a design change never serves an old file;
files of other versions are removed when a cache opens its folder.
"""

from __future__ import annotations

import io
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PIL import Image

from bot.engine.cards import Face, Side

from .catalog import face_name
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
from .palette import STANDARD, Palette

# Raise on every change to the drawing code that alters pixels. (The hand buttons' emoji have
# their own version and revisions in emoji.py: a new emoji set costs REST calls.)
# Version 4 (issues 26, 27): No Mercy's and Junior's own frames and backs.
DESIGN_VERSION = 4
CARD_HEIGHT = 180
EMOJI_SIZE = 128
_PNG_START = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND\xaeB`\x82"

log = logging.getLogger(__name__)

V = TypeVar("V")


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    out = io.BytesIO()
    # Default zlib level, no optimize pass: 5x faster to encode for 5% more bytes.
    image.save(out, "PNG")
    return out.getvalue()


class CardArt:
    """Card pictures by face, palette and size (faces also by the language of their words):
    memory first, then disk, then drawn. Backs, fanned cards and emoji carry no words, so one
    picture of each serves every language.

    Thread-safe, so callers may render from a worker thread. ``renders`` counts real draws.
    """

    def __init__(
        self,
        directory: Path | None = None,
        palette: Palette = STANDARD,
        memory_items: int = 1024,
    ) -> None:
        self.palette = palette
        self.directory = directory
        self.memory_items = memory_items
        self.renders = 0
        self._lock = threading.Lock()
        self._png: OrderedDict[str, bytes] = OrderedDict()
        self._images: OrderedDict[str, Image.Image] = OrderedDict()
        self._disk_ok = directory is not None
        if directory is not None:
            self._open_folder(directory)

    # ------------------------------------------------------------------ public API

    def face_png(
        self,
        face: Face,
        side: Side | None = None,
        height: int = CARD_HEIGHT,
        words: CardWords = ENGLISH_CARD_WORDS,
        family: Family = Family.CLASSIC,
    ) -> bytes:
        """``face`` as a PNG card ``height`` pixels tall, printed with ``words``, in
        ``family``'s look."""
        side = side_of(face, side)
        return self._png_for(
            self._key(f"face-{words.lang}", face_name(face, side, family), height),
            lambda: draw_face(face, side, self.palette, height, words, family),
        )

    def back_png(self, back: Back, height: int = CARD_HEIGHT) -> bytes:
        """A generic card back as a PNG ``height`` pixels tall."""
        return self._png_for(
            self._key("back", back.value, height), lambda: draw_back(back, self.palette, height)
        )

    def emoji_png(
        self,
        face: Face,
        side: Side | None = None,
        size: int = EMOJI_SIZE,
        family: Family = Family.CLASSIC,
    ) -> bytes:
        """The square button picture of ``face`` in ``family``'s look as a PNG (well under
        Discord's 256 KB)."""
        side = side_of(face, side)
        return self._png_for(
            self._key("emoji", face_name(face, side, family), size),
            lambda: draw_emoji(face, side, self.palette, size, family),
        )

    def face_image(
        self,
        face: Face,
        side: Side | None = None,
        height: int = CARD_HEIGHT,
        words: CardWords = ENGLISH_CARD_WORDS,
        family: Family = Family.CLASSIC,
    ) -> Image.Image:
        """``face`` printed with ``words`` in ``family``'s look as an RGBA image for
        compositing (shared: do not modify it)."""
        side = side_of(face, side)
        return self._image_for(
            self._key(f"face-{words.lang}", face_name(face, side, family), height),
            lambda: draw_face(face, side, self.palette, height, words, family),
        )

    def back_image(self, back: Back, height: int = CARD_HEIGHT) -> Image.Image:
        """A generic back as an RGBA image for compositing (shared: do not modify it)."""
        return self._image_for(
            self._key("back", back.value, height), lambda: draw_back(back, self.palette, height)
        )

    def mini_image(
        self,
        face: Face | None,
        side: Side | None,
        height: int,
        family: Family = Family.CLASSIC,
    ) -> Image.Image:
        """A small card for fanned rows in ``family``'s look (``face=None``: the family's
        back), as an RGBA image."""
        if face is None:
            return self._image_for(
                self._key("mini", f"{family.prefix}back", height),
                lambda: draw_mini(None, None, self.palette, height, family),
            )
        side = side_of(face, side)
        return self._image_for(
            self._key("mini", face_name(face, side, family), height),
            lambda: draw_mini(face, side, self.palette, height, family),
        )

    # ------------------------------------------------------------------ memory

    def _key(self, what: str, name: str, size: int) -> str:
        # Also the disk file's name: the design version first, so old files are easy to prune.
        return f"v{DESIGN_VERSION}-{self.palette.key}-{what}-{name}-{size}"

    def _image_for(self, key: str, draw: Callable[[], Image.Image]) -> Image.Image:
        with self._lock:
            image = _lru_get(self._images, key)
            if image is not None:
                return image
            png = _lru_get(self._png, key) or self._read_disk(key)
            if png is not None:
                image = Image.open(io.BytesIO(png))
                image.load()
            else:
                image = self._draw(draw)
                if self._disk_ok:  # encoding is a third of a card's cost: only for the disk
                    self._write_disk(key, png_bytes(image))
            _lru_put(self._images, key, image, self.memory_items)
            return image

    def _png_for(self, key: str, draw: Callable[[], Image.Image]) -> bytes:
        with self._lock:
            png = _lru_get(self._png, key) or self._read_disk(key)
            if png is None:
                png = png_bytes(self._draw(draw))
                self._write_disk(key, png)
            _lru_put(self._png, key, png, self.memory_items)
            return png

    def _draw(self, draw: Callable[[], Image.Image]) -> Image.Image:
        self.renders += 1
        return draw()

    # ------------------------------------------------------------------ disk

    def _open_folder(self, directory: Path) -> None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            current = f"v{DESIGN_VERSION}-"
            for path in directory.glob("v*-*.png"):
                if not path.name.startswith(current):
                    path.unlink(missing_ok=True)
        except OSError as error:
            self._disk_failed(error)

    def _read_disk(self, key: str) -> bytes | None:
        if not self._disk_ok or self.directory is None:
            return None
        try:
            data = (self.directory / f"{key}.png").read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            self._disk_failed(error)
            return None
        # A file cut short by a crash is drawn again rather than served.
        return data if data.startswith(_PNG_START) and data.endswith(_PNG_END) else None

    def _write_disk(self, key: str, png: bytes) -> None:
        if not self._disk_ok or self.directory is None:
            return
        path = self.directory / f"{key}.png"
        temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            temp.write_bytes(png)
            # Atomic: another process reading the folder sees the whole file or none.
            os.replace(temp, path)
        except OSError as error:
            temp.unlink(missing_ok=True)
            self._disk_failed(error)

    def _disk_failed(self, error: OSError) -> None:
        # Pictures still work from memory; one warning, not one per card.
        if self._disk_ok:
            log.warning(
                "card picture cache folder %s unusable (%s); memory only", self.directory, error
            )
        self._disk_ok = False


def _lru_get(store: OrderedDict[str, V], key: str) -> V | None:
    value = store.get(key)
    if value is not None:
        store.move_to_end(key)
    return value


def _lru_put(store: OrderedDict[str, V], key: str, value: V, limit: int) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > limit:
        store.popitem(last=False)
