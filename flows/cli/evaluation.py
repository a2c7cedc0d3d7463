"""The `score` and `evaluate` commands: thin wrappers over the evaluation package (see flows.cli)."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from flows.cli.choices import Choices
from flows.cli.console import FAILED, UNUSABLE, error
from flows.cli.output_errors import reports_os_errors

if TYPE_CHECKING:  # the evaluation modules (numpy, pyarrow) load when a command runs, not on every CLI call
    from evaluation.benchmark import Benchmark
    from evaluation.predictions import DocumentPrediction
    from evaluation.runner import ReviewPrompt
    from injectors.llm.client import LLMClient

err = Console(stderr=True, soft_wrap=True)


def _fail(exc: Exception, status: int = UNUSABLE) -> typer.Exit:
    error(str(exc))
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


@reports_os_errors("out")
def score_command(
    release_dir: Annotated[
        Path, typer.Argument(metavar="OUTPUT_DIR", help="A release folder (outputs/<version>).")
    ],
    predictions: Annotated[
        Path,
        typer.Argument(
            metavar="PREDICTIONS",
            help="JSONL of predictions or raw outputs, or lm-eval --log_samples output.",
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print every figure (unrounded) as JSON.")] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="DIR", help="Also write scores.json, report.md and the chart here."),
    ] = None,
    protocol: Annotated[
        str,
        typer.Option(
            "--protocol",
            click_type=Choices("evaluation.score:PROTOCOLS"),
            help="Headline protocol: gbtbench or reference (both are reported).",
        ),
    ] = "gbtbench",
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the bootstrap intervals.", min=0)
    ] = 0,
    task: Annotated[
        str,
        typer.Option(
            "--task",
            click_type=Choices("evaluation:TASKS"),
            help="review: error lists; correction: corrected sections, verified by each type's checker.",
        ),
    ] = "review",
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
    from evaluation.score import ReleaseMismatchError, check_release, score

    if task == "correction":
        _score_corrections(release_dir, predictions, as_json, out)
        return
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
            _write_scores(out if len(scored) == 1 else out / name, scores, name, benchmark.version)


def _write_scores(folder: Path, scores: dict, name: str, version: str) -> None:
    """scores.json, the chart and report.md, written together or not at all."""
    from evaluation.report import CHART_NAME, render_report, write_chart
    from flows.cli.output_errors import one_line, write_together

    text = json.dumps(scores, ensure_ascii=False, indent=1) + "\n"
    report = render_report(scores, title=name)
    with one_line(folder):
        write_together(
            folder,
            {
                "scores.json": lambda p: p.write_text(text, encoding="utf-8"),
                CHART_NAME: lambda p: write_chart(scores, p, f"{name} on {version}"),
                "report.md": lambda p: p.write_text(report, encoding="utf-8"),
            },
        )


def _score_corrections(release_dir: Path, answers_file: Path, as_json: bool, out: Path | None) -> None:
    """`score --task correction`: verified correction, chrF and exact match of a corrections file."""
    from evaluation.correction import (
        CorrectionInputError,
        read_corrections,
        score_corrections,
    )

    try:
        scores = score_corrections(release_dir, read_corrections(answers_file))
    except CorrectionInputError as exc:
        raise _fail(exc) from None
    _print_corrections(scores, as_json)
    if not scores["answered"]:
        raise _fail(ValueError(f"{answers_file}: no answer matches a correction row of {release_dir}"))
    if out is not None:
        _write_corrections(out, scores, "Correction")


def _write_corrections(folder: Path, scores: dict, title: str) -> None:
    """scores.json and report.md of a correction run, written together or not at all."""
    from evaluation.correction import correction_lines
    from flows.cli.output_errors import one_line, write_together

    text = json.dumps(scores, ensure_ascii=False, indent=1) + "\n"
    report = "\n".join([f"# {title}", "", *(f"    {line}" for line in correction_lines(scores))]) + "\n"
    with one_line(folder):
        write_together(
            folder,
            {
                "scores.json": lambda p: p.write_text(text, encoding="utf-8"),
                "report.md": lambda p: p.write_text(report, encoding="utf-8"),
            },
        )


def _print_corrections(scores: dict, as_json: bool) -> None:
    from evaluation.correction import correction_lines

    if as_json:
        print(json.dumps(scores, ensure_ascii=False, indent=1))
    else:
        print("\n".join(correction_lines(scores)))


def _limited(benchmark: Benchmark, doc_ids: list[str]) -> Benchmark:
    wanted = set(doc_ids)
    return replace(benchmark, items=tuple(i for i in benchmark.items if i.doc_id in wanted))


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
            raise _fail(
                ValueError("--task correction runs a model: give --model NAME (no baseline, no reviewer)")
            )
        _evaluate_corrections(release_dir, model, base_url, shots, concurrency, limit, out, llm_cache)
        return
    if method == "reviewer":
        if baseline is not None:
            raise _fail(ValueError("--method reviewer runs agents, not a baseline: leave out --baseline"))
        _evaluate_reviewer(
            release_dir, model, base_url, agents, threshold, concurrency, limit, out, llm_cache, seed
        )
        return
    if (model is None) == (baseline is None):
        raise _fail(ValueError(f"give either --model NAME or --baseline {'|'.join(BASELINES)}"))
    try:
        benchmark = load_benchmark(release_dir, with_documents=baseline is not None)
    except ReleaseError as exc:
        raise _fail(exc) from None
    rng = baseline_rng(seed) if baseline is not None else np.random.default_rng(seed)
    results: list[tuple[DocumentPrediction, str | None]]  # each prediction with its raw answer, if any
    if baseline is not None:
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
        error("some calls failed for good: run the same command again to retry only those")
        raise typer.Exit(FAILED)


class _NoRulesHere(logging.Filter):
    """The client's "the remaining calls fall back to rules" is about building: `evaluate` has no rules
    to fall back to, it stops at a failed first request and counts later failures itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "fall back to rules" not in record.getMessage()


