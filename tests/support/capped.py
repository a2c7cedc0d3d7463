"""Run a test's hostile case in a child process under a memory cap, so a regression that tries to read
/dev/zero or to load millions of objects fails the test instead of taking the machine down."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GIB = 1024**3


def capped(
    args: Sequence[str], *, memory: int = 3 * GIB, timeout: float = 60, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    """`args` (after the Python interpreter) with its address space capped at `memory` bytes."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
        cwd=ROOT,
        env=env,
        **kwargs,
    )


def gbtbench(*args: str, memory: int = 3 * GIB, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return capped(["-m", "flows.cli", *args], memory=memory, timeout=timeout)
