"""The languages the bot speaks: the one list every room reads (floor 1, imports nothing).

The catalogs (``bot/ui/locales/<code>.po``), the language a server may choose in
``/uno settings`` and the ``language`` of a table all come from ``LANGUAGES``; a new language
is one line here and its catalog.
"""

from __future__ import annotations

# One line per language: its catalog code (locales/<code>.po) and the Discord locales it serves.
LANGUAGES: dict[str, tuple[str, ...]] = {
    "en": ("en-US", "en-GB"),
    "fi": ("fi",),
    "sv": ("sv-SE",),
    "nb": ("no",),
}
# The catalog codes, English first.
LANGUAGE_CODES: tuple[str, ...] = tuple(LANGUAGES)
