"""Shared by the reliability suite: a small text corpus written from the project's own standards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from corpus.stdsource import gold_document
from parsers.render import render_text
from tests.conftest import corpus_sources

ROOT = Path(__file__).resolve().parents[2]


def write_corpus(folder: Path, count: int = 2) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for source in corpus_sources()[:count]:
        path = folder / f"{source.stem}.txt"
        path.write_text(render_text(gold_document(source)), encoding="utf-8")
        paths.append(path)
    return paths


def build_command(corpus: Path, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "flows.cli",
        "build",
        f"--corpus={corpus}",
        f"--out={out}",
        "--seed=13",
        *extra,
    ]


def run_cli_build(corpus: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """A CLI build to its end: exit status, stdout and stderr."""
    return subprocess.run(
        build_command(corpus, out, *extra), cwd=ROOT, capture_output=True, text=True, check=False
    )


def start_build(
    corpus: Path, out: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """A CLI build in its own session, so that killing the session kills the build and any child it started
    (as a crash would); the Prefect server is the test session's, which outlives it."""
    return subprocess.Popen(
        build_command(corpus, out, *extra),
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
