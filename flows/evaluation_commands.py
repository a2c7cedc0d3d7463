"""The `score` and `evaluate` commands: thin wrappers over the evaluation package (see flows.cli)."""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

if TYPE_CHECKING:  # the evaluation modules (numpy, pyarrow) load when a command runs, not on every CLI call
    from evaluation.benchmark import Benchmark
    from evaluation.predictions import DocumentPrediction
    from evaluation.runner import ReviewPrompt

err = Console(stderr=True, soft_wrap=True)


def _fail(exc: Exception, status: int = 2) -> typer.Exit:
    err.print(f"ERROR {exc}", markup=False)
    return typer.Exit(status)


def _print_scores(scores: dict, protocol: str) -> None:
    from evaluation.report import headline
    from evaluation.score import PROTOCOLS

    for name in (protocol, *(p for p in PROTOCOLS if p != protocol)):
        print(f"[{name}]")
        for line in headline(scores, name):
            print(f"  {line}")


def _report_input(scores: dict) -> None:
    inp = scores["input"]
    notes = {
        "missing": "without a prediction, scored as empty",
        "unparsable": "with unparsable output, scored as empty",
        "null": "answered null, left out of every denominator",
        "failed": "whose model call failed, scored as empty",
        "unknown": "predicted but not in the release, ignored",
    }
    for name, note in notes.items():
        if inp[name]["count"]:
            err.print(f"{inp[name]['count']} documents {note}", markup=False)
    partial = inp.get("partial", {"count": 0})
    if partial["count"]:
        err.print(
            f"{partial['count']} documents read in part: {partial['recovered']} of the {partial['seen']} "
            "errors their answers show were recovered",
            markup=False,
        )


def score_command(
    release_dir: Annotated[Path, typer.Argument(help="A release folder (outputs/<version>).")],
    predictions: Annotated[
        Path, typer.Argument(help="JSONL of predictions or raw outputs, or lm-eval --log_samples output.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print every figure (unrounded) as JSON.")] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write scores.json, report.md and the chart here.")
    ] = None,
    protocol: Annotated[
        str, typer.Option("--protocol", help="Headline protocol: gbtbench or reference (both are reported).")
    ] = "gbtbench",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap intervals.", min=0)] = 0,
    other_release: Annotated[
        bool,
        typer.Option(
            "--other-release", help="Score predictions made on another release of the same benchmark."
        ),
    ] = False,
) -> None:
    """Score predictions on a release under the reference protocol and ours."""
    import numpy as np

    from evaluation.benchmark import ReleaseError, load_benchmark
    from evaluation.predictions import PredictionsError, prediction_sets
    from evaluation.report import CHART_NAME, render_report, write_chart
    from evaluation.score import PROTOCOLS, ReleaseMismatchError, check_release, score

    if protocol not in PROTOCOLS:
        raise _fail(ValueError(f"--protocol must be one of {', '.join(PROTOCOLS)}, not {protocol!r}"))
    try:
        benchmark = load_benchmark(release_dir)
        sets = prediction_sets(predictions)
        for name, found in sets:
            where = str(predictions) if len(sets) == 1 else f"{predictions} ({name})"
            check_release(benchmark, found, where, other_release=other_release)
    except (ReleaseError, PredictionsError, ReleaseMismatchError) as exc:
        raise _fail(exc) from None
    scored = {name: score(benchmark, found, np.random.default_rng(seed)) for name, found in sets}
    if as_json:  # one set: its figures; an lm-eval group run: the figures of each task by name
        only = next(iter(scored.values())) if len(scored) == 1 else scored
        print(json.dumps(only, ensure_ascii=False, indent=1))
    for name, scores in scored.items():
        if not as_json:
            if len(scored) > 1:
                print(f"== {name} ==")
            _print_scores(scores, protocol)
        _report_input(scores)
        if out is not None:
            folder = out if len(scored) == 1 else out / name
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "scores.json").write_text(
                json.dumps(scores, ensure_ascii=False, indent=1) + "\n", "utf-8"
            )
            write_chart(scores, folder / CHART_NAME, f"{name} on {benchmark.version}")
            (folder / "report.md").write_text(render_report(scores, title=name), encoding="utf-8")


def _limited(benchmark: Benchmark, doc_ids: list[str]) -> Benchmark:
    wanted = set(doc_ids)
    return replace(benchmark, items=tuple(i for i in benchmark.items if i.doc_id in wanted))


