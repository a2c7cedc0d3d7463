"""The `evaluate` command: a model (or a baseline) run on a release's review task, then scored under both
protocols; `--method reviewer` and `--task correction` are run by their own modules."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from flows.cli.choices import Choices
from flows.cli.evaluate_correction import evaluate_corrections
from flows.cli.evaluate_reviewer import evaluate_reviewer
from flows.cli.model_calls import model_client, progress_bar, report_usage
from flows.cli.output_errors import reports_os_errors
from flows.cli.run_results import fail, finish_run

if TYPE_CHECKING:  # the evaluation modules (numpy, pyarrow) load when a command runs, not on every CLI call
    from evaluation.benchmark import Benchmark
    from evaluation.predictions import DocumentPrediction
    from evaluation.runner import ReviewPrompt


@reports_os_errors("out")
def evaluate_command(
    release_dir: Annotated[
        Path, typer.Argument(metavar="OUTPUT_DIR", help="A release folder (outputs/<version>).")
    ],
    model: Annotated[
        str | None, typer.Option("--model", metavar="NAME", help="Model name at the endpoint.")
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url", metavar="URL", help="OpenAI-compatible endpoint (default: GBTBENCH_LLM_BASE_URL)."
        ),
    ] = None,
    shots: Annotated[
        str,
        typer.Option(
            "--shots",
            click_type=Choices("evaluation.runner:SHOTS"),
            help="0 or 1: the zero- or one-shot review prompts.",
        ),
    ] = "0",
    concurrency: Annotated[
        int, typer.Option("--concurrency", metavar="N", help="Requests in flight.", min=1)
    ] = 8,
    limit: Annotated[
        int | None, typer.Option("--limit", metavar="N", help="Only the first N documents.", min=1)
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            click_type=Choices("evaluation.baselines:BASELINES"),
            help="Run a baseline instead: linter, random, empty or reviewer-rules.",
        ),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="Results go to OUT/<model>/<version>/.")
    ] = Path("evaluations"),
    llm_cache: Annotated[
        Path | None,
        typer.Option(
            "--llm-cache", metavar="FILE", help="SQLite cache (default: llm-cache.sqlite in the run folder)."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the random baseline and the intervals.", min=0)
    ] = 0,
    method: Annotated[
        str,
        typer.Option(
            "--method",
            click_type=Choices("evaluation:METHODS"),
            help="single: one review prompt per document; reviewer: the multi-agent reviewer.",
        ),
    ] = "single",
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            help="The reviewer's agent families (comma-separated): direct, dimension, type, rules.",
            metavar="FAMILIES",
        ),
    ] = "direct,dimension,type,rules",
    threshold: Annotated[
        float,
        typer.Option(
            "--threshold",
            metavar="T",
            help="The reviewer keeps a fused finding scoring at least this.",
            min=0,
        ),
    ] = 0.5,
    task: Annotated[
        str,
        typer.Option(
            "--task",
            click_type=Choices("evaluation:TASKS"),
            help="review: find the errors; correction: rewrite each corrupted section (verified).",
        ),
    ] = "review",
) -> None:
    """Run a model (or a baseline) on a release's review task, then score it under both protocols."""
    import numpy as np

    from evaluation.baselines import BASELINES, BaselineError, baseline_rng, run_baseline
    from evaluation.benchmark import ReleaseError, load_benchmark
    from evaluation.runner import review_prompts, run_folder, write_run

    if task == "correction":
        if model is None or baseline is not None or method != "single":
            raise fail(
                ValueError("--task correction runs a model: give --model NAME (no baseline, no reviewer)")
            )
        evaluate_corrections(release_dir, model, base_url, shots, concurrency, limit, out, llm_cache)
        return
    if method == "reviewer":
        if baseline is not None:
            raise fail(ValueError("--method reviewer runs agents, not a baseline: leave out --baseline"))
        evaluate_reviewer(
            release_dir, model, base_url, agents, threshold, concurrency, limit, out, llm_cache, seed
        )
        return
    if (model is None) == (baseline is None):
        raise fail(ValueError(f"give either --model NAME or --baseline {'|'.join(BASELINES)}"))
    try:
        benchmark = load_benchmark(release_dir, with_documents=baseline is not None)
    except ReleaseError as exc:
        raise fail(exc) from None
    rng = baseline_rng(seed) if baseline is not None else np.random.default_rng(seed)
    results: list[tuple[DocumentPrediction, str | None]]  # each prediction with its raw answer, if any
    if baseline is not None:
        benchmark = benchmark.first(limit)
        try:
            results = [(p, None) for p in run_baseline(baseline, benchmark, rng)]
        except BaselineError as exc:
            raise fail(exc) from None
        name, meta = f"baseline-{baseline}", {"baseline": baseline, "seed": seed}
    else:
        assert model is not None
        try:
            prompts = review_prompts(release_dir, shots, limit)
        except ReleaseError as exc:
            raise fail(exc) from None
        benchmark = benchmark.only(p.doc_id for p in prompts)
        name = model
        results, meta = _run_model(model, base_url, prompts, shots, concurrency, llm_cache, out, benchmark)
    folder = run_folder(out, name, benchmark.version)
    scores = write_run(
        folder, benchmark, results, title=f"{name} on gbtbench {benchmark.version}", rng=rng, meta=meta
    )
    finish_run(scores, folder)


def _run_model(
    model: str,
    base_url: str | None,
    prompts: list[ReviewPrompt],
    shots: str,
    concurrency: int,
    llm_cache: Path | None,
    out: Path,
    benchmark: Benchmark,
) -> tuple[list[tuple[DocumentPrediction, str | None]], dict[str, Any]]:
    """The model's answers through the project's client and cache, with a progress bar on a terminal."""
    from evaluation.runner import Progress as RunProgress
    from evaluation.runner import model_meta, run_folder, run_model

    cache_path = llm_cache or run_folder(out, model, benchmark.version) / "llm-cache.sqlite"
    with (
        model_client(model, base_url, concurrency, cache_path) as client,
        progress_bar(f"reviewing with {model}", len(prompts)) as update,
    ):

        def on_progress(p: RunProgress) -> None:
            update(p.done, f"{p.prompt_tokens} tokens in, {p.completion_tokens} out, {p.cached} cached")

        results = run_model(prompts, client, shots=shots, concurrency=concurrency, on_progress=on_progress)
        counts = client.stats.to_dict()
    report_usage(model, f"{len(prompts)} documents", counts)
    meta = model_meta(model, shots, counts)
    print(f"cache {cache_path}", file=sys.stderr)
    return results, meta
