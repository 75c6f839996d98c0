"""Which copy of the engine runs: the one mypyc compiled, or the Python source.

``setup.py`` compiles ``COMPILED_MODULES`` into the wheel (the host install, the Docker image,
CI's wheel run); an editable install keeps the checkout on its source, so an edit always runs.
``UNOFLIP_COMPILE`` (``COMPILE_VARIABLE``) overrides that choice at install time: ``1``
compiles an editable install in place, ``0`` installs a wheel's source. Nothing is decided at
import: ``describe_engine()`` only reports which files Python found.

Only the standard library is imported here: ``setup.py`` reads this file by path in pip's
build environment, before the package's dependencies exist.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# The engine's hot path (docs/benchmarks.md, "The engine compiled with mypyc"); view.py too, as
# every hand and every computer decision starts with ``view_for`` (a quarter fewer
# instructions compiled). rules.py stays Python: mypyc cannot compile pydantic's models. And the
# hard player's rollouts ("Compiled rollouts"): the strategies themselves run once a decision,
# and compiled they would lose what tests and benches rely on (annotations, subclassing).
COMPILED_MODULES = (
    "bot.engine.cards",
    "bot.engine.decks",
    "bot.engine.events",
    "bot.engine.moves",
    "bot.engine.scoring",
    "bot.engine.players",
    "bot.engine.game",
    "bot.engine.view",
    "bot.ai.knowledge",
    "bot.ai.montecarlo",
)
# The one switch, read by setup.py at install time: 1 compiles, 0 installs the source.
COMPILE_VARIABLE = "UNOFLIP_COMPILE"


# setuptools' commands that build an editable install (pip's PEP 660 one, and the old one).
EDITABLE_COMMANDS = frozenset({"editable_wheel", "develop"})


def compiles_engine(command_line: Sequence[str], environ: Mapping[str, str]) -> bool:
    """Whether setup.py compiles: ``UNOFLIP_COMPILE`` when set, else every build but an
    editable one. ValueError for a value other than 1 or 0."""
    choice = environ.get(COMPILE_VARIABLE, "").strip()
    if choice:
        if choice not in ("0", "1"):
            raise ValueError(f"{COMPILE_VARIABLE} is {choice!r}; set it to 1 or 0")
        return choice == "1"
    return not EDITABLE_COMMANDS.intersection(command_line)


@dataclass(frozen=True)
class EngineBuild:
    """The copy of the engine that runs (``compiled``) and where it was found."""

    compiled: bool
    reason: str

    def describe(self) -> str:
        """One line for the start-up log and the test report's header."""
        kind = "compiled (mypyc)" if self.compiled else "Python source"
        return f"engine: {kind}, {self.reason}"


def is_extension(origin: str | None) -> bool:
    """Whether a module's file is a C extension rather than a ``.py`` source."""
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def engine_build(origins: dict[str, str | None]) -> EngineBuild:
    """Which copy runs, given the file each of ``COMPILED_MODULES`` loads from."""
    compiled = sorted(module for module, origin in origins.items() if is_extension(origin))
    where = next((origin for origin in origins.values() if origin), "")
    folder = where.rsplit("/bot/", 1)[0] if "/bot/" in where else where
    if len(compiled) == len(origins):
        return EngineBuild(True, f"from {folder}")
    if compiled:
        names = ", ".join(module.rsplit(".", 1)[1] for module in compiled)
        return EngineBuild(
            False, f"from {folder}, but only {names} compiled: reinstall (see docs/install.md)"
        )
    return EngineBuild(
        False,
        f"not compiled, from {folder} (an editable install or a checkout runs its source; "
        "see docs/install.md)",
    )


def describe_engine() -> EngineBuild:
    """Which copy of the engine this process imports (it imports the engine's package)."""
    origins: dict[str, str | None] = {}
    for module in COMPILED_MODULES:
        spec = importlib.util.find_spec(module)
        origins[module] = spec.origin if spec is not None else None
    return engine_build(origins)
