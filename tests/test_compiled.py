"""The compiled engine runs only when it matches its source (bot/compiled.py).

The decision is checked on a copy of the package's layout in a temporary folder, with empty
files standing in for compiled modules; the fingerprint test checks both real copies alike.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot
from bot.compiled import (
    COMPILED_MODULES,
    ENGINE_VARIABLE,
    MANIFEST,
    SourceFirst,
    decide,
    source_digests,
    source_path,
)

PACKAGE = Path(bot.__file__).resolve().parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """The compiled modules' sources copied into a folder laid out like ``bot``."""
    copy = tmp_path / "bot"
    for module in COMPILED_MODULES:
        target = source_path(copy, module)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source_path(PACKAGE, module), target)
    return copy


def compile_fake(package: Path, modules: tuple[str, ...] = COMPILED_MODULES) -> None:
    """Empty files named as compiled modules are, and the manifest setup.py would write."""
    for module in modules:
        source = source_path(package, module)
        source.with_name(source.stem + SUFFIX).write_bytes(b"")
    (package / MANIFEST).write_text(json.dumps(source_digests(package)))


def test_without_a_compiled_copy_the_source_runs(package: Path) -> None:
    """A checkout installed without a compiler (or UNO_PURE_PYTHON=1) runs the source."""
    build = decide(package, {})
    assert not build.compiled
    assert build.describe() == "engine: Python source, not compiled (see the README's install)"


def test_a_compiled_copy_that_matches_its_source_runs(package: Path) -> None:
    """Every module compiled, every source as the manifest recorded it."""
    compile_fake(package)
    build = decide(package, {})
    assert build.compiled
    assert build.describe() == "engine: compiled (mypyc), matching its source"


def test_an_edited_source_makes_the_source_run(package: Path) -> None:
    """After a developer's edit the compiled copy would run old code: it is not used, and the
    line says which file changed and how to rebuild."""
    compile_fake(package)
    game = source_path(package, "bot.engine.game")
    game.write_text(game.read_text() + "\n# an edit\n")
    build = decide(package, {})
    assert not build.compiled
    assert "older than game.py" in build.reason and "pip install -e ." in build.reason


def test_a_missing_manifest_or_module_makes_the_source_run(package: Path) -> None:
    """A compiled copy that setup.py did not finish (or a hand-run mypyc) is not trusted."""
    compile_fake(package, COMPILED_MODULES[:-1])
    assert "incomplete" in decide(package, {}).reason
    compile_fake(package)
    (package / MANIFEST).unlink()
    build = decide(package, {})
    assert not build.compiled and MANIFEST in build.reason


def test_the_variable_asks_for_the_source(package: Path) -> None:
    """UNO_ENGINE=source (for profiling: cProfile cannot see inside compiled code)."""
    compile_fake(package)
    build = decide(package, {ENGINE_VARIABLE: "source"})
    assert not build.compiled and "UNO_ENGINE=source" in build.reason
    assert decide(package, {ENGINE_VARIABLE: "compiled"}).compiled


@pytest.fixture
def source_first(tmp_path: Path) -> Iterator[SourceFirst]:
    """A module whose compiled copy cannot load, with a finder for its source installed."""
    (tmp_path / "uno_twin.py").write_text("WHERE = 'source'\n")
    (tmp_path / f"uno_twin{SUFFIX}").write_bytes(b"not a shared library")
    finder = SourceFirst({"uno_twin": tmp_path / "uno_twin.py"})
    sys.path.insert(0, str(tmp_path))
    sys.meta_path.insert(0, finder)
    yield finder
    sys.meta_path.remove(finder)
    sys.path.remove(str(tmp_path))
    sys.modules.pop("uno_twin", None)


def test_the_finder_loads_the_source_before_the_compiled_copy(source_first: SourceFirst) -> None:
    """Python would try the extension first (and fail on this one); the finder wins."""
    module = importlib.import_module("uno_twin")
    assert module.WHERE == "source"
    assert source_first.find_spec("bot.table", None) is None


def test_ci_tests_the_compiled_engine() -> None:
    """CI's install has a compiler, so its run must test the compiled engine, not fall back."""
    if os.environ.get("CI") != "true":
        pytest.skip("only CI must compile; here: " + bot.ENGINE.describe())
    assert bot.ENGINE.compiled, bot.ENGINE.describe()
