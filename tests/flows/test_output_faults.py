"""A full disk or a read-only output folder, met while writing a build, a score report or an audit: one
line naming the file and the reason, no traceback, and nothing half-written.

A full disk is a file-size limit in the child process (writes past it fail as a full disk's do); a
read-only folder is a read-only bind mount, where the machine allows one (root in a container).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from corpus.stdsource import gold_document
from evaluation.predictions import prediction_from_row
from parsers.render import render_text
from tests.conftest import corpus_sources
from tests.support.capped import ROOT
from tests.support.release_data import shared_release


def run(
    *args: str, file_size: int | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`gbtbench ARGS`, where a write past `file_size` bytes fails with EFBIG, as on a full disk."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    env = {**(os.environ if env is None else env), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit,
        cwd=ROOT,
        env=env,
    )


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "read-only"
    folder.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("no bind mounts here: a read-only folder cannot be made")
    try:
        remount = ["mount", "-o", "remount,ro,bind", str(folder)]
        if subprocess.run(remount, capture_output=True).returncode != 0:
            pytest.skip("no read-only remount here")
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a file system of 1.5 MB (a tmpfs), where the machine allows mounting one."""
    folder = tmp_path / "small-disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1500k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("no tmpfs mounts here: a small disk cannot be made")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def one_error_line(done: subprocess.CompletedProcess[str], path: Path) -> str:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
    assert len(errors) == 1 and errors[0].startswith(f"ERROR: {path}"), done.stderr[-3000:]
    return errors[0]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "one.txt").write_text(render_text(gold_document(corpus_sources()[0])), encoding="utf-8")
    return folder


def test_a_build_on_a_full_disk_is_one_line_and_no_release(tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "out"
    done = run(
        "build", "--corpus", str(corpus), "--out", str(out), "--task-runner", "pool", file_size=200_000
    )
    line = one_error_line(done, out)
    assert "File too large" in line
    assert not (out / "v0.1.0").exists() and not (out / "latest").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".v0.1.0")]


def test_a_prefect_build_on_a_full_disk_is_one_line_and_no_release(tmp_path: Path, corpus: Path) -> None:
    """The thread runner's own Prefect API server cannot create its database: the build stops before any
    stage, naming the database and SQLite's reason."""
    out, home = tmp_path / "out", tmp_path / "prefect-home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}  # the build starts its server
    env["PREFECT_HOME"] = str(home)
    args = ("build", "--corpus", str(corpus), "--out", str(out), "--task-runner", "thread")
    done = run(*args, file_size=200_000, env=env)
    assert done.returncode == 2
    line = one_error_line(done, home / "prefect.db")
    assert "the Prefect API server could not start: disk I/O error" in line
    assert not (out / "v0.1.0").exists() and not (out / "latest").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".v0.1.0")]


def test_a_prefect_build_that_fills_the_disk_is_one_line_and_no_release(
    corpus: Path, small_disk: Path, prefect_api: str
) -> None:
    """A stage meets the full disk: Prefect's own report of the failed runs (a traceback each) stays off the
    terminal, which gets the command's one line. The build reports to the session's API server (a server's
    own start on a full disk is the test above; the builds that start their own: test_build_processes)."""
    out = small_disk / "out"
    env = {**os.environ, "PREFECT_API_URL": prefect_api}
    done = run("build", "--corpus", str(corpus), "--out", str(out), "--task-runner", "thread", env=env)
    assert done.returncode == 2
    assert one_error_line(done, out).endswith("No space left on device")
    assert sorted(p.name for p in out.iterdir()) == [".build.lock", ".cache"]


def test_a_build_into_a_read_only_folder_is_one_line(read_only: Path, corpus: Path) -> None:
    out = read_only / "out"
    line = one_error_line(
        run("build", "--corpus", str(corpus), "--out", str(out), "--task-runner", "pool"), out
    )
    assert line.endswith("Read-only file system")


@pytest.fixture
def predictions(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    release = shared_release(tmp_path_factory)
    path = tmp_path / "predictions.jsonl"
    doc_ids = sorted(set(pq.read_table(release / "items.parquet").column("doc_id").to_pylist()))
    path.write_text("".join(json.dumps({"doc_id": d, "predictions": []}) + "\n" for d in doc_ids))
    return release, path


def test_score_into_a_read_only_folder_is_one_line(read_only: Path, predictions: tuple[Path, Path]) -> None:
    release, path = predictions
    out = read_only / "scores"
    line = one_error_line(run("score", str(release), str(path), "--out", str(out)), out)
    assert line.endswith("Read-only file system")


def test_score_on_a_full_disk_leaves_no_half_written_file(
    tmp_path: Path, predictions: tuple[Path, Path]
) -> None:
    release, path = predictions
    out = tmp_path / "scores"
    out.mkdir()
    (out / "scores.json").write_text("{}\n")  # a former run's: kept as it was
    done = run("score", str(release), str(path), "--out", str(out), file_size=4_000)
    one_error_line(done, out)
    assert (out / "scores.json").read_text() == "{}\n"
    assert sorted(p.name for p in out.iterdir()) == ["scores.json"]


def test_audit_of_a_read_only_release_is_one_line(
    read_only: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    release = shared_release(tmp_path_factory)
    copy = read_only.parent / "release"
    subprocess.run(["cp", "-a", str(release), str(copy)], check=True)
    subprocess.run(["mount", "--bind", str(copy), str(read_only)], check=True)
    subprocess.run(["mount", "-o", "remount,ro,bind", str(read_only)], check=True)
    try:
        done = run("audit", str(read_only))
    finally:
        subprocess.run(["umount", str(read_only)], capture_output=True)
    assert done.returncode == 2
    line = one_error_line(done, read_only)
    assert line.endswith("Read-only file system")


def test_an_lm_eval_sample_with_a_number_for_answers_is_a_reason() -> None:
    row = {"doc": {"doc_id": "d1", "id": "review_1"}, "resps": 5}
    with pytest.raises(ValueError, match="line 3: resps is int, expected a list of answers"):
        prediction_from_row(row, "line 3")


def test_parse_into_a_read_only_folder_is_one_line(read_only: Path, corpus: Path) -> None:
    out = read_only / "parsed"
    line = one_error_line(run("parse", str(corpus), "--out", str(out)), out)
    assert line.endswith("Read-only file system")
