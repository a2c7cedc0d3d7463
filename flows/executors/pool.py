"""The fast executor of a build: the per-document stages on a pool of processes, one per core.

Parsing and injection are CPU-bound Python, so threads share one core; this map runs each item in a
worker process and yields results as they finish. Each result is stored in the work cache under the
stage's content key as soon as it is computed (in the worker), so a rebuild after a small change or a
killed build reuses every finished document, and a worker sends back only what the next stage needs.
Items are small (paths, digests, keys into the work cache); workers load large shared inputs from the
cache themselves. Stages run once per build (`choose`, `validate`, `write`) run in the calling process.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from pathlib import Path
from types import TracebackType
from typing import Any

from flows import stages
from flows.fingerprint import code_version
from flows.pipeline import BuildInputs, BuildSummary, build_dataset, run_stages
from flows.progress import Progress
from flows.runtime.collector import in_worker
from flows.work_cache import store
from release.config import BuildConfig

_BY_NAME = {s.name: s for s in stages.STAGES}
# After the last per-document stage: the workers (each holding its caches of the corpus) are stopped before
# the choice, which runs here and holds every document's candidates.
ONCE_PER_BUILD = frozenset(s.name for s in (stages.CHOOSE, stages.ASSEMBLE, stages.VALIDATE, stages.WRITE))


# Documents a worker takes on before it is replaced by a fresh one: a worker's caches of the corpus's
# wording, and the memory Python keeps once it has used it, grow with every document it parses or injects,
# so a long build's workers would grow with its corpus. Replacing them costs the workers' imports per
# wave of `workers * RECYCLE_AFTER` documents. The
# standard pool's own recycling (`max_tasks_per_child`) would do this per worker, but on Python 3.11 a pool
# using it hangs once a worker retires (tests/test_worker_recycling.py shows it): hence the waves.
RECYCLE_AFTER = 50


def default_workers() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_cached(stage_name: str, item: Any, results: str) -> Any:
    """One item of a stage, from the work cache when this exact input was computed before (in a worker)."""
    stage = _BY_NAME[stage_name]
    if stage.key is None:
        return stage.run(item)
    path = Path(results) / f"{stage.key(item)}.pickle"
    if path.exists():
        with open(path, "rb") as handle:
            return pickle.load(handle)  # the build's own cache, written by `store` below
    result = stage.run(item)
    store(path, result)
    return result


class ProcessMap:
    """A `flows.executors.Map` over a process pool (used as a context manager: the pool lives for one build).

    `results` is the folder of cached stage results (inside the build's work cache).
    """

    def __init__(self, results: Path, workers: int | None = None) -> None:
        self.results = Path(results)
        self.workers = workers or default_workers()
        self._pool: Executor | None = None
        self._closed = False

    def __enter__(self) -> ProcessMap:
        # spawn: workers start clean (no copy of the caller's threads or locks) and import what they use
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=in_worker)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            self._closed = True

    def started(self, stage: stages.Stage[Any, Any], items: Sequence[Any]) -> Iterator[Any]:
        """This map, starting the pool on the first per-document stage (a no-op build starts none)."""
        if self._pool is None and not self._closed and stage.name not in ONCE_PER_BUILD:
            self.__enter__()
        return self(stage, items)

    def _fresh_pool(self) -> Executor | None:
        """The pool with new workers (the old ones are done with their wave)."""
        self.close()
        self._closed = False
        self.__enter__()
        return self._pool

    def close(self) -> None:
        """Stop the workers (each holds the dictionaries and lexicons of the injectors)."""
        self.__exit__(None, None, None)

    def __call__(self, stage: stages.Stage[Any, Any], items: Sequence[Any]) -> Iterator[Any]:
        if stage.name in ONCE_PER_BUILD:  # no per-document work is left: this process gets the memory
            self.close()
        if self._pool is None or len(items) <= 1 or stage.name not in _BY_NAME or _uses_a_model(items):
            for item in items:  # one item (choose, validate, write): no point in crossing a process
                yield (
                    run_cached(stage.name, item, str(self.results))
                    if stage.name in _BY_NAME
                    else stage.run(item)
                )
            return
        wave = self.workers * RECYCLE_AFTER
        for start in range(0, len(items), wave):
            pool = self._fresh_pool() if start else self._pool  # see RECYCLE_AFTER
            assert pool is not None
            futures = [
                pool.submit(run_cached, stage.name, item, str(self.results))
                for item in items[start : start + wave]
            ]
            for future in as_completed(futures):
                yield future.result()


def _uses_a_model(items: Sequence[Any]) -> bool:
    """Injection with an LLM waits on the network, not the CPU, and its one rewriter per build (answer
    cache, circuit breaker, deadline, request counts in the manifest) lives in this process: no pool."""
    llm = getattr(items[0], "llm", None) if items else None
    return llm is not None and llm.mode != "none"


def run_pool(
    inputs: BuildInputs, config: BuildConfig, *, workers: int | None = None, progress: Progress | None = None
) -> BuildSummary:
    """The stages of a build whose inputs changed (see `flows.pipeline.prepare`) on a process pool."""
    with ProcessMap(inputs.out / ".cache" / "work" / code_version() / "results", workers) as pool:
        return run_stages(inputs, config, map=pool, progress=progress, warm_validation=True)


def build_on_pool(
    corpus: Path,
    out: Path,
    config: BuildConfig,
    *,
    workers: int | None = None,
    prefer: str = "pdf",
    force: bool = False,
    reviews: Path | None = None,
    wait_s: float = 0.0,
    progress: Progress | None = None,
) -> BuildSummary:
    """`gbtbench build`'s default: `build_dataset` on a process pool, no Prefect imported (an unchanged
    corpus is recognised before any worker starts)."""
    pool = ProcessMap(Path(out).resolve() / ".cache" / "work" / code_version() / "results", workers)
    try:
        return build_dataset(
            corpus,
            out,
            config,
            map=pool.started,
            prefer=prefer,
            force=force,
            reviews=reviews,
            wait_s=wait_s,
            progress=progress,
            warm_validation=True,  # the pool runs a stage of one item here
        )
    finally:
        pool.close()
