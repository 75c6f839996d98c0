"""Which language a reader gets, and every player-visible word by stable key.

The words live in gettext catalogs, one per language: ``bot/ui/locales/<code>.po``. They are read
with Babel at first use (no compile step: nothing to build in CI or Docker, and the ``.po`` file
a translator edits is exactly what runs). Message ids are stable keys such as
``lobby.join.already``, never English sentences, so fixing an English wording does not orphan a
translation. Plural messages use each catalog's ``Plural-Forms`` through the standard
``gettext`` machinery.

Adding a language: copy ``locales/en.po`` to ``locales/<code>.po``, translate it, and add one
line to ``LANGUAGES`` in ``bot/languages.py`` naming the Discord locales it serves: the
catalogs, ``/uno settings`` and the config's ``language`` all read that one list.
"""

from __future__ import annotations

import gettext
import io
import logging
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NewType

import discord
from babel import Locale as BabelLocale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from discord import app_commands

# The one list of languages lives below the ui (the settings read it too); re-exported here.
from bot.engine.variants import VARIANTS
from bot.languages import LANGUAGES as LANGUAGES
from bot.languages import language_of as catalog_code

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).with_name("locales")

Lang = NewType("Lang", str)
ENGLISH = Lang("en")


def languages() -> tuple[Lang, ...]:
    """Every language with a catalog, English first."""
    return tuple(Lang(code) for code in LANGUAGES)


def language_of(locale: str | discord.Locale | None) -> Lang | None:
    """The language serving a Discord locale (or a catalog code); None when there is none."""
    code = catalog_code(locale)
    return None if code is None else Lang(code)


def resolve(
    user_locale: str | discord.Locale | None, server_locale: str | discord.Locale | None
) -> Lang:
    """The language of an ephemeral answer: the user's locale, else the server's, else English."""
    return language_of(user_locale) or language_of(server_locale) or ENGLISH


def public_language(server_locale: str | discord.Locale | None, setting: str | None = None) -> Lang:
    """The language of a public message: the server's setting, else its locale, else English."""
    return language_of(setting) or language_of(server_locale) or ENGLISH


# ---------------------------------------------------------------------- catalogs


@cache
def load_catalog(lang: Lang) -> Catalog:
    """The parsed ``.po`` catalog of ``lang`` (read once)."""
    path = LOCALES_DIR / f"{lang}.po"
    with path.open("rb") as file:
        return read_po(file, locale=lang, domain="unoflip")


@dataclass(frozen=True, slots=True)
class _Language:
    translations: gettext.GNUTranslations
    locale: BabelLocale


@cache
def _language(lang: Lang) -> _Language:
    # The catalog goes through an in-memory .mo so lookups and plural forms are the standard
    # gettext ones; a key missing here falls back to English rather than showing the key.
    buffer = io.BytesIO()
    write_mo(buffer, load_catalog(lang))
    buffer.seek(0)
    translations = gettext.GNUTranslations(buffer)
    if lang != ENGLISH:
        translations.add_fallback(_language(ENGLISH).translations)
    return _Language(translations, BabelLocale.parse(lang))


def preload() -> None:
    """Read every catalog now (about 0.1 s), so no reader's first message pays for it."""
    for lang in languages():
        _language(lang)


def has_key(lang: Lang, key: str) -> bool:
    """Whether ``lang``'s own catalog translates ``key`` (no English fallback)."""
    message = load_catalog(lang).get(key)
    return message is not None and bool(message.string)


def format_number(lang: Lang, value: float, decimals: int = 0) -> str:
    """``value`` written the way ``lang`` writes numbers ("1,234.5" / "1 234,5")."""
    if decimals == 0 and isinstance(value, int) and 0 <= value < 1000:
        return str(value)  # the common case, without Babel's pattern machinery
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=_language(lang).locale)


def _formatted(lang: Lang, params: Mapping[str, Any]) -> dict[str, Any]:
    # Numbers are shown the reader's way; pass ids and mentions as text, never as int.
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            out[name] = value
        elif isinstance(value, float):
            out[name] = format_number(lang, value, decimals=1)
        else:
            out[name] = format_number(lang, value)
    return out


def t(lang: Lang, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in (numbers formatted for it)."""
    template = _language(lang).translations.gettext(key)
    if template == key:
        log.warning("no message %r in any catalog", key)
    return template.format_map(_formatted(lang, params)) if params else template


def tn(lang: Lang, key: str, n: int, /, **params: Any) -> str:
    """The plural message ``key`` for count ``n`` (also given to the text as ``{count}``)."""
    template = _language(lang).translations.ngettext(key, key, n)
    params.setdefault("count", n)
    return template.format_map(_formatted(lang, params))


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields a message uses."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


# ---------------------------------------------------------------------- slash commands


def command_keys(context: app_commands.TranslationContextTypes) -> tuple[str, ...]:
    """The catalog keys, most specific first, for a string of the command tree Discord asks about.

    Keys follow the tree: ``cmd.uno.flip.start.name`` and ``.description`` for commands and
    groups; ``cmd.uno.kick.opt.player.name`` (and ``.description``) for an option, falling back
    to ``opt.player.name`` shared by every command with that option; ``choice.<value>``.
    """
    where = app_commands.TranslationContextLocation
    location, data = context.location, context.data
    if location in (where.command_name, where.group_name):
        return (f"{_command_path(data)}.name",)
    if location in (where.command_description, where.group_description):
        return (f"{_command_path(data)}.description",)
    if isinstance(data, app_commands.Parameter):
        part = "name" if location is where.parameter_name else "description"
        option = f"opt.{_slug(data.name)}.{part}"
        return (f"{_command_path(data.command)}.{option}", option)
    if isinstance(data, app_commands.Choice):
        return (f"choice.{_slug(str(data.value))}",)
    return ()


def variant_choices() -> list[app_commands.Choice[str]]:
    """A slash command option's choices of every registered game, by key, each named as its
    boards name it (``board.variant.<key>``, translated)."""
    return [
        app_commands.Choice(
            name=app_commands.locale_str(t(ENGLISH, entry.words.name), key=entry.words.name),
            value=key,
        )
        for key, entry in VARIANTS.items()
    ]


def _command_path(command: Any) -> str:
    return "cmd." + ".".join(_slug(part) for part in command.qualified_name.split())


def _slug(name: str) -> str:
    return name.replace("-", "_")


class CommandTranslator(app_commands.Translator):
    """Localizes slash command names, descriptions, options and choices from the catalogs.

    Install it before syncing: ``await bot.tree.set_translator(CommandTranslator())``. Plain
    strings in the decorators work as they are (discord.py wraps them in ``locale_str``); the key
    comes from where the string sits in the tree, or from ``locale_str(..., key="...")``.
    """

    async def load(self) -> None:
        """Read every catalog now, so a bad one fails at start-up rather than at sync."""
        preload()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text for ``locale``, or None to keep the English default."""
        lang = language_of(locale)
        if lang is None or lang == ENGLISH:
            return None
        keys = (string.extras["key"],) if "key" in string.extras else command_keys(context)
        key = next((key for key in keys if has_key(lang, key)), None)
        return None if key is None else t(lang, key)
