"""What can be checked of the Docker image and compose file without a Docker engine.

The HEALTHCHECK command itself is run against a live bot in tests/bot/test_health.py.
"""

from __future__ import annotations

import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Settings, known_env_names

from .bot.conftest import FAKE_TOKEN

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
# Continuation lines joined, comments dropped: one instruction per line.
INSTRUCTIONS = [
    line.strip()
    for line in re.sub(r"\\\n\s*", " ", DOCKERFILE).splitlines()
    if line.strip() and not line.lstrip().startswith("#")
]


def instructions(keyword: str) -> list[str]:
    """The arguments of every ``keyword`` instruction, in order."""
    return [line.split(None, 1)[1] for line in INSTRUCTIONS if line.split()[0] == keyword]


def image_env() -> dict[str, str]:
    """Every ENV the Dockerfile sets."""
    env: dict[str, str] = {}
    for line in instructions("ENV"):
        for item in shlex.split(line):
            name, value = item.split("=", 1)
            env[name] = value
    return env


def exec_form(text: str) -> list[str]:
    """A JSON exec-form command as a list (``["python", "-m", "bot"]``)."""
    assert text.startswith("["), f"shell form is not allowed: {text}"
    return [str(part) for part in yaml.safe_load(text)]


def lock_packages() -> dict[str, str]:
    """name -> version of every package in requirements.lock, checking each has hashes."""
    text = (ROOT / "requirements.lock").read_text()
    entries = re.findall(
        r"^([A-Za-z0-9_.-]+)==(\S+) \\\n((?:\s+--hash=sha256:\w+.*\n)+)", text, re.M
    )
    pinned = re.findall(r"^[A-Za-z0-9_.-]+==", text, flags=re.M)
    assert len(entries) == len(pinned) > 0, "every pinned package has its hashes"
    return {name.lower().replace("_", "-"): version for name, version, _ in entries}


def test_base_image_is_pinned_to_a_python_release() -> None:
    """Both stages (the wheel's build, then the image that runs) start from one exact 3.11.x
    slim bookworm image (not a moving tag like 3.11-slim), pinned by digest."""
    build, run = instructions("FROM")
    base, _, stage = build.partition(" AS ")
    assert stage == "build" and run == base
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm@sha256:[0-9a-f]{64}", base), base
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == ">=3.11"


def test_dependencies_come_from_the_lock_with_hashes() -> None:
    """pip installs requirements.lock with --require-hashes and nothing unlocked."""
    runs = " ".join(instructions("RUN"))
    assert "pip install --require-hashes --no-deps -r /tmp/requirements.lock" in runs
    # The only other install is the bot's own wheel, built in stage 1 without dependencies.
    pips = [
        found.strip()
        for run in instructions("RUN")
        for found in re.findall(r"pip (?:install|wheel)[^&]*", run)
    ]
    assert pips == [
        "pip wheel --no-deps --wheel-dir /wheels .",
        "pip install --require-hashes --no-deps -r /tmp/requirements.lock",
        "pip install --no-deps /tmp/wheels/*.whl",
    ]
    packages = lock_packages()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        name = re.split(r"[<>=!~\[ ]", requirement)[0].lower().replace(".", "-")
        assert name in packages, requirement
    header = (ROOT / "requirements.lock").read_text().split("\n#\n", 2)[1]
    assert "pip-compile --generate-hashes" in header and "pyproject.toml" in header
    assert "pip-compile --generate-hashes --strip-extras -o requirements.lock pyproject.toml" in (
        (ROOT / "docs" / "install.md").read_text()
    )


