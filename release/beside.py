"""One step of a build in a second process, while this one does another or waits.

Writing the instruction sets and auditing the release are independent and each takes a fifth of a large
build; a build's release otherwise runs on one core while the other waits. The child is spawned (it starts
clean, with no copy of this process's memory) and gets its inputs pickled: the build gives it the audit,
whose inputs are a folder and a seed and whose caches end with it. The build's choice and assembly run in
such a child too, for their memory alone (`flows.stages`): what a step held leaves with its process.
Where there can be no child, or one would cost more than it saves, the step runs here instead, with the
same result: for a small release, in a daemonic process (a Dask worker may not have children), or when
the child dies or cannot start (a script without an `if __name__ == "__main__"` guard cannot be spawned
from)."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from parsers.lifetime import end_with_parent

T = TypeVar("T")
log = logging.getLogger("gbtbench.release")


class Pending(Generic[T]):
    """A step running beside the caller; `result()` waits for it (an error in the step is raised here)."""

    def __init__(self, step: Callable[..., T], args: tuple[Any, ...], future: Future[T] | None) -> None:
        self._step, self._args, self._future = step, args, future

    def result(self) -> T:
        if self._future is not None:
            try:
                return self._future.result()
            except BrokenProcessPool:
                log.warning("the second process of the release stopped: %s runs here", self._step.__name__)
        return self._step(*self._args)


@contextmanager
def beside(step: Callable[..., T], *args: Any, worth_it: bool = True) -> Iterator[Pending[T]]:
    """`step(*args)` in a child process while the block runs; the child is gone when the block ends.

    `worth_it=False` (a small release: starting a process costs more than the step) runs it here."""
    if not worth_it or multiprocessing.current_process().daemon:
        yield Pending(step, args, None)  # run by `result()`, here
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=end_with_parent) as pool:
        future = pool.submit(step, *args)
        try:
            yield Pending(step, args, future)
        finally:
            future.cancel()
