"""One Prefect API server on 127.0.0.1 for a whole test session, shared by every pytest-xdist worker.

Prefect's own `prefect_test_harness` starts a server per process, so each xdist worker paid a server
start-up and kept a server busy for the whole session. Here the first worker that needs a server starts
one (the same uvicorn app and temporary SQLite database the harness uses) and records its URL in the session
folder; the others read it. The server runs under a small watchdog process that stops it when the session's
main pytest process ends, however it ends, so no server outlives the session; `stop` ends it at once.

A new database costs the server's start about seven seconds of CPU (Prefect's migrations, one by one): the
first session on a machine keeps a copy of its database as it was when the server first answered, before
any test used it (`keep_template`, in the user's gbtbench cache folder, one per Prefect version), and later
sessions start from a copy of that (migrated, and nothing else in it but what the server writes at start).

Run as `python prefect_server.py OWNER_PID PORT [APP APP_DIR]` (the database in
PREFECT_SERVER_DATABASE_CONNECTION_URL): the watchdog. APP is the uvicorn app factory, Prefect's by default;
the watchdog's own test gives a small stand-in (servers/health_app.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import httpx

RECORD = "prefect-server.json"
PREFECT_APP = "prefect.server.api.server:create_app"
DATABASE = "prefect-test.db"  # in the session folder


def template() -> Path:
    """Where a migrated database for this Prefect version is kept between sessions (see keep_template)."""
    from injectors.cache_folder import cache_dir

    return cache_dir() / "tests" / f"prefect-{version('prefect')}.db"


def keep_template(folder: Path) -> None:
    """Keep a copy of the session's database as the template of later sessions, unless there is one: call
    it once the server answers and before any test uses it (only the session's first call may copy).
    SQLite's backup API copies a consistent database while the server may still write; a folder that
    cannot be written only costs the next session its migrations."""
    tried = folder / "prefect-template.tried"  # the session's first caller decides; later ones return
    if tried.exists():
        return
    tried.touch()
    kept = template()
    if kept.exists() or not _migrated(folder / DATABASE):
        return
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=kept.parent, prefix=f".{kept.name}.", suffix=".tmp")
        os.close(fd)
        try:
            with (
                contextlib.closing(sqlite3.connect(folder / DATABASE)) as source,
                contextlib.closing(sqlite3.connect(tmp)) as copy,
            ):
                source.backup(copy)
            os.replace(tmp, kept)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    except (OSError, sqlite3.Error):
        pass


def seed_home(home: Path) -> bool:
    """Put a copy of the template in `home` as the database a Prefect server started with PREFECT_HOME=home
    opens (`prefect.db`), so that a build's own server skips the migrations; whether there was one to copy
    (without, the server migrates a new database, as a user's first build does)."""
    home.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copyfile(template(), home / "prefect.db")
    except OSError:
        return False
    return True


def _migrated(database: Path) -> bool:
    """Whether `database` exists and records the migration it is at (as Prefect's migrations leave it)."""
    if not database.is_file():
        return False
    try:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
            return bool(db.execute("SELECT version_num FROM alembic_version").fetchall())
    except sqlite3.Error:
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(folder: Path, owner: int, timeout: float = 120.0, app: tuple[str, Path] | None = None) -> str:
    """Start a server that lives as long as process `owner`; returns its API URL once it answers.

    `app`: another uvicorn app factory and the folder it is imported from (the default is Prefect's)."""
    url = launch(folder, owner, app=app)
    wait_ready(folder, timeout)
    return url


def launch(
    folder: Path, owner: int, app: tuple[str, Path] | None = None, env: dict[str, str] | None = None
) -> str:
    """Start the server without waiting for it (it takes seconds: migrations of a new database); returns
    its API URL, recorded in `folder` at once so that `running` finds it and `wait_ready` waits for it.

    `env`: the server's environment (default: this process's, with its Prefect settings)."""
    if env is None:
        from prefect.settings import get_current_settings

        env = {**os.environ, **get_current_settings().to_environment_variables(exclude_unset=True)}
    port = _free_port()
    if app is None and not (folder / DATABASE).exists():
        with contextlib.suppress(OSError):  # no template yet: the server migrates a new database
            shutil.copyfile(template(), folder / DATABASE)
    database = "sqlite+aiosqlite:///" + str(folder / DATABASE)
    env = {
        **env,
        "PREFECT_UI_ENABLED": "0",
        "PREFECT__SERVER_EPHEMERAL": "1",
        "PREFECT__SERVER_FINAL": "1",
        "PREFECT_SERVER_DATABASE_CONNECTION_URL": database,
    }
    env.pop("PREFECT_API_URL", None)
    log = open(folder / "prefect-server.log", "ab")  # noqa: SIM115  (the watchdog's output, kept for a failure)
    watchdog = subprocess.Popen(
        [sys.executable, __file__, str(owner), str(port), *(() if app is None else (app[0], str(app[1])))],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # not in the worker's process group: it outlives the worker that started it
    )
    log.close()
    url = f"http://127.0.0.1:{port}/api"
    (folder / RECORD).write_text(json.dumps({"url": url, "pid": watchdog.pid}), encoding="utf-8")
    return url


def wait_ready(folder: Path, timeout: float = 120.0) -> str:
    """Wait until the recorded server answers; returns its URL (a stopped or silent server is an error)."""
    record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    url, pid = record["url"], record["pid"]
    deadline = time.monotonic() + timeout
    with httpx.Client() as client:
        while time.monotonic() < deadline:
            if not _alive(pid):
                log_file = folder / "prefect-server.log"
                raise RuntimeError(f"the Prefect server stopped at start-up; see {log_file}")
            try:
                if client.get(f"{url}/health", timeout=5).status_code == 200:
                    return str(url)
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    raise RuntimeError(f"the Prefect server did not answer within {timeout:.0f} s")


def running(folder: Path) -> str | None:
    """The URL of the session's server, if one was started."""
    record = folder / RECORD
    return json.loads(record.read_text(encoding="utf-8"))["url"] if record.exists() else None


def stop(folder: Path) -> None:
    """End the session's server (its watchdog stops uvicorn and waits for it)."""
    record = folder / RECORD
    if not record.exists():
        return
    pid = json.loads(record.read_text(encoding="utf-8"))["pid"]
    record.unlink()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):  # the watchdog is not the session's child: wait until it is gone
        with contextlib.suppress(ChildProcessError):  # unless this process started it (a test): reap it
            os.waitpid(pid, os.WNOHANG)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a child of this process that has exited is reaped here: it counts as gone)."""
    with contextlib.suppress(ChildProcessError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _watch(owner: int, port: int, app: str = PREFECT_APP, app_dir: str | None = None) -> None:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            *(() if app_dir is None else ("--app-dir", app_dir)),
            "--factory",
            app,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "error",
            "--lifespan",
            "on",
        ]
    )
    # `stop` (SIGTERM) ends the wait at once; the owner's end is seen within half a second
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    while _alive(owner) and server.poll() is None:
        if signal.sigtimedwait({signal.SIGTERM}, 0.5) is not None:
            break
    # killed, not shut down in order (a second or more after a session's use): its database is the
    # session's temporary one, and it starts no processes of its own
    server.kill()
    server.wait()
    # the server is no child of the session's processes: its CPU time is written here (the log)
    used = os.times()
    print(
        f"prefect server CPU: {used.children_user:.1f} s user, {used.children_system:.1f} s sys", flush=True
    )


if __name__ == "__main__":
    _watch(int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:5])