def test_every_copied_path_exists_and_is_not_ignored() -> None:
    """COPY sources exist, and .dockerignore keeps them in the build context."""
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    copied = []
    for line in instructions("COPY"):
        if line.startswith("--from=build "):
            continue  # the wheel, from the first stage
        *sources, _target = line.split()
        copied += sources
    assert set(copied) == {
        "requirements.lock",
        "pyproject.toml",
        "setup.py",
        "README.md",
        "bot",
        "cogs",
    }
    for source in copied:
        assert (ROOT / source).exists(), source
        assert source not in ignored, source
    for secret in ("config.toml", ".venv", "*.db", "data", ".git", "*.so", "bot/compiled.json"):
        assert secret in ignored, secret


def test_runs_the_bot_as_a_non_root_user_with_the_database_on_a_volume() -> None:
    """USER is a created non-root user who owns /data; the database and heartbeat live there."""
    (user,) = instructions("USER")
    assert user not in ("root", "0")
    runs = " ".join(instructions("RUN"))
    created = re.search(rf"useradd [^&]*--uid (\d+) {user}\b", runs)
    assert created is not None and int(created[1]) >= 1000
    assert f"chown {user}:{user} /data" in runs
    assert instructions("VOLUME") == ['["/data"]']
    env = image_env()
    assert env["UNO_DB_PATH"] == "/data/uno.db"
    assert env["UNO_HEALTH_FILE"].startswith("/data/")
    assert "UNO_CONFIG" not in env, "a missing config file would stop the bot"
    assert INSTRUCTIONS.index(f"USER {user}") < INSTRUCTIONS.index(
        next(line for line in INSTRUCTIONS if line.startswith("CMD"))
    )


def test_entry_point_and_healthcheck_are_the_bot_modules() -> None:
    """CMD runs the installed ``unoflip run``; HEALTHCHECK runs python -m bot.health, with a
    start period."""
    (cmd,) = instructions("CMD")
    assert exec_form(cmd) == ["unoflip", "run"]
    (healthcheck,) = instructions("HEALTHCHECK")
    options, command = healthcheck.split(" CMD ")
    assert exec_form(command) == ["python", "-m", "bot.health"]
    assert "--start-period=" in options and "--interval=" in options
    # The bot runs from its installed wheel (compiled engine included), not from a source
    # folder on PYTHONPATH, where the engine would run uncompiled.
    assert "PYTHONPATH" not in image_env()
    assert "--from=build /wheels /tmp/wheels" in instructions("COPY")
    for package in ("bot", "cogs"):
        assert f"{package} ./{package}" in instructions("COPY")


def test_compose_keeps_data_on_a_named_volume_and_restarts() -> None:
    """compose.yaml: restart unless-stopped, a named volume at /data, config.toml read-only."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    service = compose["services"]["unoflip"]
    assert service["restart"] == "unless-stopped"
    assert service["build"] == "."
    mounts = {mount["target"]: mount for mount in service["volumes"]}
    data = mounts["/data"]
    assert data["type"] == "volume" and data["source"] in compose["volumes"]
    workdir = instructions("WORKDIR")[-1]  # the running image's (the first is the build's)
    config = mounts[f"{workdir}/config.toml"]
    assert config["type"] == "bind" and config["source"] == "./config.toml"
    assert config["read_only"] is True
    # Without this Docker makes an empty folder named config.toml when the file is missing.
    assert config["bind"]["create_host_path"] is False
    assert "DISCORD_TOKEN" in service["environment"]


def cluster_compose() -> dict[str, Any]:
    """compose.cluster.yaml, parsed (YAML merge keys resolved)."""
    parsed: dict[str, Any] = yaml.safe_load((ROOT / "compose.cluster.yaml").read_text())
    return parsed


def environment(service: dict[str, Any]) -> dict[str, str | None]:
    """A service's environment list as name -> value (None: passed through from the shell),
    with Compose's ${POSTGRES_PASSWORD...} filled in as Compose would from the shell."""
    found: dict[str, str | None] = {}
    for item in service["environment"]:
        name, _, value = item.partition("=")
        found[name] = re.sub(r"\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}", "s3cret", value)
        if "=" not in item:
            found[name] = None
    assert not any("${" in (value or "") for value in found.values()), "only the password"
    return found


