"""The house stays as docs/architecture.md draws it: imports only go down, and never in a circle.

Every import of ours is read from the source with ``ast``, wherever it stands: at the top, in a
function, under ``if TYPE_CHECKING:``. So an upward import or a circle cannot hide behind a
function-level or type-only import. A new module must belong to a room of ``ROOMS`` (and of
the table in docs/architecture.md); a new room needs a row in both.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs")


@dataclass(frozen=True)
class Room:
    """A room's floor and the rooms it may import (None: any room on a lower floor)."""

    floor: int
    may_import: frozenset[str] | None


def room(floor: int, *may_import: str) -> Room:
    """A room on ``floor`` that may import exactly ``may_import``."""
    return Room(floor, frozenset(may_import))


def anything_below(floor: int) -> Room:
    """A room on ``floor`` that may import every room below it."""
    return Room(floor, None)


# The table of docs/architecture.md, "Rooms and floors": a room is a module, or a package and
# everything in it. "bot" is the package's own __init__ (it decides which engine copy runs).
ROOMS: dict[str, Room] = {
    "bot.compiled": room(0),
    "bot.languages": room(0),
    "bot.option_records": room(0),
    "bot": room(1, "bot.compiled"),
    "bot.metrics": room(1, "bot.compiled"),
    "bot.engine": room(1),
    "bot.config": room(1, "bot.compiled", "bot.option_records"),
    "bot.edits": room(1),
    "bot.memory": room(1),
    "bot.health": room(1),
    "bot.options": room(2, "bot.engine", "bot.option_records", "bot.languages"),
    "bot.table": room(3, "bot.engine", "bot.options"),
    "bot.rest_gate": room(2, "bot.edits"),
    "bot.ai": room(3, "bot.engine"),
    "bot.store": room(3, "bot.engine"),
    "bot.ui": room(3, "bot.engine", "bot.config", "bot.options", "bot.languages"),
    "bot.server_settings": room(3, "bot.engine", "bot.config", "bot.options"),
    "bot.servers": room(4, "bot.server_settings", "bot.store"),
    "bot.persistence": room(4, "bot.table", "bot.store", "bot.engine", "bot.config", "bot.options"),
    "bot.preflight": room(4, "bot.store", "bot.config"),
    "bot.operations": room(4, "bot.store"),
    "bot.public_messages": room(4, "bot.table", "bot.ui", "bot.edits", "bot.engine"),
    "bot.settings_panel": room(
        5, "bot.servers", "bot.server_settings", "bot.ui", "bot.store", "bot.config"
    ),
    "bot.forget_me": room(5, "bot.ui", "bot.store"),
    "bot.computer_turns": room(5, "bot.ai", "bot.table", "bot.engine", "bot.config"),
    "bot.sessions": anything_below(6),
    "bot.client": room(
        7,
        "bot",
        "bot.sessions",
        "bot.servers",
        "bot.persistence",
        "bot.preflight",  # the PostgreSQL pool the settings ask for
        "bot.store",
        "bot.config",
        "bot.memory",
        "bot.metrics",
        "bot.rest_gate",
    ),
    "cogs": anything_below(8),
    "bot.__main__": anything_below(8),
}


def module_name(path: Path) -> str:
    """The dotted name of a source file under the repository root."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def our_modules() -> dict[str, Path]:
    """Every module of the bot and the cogs, by dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def imports_of(module: str, source: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ours that ``source`` imports anywhere (top level, functions, type-only).

    ``from package import name`` counts as importing ``package.name`` when that is a module,
    else ``package`` itself.
    """
    known = set(known)
    here = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in known else target)
    return {name for name in found if name.split(".")[0] in PACKAGES and name != module}


def room_of(module: str) -> str | None:
    """The room ``module`` stands in: the longest room name it is, or is inside of."""
    if module == "bot":
        return "bot"
    inside = [name for name in ROOMS if name != "bot" and (module + ".").startswith(name + ".")]
    return max(inside, key=len, default=None)


def import_graph() -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports."""
    modules = our_modules()
    return {
        name: imports_of(name, path.read_text("utf-8"), path.name == "__init__.py", modules)
        for name, path in modules.items()
    }


def wrong_way(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Every import from one room into another it may not import: a sentence each."""
    problems = []
    for module, imported in sorted(graph.items()):
        source = room_of(module)
        if source is None:
            continue
        for target in sorted(imported):
            into = room_of(target)
            if into is None or into == source:
                continue
            mine, theirs = ROOMS[source], ROOMS[into]
            allowed = theirs.floor < mine.floor and (
                mine.may_import is None or into in mine.may_import
            )
            if not allowed:
                problems.append(
                    f"{module} (floor {mine.floor}) imports {target} ({into}, floor {theirs.floor})"
                )
    return problems


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import circles among modules (strongly connected groups of two or more, or one
    that imports itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def documented_floors() -> dict[str, int]:
    """The floor of each room in docs/architecture.md's table, by dotted room name."""
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    floors: dict[str, int] = {}
    for floor, rooms in re.findall(r"^\| (\d+) \| ([^|]+) \|", text, re.MULTILINE):
        for path in re.findall(r"`([^`]+)`", rooms):
            name = path.removesuffix("/").removesuffix(".py").replace("/", ".")
            floors[name] = int(floor)
    return floors


def test_every_module_stands_in_a_room() -> None:
    """Each module of bot/ and cogs/ belongs to a room of the floor table."""
    assert [name for name in our_modules() if room_of(name) is None] == []


def test_imports_only_go_down() -> None:
    """No room imports a room on its own or a higher floor, or one its row does not name."""
    assert wrong_way(import_graph()) == []


def test_no_import_circles() -> None:
    """No module reaches itself through imports, counting function-level and type-only ones."""
    assert circles(import_graph()) == []


def test_the_floor_table_is_the_documented_one() -> None:
    """docs/architecture.md lists every room of ROOMS on the same floor (and no other room)."""
    documented = documented_floors()
    declared = {name: spec.floor for name, spec in ROOMS.items() if name != "bot"}
    assert documented == declared


def test_an_upward_import_in_a_function_is_found() -> None:
    """The checker sees an import inside a function, and calls one from the engine up wrong."""
    source = "def later():\n    from bot.table import TableState\n"
    imported = imports_of("bot.engine.game", source, False, {"bot.table"})
    assert imported == {"bot.table"}
    assert wrong_way({"bot.engine.game": imported}) != []


def test_a_type_only_circle_is_found() -> None:
    """Two modules importing each other, one only under TYPE_CHECKING, make a circle."""
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"
    imported = imports_of("bot.engine.view", source, False, {"bot.engine.game"})
    graph = {"bot.engine.view": imported, "bot.engine.game": {"bot.engine.view"}}
    assert circles(graph) == [["bot.engine.game", "bot.engine.view"]]


def test_relative_imports_resolve_to_modules() -> None:
    """``from . import x`` and ``from ..cards import y`` name the modules they load."""
    known = {"bot.engine.variants.flip", "bot.engine.cards"}
    source = "from . import flip\nfrom ..cards import Kind\n"
    assert imports_of("bot.engine.variants", source, True, known) == {
        "bot.engine.variants.flip",
        "bot.engine.cards",
    }
