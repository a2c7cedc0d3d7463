"""The command line asks pyarrow for jemalloc (it gives a release's memory back better than mimalloc), before
anything imports pyarrow, in its own process and in those it starts; a pool the user chose is kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# what `gbtbench` does first (the console script imports flows.cli), then a child it would start
PROBE = """
import subprocess, sys
import flows.cli
import pyarrow as pa
NAME = "import pyarrow as pa; print(pa.default_memory_pool().backend_name)"
child = subprocess.run([sys.executable, "-c", NAME], capture_output=True, text=True).stdout.strip()
print(pa.default_memory_pool().backend_name, child)
"""


def _pools(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="jemalloc is asked for on Linux only")
def test_the_command_line_and_its_children_use_jemalloc() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    assert _pools(env) == "jemalloc jemalloc"


def test_a_pool_the_user_chose_is_kept() -> None:
    assert _pools({**os.environ, "ARROW_DEFAULT_MEMORY_POOL": "system"}) == "system system"
