"""One build per output folder; a build removes only its own temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from flows.runtime import settings
from tests.reliability.helpers import ROOT, run_cli_build, write_corpus

settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))

from flows.executors.prefect_flow import run_build  # noqa: E402
from release.config import BuildConfig  # noqa: E402
from release.lock import OutputBusyError, output_lock, remove_stale_temps  # noqa: E402

pytestmark = pytest.mark.usefixtures("prefect_api")  # the session's Prefect server, not one per build


def hold(out: Path) -> object:
    return output_lock(out)


def test_a_second_build_exits_with_a_clear_message(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)
    out = tmp_path / "out"
    with hold(out):  # another build, as far as the CLI can tell
        started = time.monotonic()
        done = run_cli_build(corpus, out)
        waited = run_cli_build(corpus, out, "--wait=1.5")
        seconds = time.monotonic() - started
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"another build (pid {os.getpid()}) is writing to this output folder" in done.stderr
    assert "--wait SECONDS" in done.stderr
    assert waited.returncode == 2 and "(waited 1.5 s)" in waited.stderr
    assert seconds < 60 and not list(out.glob("v*"))


def test_a_waiting_build_runs_when_the_first_one_finishes(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)  # the lock is per build, whatever it builds
    out = tmp_path / "out"
    lock = hold(out)
    lock.__enter__()  # type: ignore[attr-defined]
    timer = threading.Timer(1.0, lambda: lock.__exit__(None, None, None))  # type: ignore[attr-defined]
    timer.start()
    with pytest.raises(OutputBusyError):
        run_build(corpus, out, BuildConfig(seed=1, version="v0.1.0"), wait_s=0.2)
    summary = run_build(corpus, out, BuildConfig(seed=1, version="v0.1.0"), wait_s=60)
    timer.join()
    assert summary.output == out / "v0.1.0"


def test_only_dead_owners_temporary_folders_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    live = subprocess.Popen(["sleep", "60"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    try:
        mine = out / f".v0.2.0.tmp-{os.getpid()}-aaaa"
        other_live = out / f".v0.2.0.tmp-{live.pid}-bbbb"
        other_dead = out / f".v0.2.0.tmp-{dead.pid}-cccc"
        ownerless = out / ".v0.2.0.tmp-leftover"
        other_version = out / f".v0.3.0.tmp-{dead.pid}-dddd"
        for folder in (mine, other_live, other_dead, ownerless, other_version):
            folder.mkdir()
        removed = remove_stale_temps(out, "v0.2.0")
        assert removed == [other_dead]
        assert mine.exists() and other_live.exists() and ownerless.exists() and other_version.exists()
    finally:
        live.kill()
        live.wait()


def test_a_killed_lock_holder_releases_the_lock(tmp_path: Path) -> None:
    """The kernel drops a flock with its process: a crashed build never blocks the next one."""
    out = tmp_path / "out"
    code = (
        "import time, sys; from pathlib import Path; from release.lock import output_lock\n"
        f"with output_lock(Path({str(out)!r})):\n"
        "    print('held', flush=True); time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(OutputBusyError, match=f"pid {holder.pid}"), hold(out):
            pass
        holder.kill()
        holder.wait()
        with hold(out):
            assert (out / ".build.lock").read_text().strip() == str(os.getpid())
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
