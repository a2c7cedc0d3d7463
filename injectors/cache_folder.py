"""The per-user folder where gbtbench keeps what is costly to compute and safe to recompute.

`$GBTBENCH_CACHE_DIR`, default `$XDG_CACHE_HOME/gbtbench`, else `~/.cache/gbtbench`. Everything in it is
keyed by what it was computed from; a folder that cannot be written only means computing again.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    if configured := os.environ.get("GBTBENCH_CACHE_DIR"):
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gbtbench"
