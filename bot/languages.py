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

# Discord locales and the catalog codes themselves (a config setting may say "fi" or "sv-SE").
_BY_LOCALE: dict[str, str] = {
    name.casefold(): code for code, locales in LANGUAGES.items() for name in (code, *locales)
}


def language_of(locale: object) -> str | None:
    """The catalog code serving a Discord locale (a ``discord.Locale`` or its text, or a
    catalog code); None when no catalog serves it."""
    if locale is None:
        return None
    key = getattr(locale, "value", locale)
    return _BY_LOCALE.get(str(key).strip().casefold())
