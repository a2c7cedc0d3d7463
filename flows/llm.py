"""One LLM rewriter per process for a build: shared by the task threads, closed when the process ends.

The rewriter cannot travel to a Dask or process worker (it holds a client and an event loop thread), so
each process opens its own from the build's configuration; its SQLite cache is shared through the file.
"""

from __future__ import annotations

import atexit
from functools import cache

from injectors.llm.rewriter import LLMRewriter, open_rewriter


@cache
def shared_rewriter(mode: str, types: tuple[str, ...], cache_path: str) -> LLMRewriter | None:
    rewriter = open_rewriter(mode, types=types or None, cache_path=cache_path)
    if rewriter is not None:
        atexit.register(rewriter.close)
    return rewriter
