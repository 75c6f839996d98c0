"""What a host sees when ``python -m bot`` cannot start: one line, an exit status, no traceback.

Each test runs the real entry point in a subprocess from an empty folder and checks the one
line, the exit status, and that the folder is exactly as it was (nothing created or changed).
Tests that need Discord to answer point discord.py's API base at a local fake or an address that
cannot resolve; that is the only thing they change.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import http.server
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as bot_main
from bot.preflight import StartupError
from bot.store import Shards, Store
from bot.store.migrate import LATEST_VERSION

from .bot.conftest import FAKE_TOKEN, make_settings
from .store.conftest import create_database, drop_database, require_postgres

ROOT = Path(__file__).resolve().parents[1]

# python -m bot, with discord.py's API base and the retry delays set from the command line.
LAUNCH_AGAINST = (
    "import sys, discord.http, bot.__main__ as main; "
    "discord.http.Route.BASE = sys.argv[1]; "
    "main.LOGIN_RETRY_DELAYS = (0.05, 0.1); "
    "sys.exit(main.main())"
)


def clean_env(**env: str) -> dict[str, str]:
    """The test's environment without any setting, plus ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.upper().startswith(("UNO_", "DISCORD_"))}
    clean["PYTHONPATH"] = str(ROOT)
    clean.update(env)
    return clean


