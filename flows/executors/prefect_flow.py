"""The Prefect build flow: the plain-Python pipeline (`flows/pipeline.py`) with each stage as a task.

Every stage runs as a task with a readable name (`parse <file>`, `inject <standard id>`, `choose`,
`assemble`, `validate`, `write`), so the Prefect UI shows the whole run; stage summaries go to the run
logger, and the finished run publishes a Markdown release summary and a table of type counts. `parse` and
`inject` are cached by content (file hash, configuration, seed, code version), so a killed build resumes
from its cached tasks and one changed file reprocesses that document (and, when its references, terms or
scope changed, the documents whose templates draw on them).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed
from prefect.task_runners import ThreadPoolTaskRunner

from flows import progress as progress_callbacks
from flows import stages
from flows.executors import TASK_RUNNERS
from flows.executors.api_server import build_api
from flows.executors.pool import run_pool
from flows.executors.run_report import release_summary, type_count_rows
from flows.pipeline import BuildInputs, BuildSummary, prepare, run_stages
from flows.progress import Progress
from flows.runtime.collector import in_worker
from flows.stages import Stage
from release.config import BuildConfig
from release.lock import output_lock
from release.manifest import read_manifest


def _key(_: Any, params: dict[str, Any]) -> str:
    return str(params["key"])


# One task per stage; `label` names the run, `key` is the content address of the cached ones.
@task(name="parse", task_run_name="{label}", cache_key_fn=_key, persist_result=True)
def parse_task(item: stages.ParseInput, label: str, key: str) -> stages.ParsedFile:
    return stages.parse(item)


@task(name="inject", task_run_name="{label}", cache_key_fn=_key, persist_result=True)
def inject_task(item: stages.InjectInput, label: str, key: str) -> Any:
    return stages.inject(item)


def _uncached(name: str, run: Any) -> Any:
    def body(item: Any, label: str, key: str) -> Any:
        return run(item)

    body.__name__ = body.__qualname__ = f"{name}_task"
    return task(name=name, task_run_name="{label}", cache_policy=NO_CACHE, persist_result=False)(body)


TASKS = {
    "parse": parse_task,
    "inject": inject_task,
    "choose": _uncached("choose", stages.choose),
    "assemble": _uncached("assemble", stages.assemble),
    "validate": _uncached("validate", stages.validate),
    "write": _uncached("write", stages.write),
}


def prefect_map(stage: Stage[Any, Any], items: Sequence[Any]) -> Iterator[Any]:
    """Each item as a run of the stage's task, on the flow's task runner; results as they complete."""
    run = TASKS[stage.name]
    futures = [
        run.submit(item, label=stage.label(item), key=stage.key(item) if stage.key else "") for item in items
    ]
    for future in as_completed(futures):
        yield future.result()


SCHEDULER_TIMEOUT_S = 10.0


def check_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT_S) -> None:
    """A Dask scheduler that cannot be reached is a plain ValueError naming it, within seconds, before the
    flow starts (Dask itself would wait 30 s and fail with a traceback from deep inside the flow)."""
    from distributed.comm import get_address_host_port

    try:
        host, port = get_address_host_port(address)
        socket.create_connection((host, port), timeout=timeout).close()
    except (ValueError, OSError) as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _task_runner(kind: str, dask_address: str | None, workers: int | None) -> Any:
    if kind == "thread":
        return ThreadPoolTaskRunner(max_workers=workers)
    if kind == "process":
        from prefect.task_runners import ProcessPoolTaskRunner

        return ProcessPoolTaskRunner(max_workers=workers, initializer=in_worker)
    if kind == "dask":
        from prefect_dask import DaskTaskRunner

        if dask_address:
            check_scheduler(dask_address)
            return DaskTaskRunner(address=dask_address)
        return DaskTaskRunner()
    raise ValueError(f"unknown task runner {kind!r}: expected {', '.join(TASK_RUNNERS)}")


def run_build(
    corpus: Path,
    out: Path,
    config: BuildConfig,
    *,
    prefer: str = "pdf",
    task_runner: str = "thread",
    dask_address: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    force: bool = False,
    reviews: Path | None = None,
    wait_s: float = 0.0,
) -> BuildSummary:
    """Run the build flow with the chosen task runner (the CLI's entry point).

    An unchanged corpus, configuration, code and review decisions are recognised before Prefect starts,
    so a scheduled or repeated build that has nothing to do costs a second, not a server start-up. The
    output folder is locked for the whole build: another build waits `wait_s` seconds, then stops with
    OutputBusyError.
    """
    with output_lock(Path(out), wait_s=wait_s):
        inputs = prepare(corpus, out, config, prefer, force, reviews)
        if inputs.up_to_date:
            return BuildSummary(config.version, None, inputs.fingerprint, up_to_date=True)
        if task_runner == "pool":  # the fast path: the same stages on a process pool, without Prefect
            return run_pool(inputs, config, workers=workers, progress=progress)
        flow_ = build.with_options(task_runner=_task_runner(task_runner, dask_address, workers))
        key = progress_callbacks.register(progress)
        try:
            with build_api():  # one API server for the build and its tasks, wherever they run
                # threads run the validation in this process, which can import GX beside the choice
                return flow_(inputs, config, progress_key=key, warm_validation=task_runner == "thread")
        finally:
            progress_callbacks.unregister(key)


@flow(name="gbtbench-build", validate_parameters=False, persist_result=False)
def build(
    inputs: BuildInputs, config: BuildConfig, progress_key: str = "", warm_validation: bool = False
) -> BuildSummary:
    """The stages of `flows.pipeline` as tasks; the release summary and type counts as artifacts."""
    summary = run_stages(
        inputs,
        config,
        map=prefect_map,
        progress=progress_callbacks.reporter(progress_key),
        logger=get_run_logger(),
        warm_validation=warm_validation,
    )
    create_markdown_artifact(release_summary(summary), key="release-summary", description="gbtbench release")
    if summary.output is not None:
        rows = type_count_rows(read_manifest(summary.output))
        create_table_artifact(rows, key="type-counts", description="errors per type in the release")
    return summary
