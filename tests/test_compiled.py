"""Which copy of the engine runs (bot/compiled.py): the wheel is compiled, a checkout is not.

``engine_build`` is checked on made-up module files; ``compiles_engine`` is what setup.py asks
before it builds. The last test holds CI to both of its runs: the installed wheel compiled,
the checkout's source not.
"""

from __future__ import annotations

import importlib.machinery
import os
from pathlib import Path

import pytest

import bot
from bot.compiled import (
    COMPILE_VARIABLE,
    COMPILED_MODULES,
    compiles_engine,
    describe_engine,
    engine_build,
)

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
SITE = "/srv/venv/lib/python3.11/site-packages"


def origins(suffix_of: dict[str, str] | None = None) -> dict[str, str | None]:
    """Each compiled module's file under SITE, ``.py`` unless ``suffix_of`` names another."""
    chosen = suffix_of or {}
    return {
        module: f"{SITE}/{module.replace('.', '/')}{chosen.get(module, '.py')}"
        for module in COMPILED_MODULES
    }


def test_every_module_compiled_is_the_compiled_engine() -> None:
    """All ten modules load from C extensions: the line says compiled, and from where."""
    build = engine_build(origins(dict.fromkeys(COMPILED_MODULES, SUFFIX)))
    assert build.compiled
    assert build.describe() == f"engine: compiled (mypyc), from {SITE}"


def test_no_module_compiled_is_the_source() -> None:
    """A checkout (editable install) runs its source, and the line says why and where to read."""
    build = engine_build(origins())
    assert not build.compiled
    assert build.describe().startswith("engine: Python source, not compiled")
    assert "editable install" in build.reason and "docs/install.md" in build.reason


def test_a_partly_compiled_engine_says_which_modules() -> None:
    """A broken install (some modules compiled) is not called compiled; it names them."""
    build = engine_build(origins({"bot.engine.game": SUFFIX}))
    assert not build.compiled and "only game compiled" in build.reason


@pytest.mark.parametrize(
    ("command", "environ", "compiles"),
    [
        (["bdist_wheel"], {}, True),
        (["editable_wheel", "--dist-dir", "x"], {}, False),
        (["editable_wheel"], {COMPILE_VARIABLE: "1"}, True),
        (["bdist_wheel"], {COMPILE_VARIABLE: "0"}, False),
    ],
    ids=["wheel", "editable", "editable-asked", "wheel-source"],
)
def test_the_wheel_compiles_and_the_editable_install_does_not(
    command: list[str], environ: dict[str, str], compiles: bool
) -> None:
    """setup.py compiles a wheel, keeps an editable install on source, and obeys the variable."""
    assert compiles_engine(command, environ) is compiles


def test_a_bad_value_of_the_variable_is_refused() -> None:
    """``UNOFLIP_COMPILE=yes`` stops the build, naming the two values it takes."""
    with pytest.raises(ValueError, match="set it to 1 or 0"):
        compiles_engine(["bdist_wheel"], {COMPILE_VARIABLE: "yes"})


def test_ci_tests_the_compiled_wheel_and_the_source() -> None:
    """CI's wheel run imports the installed package, which must be compiled; its source run
    imports the checkout, which must not be (an editable install is source unless asked)."""
    if os.environ.get("CI") != "true":
        pytest.skip("only CI runs both; here: " + describe_engine().describe())
    from_checkout = Path(bot.__file__).resolve().parent == ROOT / "bot"
    assert describe_engine().compiled is not from_checkout, describe_engine().describe()
