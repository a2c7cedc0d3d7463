"""A build killed with SIGKILL at random points resumes to byte-identical tables.

One reference build; then one output folder whose build is killed at three random moments (seeded), each
time resumed by the next run, and finally completed. Its tables must hash like the reference's, no
temporary folder may be left, and `latest` must point at the version.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from release.writer import latest_version, read_manifest
from tests.reliability.helpers import run_cli_build, start_build, write_corpus

pytestmark = pytest.mark.usefixtures("prefect_api")  # the session's Prefect server, not one per build

KILLS = 3


def test_builds_killed_at_random_points_resume_to_identical_tables(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)  # one document: the same stages to kill and resume, half the work
    reference = tmp_path / "reference"
    started = time.monotonic()
    done = run_cli_build(corpus, reference)
    duration = time.monotonic() - started
    assert done.returncode == 0, done.stderr

    out = tmp_path / "out"
    rng = random.Random(13)
    killed_at = []
    for _ in range(KILLS):
        delay = rng.uniform(0.15, 0.95) * duration
        build = start_build(corpus, out)
        try:
            build.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            os.killpg(build.pid, signal.SIGKILL)  # the build's own session: it and its Prefect server
            build.wait()
            killed_at.append(round(delay, 1))
        build.communicate()
    final = run_cli_build(corpus, out)
    assert final.returncode == 0, final.stderr
    assert killed_at, "no run was killed: every build finished before its kill time"
    assert latest_version(out) == "v0.1.0"
    assert read_manifest(out / "v0.1.0")["tables"] == read_manifest(reference / "v0.1.0")["tables"]
    assert not [p.name for p in out.iterdir() if ".tmp-" in p.name]  # dead builds' folders are cleaned up
