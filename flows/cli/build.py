"""`gbtbench build`: a dataset from a corpus, on a process pool (the default) or as a Prefect flow, with a
progress bar per stage."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from flows.cli.choices import Choices
from flows.cli.common_options import DEFAULT_CORPUS, DEFAULT_OUT, Seed, parse_range
from flows.cli.console import FAILED, UNUSABLE, err, error, progress_bar
from flows.cli.llm_options import LLMMode, LLMTypes, llm_settings
from flows.cli.output_errors import reports_os_errors
from flows.runtime.collector import build_finished

if TYPE_CHECKING:
    from rich.progress import TaskID


@reports_os_errors("out")
def build(
    corpus: Annotated[
        Path,
        typer.Option("--corpus", metavar="DIR", help="Folder of standards (a manifest picks one file each)."),
    ] = DEFAULT_CORPUS,
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="Root of the versioned outputs.")
    ] = DEFAULT_OUT,
    seed: Seed = 0,
    version: Annotated[
        str | None, typer.Option("--version", metavar="vX.Y.Z", help="Version label (default: next patch).")
    ] = None,
    errors: Annotated[
        str, typer.Option("--errors", metavar="MIN-MAX", help="Range of errors per document.")
    ] = "10-18",
    llm: LLMMode = "none",
    llm_types: LLMTypes = None,
    task_runner: Annotated[
        str,
        typer.Option(
            "--task-runner",
            click_type=Choices("flows.executors:TASK_RUNNERS"),
            help="pool (processes, no Prefect; the fastest), or a Prefect flow: thread, process, dask.",
        ),
    ] = "pool",
    dask_address: Annotated[
        str | None,
        typer.Option("--dask-address", metavar="tcp://HOST:PORT", help="Scheduler of a Dask cluster."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", min=1, metavar="N", help="Worker processes or threads (default: one per core)."
        ),
    ] = None,
    prefer: Annotated[
        str, typer.Option("--prefer", metavar="FORMAT", help="Format to read from a manifest corpus.")
    ] = "pdf",
    verbose: Annotated[bool, typer.Option("--verbose", help="Show Prefect's logs.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Build a new version even if nothing changed.")
    ] = False,
    license_id: Annotated[
        str | None,
        typer.Option(
            "--license",
            metavar="ID",
            help="Data licence in the card, e.g. cc-by-4.0 (default: cc-by-4.0 for the project's corpus, "
            "'other' for any other corpus, which the card calls third-party standards).",
        ),
    ] = None,
    reviews: Annotated[
        Path | None,
        typer.Option(
            "--reviews", metavar="FILE", help="Review database to apply (default: OUT/reviews.sqlite)."
        ),
    ] = None,
    wait: Annotated[
        float,
        typer.Option(
            "--wait", metavar="SECONDS", help="Seconds to wait for another build of the same --out."
        ),
    ] = 0.0,
    llm_fallback: Annotated[
        bool,
        typer.Option(
            "--llm-fallback",
            help="With --llm openai: if the endpoint fails its first request, build with the rule templates "
            "instead of stopping (the manifest records it).",
        ),
    ] = False,
) -> None:
    """Build a validated, versioned dataset from a corpus (no network and no LLM needed by default)."""
    from flows.runtime import settings

    settings.configure(out / ".cache", verbose=verbose)
    from flows.executors.api_server import ServerStartError
    from injectors.planner import PlanConfig
    from release.config import BuildConfig
    from release.lock import OutputBusyError
    from release.writer import next_version

    lo, hi = parse_range(errors)
    llm_config = llm_settings(llm, llm_types, (out / ".cache" / "llm-cache.sqlite").resolve())
    try:  # the one configuration of the build, checked here before anything starts
        from release.license import data_license

        data_licence, third_party = data_license(corpus, license_id)
        config = BuildConfig(
            seed=seed,
            version=version or next_version(out),
            plan=PlanConfig(min_errors=lo, max_errors=hi),
            llm=llm_config,
            license=data_licence,
            third_party_corpus=third_party,
        )
    except ValueError as exc:
        error(str(exc))
        raise typer.Exit(UNUSABLE) from None
    if llm_config.mode != "none":
        config = _checked_endpoint(config, llm_fallback)
    with progress_bar(show=err.is_terminal) as bar:
        tasks: dict[str, TaskID] = {}

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        # the same build on either executor; only the Prefect flow takes a task runner and a cluster
        shared: dict[str, Any] = dict(
            workers=workers, prefer=prefer, force=force, reviews=reviews, wait_s=wait, progress=report
        )
        try:
            if task_runner == "pool":  # no Prefect at all: nothing to import or start
                from flows.executors.pool import build_on_pool

                summary = build_on_pool(corpus, out, config, **shared)
            else:
                from flows.executors.prefect_flow import run_build

                if not verbose:
                    settings.quiet_run_failures()

                summary = run_build(
                    corpus, out, config, task_runner=task_runner, dask_address=dask_address, **shared
                )
        except (
            ValueError,
            FileExistsError,
            OutputBusyError,
            ServerStartError,
        ) as exc:  # before any stage ran
            error(str(exc))
            raise typer.Exit(UNUSABLE) from None
    build_finished()
    if summary.up_to_date:
        err.print("corpus, configuration and code unchanged since the latest version: nothing to build")
        return
    for bad in summary.bad_inputs:
        error(f"{bad['source']}: {bad['reason']}")
    if summary.output is None:
        error("nothing usable: no document could be parsed")
        raise typer.Exit(UNUSABLE)
    err.print(
        f"built {summary.version}: {summary.documents} documents, {summary.instances} errors, "
        f"{len(summary.bad_inputs)} bad inputs → {summary.output} ({summary.timings.get('total', 0):.1f} s)",
        highlight=False,
    )
    if summary.critical_failures:
        err.print("critical expectations failed: " + ", ".join(summary.critical_failures))
    if summary.documents == 0 or summary.critical_failures:
        raise typer.Exit(FAILED)


def _checked_endpoint(config: Any, fallback: bool) -> Any:
    """The config to build with once the endpoint answered one request; without an answer, stop, or
    with --llm-fallback go on with the rule templates and say so in the config (hence the manifest)."""
    from dataclasses import replace

    from flows.cli.llm_check import endpoint_problem
    from injectors.llm.settings import LLMSettings

    problem = endpoint_problem(config.llm)
    if problem is None:
        return config
    where = config.llm.base_url or "the default endpoint"
    if not fallback:
        error(
            f"the LLM endpoint {where} (model {config.llm.model}) failed a first request: {problem}. "
            "Fix GBTBENCH_LLM_*, or pass --llm-fallback to build with the rule templates instead."
        )
        raise typer.Exit(UNUSABLE)
    err.print(
        f"WARNING: the LLM endpoint {where} failed a first request ({problem}); building with the rule "
        "templates, as --llm-fallback asks (recorded in the manifest)",
        markup=False,
        highlight=False,
    )
    reason = (
        f"{config.llm.mode} endpoint {where} (model {config.llm.model}) failed a first request: {problem}"
    )
    return replace(config, llm=LLMSettings(), llm_fallback=reason)