def evaluate_command(
    release_dir: Annotated[Path, typer.Argument(help="A release folder (outputs/<version>).")],
    model: Annotated[str | None, typer.Option("--model", help="Model name at the endpoint.")] = None,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="OpenAI-compatible endpoint (default: GBTBENCH_LLM_BASE_URL)."),
    ] = None,
    shots: Annotated[
        str, typer.Option("--shots", help="0 or 1: the zero- or one-shot review prompts.")
    ] = "0",
    concurrency: Annotated[int, typer.Option("--concurrency", help="Requests in flight.", min=1)] = 8,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N documents.", min=1)] = None,
    baseline: Annotated[
        str | None, typer.Option("--baseline", help="Run a baseline instead: linter, random or empty.")
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Results go to OUT/<model>/<version>/.")] = Path(
        "evaluations"
    ),
    llm_cache: Annotated[
        Path | None,
        typer.Option("--llm-cache", help="SQLite cache (default: llm-cache.sqlite in the run folder)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the random baseline and the intervals.", min=0)
    ] = 0,
) -> None:
    """Run a model (or a baseline) on a release's review task, then score it under both protocols."""
    import numpy as np

    from evaluation.baselines import BASELINES, BaselineError, baseline_rng, run_baseline
    from evaluation.benchmark import ReleaseError, load_benchmark
    from evaluation.runner import review_prompts, run_folder, write_run

    if (model is None) == (baseline is None):
        raise _fail(ValueError("give either --model NAME or --baseline linter|random|empty"))
    try:
        benchmark = load_benchmark(release_dir, with_documents=baseline is not None)
    except ReleaseError as exc:
        raise _fail(exc) from None
    rng = baseline_rng(seed) if baseline is not None else np.random.default_rng(seed)
    results: list[tuple[DocumentPrediction, str | None]]  # each prediction with its raw answer, if any
    if baseline is not None:
        if baseline not in BASELINES:
            raise _fail(ValueError(f"--baseline must be one of {', '.join(BASELINES)}, not {baseline!r}"))
        if limit is not None:
            benchmark = replace(benchmark, items=benchmark.items[:limit])
        try:
            results = [(p, None) for p in run_baseline(baseline, benchmark, rng)]
        except BaselineError as exc:
            raise _fail(exc) from None
        name, meta = f"baseline-{baseline}", {"baseline": baseline, "seed": seed}
    else:
        assert model is not None
        try:
            prompts = review_prompts(release_dir, shots, limit)
        except ReleaseError as exc:
            raise _fail(exc) from None
        benchmark = _limited(benchmark, [p.doc_id for p in prompts])
        name = model
        results, meta = _run_model(model, base_url, prompts, shots, concurrency, llm_cache, out, benchmark)
    folder = run_folder(out, name, benchmark.version)
    scores = write_run(
        folder, benchmark, results, title=f"{name} on gbtbench {benchmark.version}", rng=rng, meta=meta
    )
    _print_scores(scores, "gbtbench")
    _report_input(scores)
    print(f"results in {folder}")
    if scores["input"]["failed"]["count"]:
        err.print("some calls failed for good: run the same command again to retry only those", markup=False)
        raise typer.Exit(1)


class _NoRulesHere(logging.Filter):
    """The client's "the remaining calls fall back to rules" is about building: `evaluate` has no rules
    to fall back to, it stops at a failed first request and counts later failures itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "fall back to rules" not in record.getMessage()


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
    from rich.progress import (  # here, like the evaluation modules: not on every CLI call
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from evaluation.runner import EndpointError, run_folder, run_model
    from evaluation.runner import Progress as RunProgress
    from injectors.llm.cache import LLMCache
    from injectors.llm.client import LLMClient
    from injectors.llm.config import LLMConfig, LLMConfigError

    # our defaults, unless GBTBENCH_LLM_* sets them (None leaves the environment's value)
    temperature = None if os.environ.get("GBTBENCH_LLM_TEMPERATURE") else 0.0
    response_format = None if os.environ.get("GBTBENCH_LLM_RESPONSE_FORMAT") else "none"
    try:
        config = LLMConfig.from_env(
            model=model,
            base_url=base_url,
            max_concurrency=concurrency,
            temperature=temperature,
            response_format=response_format,
        )
    except LLMConfigError as exc:
        raise _fail(exc) from None
    cache_path = llm_cache or run_folder(out, model, benchmark.version) / "llm-cache.sqlite"
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tokens]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    quiet = _NoRulesHere()
    logging.getLogger("injectors.llm.client").addFilter(quiet)
    with (
        LLMCache(cache_path) as cache,
        LLMClient(config, cache) as client,
        Progress(*columns, console=err, disable=not err.is_terminal) as bar,
    ):
        task = bar.add_task(f"reviewing with {model}", total=len(prompts), tokens="")

        def on_progress(p: RunProgress) -> None:
            bar.update(
                task,
                completed=p.done,
                tokens=f"{p.prompt_tokens} tokens in, {p.completion_tokens} out, {p.cached} cached",
            )

        try:
            results = run_model(
                prompts, client, shots=shots, concurrency=concurrency, on_progress=on_progress
            )
        except EndpointError as exc:
            logging.getLogger("injectors.llm.client").removeFilter(quiet)
            bar.stop()
            where = config.base_url or "the default endpoint"
            raise _fail(
                RuntimeError(
                    f"{where} (model {model}) failed the first request, so nothing was scored or "
                    f"written: {exc}"
                ),
                1,
            ) from None
        counts = client.stats.to_dict()
    logging.getLogger("injectors.llm.client").removeFilter(quiet)
    c, f = counts["counts"], counts["failures"]
    line = (
        f"LLM {model}: {len(prompts)} documents, {c.get('cache_hits', 0)} cache hits, "
        f"{c.get('requests', 0)} requests, {c.get('prompt_tokens', 0)} tokens in, "
        f"{c.get('completion_tokens', 0)} out"
    )
    if f:
        line += "; failures: " + ", ".join(f"{k} {v}" for k, v in f.items())
    err.print(line, markup=False)
    meta = {"model": model, "shots": int(shots), "prompt_id": "gbtbench-review@1", "llm": counts}
    print(f"cache {cache_path}", file=sys.stderr)
    return results, meta