@contextmanager
def _llm_client(model: str, base_url: str | None, concurrency: int, cache_path: Path) -> Iterator[LLMClient]:
    """The project's client and cache for an evaluation, with our defaults unless GBTBENCH_LLM_* sets them;
    a run whose first request fails (EndpointError) stops with the server's message and scores nothing."""
    from evaluation.runner import EndpointError
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
    quiet = _NoRulesHere()
    logging.getLogger("injectors.llm.client").addFilter(quiet)
    try:
        with LLMCache(cache_path) as cache, LLMClient(config, cache) as client:
            yield client
    except EndpointError as exc:
        where = config.base_url or "the default endpoint"
        message = f"{where} (model {model}) failed the first request, so nothing was scored or written: {exc}"
        raise _fail(RuntimeError(message)) from None
    finally:
        logging.getLogger("injectors.llm.client").removeFilter(quiet)


@contextmanager
def _progress_bar(description: str, total: int) -> Iterator[Callable[..., None]]:
    """A progress bar on a terminal (nothing otherwise); yields update(done, tokens text[, total])."""
    from rich.progress import (  # here, like the evaluation modules: not on every CLI call
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tokens]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, disable=not err.is_terminal) as bar:
        task = bar.add_task(description, total=total, tokens="")
        yield lambda done, tokens, total=None: bar.update(task, completed=done, tokens=tokens, total=total)


def _llm_summary(model: str, what: str, counts: dict[str, Any]) -> None:
    c, f = counts["counts"], counts["failures"]
    line = (
        f"LLM {model}: {what}, {c.get('cache_hits', 0)} cache hits, "
        f"{c.get('requests', 0)} requests, {c.get('prompt_tokens', 0)} tokens in, "
        f"{c.get('completion_tokens', 0)} out"
    )
    if f:
        line += "; failures: " + ", ".join(f"{k} {v}" for k, v in f.items())
    err.print(line, markup=False)  # a summary, not an error


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
    from evaluation.runner import run_folder, run_model

    cache_path = llm_cache or run_folder(out, model, benchmark.version) / "llm-cache.sqlite"
    with (
        _llm_client(model, base_url, concurrency, cache_path) as client,
        _progress_bar(f"reviewing with {model}", len(prompts)) as update,
    ):

        def on_progress(p: RunProgress) -> None:
            update(p.done, f"{p.prompt_tokens} tokens in, {p.completion_tokens} out, {p.cached} cached")

        results = run_model(prompts, client, shots=shots, concurrency=concurrency, on_progress=on_progress)
        counts = client.stats.to_dict()
    _llm_summary(model, f"{len(prompts)} documents", counts)
    meta = {"model": model, "shots": int(shots), "prompt_id": "gbtbench-review@1", "llm": counts}
    print(f"cache {cache_path}", file=sys.stderr)
    return results, meta