def run_bot(
    folder: Path, *args: str, prefix: tuple[str, ...] = (), **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` (or ``python -c`` with ``args``) in ``folder`` with only ``env`` set."""
    command = [sys.executable, *(args or ("-m", "bot"))]
    return subprocess.run(
        [*prefix, *command],
        cwd=folder,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` with a hash of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = str(path.relative_to(folder))
        found[relative] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def the_one_line(result: subprocess.CompletedProcess[str], status: int) -> str:
    """The single stderr line of a failed start, after checking status and no traceback."""
    assert result.returncode == status, result.stderr + result.stdout
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("unoflip: ")
    return lines[0]


def refused_before_login(result: subprocess.CompletedProcess[str]) -> None:
    """Nothing was sent to Discord: the check ran before logging in."""
    assert "cannot reach Discord" not in result.stdout + result.stderr
    assert "logged in" not in result.stdout


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An empty working folder for the bot."""
    work = tmp_path / "work"
    work.mkdir()
    return work


class RejectingDiscord(http.server.BaseHTTPRequestHandler):
    """Answers every request as Discord answers a revoked token."""

    def do_GET(self) -> None:
        answer_json(self, 401, {"message": "401: Unauthorized", "code": 0})

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads the bot's output, not the server's."""


def answer_json(handler: http.server.BaseHTTPRequestHandler, status: int, payload: object) -> None:
    """Send ``payload`` as a JSON answer with ``status``."""
    body = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@contextlib.contextmanager
def fake_discord(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """The API base URL of a local server answering with ``handler``, for the block."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/api/v10"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def rejecting_discord() -> Iterator[str]:
    """The API base URL of a local server that refuses every token."""
    with fake_discord(RejectingDiscord) as url:
        yield url


def test_a_token_discord_refuses_is_one_line_and_status_2(
    folder: Path, rejecting_discord: str
) -> None:
    """LoginFailure: one line naming DISCORD_TOKEN, no voice warnings, no database left."""
    result = run_bot(folder, "-c", LAUNCH_AGAINST, rejecting_discord, DISCORD_TOKEN=FAKE_TOKEN)
    line = the_one_line(result, 2)
    assert "Discord refused the token in DISCORD_TOKEN" in line
    assert "PyNaCl" not in result.stdout and "davey" not in result.stdout
    assert snapshot(folder) == {}


@pytest.mark.slow
def test_a_refused_token_from_the_config_file_names_the_file_key(
    folder: Path, rejecting_discord: str
) -> None:
    """A token read from config.toml is named by its key in that file."""
    (folder / "config.toml").write_text(f'discord_token = "{FAKE_TOKEN}"\n')
    before = snapshot(folder)
    result = run_bot(folder, "-c", LAUNCH_AGAINST, rejecting_discord)
    assert "refused the token in discord_token in config.toml" in the_one_line(result, 2)
    assert snapshot(folder) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    "base",
    ["https://discord.invalid/api/v10", "http://127.0.0.1:9/api/v10"],
    ids=["dns-failure", "connection-refused"],
)
def test_no_network_retries_with_one_line_each_then_exits_1(folder: Path, base: str) -> None:
    """Unreachable Discord: one log line per attempt with the next delay, then one line, exit 1."""
    result = run_bot(folder, "-c", LAUNCH_AGAINST, base, DISCORD_TOKEN=FAKE_TOKEN)
    line = the_one_line(result, 1)
    assert line.startswith("unoflip: cannot reach Discord after 3 attempts")
    attempts = [row for row in result.stdout.splitlines() if "cannot reach Discord" in row]
    assert len(attempts) == 2
    assert "(attempt 1 of 3)" in attempts[0] and "retrying in 0.05 s" in attempts[0]
    assert "(attempt 2 of 3)" in attempts[1] and "retrying in 0.1 s" in attempts[1]
    first, *rest = result.stdout.strip().splitlines()
    assert "engine: " in first and len(rest) == 2
    assert snapshot(folder) == {}


def test_the_engine_line_comes_first_even_without_a_token(folder: Path) -> None:
    """The first line says which engine runs, before the settings are read (so before any
    network); a missing token then stops the bot with its one line."""
    result = run_bot(folder)
    assert "DISCORD_TOKEN is not set" in the_one_line(result, 2)
    assert result.stdout.splitlines()[0].split(" bot: ", 1)[1].startswith("engine: ")


@pytest.mark.slow
def test_a_debug_log_keeps_other_libraries_at_info(folder: Path) -> None:
    """``log_level = "debug"``: the bot's DEBUG lines, none of aiosqlite's or discord.py's."""
    code = (
        "import logging, bot.__main__ as main; main.configure_logging(); "
        "main.set_log_levels('DEBUG', 'INFO'); "
        "logging.getLogger('bot.sessions').debug('ours'); "
        "logging.getLogger('aiosqlite').debug('theirs'); "
        "logging.getLogger('discord.gateway').debug('theirs'); "
        "logging.getLogger('discord.gateway').info('their info')"
    )
    result = run_bot(folder, "-c", code)
    assert "ours" in result.stdout and "their info" in result.stdout
    assert "theirs" not in result.stdout


@pytest.mark.slow
def test_a_metrics_port_in_use_is_one_line_before_login(folder: Path) -> None:
    """metrics_port on a port another program listens on: one line naming it, status 2,
    before any network."""
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_METRICS_PORT=str(port))
    line = the_one_line(result, 2)
    assert line.startswith(f"unoflip: UNO_METRICS_PORT is {port}, but the bot cannot listen")
    refused_before_login(result)


@pytest.mark.slow
def test_check_runs_the_start_up_checks_and_stops(folder: Path) -> None:
    """``unoflip check``: the engine line, the database checked, status 0, nothing left."""
    result = run_bot(
        folder, "-m", "bot", "check", DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="data/uno.db"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "engine: " in lines[0] and "ready to start: store SQLite file data/uno.db" in lines[-1]
    assert snapshot(folder) == {}


@pytest.mark.slow
def test_db_path_naming_a_directory(folder: Path) -> None:
    """UNO_DB_PATH naming a folder is refused before logging in."""
    (folder / "data").mkdir()
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="data")
    line = the_one_line(result, 2)
    assert line == "unoflip: UNO_DB_PATH is data, which is a directory; name a file in it"
    refused_before_login(result)
    assert snapshot(folder) == {"data": "dir"}


@pytest.mark.slow
def test_db_path_under_a_file(folder: Path) -> None:
    """A parent of UNO_DB_PATH that is a file is named."""
    (folder / "data").write_text("not a folder")
    before = snapshot(folder)
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="data/sub/uno.db")
    line = the_one_line(result, 2)
    assert line == "unoflip: UNO_DB_PATH is data/sub/uno.db, but data is a file, not a folder"
    refused_before_login(result)
    assert snapshot(folder) == before


