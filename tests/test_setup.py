"""The README's set-up commands are the ones CI runs, and the package metadata is clean."""

from __future__ import annotations

import configparser
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import settings

from .conftest import QUICK_EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
CI = (ROOT / ".ci" / "run").read_text()
CI_LINES = {line.strip() for line in CI.splitlines()}


def section(title: str) -> str:
    """The README text under ``## title`` up to the next section."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, flags=re.S | re.M)
    assert match is not None, title
    return match[1]


def bash_blocks(text: str) -> list[list[str]]:
    """The lines of every ```bash block in ``text``."""
    return [block.strip().splitlines() for block in re.findall(r"```bash\n(.*?)```", text, re.S)]


def test_ci_runs_the_readme_installs_in_clean_environments() -> None:
    """Every install line of the Quick start is in .ci/run, with only the venv folder renamed."""
    host, developer = bash_blocks(section("Quick start"))
    host_install, developer_install = host[0], developer
    assert host_install.replace(".venv", ".venv-host") in CI_LINES
    assert "rm -rf .venv-host" in CI_LINES and "rm -rf .venv-ci" in CI_LINES
    for line in developer_install:
        assert line.replace(".venv", ".venv-ci") in CI_LINES, line
    assert "pip install -e '.[dev]'" in developer_install


def test_ci_starts_the_bot_as_the_readme_says_from_the_clone() -> None:
    """The README's start command runs from the clone's root in CI (no ``cd`` elsewhere), with
    the console script, and CI fails unless its engine line says compiled."""
    host_start = bash_blocks(section("Quick start"))[0][-1]
    assert host_start.endswith(".venv/bin/unoflip run"), host_start
    ci_start = host_start.replace(".venv", ".venv-host")
    assert any(ci_start in line for line in CI_LINES), ci_start
    commands_before = [
        line.strip()
        for line in CI.split(ci_start)[0].splitlines()
        if re.search(r"\bcd\s", line) and not line.lstrip().startswith("#")
    ]
    assert commands_before == ['cd "$(dirname "$0")/.."'], commands_before
    assert 'grep -q "engine: compiled (mypyc)"' in CI


def test_ci_tests_the_compiled_wheel_and_the_source() -> None:
    """CI runs every test twice: on the installed wheel (checkout appended after
    site-packages) and, last, on the editable install's source."""
    lines = [line.strip() for line in CI.splitlines() if line.strip()]
    wheel_run = lines.index("pytest -n auto --import-mode=append")
    assert lines[wheel_run - 1] == "pip install --no-deps ."
    assert lines[-2:] == ["pip install --no-deps -e .", "pytest -n auto"]


def test_the_lock_has_no_machine_specific_lines() -> None:
    """requirements.lock names no index, link folder or local path: only pins and hashes."""
    lock = (ROOT / "requirements.lock").read_text()
    options = [line for line in lock.splitlines() if line.startswith("-")]
    assert options == [], options
    assert "file:" not in lock and "/opt/" not in lock


def test_the_readme_full_test_command_is_the_one_ci_runs() -> None:
    """The README's full run (``pytest -n auto``, every test) is CI's last command."""
    rows = [row for row in section("Quick start").splitlines() if row.startswith("| `")]
    commands = {re.findall(r"`([^`]+)`", row)[0]: row for row in rows}
    assert set(commands) == {"pytest -n auto", 'pytest -n auto -m "not slow"'}
    assert "exactly what CI runs" in commands["pytest -n auto"]
    assert CI.strip().splitlines()[-1] == "pytest -n auto"


def test_the_host_install_is_runtime_only() -> None:
    """The host's install reads only the lock and the package: no test or lint tools."""
    (host_install, *_), _ = bash_blocks(section("Quick start"))
    assert "[dev]" not in host_install and "-r requirements.lock" in host_install
    lock = (ROOT / "requirements.lock").read_text().lower()
    for tool in ("pytest", "hypothesis", "simcord", "mypy", "ruff"):
        assert f"\n{tool}==" not in lock, tool


def test_license_is_an_spdx_expression() -> None:
    """``license = "MIT"``: the table form makes setuptools print a deprecation block."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"


def test_only_the_quick_run_caps_property_examples(pytestconfig: pytest.Config) -> None:
    """Under -m "not slow" the "quick" profile caps examples; the full run keeps hypothesis's."""
    if pytestconfig.getoption("hypothesis_profile", None) is not None:
        pytest.skip("a hypothesis profile was chosen on the command line")
    if "not slow" in (pytestconfig.option.markexpr or ""):
        assert settings().max_examples == QUICK_EXAMPLES
    else:
        assert settings().max_examples == settings.get_profile("default").max_examples >= 30


def test_the_systemd_unit_runs_the_installed_bot_and_stops_on_host_errors() -> None:
    """docs/unoflip.service starts ``unoflip run`` from the folder of config.toml, retries
    status 1 (no network, shards taken) and stops on status 2 (the host must fix something)."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string((ROOT / "docs" / "unoflip.service").read_text())
    service = unit["Service"]
    assert service["ExecStart"].endswith("/.venv/bin/unoflip run")
    folder = service["WorkingDirectory"]
    assert service["ExecStart"].startswith(folder) and service["ReadWritePaths"] == f"{folder}/data"
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
    # The token comes from a root-only file, never from the unit (which anyone may read).
    assert "EnvironmentFile" in service and "Environment" not in service


def test_the_license_file_is_the_one_pyproject_names() -> None:
    """pyproject says MIT; the LICENSE file is the MIT licence."""
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def test_the_readme_is_short_and_its_links_resolve() -> None:
    """The README stays under 250 lines (the details live in docs/), and every file it or a
    docs page links to exists."""
    assert len(README.splitlines()) < 250
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if not target.startswith(("http://", "https://")):
                assert (page.parent / target).exists(), f"{page.name}: {target}"
