"""The command line fixes glibc's mmap threshold in its own process and in those it starts; a value the user
set is kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import os, subprocess, sys
from flows import malloc_settings
took = malloc_settings.fix_mmap_threshold()
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('MALLOC_MMAP_THRESHOLD_'))"],
                       capture_output=True, text=True).stdout.strip()
print(took, child)
"""


def _probe(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's setting, on Linux only")
def test_the_threshold_is_fixed_here_and_in_the_children() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    assert _probe(env) == "True 131072"


def test_a_threshold_the_user_set_is_kept() -> None:
    assert _probe({**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}) == "False 65536"


def test_the_command_line_fixes_it_before_any_command_runs() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    code = "import os, flows.cli; print(os.environ.get('MALLOC_MMAP_THRESHOLD_'))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    expected = "131072" if sys.platform.startswith("linux") else "None"
    assert done.stdout.strip() == expected
