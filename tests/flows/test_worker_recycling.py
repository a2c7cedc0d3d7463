"""Why the build's process pool replaces its workers in waves (`flows.executors.pool.RECYCLE_AFTER`) rather
than with the standard pool's `max_tasks_per_child`: on this Python the latter hangs once a worker retires.
When this test fails, the interpreter's pool works and the waves can go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

POOL = """
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

if __name__ == "__main__":
    spawn = multiprocessing.get_context("spawn")  # as the build's pool starts its workers
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn{retiring}) as pool:
        print(len(list(pool.map(abs, range(7)))))
"""


def run_pool(retiring: bool, timeout: float) -> tuple[bool, str]:
    """Whether the pool script finished within `timeout` seconds, and what it printed."""
    code = POOL.format(retiring=", max_tasks_per_child=3" if retiring else "")
    pool = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, _ = pool.communicate(timeout=timeout)
        return True, out
    except subprocess.TimeoutExpired:
        return False, ""
    finally:
        if pool.poll() is None:
            os.killpg(pool.pid, signal.SIGKILL)  # the pool and its workers: a session of their own
            pool.communicate()


def test_the_standard_pools_own_recycling_hangs_on_this_python() -> None:
    # the same tasks on a pool that keeps its workers measure what a working pool takes on this machine
    # now; the retiring one starts its workers about twice over, so several times that (and never less
    # than a few seconds) tells a hang from a slow start on a busy machine without waiting much longer
    started = time.monotonic()
    finished, out = run_pool(retiring=False, timeout=60)
    took = time.monotonic() - started
    assert finished and out.strip() == "7", "a pool that keeps its workers must work"
    finished, out = run_pool(retiring=True, timeout=max(3.0, 5 * took))
    assert not finished, f"max_tasks_per_child works here ({out.strip()} results): use it in the build's pool"
