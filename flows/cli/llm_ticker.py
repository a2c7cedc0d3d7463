"""A line on stderr every few seconds while a command waits on a model, so a slow or dead endpoint shows.

Without it `inject --llm openai` would print nothing for as long as its calls take (against a dead endpoint,
until every call has given up); with it the operator sees calls, cache hits, requests and failures climb,
and why calls stopped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

DEFAULT_EVERY_S = 10.0


def progress_line(summary: dict[str, Any], elapsed: float) -> str:
    """One line from a rewriter's summary: what has happened so far."""
    counts: dict[str, int] = summary.get("counts", {})
    failures: dict[str, int] = summary.get("failures", {})
    transport = sum(failures.get(k, 0) for k in ("timeout", "connection", "server_error", "rate_limited"))
    line = (
        f"LLM: {elapsed:.0f} s, {counts.get('calls', 0)} calls, {counts.get('cache_hits', 0)} cache hits, "
        f"{counts.get('requests', 0)} requests, {transport} transport failures"
    )
    for key in ("endpoint_down", "deadline_passed"):
        if summary.get(key):
            line += f"; {summary[key]}: falling back to rule templates"
    return line


@contextmanager
def llm_ticker(
    summary: Callable[[], dict[str, Any]],
    write: Callable[[str], None],
    *,
    every: float = DEFAULT_EVERY_S,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[None]:
    """While the block runs, `write` a progress line every `every` seconds (from a daemon thread)."""
    stop = threading.Event()
    started = clock()

    def tick() -> None:
        while not stop.wait(every):
            write(progress_line(summary(), clock() - started))

    thread = threading.Thread(target=tick, name="gbtbench-llm-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=every + 1)


__all__ = ["llm_ticker", "progress_line"]
