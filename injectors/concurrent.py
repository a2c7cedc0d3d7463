"""Running independent pieces of injection side by side while they wait on a model.

Rule templates are CPU work and gain nothing from threads; an LLM call is a wait. With a rewriter the
planner's per-type searches (independent of each other by design) run on up to the client's concurrency
in threads, so `inject --llm openai` keeps that many requests in flight instead of one. Results come back
in input order, so the output is the same as a sequential run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def llm_workers(rewriter: Any) -> int:
    """How many threads a rewriter can keep busy (1 without one, or when it declares no concurrency)."""
    if rewriter is None:
        return 1
    return max(1, int(getattr(rewriter, "concurrency", 1) or 1))


def map_concurrently(func: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
    """`[func(x) for x in items]`, on `workers` threads when more than one; the first error is raised."""
    if workers <= 1 or len(items) <= 1:
        return [func(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(workers, len(items)), thread_name_prefix="gbtbench-llm") as pool:
        return list(pool.map(func, items))


__all__ = ["llm_workers", "map_concurrently"]