@pytest.mark.slow
def test_db_path_from_the_config_file_is_named_by_its_key(folder: Path) -> None:
    """db_path set in config.toml is named as the file's key, not as UNO_DB_PATH."""
    (folder / "config.toml").write_text(f'discord_token = "{FAKE_TOKEN}"\ndb_path = "."\n')
    result = run_bot(folder)
    assert the_one_line(result, 2).startswith("unoflip: db_path in config.toml is .,")


def other_user() -> tuple[str, ...] | None:
    """A command prefix that runs a program as the unprivileged user nobody, when possible."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        return None
    prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import bot.preflight"],
        cwd="/",
        env=clean_env(),
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip("user nobody cannot run this checkout's Python (a private folder on the way)")
    return prefix


@pytest.mark.slow
def test_db_folder_the_user_cannot_write() -> None:
    """A folder owned by another user (a bind mount) is named, with both uids."""
    prefix = other_user()
    if prefix is None and os.geteuid() == 0:
        pytest.skip("running as root without setpriv: permission bits do not stop root")
    # A folder every user can reach (pytest's tmp_path is private to its owner), owned by us.
    base = Path(tempfile.mkdtemp(prefix="unoflip-perm-"))
    try:
        base.chmod(0o755)
        data = base / "data"
        data.mkdir(mode=0o755)
        if prefix is None:
            data.chmod(0o555)
        before = snapshot(base)
        result = run_bot(
            base, prefix=prefix or (), DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="data/uno.db"
        )
        line = the_one_line(result, 2)
        assert line.startswith("unoflip: UNO_DB_PATH is data/uno.db, but this user (uid ")
        assert f"cannot write to data (owned by uid {os.geteuid()})" in line
        refused_before_login(result)
        assert snapshot(base) == before
    finally:
        (base / "data").chmod(0o755)
        shutil.rmtree(base)


def make_database(path: Path) -> None:
    """A real, migrated unoflip database at ``path``, made by the bot's own store."""

    async def create() -> None:
        store = await Store.open(path)
        await store.close()

    asyncio.run(create())


@pytest.mark.slow
def test_a_file_of_garbage_is_reported_as_corrupt_and_left_untouched(folder: Path) -> None:
    """A database file of random bytes: one line saying how to recover; the file is unchanged."""
    (folder / "uno.db").write_bytes(os.urandom(8192))
    before = snapshot(folder)
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="uno.db")
    line = the_one_line(result, 2)
    assert line.startswith("unoflip: UNO_DB_PATH: uno.db is corrupt (file is not a database)")
    assert "left untouched" in line and "mv uno.db uno.db.corrupt" in line
    refused_before_login(result)
    assert snapshot(folder) == before


@pytest.mark.slow
def test_a_database_with_a_damaged_page_is_reported_as_corrupt(folder: Path) -> None:
    """A real database whose middle page was overwritten is caught before any write."""
    path = folder / "uno.db"
    make_database(path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 3 * page
    data[2 * page : 3 * page] = os.urandom(page)
    path.write_bytes(bytes(data))
    before = snapshot(folder)
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="uno.db")
    assert "uno.db is corrupt" in the_one_line(result, 2)
    assert snapshot(folder) == before


@pytest.mark.slow
def test_a_database_from_a_newer_version_says_to_upgrade(folder: Path) -> None:
    """A schema newer than this bot knows is refused with one line, not a traceback."""
    path = folder / "uno.db"
    make_database(path)
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (LATEST_VERSION + 1,)
        )
    db.close()
    before = snapshot(folder)
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH="uno.db")
    assert "was written by a newer unoflip" in the_one_line(result, 2)
    assert snapshot(folder) == before


