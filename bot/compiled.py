"""Which copy of the engine runs: the one mypyc compiled, or the Python source.

``setup.py`` compiles ``COMPILED_MODULES`` when it can and writes a manifest of the sources it
compiled. Python would load a compiled module in preference to its source even after the
source changed (a developer's edit, a ``git checkout`` without reinstalling), so at import
``bot/__init__.py`` calls ``choose()``: the compiled copy runs only when every source still
matches the manifest, and otherwise (or with ``UNO_ENGINE=source``, for profiling and
debugging) all of them run from source. It is all or nothing because compiled modules share
their classes' memory layout with each other.

Only the standard library is imported here: ``setup.py`` reads this file by path in pip's
build environment, before the package's dependencies exist.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

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
# Written by setup.py beside the compiled modules: each source's SHA-256 when it was compiled.
MANIFEST = "compiled.json"
# UNO_ENGINE=source runs the source even where a compiled copy matches it.
ENGINE_VARIABLE = "UNO_ENGINE"

PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(package_dir: Path, module: str) -> Path:
    """The ``.py`` file of ``module`` (a dotted name under ``bot``)."""
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_digests(package_dir: Path) -> dict[str, str]:
    """The SHA-256 of each compiled module's source, by module name."""
    return {
        module: hashlib.sha256(source_path(package_dir, module).read_bytes()).hexdigest()
        for module in COMPILED_MODULES
    }


def has_compiled_copy(package_dir: Path, module: str) -> bool:
    """Whether a C extension of ``module`` sits beside its source."""
    source = source_path(package_dir, module)
    return any(
        source.with_name(source.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


@dataclass(frozen=True)
class EngineBuild:
    """The copy of the engine that runs, and why; ``shadowed`` when a compiled copy is there
    but may not run, so the source must win the import."""

    compiled: bool
    reason: str
    shadowed: bool = False

    def describe(self) -> str:
        """One line for the start-up log and the test report's header."""
        kind = "compiled (mypyc)" if self.compiled else "Python source"
        return f"engine: {kind}, {self.reason}"


class SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files, ahead of the compiled copies beside them."""

    def __init__(self, sources: dict[str, Path]) -> None:
        """A finder for ``sources`` (module name to ``.py`` path)."""
        self.sources = sources

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The source's spec for a listed module; None lets the normal search go on."""
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def decide(package_dir: Path, environ: Mapping[str, str]) -> EngineBuild:
    """Whether the compiled copy in ``package_dir`` may run (it reads files, changes nothing)."""
    present = [has_compiled_copy(package_dir, module) for module in COMPILED_MODULES]
    if not any(present):
        return EngineBuild(False, "not compiled (see the README's install)")
    if environ.get(ENGINE_VARIABLE) == "source":
        return EngineBuild(False, f"as {ENGINE_VARIABLE}=source asks", shadowed=True)
    if not all(present):
        return EngineBuild(
            False, "the compiled copy is incomplete; reinstall to rebuild it", shadowed=True
        )
    try:
        built = json.loads((package_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        reason = f"the compiled copy has no {MANIFEST}; reinstall to rebuild it"
        return EngineBuild(False, reason, shadowed=True)
    changed = sorted(
        module
        for module, digest in source_digests(package_dir).items()
        if built.get(module) != digest
    )
    if changed:
        names = ", ".join(module.rsplit(".", 1)[1] for module in changed)
        reason = f"the compiled copy is older than {names}.py; `pip install -e .` rebuilds it"
        return EngineBuild(False, reason, shadowed=True)
    return EngineBuild(True, "matching its source")


def choose(package_dir: Path = PACKAGE_DIR) -> EngineBuild:
    """Decide, and make the source win the import when the compiled copy may not run."""
    build = decide(package_dir, os.environ)
    installed = any(isinstance(finder, SourceFirst) for finder in sys.meta_path)
    if build.shadowed and not installed:
        sources = {module: source_path(package_dir, module) for module in COMPILED_MODULES}
        sys.meta_path.insert(0, SourceFirst(sources))
    return build
