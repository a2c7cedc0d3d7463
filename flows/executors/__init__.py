"""How a build's stages run: the `Map` protocol, and the executors that implement it.

`flows.pipeline` is the build as plain Python; the only thing it asks of an executor is a `Map`: given a
stage (`flows.stages.Stage`) and its items, run the stage on each item and yield the results as they
complete, in any order (the pipeline sorts what it needs). An executor may cache a result by the stage's
content key, run items in other processes or on other machines, or name them as tasks; it may not change
a result. Items are small and picklable (paths, digests, keys into the work cache); a stage of one item
(choose, assemble, validate, write) may run where it is called.

- `in_process` (here): each item in turn, in this process; the default of `build_dataset`.
- `pool.ProcessMap`: a process pool, one worker per core, no Prefect (`gbtbench build`'s default).
- `prefect_flow.prefect_map`: each item as a Prefect task on the flow's task runner (thread, process,
  Dask), with the build's own API server (`api_server`) and scheduled rebuilds (`schedule`).

This module imports neither the pool nor Prefect: the command line reads `TASK_RUNNERS` from here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from flows.stages import Stage

T = TypeVar("T")

# The executors `gbtbench build --task-runner` offers: the pool, or a Prefect flow on one of its task runners.
TASK_RUNNERS = ("pool", "thread", "process", "dask")


class Map(Protocol):
    """Run `stage` on each of `items`; yield each result as it completes, in any order."""

    def __call__(self, stage: Stage[Any, Any], items: Sequence[Any], /) -> Iterator[Any]: ...


def in_process(stage: Stage[Any, T], items: Sequence[Any]) -> Iterator[T]:
    """The default executor: each item in turn, in this process."""
    for item in items:
        yield stage.run(item)
