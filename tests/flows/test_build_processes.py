"""Every process a build starts ends with it: on an external Dask cluster (started from the command line,
whose workers outlive the build) no Prefect API server is left in a worker, and a build killed with
SIGKILL leaves none of its own behind.

Each build runs without PREFECT_API_URL (Prefect's temporary-server mode, what a user gets) and carries a
marker in its environment, which every process it starts inherits: after the build, no process may carry
it. The cluster's processes are started by the test, not by the build, and are checked by their tree.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from corpus.stdsource import gold_document
from parsers.render import render_text
from tests.conftest import corpus_sources
from tests.support.hostile_files import pdf_pages

ROOT = Path(__file__).resolve().parents[2]
SERVER = "prefect.server.api.server"
BUILD = [sys.executable, "-m", "flows.cli", "build", "--corpus"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def marked(marker: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["pid"]):
        try:
            if process.environ().get("GBTBENCH_TEST_MARK") == marker:
                found.append(process)
        except (psutil.Error, OSError):
            continue
    return found


def servers_under(root: psutil.Process) -> list[str]:
    try:
        return [
            " ".join(p.cmdline()) for p in root.children(recursive=True) if SERVER in " ".join(p.cmdline())
        ]
    except psutil.Error:
        return []


def build_env(tmp_path: Path, marker: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update(
        PYTHONPATH=str(ROOT),
        PREFECT_HOME=str(tmp_path / "prefect-home"),  # a database of its own
        GBTBENCH_TEST_MARK=marker,
    )
    return env


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for source in corpus_sources()[:3]:  # more than one: a pool runs one document in its own process
        (folder / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")
    return folder


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, psutil.Process]]:
    """A scheduler and one nanny worker started from the command line, as an operator would."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PYTHONPATH"] = str(ROOT)
    env["PREFECT_HOME"] = str(tmp_path / "worker-home")
    dask = [sys.executable, "-m", "dask"]
    scheduler = subprocess.Popen(
        [*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    worker = subprocess.Popen(
        [*dask, "worker", address, "--nworkers", "1", "--nthreads", "2", "--no-dashboard"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        time.sleep(3)  # the worker registers
        yield address, psutil.Process(worker.pid)
    finally:
        for process in (worker, scheduler):
            process.send_signal(signal.SIGINT)
        for process in (worker, scheduler):
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                for child in psutil.Process(process.pid).children(recursive=True):
                    child.kill()
                process.kill()
                process.wait()


def test_a_build_on_an_external_cluster_leaves_no_server_running(
    tmp_path: Path, corpus: Path, cluster: tuple[str, psutil.Process]
) -> None:
    address, worker = cluster
    marker = uuid.uuid4().hex
    done = subprocess.run(
        [
            *BUILD,
            str(corpus),
            "--out",
            str(tmp_path / "out"),
            *("--task-runner", "dask", "--dask-address", address),
        ],
        env=build_env(tmp_path, marker),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Error logging to API" not in done.stderr  # the server stopped after the last log was sent
    time.sleep(1)
    assert servers_under(worker) == []  # the worker ran the tasks against the build's own server
    assert marked(marker) == []


@pytest.mark.parametrize(
    ("runner", "helper"), [("thread", SERVER), ("pool", "spawn_main")], ids=["api-server", "pool-workers"]
)
def test_a_killed_build_leaves_no_process_running(
    tmp_path: Path, corpus: Path, runner: str, helper: str
) -> None:
    """SIGKILL as soon as the build's helper runs (its Prefect API server; its pool's workers)."""
    marker = uuid.uuid4().hex
    build = subprocess.Popen(
        [*BUILD, str(corpus), "--out", str(tmp_path / "out"), "--task-runner", runner],
        env=build_env(tmp_path, marker),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and build.poll() is None:
            if any(helper in " ".join(p.cmdline()) for p in marked(marker) if p.pid != build.pid):
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"the build ended or never started its {helper}")
        build.kill()
        build.wait()
        deadline = time.monotonic() + 20
        while marked(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [" ".join(p.cmdline())[:120] for p in marked(marker)]
        assert left == []
    finally:
        for process in marked(marker):
            process.kill()


def parsing(build: psutil.Process) -> bool:
    """Whether a parse worker runs under the build: a worker's own child (forked by a pool worker, or by
    the forkserver a worker with threads starts), not a forkserver or a resource tracker."""
    with contextlib.suppress(psutil.Error):
        for process in build.children(recursive=True):
            parent = process.parent()
            command, above = " ".join(process.cmdline()), " ".join(parent.cmdline()) if parent else ""
            if parent is None or parent.pid == build.pid or "resource_tracker" in command:
                continue
            if "forkserver" in command and "forkserver" not in above:
                continue  # the forkserver itself
            return True
    return False


@pytest.mark.parametrize("runner", ["pool", "thread", "process"])
def test_a_killed_build_leaves_no_parse_worker_running(tmp_path: Path, corpus: Path, runner: str) -> None:
    """A PDF is parsed in a process of its own, forked by a pool worker or, where the parsing process has
    threads (the build itself with Prefect's thread runner, a worker of its process runner), by a
    forkserver that outlives the build while the parse runs; killing the build ends the parse worker (a
    long PDF would otherwise be parsed to its end by an orphan)."""
    (corpus / "long.pdf").write_bytes(pdf_pages(3000))  # about 20 s of parsing
    marker = uuid.uuid4().hex
    said = tmp_path / "stderr.txt"
    with said.open("wb") as stderr:
        build = subprocess.Popen(
            [*BUILD, str(corpus), "--out", str(tmp_path / "out"), "--task-runner", runner],
            env=build_env(tmp_path, marker),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            cwd=ROOT,
        )
    try:
        root = psutil.Process(build.pid)
        deadline = time.monotonic() + 240  # a Prefect runner starts its server and workers first
        started = False
        while time.monotonic() < deadline and build.poll() is None and not started:
            # a worker still there half a second later: not a short-lived helper of another kind
            started = parsing(root) and (time.sleep(0.5) or parsing(root))
            time.sleep(0.05)
        if build.poll() is not None or not started:
            tail = said.read_text(errors="replace")[-2000:]
            pytest.fail(f"the build ended (status {build.poll()}) or never started a parse worker: {tail}")
        build.kill()
        build.wait()
        deadline = time.monotonic() + 5  # the PDF has more than that left to parse
        while marked(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [" ".join(p.cmdline())[:120] for p in marked(marker)] == []
    finally:
        for process in marked(marker):
            process.kill()
