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


def build_env(home: Path, marker: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update(
        PYTHONPATH=str(ROOT),
        PREFECT_HOME=str(home),  # a database of its own
        GBTBENCH_TEST_MARK=marker,
    )
    return env


def write_corpus(folder: Path, count: int) -> Path:
    folder.mkdir()
    for source in corpus_sources()[:count]:
        (folder / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")
    return folder


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus", 3)  # more than one: a pool runs one document in its own process


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
        # no wait for the worker to register: the build's tasks wait at the scheduler until it has
        yield address, psutil.Process(worker.pid)
    finally:
        # killed, not shut down in order (seconds of the nanny's closing): the test is done with them; the
        # nanny first, so that it cannot start another worker
        for process in (worker, scheduler):
            children: list[psutil.Process] = []
            with contextlib.suppress(psutil.Error):
                children = psutil.Process(process.pid).children(recursive=True)
            process.kill()
            process.wait()
            for child in children:
                with contextlib.suppress(psutil.Error):
                    child.kill()


def test_a_build_on_an_external_cluster_leaves_no_server_running(
    tmp_path: Path, prefect_home: Path, cluster: tuple[str, psutil.Process]
) -> None:
    address, worker = cluster
    corpus = write_corpus(tmp_path / "corpus", 1)  # each of its stages runs as a task on the worker
    marker = uuid.uuid4().hex
    done = subprocess.run(
        [
            *BUILD,
            str(corpus),
            "--out",
            str(tmp_path / "out"),
            *("--task-runner", "dask", "--dask-address", address),
        ],
        env=build_env(prefect_home, marker),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Error logging to API" not in done.stderr  # the server stopped after the last log was sent
    deadline = time.monotonic() + 1  # the build's helpers have a second to be gone
    while (servers_under(worker) or marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert servers_under(worker) == []  # the worker ran the tasks against the build's own server
    assert marked(marker) == []


def test_a_build_killed_as_its_pool_starts_leaves_no_process_running(tmp_path: Path, corpus: Path) -> None:
    """SIGKILL as soon as the pool's workers run, before their initializer may have asked to end with the
    build. (A Prefect runner's API server killed with its build: the parse-worker test below, whose thread
    and process builds are killed while their server runs.)"""
    marker, helper = uuid.uuid4().hex, "spawn_main"
    build = subprocess.Popen(
        [*BUILD, str(corpus), "--out", str(tmp_path / "out"), "--task-runner", "pool"],
        env=build_env(tmp_path / "prefect-home", marker),
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
def test_a_killed_build_leaves_no_parse_worker_running(
    tmp_path: Path, corpus: Path, prefect_home: Path, runner: str
) -> None:
    """A PDF is parsed in a process of its own, forked by a pool worker or, where the parsing process has
    threads (the build itself with Prefect's thread runner, a worker of its process runner), by a
    forkserver that outlives the build while the parse runs; killing the build ends the parse worker (a
    long PDF would otherwise be parsed to its end by an orphan), and a Prefect runner's build also its
    own API server, which runs by then."""
    (corpus / "long.pdf").write_bytes(pdf_pages(3000))  # about 20 s of parsing
    marker = uuid.uuid4().hex
    said = tmp_path / "stderr.txt"
    with said.open("wb") as stderr:
        build = subprocess.Popen(
            [*BUILD, str(corpus), "--out", str(tmp_path / "out"), "--task-runner", runner],
            env=build_env(prefect_home, marker),
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
        helpers = [" ".join(p.cmdline()) for p in marked(marker) if p.pid != build.pid]
        build.kill()
        build.wait()
        deadline = time.monotonic() + 5  # the PDF has more than that left to parse
        while marked(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [" ".join(p.cmdline())[:120] for p in marked(marker)] == []
        assert runner == "pool" or any(SERVER in command for command in helpers), helpers
    finally:
        for process in marked(marker):
            process.kill()
