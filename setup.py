"""Build: compiles the engine's hot path with mypyc, or installs the plain source.

Everything else about the package is in pyproject.toml. The modules in ``bot/compiled.py``
are compiled to C extensions (about 1.5 times as many moves a second; docs/benchmarks.md, "The
engine compiled with mypyc"). The build never fails for want of them: with
``UNOFLIP_PURE_PYTHON=1``, or where mypyc or a C compiler is missing, the same modules run from
their source, and the bot says which at start-up.
"""

from __future__ import annotations

import json
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
from compiled import COMPILED_MODULES, MANIFEST, source_digests  # noqa: E402

sys.path.pop(0)


def compiled_extensions() -> list[Any]:
    """mypyc's extensions for ``COMPILED_MODULES``, or none when the source is to be used."""
    if os.environ.get("UNOFLIP_PURE_PYTHON") == "1":
        print("unoflip: UNOFLIP_PURE_PYTHON=1, the engine runs from its source", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("unoflip: mypyc is missing, the engine runs from its source", file=sys.stderr)
        return []
    paths = [module.replace(".", "/") + ".py" for module in COMPILED_MODULES]
    # The project's mypy settings name plugins (pydantic's) that the build environment lacks;
    # the compiler only needs the engine's own types, so it reads no configuration file.
    options = ["--config-file", "", "--ignore-missing-imports", *paths]
    return list(mypycify(options, opt_level="3", group_name="unoflip_compiled"))


class OptionalBuildExt(build_ext):
    """Builds the compiled modules if it can, and records which sources they were built from.

    A missing C compiler is not an error: the modules then run from source. The manifest
    (``bot/compiled.json``) lets the bot notice an out-of-date compiled copy after the source
    changed in a developer's checkout, and run the source instead.
    """

    def run(self) -> None:
        """Compile, then write the manifest beside the built modules."""
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:  # the compiler's own errors vary by platform
            print(f"unoflip: the engine runs from its source ({error})", file=sys.stderr)
            return
        target = HERE / "bot" if self.inplace else Path(self.build_lib) / "bot"
        target.mkdir(parents=True, exist_ok=True)
        (target / MANIFEST).write_text(json.dumps(source_digests(HERE / "bot"), indent=1) + "\n")

    def get_outputs(self) -> list[str]:
        """The built modules, and the manifest that goes with them."""
        outputs = super().get_outputs()
        if outputs and not self.inplace:
            outputs.append(str(Path(self.build_lib) / "bot" / MANIFEST))
        return outputs


# pip asks setup.py for its requirements and metadata before it builds; mypyc's type check
# (about 10 s) is needed only by the commands that build.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
building = BUILDS.intersection(sys.argv[1:])
setup(
    ext_modules=compiled_extensions() if building else [],
    cmdclass={"build_ext": OptionalBuildExt},
)
