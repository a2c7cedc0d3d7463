"""Arrow's memory pool for the command line: jemalloc on Linux, set before anything imports pyarrow.

pyarrow's default pool here (mimalloc) keeps more of what a release's tables have used, in the build's
process and in the audit beside it (`python -m bench.build` prints the peaks). The choice is an
environment variable, so the processes a command starts (build workers, the audit
beside a release) use the same pool; a value the user set is kept.
"""

from __future__ import annotations

import os
import sys

VARIABLE = "ARROW_DEFAULT_MEMORY_POOL"  # read by pyarrow when it is imported


def prefer_jemalloc() -> None:
    """Ask for jemalloc unless the user chose a pool; only on Linux, where pyarrow's wheels include it."""
    if sys.platform.startswith("linux"):
        os.environ.setdefault(VARIABLE, "jemalloc")
