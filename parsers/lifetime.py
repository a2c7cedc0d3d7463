"""Processes that end with the process that started them, however it ends.

A build's helpers (its Prefect API server, its pool's workers, a worker's parse process, the processes of
the choice, the release and the validation) would outlive a build killed with SIGKILL: nothing tells them,
and a parse of a hostile file would go on to its end. The kernel can (Linux: a parent-death signal, asked
for by the child itself). Kept with the parsers, the lowest layer, since the parse worker is one of these
processes and every layer above may import from here.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading

PR_SET_PDEATHSIG = 1


def _ask_kernel(sig: int) -> None:
    with contextlib.suppress(OSError, AttributeError):  # no parent-death signal here: nothing changes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> None:
    """In a child process started by `subprocess` (as a `preexec_fn`): receive `sig` when `parent` dies,
    and end at once if it already has. SIGKILL by default: a server's graceful shutdown on SIGTERM can take
    longer than anyone waits for a killed build's helpers on a busy machine, and nothing it would finish
    matters once the build is gone."""
    _ask_kernel(sig)
    if os.getppid() != parent:
        os._exit(1)


def end_with_parent() -> None:
    """In a `multiprocessing` child (its target's first call, or a pool's initializer): be killed when the
    process that asked for it dies, and end at once if it has died already.

    A forkserver's child has the forkserver as its parent, and the forkserver outlives the asking process
    for as long as one of its children lives: such a child watches the asker itself, in a thread that ends
    the process when the asker's end of their pipe closes (only there: a thread would make a pool worker
    start its own children from a forkserver instead of forking them)."""
    _ask_kernel(signal.SIGKILL)
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if not parent.is_alive():
        os._exit(1)
    if os.getppid() != parent.pid:
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), name="end with parent", daemon=True
        ).start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)