def _evaluate_reviewer(
    release_dir: Path,
    model: str | None,
    base_url: str | None,
    agents: str,
    threshold: float,
    concurrency: int,
    limit: int | None,
    out: Path,
    llm_cache: Path | None,
    seed: int,
) -> None:
    """`evaluate --method reviewer`: the multi-agent reviewer on every document, fused, then scored."""
    import numpy as np

    from evaluation.benchmark import ReleaseError, load_benchmark
    from evaluation.reviewer.agents import LLM_FAMILIES, PROMPT_VERSION, AgentsError, parse_families
    from evaluation.reviewer.run import run_reviewer, usage_by_document, usage_table, usage_totals
    from evaluation.runner import run_folder, write_run

    try:
        families = parse_families(agents)
        benchmark = load_benchmark(release_dir, with_documents=True)
    except (AgentsError, ReleaseError) as exc:
        raise _fail(exc) from None
    if limit is not None:
        benchmark = replace(benchmark, items=benchmark.items[:limit])
    uses_llm = any(f in LLM_FAMILIES for f in families)
    if uses_llm and model is None:
        raise _fail(ValueError(f"--agents {','.join(families)} includes LLM agents: give --model NAME"))
    label = f"{model or 'rules'}-reviewer-{'-'.join(families)}"
    meta: dict[str, Any] = {
        "method": "reviewer",
        "agents": list(families),
        "threshold": threshold,
        "prompt_version": PROMPT_VERSION,
        "seed": seed,
    }

    def review(client: LLMClient | None, update: Callable[..., None]) -> list[Any]:
        return run_reviewer(
            benchmark.items,
            client,
            families,
            threshold=threshold,
            concurrency=concurrency,
            seed=seed,
            on_progress=lambda p: update(p.done, "agent calls", p.total),
        )

    if uses_llm:
        assert model is not None
        cache_path = llm_cache or run_folder(out, model, benchmark.version) / "llm-cache.sqlite"
        with (
            _llm_client(model, base_url, concurrency, cache_path) as client,
            _progress_bar(f"reviewer agents with {model}", 0) as update,
        ):
            reviewed = review(client, update)
            counts = client.stats.to_dict()
        _llm_summary(model, f"{len(benchmark.items)} documents, reviewer agents {','.join(families)}", counts)
        meta.update(model=model, llm=counts)
        print(f"cache {cache_path}", file=sys.stderr)
    else:
        reviewed = review(None, lambda *_: None)
    meta["usage"] = usage_totals(reviewed)
    folder = run_folder(out, label, benchmark.version)
    appendix = "\n\n".join(
        [
            "## Reviewer agents",
            "Requests and tokens per document, by agent family (mean over the documents):",
            usage_table(reviewed),
            "Each document:",
            usage_by_document(reviewed),
        ]
    )
    scores = write_run(
        folder,
        benchmark,
        [(r.prediction, None) for r in reviewed],
        title=f"{label} on gbtbench {benchmark.version}",
        rng=np.random.default_rng(seed),
        meta=meta,
        rows=[r.row() for r in reviewed],
        appendix=appendix,
    )
    _print_scores(scores, "gbtbench")
    _report_input(scores)
    print(f"results in {folder}")
    if scores["input"]["failed"]["count"]:
        error("some calls failed for good: run the same command again to retry only those")
        raise typer.Exit(FAILED)


def _evaluate_corrections(
    release_dir: Path,
    model: str,
    base_url: str | None,
    shots: str,
    concurrency: int,
    limit: int | None,
    out: Path,
    llm_cache: Path | None,
) -> None:
    """`evaluate --task correction`: the model rewrites each corrupted section; each answer is verified."""
    from evaluation.correction import (
        CorrectionInputError,
        correction_requests,
        score_corrections,
    )
    from evaluation.runner import answered_first, run_folder

    try:
        rows, requests = correction_requests(release_dir, shots, limit)
    except CorrectionInputError as exc:
        raise _fail(exc) from None
    version = json.loads((release_dir / "manifest.json").read_text(encoding="utf-8")).get("version", "")
    version = str(version or release_dir.resolve().name)
    cache_path = llm_cache or run_folder(out, model, version) / "llm-cache.sqlite"
    with _llm_client(model, base_url, concurrency, cache_path) as client:
        answers = answered_first(client, requests)
        counts = client.stats.to_dict()
    _llm_summary(model, f"{len(rows)} corrections", counts)
    outputs = {}
    lines = []
    for row, answer in zip(rows, answers, strict=True):
        record: dict[str, Any] = {"id": row["id"], "doc_id": row["doc_id"]}
        if isinstance(answer, Exception):
            record["error"] = str(getattr(answer, "reason", answer))
        else:
            outputs[row["id"]] = record["output"] = answer.content
        lines.append(json.dumps(record, ensure_ascii=False))
    folder = run_folder(out, f"{model}-correction", version)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "predictions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if not outputs:
        raise _fail(
            ValueError(f"no correction was answered: nothing to score (see {folder / 'predictions.jsonl'})")
        )
    scores = score_corrections(release_dir, outputs)
    scores["run"] = {"model": model, "shots": int(shots), "llm": counts}
    _write_corrections(folder, scores, f"{model}: correction on gbtbench {version}")
    _print_corrections(scores, False)
    print(f"results in {folder}")
    if len(outputs) < len(rows):
        error(f"{len(rows) - len(outputs)} calls failed for good: run the same command again")
        raise typer.Exit(FAILED)
