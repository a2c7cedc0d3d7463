"""Processes that end with the build that started them, however the build ends.

A build's helpers (its Prefect API server, its pool's workers) would outlive a build killed with SIGKILL:
nothing tells them. The kernel can (Linux: a parent-death signal, asked for by the child itself).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, sig: int = signal.SIGTERM) -> None:
    """In a child process: receive `sig` when `parent` dies, and end at once if it already has (where the
    kernel has no parent-death signal, nothing changes)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
