"""The command line's memory settings, made before anything else in its own process and carried to those it
starts; a value the user chose is kept: pyarrow's jemalloc pool (it gives a release's memory back better
than mimalloc) and a fixed glibc mmap threshold (large freed blocks go back to the system)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# what `gbtbench` does first (the console script imports flows.cli), then a child it would start
POOLS = """
import subprocess, sys
import flows.cli
import pyarrow as pa
NAME = "import pyarrow as pa; print(pa.default_memory_pool().backend_name)"
child = subprocess.run([sys.executable, "-c", NAME], capture_output=True, text=True).stdout.strip()
print(pa.default_memory_pool().backend_name, child)
"""
THRESHOLD = """
import subprocess, sys
from flows.runtime import malloc as malloc_settings
took = malloc_settings.fix_mmap_threshold()
NAME = "import os; print(os.environ.get('MALLOC_MMAP_THRESHOLD_'))"
child = subprocess.run([sys.executable, "-c", NAME], capture_output=True, text=True).stdout.strip()
print(took, child)
"""
LINUX = sys.platform.startswith("linux")


def _probe(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _without(name: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != name}


@pytest.mark.skipif(not LINUX, reason="jemalloc is asked for on Linux only")
def test_the_command_line_and_its_children_use_jemalloc() -> None:
    assert _probe(POOLS, _without("ARROW_DEFAULT_MEMORY_POOL")) == "jemalloc jemalloc"


def test_a_pool_the_user_chose_is_kept() -> None:
    assert _probe(POOLS, {**os.environ, "ARROW_DEFAULT_MEMORY_POOL": "system"}) == "system system"


@pytest.mark.skipif(not LINUX, reason="glibc's setting, on Linux only")
def test_the_mmap_threshold_is_fixed_here_and_in_the_children() -> None:
    assert _probe(THRESHOLD, _without("MALLOC_MMAP_THRESHOLD_")) == "True 131072"


def test_a_threshold_the_user_set_is_kept() -> None:
    assert _probe(THRESHOLD, {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}) == "False 65536"


def test_the_command_line_fixes_the_threshold_before_any_command_runs() -> None:
    code = "import os, flows.cli; print(os.environ.get('MALLOC_MMAP_THRESHOLD_'))"
    assert _probe(code, _without("MALLOC_MMAP_THRESHOLD_")) == ("131072" if LINUX else "None")
