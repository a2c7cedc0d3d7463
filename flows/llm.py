"""One LLM rewriter per process and settings: shared by the task threads, closed when the process ends.

The rewriter cannot travel to a Dask or process worker (it holds a client and an event loop thread), so
each process opens its own from the build's `LLMSettings`; its SQLite cache is shared through the file.
"""

from __future__ import annotations

import atexit
from functools import cache

from injectors.llm.rewriter import LLMRewriter
from injectors.llm.settings import LLMSettings, open_rewriter_with


@cache
def shared_rewriter(settings: LLMSettings) -> LLMRewriter | None:
    rewriter = open_rewriter_with(settings)
    if rewriter is not None:
        atexit.register(rewriter.close)
    return rewriter
