"""glibc's allocator for the command line: large blocks always mapped on their own, so that freeing one gives
it back to the system.

glibc maps a block of 128 KiB or more by itself, but raises that threshold each time such a block is freed
(up to 32 MiB); from then on a large block comes from the heap, and a heap full of holes keeps its pages.
A build allocates many large blocks and frees them soon (a document's text, an instruction row that
repeats a document, a record batch): with the threshold moving, the process that writes the instruction
sets grows while it writes them, and so does the audit beside it.
Fixing the threshold keeps every large block mapped on its own. The environment variable carries the
setting to the processes a command starts (build workers, the audit, GX); `mallopt` sets it in this one,
which read its environment before the command could change it. A value the user set is kept.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

VARIABLE = "MALLOC_MMAP_THRESHOLD_"  # read by glibc as a process starts
THRESHOLD = 128 * 1024  # glibc's own starting value
M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)


def fix_mmap_threshold() -> bool:
    """Fix the threshold here and in every process started from here (Linux with glibc only); returns
    whether this process's allocator took the setting."""
    if not sys.platform.startswith("linux") or VARIABLE in os.environ:
        return False
    os.environ[VARIABLE] = str(THRESHOLD)
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(M_MMAP_THRESHOLD, THRESHOLD))
    except (OSError, AttributeError):  # another C library (musl has no mallopt): the children still read it
        return False
