"""The engine stays pure: no Discord, asyncio, database or I/O, and only seeded randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.engine

ENGINE_DIR = Path(bot.engine.__file__).parent
ENGINE_FILES = sorted(ENGINE_DIR.rglob("*.py"))
# Top-level packages the engine may never import: the platform, the event loop, storage and
# anything that reaches the network, the file system or other processes.
FORBIDDEN_IMPORTS = frozenset(
    {
        "discord",
        "asyncio",
        "aiosqlite",
        "sqlite3",
        "socket",
        "ssl",
        "http",
        "urllib",
        "requests",
        "aiohttp",
        "subprocess",
        "multiprocessing",
        "threading",
        "os",
        "shutil",
        "pathlib",
        "tempfile",
        "glob",
        "pickle",
        "shelve",
        "logging",
    }
)
# Built-ins that read or write outside the process.
FORBIDDEN_CALLS = frozenset({"open", "input", "print", "exec", "eval", "compile", "__import__"})
# Per-file exceptions, each for a reason: decks.py reads the packaged deck CSV through
# importlib.resources; simulate.py is the command-line entry point, whose main() prints.
ALLOWED_IMPORTS = {"simulate.py": frozenset({"time"}), "decks.py": frozenset({"importlib"})}
ALLOWED_CALLS_IN_FUNCTION = {("simulate.py", "main"): frozenset({"print"})}
# Clocks make results differ between runs; only the CLI times itself.
NONDETERMINISTIC_IMPORTS = frozenset({"time", "datetime", "secrets", "uuid", "importlib"})
# Module-level functions of ``random`` share one unseeded generator.
UNSEEDED_RANDOM = frozenset(
    {"random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform", "seed"}
)


def relative(path: Path) -> str:
    """The path of an engine file relative to bot/engine."""
    return path.relative_to(ENGINE_DIR).as_posix()


def imported_roots(tree: ast.AST) -> list[tuple[int, str]]:
    """The top-level package of every import in ``tree``, with its line number."""
    roots: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.append((node.lineno, node.module.split(".")[0]))
    return roots


def calls_by_function(tree: ast.Module) -> list[tuple[str, int, str]]:
    """Every call of a bare name as (outermost enclosing function or '', line, name)."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, owner: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = owner
            if not owner and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = child.name
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                found.append((name, child.lineno, child.func.id))
            visit(child, name)

    visit(tree, "")
    return found


def parse(path: Path) -> ast.Module:
    """The syntax tree of an engine file."""
    return ast.parse(path.read_text("utf-8"), filename=str(path))


def test_engine_files_are_found() -> None:
    """The scan covers the engine's modules (so the checks below cannot pass vacuously)."""
    names = {relative(p) for p in ENGINE_FILES}
    assert {"game.py", "cards.py", "decks.py", "view.py", "snapshot.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=relative)
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    """No engine module imports Discord, asyncio, a database, networking or the file system."""
    allowed = ALLOWED_IMPORTS.get(relative(path), frozenset())
    bad = [
        f"line {line}: {root}"
        for line, root in imported_roots(parse(path))
        if root in (FORBIDDEN_IMPORTS | NONDETERMINISTIC_IMPORTS) - allowed
    ]
    assert not bad, f"{relative(path)} imports {bad}"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=relative)
def test_engine_module_does_no_io(path: Path) -> None:
    """No engine module calls open(), print(), input() or eval-like built-ins."""
    name = relative(path)
    bad = [
        f"line {line}: {callee}()"
        for owner, line, callee in calls_by_function(parse(path))
        if callee in FORBIDDEN_CALLS - ALLOWED_CALLS_IN_FUNCTION.get((name, owner), frozenset())
    ]
    assert not bad, f"{name} does I/O: {bad}"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=relative)
def test_engine_module_uses_only_seeded_randomness(path: Path) -> None:
    """Randomness comes from a seeded random.Random, never the module-level generator."""
    tree = parse(path)
    bad = [
        f"line {node.lineno}: random.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
        and node.attr in UNSEEDED_RANDOM
    ]
    bad += [
        f"line {node.lineno}: from random import {alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "random"
        for alias in node.names
        if alias.name in UNSEEDED_RANDOM
    ]
    assert not bad, f"{relative(path)} uses unseeded randomness: {bad}"


def imported_modules(tree: ast.AST) -> set[str]:
    """The full dotted name of every absolute import in ``tree``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_decks_reads_only_packaged_data() -> None:
    """decks.py's one importlib use is importlib.resources, for the packaged deck CSV."""
    uses = {m for m in imported_modules(parse(ENGINE_DIR / "decks.py")) if "importlib" in m}
    assert uses == {"importlib.resources"}


def test_checker_spots_a_forbidden_import() -> None:
    """The import scan reports a nested discord import (guards the checker itself)."""
    tree = ast.parse("def f():\n    import discord.ui\n    from asyncio import sleep\n")
    assert [root for _, root in imported_roots(tree)] == ["discord", "asyncio"]


def test_checker_spots_io_inside_a_method() -> None:
    """The call scan attributes an open() in a method to that method."""
    tree = ast.parse("class G:\n    def save(self):\n        open('x')\n")
    assert calls_by_function(tree) == [("save", 3, "open")]


def hidden_imports(tree: ast.Module) -> list[str]:
    """Imports inside a function, class or ``if`` block (such as ``if TYPE_CHECKING:``): the
    places an import circle hides."""
    return [
        f"line {node.lineno}"
        for top in tree.body
        if not isinstance(top, ast.Import | ast.ImportFrom)
        for node in ast.walk(top)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]


def engine_imports(path: Path) -> set[str]:
    """The engine modules (file names) that ``path`` imports, relatively or by full name."""
    found: set[str] = set()
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0] + ".py")
            elif node.level == 1:
                found |= {alias.name + ".py" for alias in node.names}
            elif node.module and node.module.startswith("bot.engine."):
                found.add(node.module.split(".")[2] + ".py")
    return found & {relative(p) for p in ENGINE_FILES}


@pytest.mark.parametrize("path", ENGINE_FILES, ids=relative)
def test_engine_module_imports_only_at_the_top(path: Path) -> None:
    """No engine module imports inside a function or under TYPE_CHECKING."""
    assert not hidden_imports(parse(path)), f"{relative(path)} hides imports"


def test_engine_modules_import_no_circle() -> None:
    """Following imports between engine modules never leads back to where it started."""
    graph = {relative(p): engine_imports(p) for p in ENGINE_FILES}
    assert "game.py" in graph["view.py"] and "game.py" in graph["snapshot.py"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()) - seen:
            if nxt == goal or reaches(nxt, goal, seen | {nxt}):
                return True
        return False

    circles = [name for name in graph if reaches(name, name, set())]
    assert not circles, f"import circles through {circles}"


def test_checker_spots_hidden_imports() -> None:
    """The hidden-import scan reports a TYPE_CHECKING import and one inside a method."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"
        "class G:\n    def f(self):\n        from .view import view_for\n"
    )
    assert hidden_imports(tree) == ["line 3", "line 6"]


def test_the_table_is_pure_too() -> None:
    """bot/table.py imports no discord, asyncio, database driver or I/O module."""
    import ast
    from pathlib import Path

    source = Path(__file__).parents[2] / "bot" / "table.py"
    tree = ast.parse(source.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0
    }
    forbidden = {"discord", "asyncio", "aiosqlite", "asyncpg", "sqlite3", "socket", "os"}
    assert imported & forbidden == set()
