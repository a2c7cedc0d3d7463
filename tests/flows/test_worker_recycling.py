"""Why the build's process pool replaces its workers in waves (`flows.executors.pool.RECYCLE_AFTER`) rather
than with the standard pool's `max_tasks_per_child`: on this Python the latter hangs once a worker retires.
When this test fails, the interpreter's pool works and the waves can go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

RETIRING_POOL = """
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

if __name__ == "__main__":
    spawn = multiprocessing.get_context("spawn")  # as the build's pool starts its workers
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn, max_tasks_per_child=3) as pool:
        print(len(list(pool.map(abs, range(7)))))
"""


def test_the_standard_pools_own_recycling_hangs_on_this_python() -> None:
    # seven trivial tasks take well under a second on two workers when the pool works
    pool = subprocess.Popen(
        [sys.executable, "-c", RETIRING_POOL], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, _ = pool.communicate(timeout=15)
        finished = True
    except subprocess.TimeoutExpired:
        finished, out = False, ""
    finally:
        if pool.poll() is None:
            os.killpg(pool.pid, signal.SIGKILL)  # the pool and its workers: a session of their own
            pool.communicate()
    assert not finished, f"max_tasks_per_child works here ({out.strip()} results): use it in the build's pool"