def test_the_cluster_compose_file_runs_postgres_and_every_shard_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """compose.cluster.yaml: PostgreSQL on a named volume with a readiness check; bot
    processes built from this image that start once it is ready, restart, report health,
    share one database URL and shard_count, and run every shard exactly once. (Docker does
    not run here: this checks the file, not a running cluster.)"""
    monkeypatch.setenv("UNO_CONFIG", str(tmp_path / "absent.toml"))
    for name in [*os.environ]:
        if name.startswith("UNO_"):
            monkeypatch.delenv(name)
    compose = cluster_compose()
    services = compose["services"]
    scraper = services.pop("prometheus")
    postgres = services.pop("postgres")
    assert re.fullmatch(r"postgres:\d+(\.\d+)?-bookworm@sha256:[0-9a-f]{64}", postgres["image"])
    assert postgres["restart"] == "unless-stopped"
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    (data,) = postgres["volumes"]
    assert data["type"] == "volume" and data["source"] in compose["volumes"]
    assert data["target"] == "/var/lib/postgresql/data"
    database = postgres["environment"]["POSTGRES_DB"]
    user = postgres["environment"]["POSTGRES_USER"]

    assert len(services) >= 2
    urls, counts, shards = set(), set(), []
    for service in services.values():
        assert service["build"] == "." and service["restart"] == "unless-stopped"
        assert service["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot.health"]
        (config,) = service["volumes"]
        assert config["source"] == "./config.toml" and config["read_only"] is True
        env = environment(service)
        assert set(env) <= set(known_env_names()), "every variable is one the bot reads"
        assert env["DISCORD_TOKEN"] is None
        url = urlsplit(str(env["UNO_DB_URL"]))
        assert (url.scheme, url.hostname, url.port, url.path) == (
            "postgresql",
            "postgres",
            5432,
            f"/{database}",
        )
        assert (url.username, url.password) == (user, "s3cret")
        settings = Settings(
            discord_token=FAKE_TOKEN,
            db_url=env["UNO_DB_URL"],
            shard_count=env["UNO_SHARD_COUNT"],
            shard_ids=env["UNO_SHARD_IDS"],
        )
        assert settings.shard_id_list is not None
        urls.add(settings.db_url)
        counts.add(settings.shard_count)
        shards += settings.shard_id_list
    assert len(urls) == 1 and len(counts) == 1
    assert sorted(shards) == list(range(counts.pop() or 0))
    assert scrapes(scraper) == {f"{name}:9100" for name in services}


def scrapes(scraper: dict[str, Any]) -> set[str]:
    """The targets of an opt-in Prometheus service (profile metrics), from its config file."""
    assert scraper["profiles"] == ["metrics"]
    (config,) = scraper["volumes"]
    assert config["read_only"] is True
    parsed = yaml.safe_load((ROOT / config["source"]).read_text())
    (job,) = parsed["scrape_configs"]
    return {target for group in job["static_configs"] for target in group["targets"]}


def test_the_compose_files_serve_metrics_to_an_opt_in_prometheus() -> None:
    """compose.yaml's bot serves /metrics on 9100 (unpublished), which its prometheus scrapes."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    assert "UNO_METRICS_PORT=9100" in services["unoflip"]["environment"]
    assert "ports" not in services["unoflip"]
    assert scrapes(services["prometheus"]) == {"unoflip:9100"}


def test_the_single_process_compose_file_stays_the_default() -> None:
    """compose.yaml (what a bare `docker compose up` reads) is the one-process SQLite bot;
    the cluster is opt-in with -f compose.cluster.yaml, as docs/docker.md says."""
    service = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["unoflip"]
    assert not any(item.startswith(("UNO_DB_URL", "UNO_SHARD")) for item in service["environment"])
    docker = (ROOT / "docs" / "docker.md").read_text()
    assert "docker compose -f compose.cluster.yaml up -d --build" in docker
