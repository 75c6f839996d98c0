"""Build: compiles the engine's hot path into the wheel with mypyc.

Everything else about the package is in pyproject.toml. The modules in ``bot/compiled.py`` are
compiled to C extensions (about 1.5 times as many moves a second; docs/benchmarks.md, "The
engine compiled with mypyc"). A wheel (the host install, the Docker image) is compiled, and
fails loudly when it cannot be, naming the fix; an editable install (a developer's checkout)
keeps the source, so every edit runs at once. ``UNOFLIP_COMPILE=1`` compiles either,
``UNOFLIP_COMPILE=0`` installs either as source; the bot's first log line says which runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# setup.py runs as a script in pip's build environment, so the list is read from bot/compiled.py
# by path (importing the package would need its dependencies, which that environment lacks).
sys.path.insert(0, str(HERE / "bot"))
from compiled import COMPILE_VARIABLE, COMPILED_MODULES, compiles_engine  # noqa: E402

sys.path.pop(0)

FAILED = f"""
************************************************************************************
unoflip: compiling the engine with mypyc failed:
    {{error}}
Install a C compiler and Python's headers (Debian/Ubuntu: apt install gcc python3-dev)
and install again, or install the engine's Python source (same rules, about 1.5 times
slower) with {COMPILE_VARIABLE}=0 set for the install.
************************************************************************************
"""


class CompileFailed(SystemExit):
    """The engine could not be compiled: the build stops with ``FAILED``'s explanation."""


def compiled_extensions() -> list[Any]:
    """mypyc's extensions for ``COMPILED_MODULES``."""
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        raise CompileFailed(FAILED.format(error=error)) from None
    paths = [module.replace(".", "/") + ".py" for module in COMPILED_MODULES]
    # The project's mypy settings name plugins (pydantic's) that the build environment lacks;
    # the compiler only needs the engine's own types, so it reads no configuration file.
    options = ["--config-file", "", "--ignore-missing-imports", *paths]
    try:
        return list(mypycify(options, opt_level="3", group_name="unoflip_compiled"))
    except (Exception, SystemExit) as error:  # mypyc stops with SystemExit on a type error
        raise CompileFailed(FAILED.format(error=error)) from None


class LoudBuildExt(build_ext):
    """Builds the compiled modules; a failure stops the install with ``FAILED``'s message
    (pip shows a failed build's output, but hides a successful one's warnings)."""

    def run(self) -> None:
        """Compile, or stop the build saying why and what to do."""
        try:
            super().run()
        except Exception as error:  # the compiler's own errors vary by platform
            message = " ".join(str(error).split())[:300] or type(error).__name__
            raise CompileFailed(FAILED.format(error=message)) from None


# pip asks setup.py for its requirements and metadata before it builds; mypyc's type check
# (about 10 s) is needed only by the commands that build.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
arguments = sys.argv[1:]
try:
    compiling = bool(BUILDS.intersection(arguments)) and compiles_engine(arguments, os.environ)
except ValueError as error:
    raise SystemExit(f"unoflip: {error}") from None
setup(
    ext_modules=compiled_extensions() if compiling else [],
    cmdclass={"build_ext": LoudBuildExt},
)