def mounted_tmpfs(point: Path, options: str) -> Iterator[Path]:
    """A small tmpfs mounted at ``point`` for the test. Needs root (mount); skipped otherwise."""
    mount = shutil.which("mount")
    point.mkdir()
    if os.geteuid() != 0 or mount is None:
        pytest.skip("a small disk of its own is a tmpfs, which needs root to mount")
    made = subprocess.run(
        [mount, "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], check=True)


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB disk of its own; the test fills it. (At 256 KiB a new database's migrations
    no longer fit: the last checkpoint failed for want of space and left the WAL behind.)"""
    yield from mounted_tmpfs(tmp_path / "disk", "size=1m")


@pytest.fixture
def read_only_disk(tmp_path: Path) -> Iterator[Path]:
    """An empty disk mounted read-only (as a :ro bind mount is): root cannot write either."""
    yield from mounted_tmpfs(tmp_path / "disk", "size=256k,ro")


@pytest.mark.slow
def test_a_read_only_disk_is_named_even_for_root(folder: Path, read_only_disk: Path) -> None:
    """A database folder on a read-only file system: one line saying so, before logging in."""
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH=str(read_only_disk / "uno.db"))
    assert the_one_line(result, 2) == (
        f"unoflip: UNO_DB_PATH is {read_only_disk}/uno.db, but {read_only_disk} is on a "
        "read-only file system"
    )
    refused_before_login(result)
    assert snapshot(read_only_disk) == {}


def fill(disk: Path) -> None:
    """Write zeros until the disk has no free block left."""
    descriptor = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(descriptor, b"\0" * 4096):
            pass
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(descriptor)
    assert shutil.disk_usage(disk).free < 4096


@pytest.mark.slow
def test_a_full_disk_with_a_new_database_is_one_line(folder: Path, full_disk: Path) -> None:
    """No room for a new database: one line saying the disk is full; nothing left behind."""
    fill(full_disk)
    before = snapshot(full_disk)
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH=str(full_disk / "db/uno.db"))
    line = the_one_line(result, 2)
    assert f"the disk holding {full_disk}/db/uno.db is full" in line
    refused_before_login(result)
    assert snapshot(full_disk) == before


@pytest.mark.slow
def test_a_full_disk_with_an_existing_database_is_one_line(folder: Path, full_disk: Path) -> None:
    """A database on a disk that filled up since: one line, the database unchanged."""
    make_database(full_disk / "uno.db")
    fill(full_disk)
    before = snapshot(full_disk)
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_DB_PATH=str(full_disk / "uno.db"))
    assert f"the disk holding {full_disk}/uno.db is full" in the_one_line(result, 2)
    assert snapshot(full_disk) == before


@pytest.mark.slow
def test_uno_config_naming_a_missing_file(folder: Path) -> None:
    """UNO_CONFIG naming nothing is an error, not silently ignored."""
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_CONFIG="nope.toml")
    assert the_one_line(result, 2) == "unoflip: UNO_CONFIG names nope.toml, which does not exist"
    assert snapshot(folder) == {}


@pytest.mark.slow
def test_uno_config_naming_a_directory(folder: Path) -> None:
    """UNO_CONFIG naming a folder is an error."""
    (folder / "conf").mkdir()
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_CONFIG="conf")
    line = the_one_line(result, 2)
    assert line == "unoflip: UNO_CONFIG names conf, which is a directory, not a file"
    assert snapshot(folder) == {"conf": "dir"}


@pytest.mark.slow
def test_a_config_toml_that_is_a_directory(folder: Path) -> None:
    """./config.toml as a folder (Docker's doing when the mounted file is missing) is named."""
    (folder / "config.toml").mkdir()
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN)
    assert the_one_line(result, 2) == (
        f"unoflip: {folder.resolve()}/config.toml is a directory, not a config file"
    )


@pytest.mark.slow
def test_a_toml_syntax_error_names_the_file_and_the_line(folder: Path) -> None:
    """A broken config file is named with the position TOML reports."""
    (folder / "config.toml").write_text(f'discord_token = "{FAKE_TOKEN}"\nturn_timeout = \n')
    result = run_bot(folder)
    assert the_one_line(result, 2) == (
        "unoflip: config.toml is not valid TOML: Invalid value (at line 2, column 16)"
    )


@pytest.mark.slow
def test_a_bad_value_in_the_file_names_the_file_key(folder: Path) -> None:
    """turn_timeout out of range in the file names turn_timeout in that file, with the range."""
    config = folder / "settings.toml"
    config.write_text(f'discord_token = "{FAKE_TOKEN}"\nturn_timeout = 5\n')
    result = run_bot(folder, UNO_CONFIG=str(config))
    line = the_one_line(result, 2)
    assert line.startswith(f"unoflip: turn_timeout in {config} is invalid:")
    assert "(got 5; allowed 15 to 600)" in line
    assert "UNO_TURN_TIMEOUT" not in line


@pytest.mark.slow
def test_a_bad_value_in_the_environment_names_the_variable(folder: Path) -> None:
    """The environment wins over the file, so its variable is the one named."""
    (folder / "config.toml").write_text(f'discord_token = "{FAKE_TOKEN}"\nturn_timeout = 60\n')
    result = run_bot(folder, UNO_TURN_TIMEOUT="3600")
    line = the_one_line(result, 2)
    assert line.startswith("unoflip: UNO_TURN_TIMEOUT is invalid:")
    assert "(got '3600'; allowed 15 to 600)" in line


@pytest.mark.slow
def test_an_unknown_uno_variable_gets_one_warning_with_the_closest_name(folder: Path) -> None:
    """A misspelt variable is named with the one meant, once, and the start goes on."""
    (folder / "data").mkdir()
    result = run_bot(folder, DISCORD_TOKEN=FAKE_TOKEN, UNO_TURN_TIMOUT="30", UNO_DB_PATH="data")
    warnings = [row for row in result.stdout.splitlines() if "WARNING" in row]
    assert len(warnings) == 1
    assert warnings[0].endswith(
        "unknown environment variable UNO_TURN_TIMOUT is ignored; did you mean UNO_TURN_TIMEOUT?"
    )
    # The start went on to the next check, which then failed on purpose.
    assert "UNO_DB_PATH is data, which is a directory" in the_one_line(result, 2)


@pytest.mark.slow
def test_an_unreachable_postgresql_is_one_line_naming_db_url(folder: Path) -> None:
    """UNO_DB_URL naming a PostgreSQL server that does not answer: retried (one log line per
    attempt) as a transient outage, then one line naming the setting and the server (no
    password), status 1, before logging in, and nothing written."""
    before = snapshot(folder)
    result = run_bot(
        folder,
        "-c",
        "import sys, bot.preflight, bot.__main__ as main; "
        "bot.preflight.STORE_RETRY_DELAYS = (0.05, 0.1); sys.exit(main.main())",
        DISCORD_TOKEN=FAKE_TOKEN,
        UNO_DB_URL="postgresql://postgres:secret@127.0.0.1:9/unoflip",
    )
    line = the_one_line(result, 1)
    assert line.startswith("unoflip: UNO_DB_URL: cannot reach ")
    assert "after 3 attempts" in line
    assert "127.0.0.1:9" in line and "secret" not in result.stdout + result.stderr
    assert result.stdout.count("(attempt ") == 2
    refused_before_login(result)
    assert snapshot(folder) == before


BOT_USER = {"id": "1100", "username": "unoflip", "discriminator": "0", "avatar": None}
APPLICATION = {
    "id": "1200",
    "name": "unoflip",
    "description": "",
    "icon": None,
    "bot_public": True,
    "bot_require_code_grant": False,
    "owner": BOT_USER,
    "verify_key": "",
    "flags": 0,
}


class AcceptingDiscord(http.server.BaseHTTPRequestHandler):
    """Answers a login as Discord does for a good token: the bot user and its application."""

    def do_GET(self) -> None:
        found = {"/api/v10/users/@me": BOT_USER, "/api/v10/oauth2/applications/@me": APPLICATION}
        payload = found.get(self.path)
        if payload is None:
            answer_json(self, 404, {"message": "404"})
        else:
            answer_json(self, 200, payload)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads the bot's output, not the server's."""


@pytest.fixture
def accepting_discord() -> Iterator[str]:
    """The API base URL of a local server that accepts the token."""
    with fake_discord(AcceptingDiscord) as url:
        yield url


@pytest.mark.slow
def test_a_second_process_on_a_running_shard_is_one_line_naming_shard_ids(
    folder: Path, accepting_discord: str
) -> None:
    """python -m bot with shard_ids that a live process on the same PostgreSQL runs: after
    waiting shard_lease_timeout for the shard, one line naming UNO_SHARD_IDS and the shard."""
    require_postgres()
    url = create_database()

    async def hold_and_start() -> subprocess.CompletedProcess[str]:
        running = await Store.open_postgres(url)
        try:
            await running.claim_shards(Shards(4, frozenset({2, 3})))
            return await asyncio.to_thread(
                run_bot,
                folder,
                "-c",
                LAUNCH_AGAINST,
                accepting_discord,
                DISCORD_TOKEN=FAKE_TOKEN,
                UNO_DB_URL=url,
                UNO_SHARD_COUNT="4",
                UNO_SHARD_IDS="1-2",
                UNO_SHARD_LEASE_TIMEOUT="1",
            )
        finally:
            await running.close()

    try:
        result = asyncio.run(hold_and_start())
    finally:
        drop_database(url)
    line = the_one_line(result, 2)
    assert line == (
        "unoflip: UNO_SHARD_IDS: shard 2 of 4 is already run by another bot process on this "
        "database; stop it or start this one with other shard_ids"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shards", "runs"),
    [({"UNO_SHARD_COUNT": "4", "UNO_SHARD_IDS": "3"}, "shard 3 of 4"), ({}, "shard 0 of 1")],
)
def test_a_process_that_would_split_the_cluster_is_one_line_and_status_2(
    folder: Path, accepting_discord: str, shards: dict[str, str], runs: str
) -> None:
    """python -m bot on a PostgreSQL whose cluster runs 2 shards, with shard_count 4 (or no
    shard settings at all, claiming every server): one line naming UNO_SHARD_COUNT, status 2."""
    require_postgres()
    url = create_database()

    async def hold_and_start() -> subprocess.CompletedProcess[str]:
        running = await Store.open_postgres(url)
        try:
            await running.claim_shards(Shards(2, frozenset({1})))
            env: dict[str, Any] = {"DISCORD_TOKEN": FAKE_TOKEN, "UNO_DB_URL": url, **shards}
            return await asyncio.to_thread(
                lambda: run_bot(folder, "-c", LAUNCH_AGAINST, accepting_discord, **env)
            )
        finally:
            await running.close()

    try:
        result = asyncio.run(hold_and_start())
    finally:
        drop_database(url)
    line = the_one_line(result, 2)
    assert line.startswith(
        f"unoflip: UNO_SHARD_COUNT: this database serves a cluster of 2 shards, but this "
        f"process would run {runs}; "
    )


def test_a_process_whose_shards_were_taken_exits_1_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped itself because another process took one of its shards while its lease
    was down (tests/bot/test_cluster.py): run() ends with that reason, naming shard_ids, and
    status 1, so a restart policy may start it again (to wait for its shards, or refuse)."""
    monkeypatch.setenv("UNO_CONFIG", str(tmp_path / "absent.toml"))
    reason = (
        "shard 0 of 2 was taken over by another bot process while this one's database "
        "connection was down"
    )

    class StoppedBot:
        """What log_in returned: a bot that has just closed itself for that reason."""

        shards_lost = reason

        async def connect(self) -> None:
            """Returns at once: the bot closed."""

        async def close(self) -> None:
            """Already closed."""

    async def logged_in(settings: object, stop: object, metrics: object = None) -> StoppedBot:
        return StoppedBot()

    monkeypatch.setattr(bot_main, "log_in", logged_in)
    settings = make_settings(tmp_path, shard_count=2, shard_ids="0")
    with pytest.raises(StartupError) as stopped:
        asyncio.run(bot_main.run(settings))
    assert stopped.value.status == 1
    assert str(stopped.value) == f"UNO_SHARD_IDS: {reason}"
