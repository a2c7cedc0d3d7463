"""The Prefect API server of one build: started by the build, ended with it, however the build ends.

Without PREFECT_API_URL, Prefect starts a temporary server in whichever process first needs one: the
build's, but also each Dask worker's when tasks run on an external scheduler, where it outlives the build
for as long as the worker lives. So a build starts the server itself, before the flow, and hands its URL to
every task through Prefect's settings (the context a Dask task carries): no worker starts one of its own.
The server process is told by the kernel to stop when the build's process dies (a parent-death signal),
so even a killed build leaves no server behind. A user's own PREFECT_API_URL is used as it is.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

from parsers.lifetime import die_with_parent

APP = "prefect.server.api.server:create_app"


class ServerStartError(RuntimeError):
    """The build's Prefect API server did not start: one line naming what it could not use (its database on
    a full disk, a read-only folder) and why."""


# what a server that stopped at start said last about the file it could not use: SQLite's reason, or an
# operating-system error's
_SQLITE_REASON = re.compile(r"sqlite3\.OperationalError\)? ([^(\n]+?)\s*(?:\(Background|$)", re.MULTILINE)
_OS_REASON = re.compile(r"(?:OSError|PermissionError): \[Errno \d+\] ([^:\n]+)(?:: '([^'\n]+)')?")


def _database_file() -> str | None:
    """The server's SQLite file (None for another database, whose URL may hold a password: never shown)."""
    from prefect.settings import get_current_settings

    url = get_current_settings().server.database.connection_url
    text = url.get_secret_value() if url is not None else ""
    scheme, _, rest = text.partition(":///")
    return rest if scheme.startswith("sqlite") and rest and rest != ":memory:" else None


def start_failure(log: str, database: str | None) -> ServerStartError:
    """The one-line error for a server that stopped at start, from what it wrote to its stderr."""
    sqlite, system = _SQLITE_REASON.findall(log), _OS_REASON.findall(log)
    if sqlite and database is not None:
        return ServerStartError(f"{database}: the Prefect API server could not start: {sqlite[-1].strip()}")
    if system:
        reason, filename = system[-1]
        where = filename or database
        prefix = f"{where}: " if where else ""
        return ServerStartError(f"{prefix}the Prefect API server could not start: {reason.strip()}")
    lines = [line for line in log.strip().splitlines() if line.strip()]
    said = lines[-1].strip() if lines else "no message"
    return ServerStartError(f"the Prefect API server stopped at start: {said}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(timeout: float) -> tuple[subprocess.Popen[bytes], str]:
    """Prefect's API server (the same app and settings as its temporary one) on a free local port."""
    import httpx
    import prefect
    from prefect.settings import get_current_settings

    port = _free_port()
    env = {
        **os.environ,
        "PREFECT_UI_ENABLED": "0",
        "PREFECT__SERVER_EPHEMERAL": "1",
        "PREFECT__SERVER_FINAL": "1",
        **get_current_settings().to_environment_variables(exclude_unset=True),
    }
    command = [sys.executable, "-m", "uvicorn", "--app-dir", str(prefect.__module_path__.parent)]
    command += ["--factory", APP, "--host", "127.0.0.1", "--port", str(port)]
    command += ["--log-level", "error", "--lifespan", "on"]
    parent = os.getpid()
    url = f"http://127.0.0.1:{port}/api"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=lambda: die_with_parent(parent),
        )
        deadline = time.monotonic() + timeout
        with httpx.Client() as client:
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    log.seek(0)
                    raise start_failure(log.read().decode(errors="replace"), _database_file())
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{url}/health", timeout=2).status_code == 200:
                        return process, url
                time.sleep(0.1)
    stop_server(process)
    raise ServerStartError(f"the Prefect API server did not answer within {timeout:g} s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def build_api() -> Iterator[str | None]:
    """The API URL every task of the build uses: the user's, or one of a server this build owns."""
    from prefect.settings import (
        PREFECT_API_URL,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        temporary_settings,
    )

    configured = PREFECT_API_URL.value()
    if configured:
        yield configured
        return
    process, url = start_server(float(PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value()))
    try:
        with temporary_settings(updates={PREFECT_API_URL: url}):
            try:
                yield url
            finally:
                _drain()
    finally:
        stop_server(process)


def _drain(timeout: float = 10.0) -> None:
    """Send the logs and events still queued for the server before it stops (else they fail at exit)."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    for service in (APILogWorker, EventsWorker):
        with contextlib.suppress(Exception):  # a server that cannot take them now: they are lost either way
            service.drain_all(timeout=timeout, at_exit=False)
