"""The Prefect build flow: parse → scan → candidates → balanced choice → assemble → validate → write.

Tasks are thin wrappers over the plain-Python stages. Their cache keys are content addresses (file hash,
configuration, seed, code version), never source text alone, so a rebuild with nothing changed does no
work, a killed build resumes from its cached tasks, and one changed file reprocesses that document (and,
when its references, terms or scope changed, the documents whose templates draw on them).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.futures import as_completed
from prefect.task_runners import ThreadPoolTaskRunner

from flows import progress as progress_callbacks
from flows.fingerprint import code_version, combine
from flows.llm import shared_rewriter
from flows.progress import Progress
from injectors.context import InjectionContext
from injectors.planner import Candidates, InjectionResult, PlanConfig, candidate_instances, choose, finalize
from parsers.corpus import corpus_files
from parsers.deadline import parse_with_deadline
from parsers.duplicates import split_duplicates
from parsers.errors import ParseError
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.model import Document
from release.config import BuildConfig
from release.lock import output_lock
from release.writer import file_hash, latest_fingerprint, write_release
from review.decisions import REVIEWS_NAME, ReviewDecisions, card_section, load_decisions
from review.store import ReviewStoreError


@dataclass(frozen=True)
class ParsedFile:
    path: str
    document: Document | None = None
    error: str = ""


@dataclass
class BuildSummary:
    version: str
    output: Path | None
    fingerprint: str
    documents: int = 0
    instances: int = 0
    bad_inputs: list[dict[str, str]] = field(default_factory=list)
    up_to_date: bool = False
    critical_failures: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


def _parse_key(_: Any, params: dict[str, Any]) -> str:
    limits = combine([repr(params.get("limits"))])  # raising a limit parses a refused file again
    return f"parse-{params['digest']}-{combine([params['path']])}-{params['code']}-{limits}"


@task(name="parse", cache_key_fn=_parse_key, persist_result=True)
def parse_task(path: str, digest: str, code: str, limits: ParseLimits = DEFAULT_LIMITS) -> ParsedFile:
    """A bad file becomes a record with its reason, so the rest of the build goes on; each file is parsed
    in a worker process stopped at `limits.seconds`."""
    try:
        return ParsedFile(path, document=parse_with_deadline(path, limits))
    except ParseError as exc:
        return ParsedFile(path, error=exc.reason)


def _candidates_key(_: Any, params: dict[str, Any]) -> str:
    parts = [params["document"].doc_id, params["context_digest"], params["plan_digest"], params["llm_digest"]]
    parts.append(str(params["seed"]))
    return "candidates-" + "-".join([*parts, params["code"]])


@task(name="inject", cache_key_fn=_candidates_key, persist_result=True)
def candidates_task(
    document: Document,
    context: InjectionContext,
    plan: PlanConfig,
    seed: int,
    llm: tuple[str, tuple[str, ...], str],
    context_digest: str,
    plan_digest: str,
    llm_digest: str,
    code: str,
) -> Candidates:
    """`llm` is (mode, types, cache path): each worker process opens its own rewriter from it."""
    return candidate_instances(document, seed, context, plan, shared_rewriter(*llm))


def _relative(path: str, root: Path) -> str:
    """Paths in a release are relative to the corpus, so nothing about the build machine leaks."""
    try:
        return str(Path(path).relative_to(root))
    except ValueError:
        return Path(path).name


def file_digests(files: list[Path]) -> dict[Path, str]:
    return {p: file_hash(p) for p in files}


def build_fingerprint(
    digests: dict[Path, str], config: BuildConfig, reviews: ReviewDecisions | None = None
) -> str:
    """Same corpus bytes, configuration, code and review decisions: same dataset, no new version needed."""
    parts = [config.fingerprint(), code_version(), *(f"{p.name}:{d}" for p, d in digests.items())]
    if reviews is not None:  # review: decisions change the build; none leave fingerprints as they were
        parts.append(f"reviews:{reviews.digest()}")
    return combine(parts)


def read_reviews(reviews: Path | None, out: Path) -> ReviewDecisions | None:
    """The review decisions a build applies (default: reviews.sqlite next to the outputs)."""
    try:
        return load_decisions(reviews if reviews is not None else Path(out) / REVIEWS_NAME, Path(out))
    except ReviewStoreError as exc:
        raise ValueError(str(exc)) from None


def _task_runner(kind: str, dask_address: str | None, workers: int | None) -> Any:
    if kind == "thread":
        return ThreadPoolTaskRunner(max_workers=workers)
    if kind == "process":
        from prefect.task_runners import ProcessPoolTaskRunner

        return ProcessPoolTaskRunner(max_workers=workers)
    if kind == "dask":
        from prefect_dask import DaskTaskRunner

        return DaskTaskRunner(address=dask_address) if dask_address else DaskTaskRunner()
    raise ValueError(f"unknown task runner {kind!r}: expected thread, process or dask")


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

    The output folder is locked for the whole build: another build waits `wait_s` seconds for it, then
    stops with OutputBusyError.

    An unchanged corpus, configuration and code is recognised before Prefect starts, so a scheduled or
    repeated build that has nothing to do costs a second, not a server start-up.
    """
    corpus, out = Path(corpus).resolve(), Path(out).resolve()
    # what would only fail inside the flow (with Prefect's traceback) is checked here, with a plain message
    if not corpus.is_dir():
        raise ValueError(f"{corpus}: corpus folder not found")
    files = corpus_files(corpus, prefer)
    if not files:
        raise ValueError(f"{corpus}: no standards found (.pdf .docx .md .txt)")
    PlanConfig(config.min_errors, config.max_errors, config.types)
    ParseLimits.from_env()  # a malformed GBTBENCH_PARSE_* fails here, plainly
    decisions = read_reviews(reviews, out)
    with output_lock(out, wait_s=wait_s, clock=time.monotonic, sleep=time.sleep):
        if not force:
            fingerprint = build_fingerprint(file_digests(files), config, decisions)
            if latest_fingerprint(Path(out)) == fingerprint:
                return BuildSummary(config.version, None, fingerprint, up_to_date=True)
        runner = _task_runner(task_runner, dask_address, workers)
        flow_ = build.with_options(task_runner=runner)
        key = progress_callbacks.register(progress)
        try:
            return flow_(
                corpus, out, config, prefer=prefer, progress_key=key, force=force, decisions=decisions
            )
        finally:
            progress_callbacks.unregister(key)


@flow(name="gbtbench-build", validate_parameters=False, persist_result=False)
def build(
    corpus: Path,
    out: Path,
    config: BuildConfig,
    prefer: str = "pdf",
    progress_key: str = "",
    force: bool = False,
    decisions: ReviewDecisions | None = None,
) -> BuildSummary:
    report = progress_callbacks.reporter(progress_key)
    started = time.perf_counter()
    timings: dict[str, float] = {}
    files = corpus_files(Path(corpus), prefer)
    if not files:
        raise ValueError(f"{corpus}: no standards found (.pdf .docx .md .txt)")
    digests = file_digests(files)
    fingerprint = build_fingerprint(digests, config, decisions)
    if not force and latest_fingerprint(Path(out)) == fingerprint:
        return BuildSummary(config.version, None, fingerprint, up_to_date=True)
    code = code_version()

    parsed: list[ParsedFile] = []
    limits = ParseLimits.from_env()
    futures = [parse_task.submit(str(p), digest, code, limits) for p, digest in digests.items()]
    for done, future in enumerate(as_completed(futures), 1):
        parsed.append(future.result())
        report("parse", done, len(files))
    parsed.sort(key=lambda p: p.path)
    kept, duplicates = split_duplicates(
        [(_relative(p.path, Path(corpus)), p.document) for p in parsed if p.document is not None]
    )
    documents = sorted((d for _, d in kept), key=lambda d: d.doc_id)
    bad_inputs = [
        {"source": _relative(p.path, Path(corpus)), "reason": p.error} for p in parsed if p.document is None
    ] + [{"source": d.source, "reason": d.reason} for d in duplicates]
    timings["parse"] = time.perf_counter() - started
    if not documents:  # nothing usable: the caller reports every bad input and fails
        return BuildSummary(config.version, None, fingerprint, bad_inputs=bad_inputs, timings=timings)

    context = InjectionContext.from_documents(documents)
    llm = (config.llm, tuple(config.llm_types), str(Path(out) / ".cache" / "llm-cache.sqlite"))
    rewriter = shared_rewriter(*llm)
    if rewriter is not None:
        rewriter.start_stage()
    llm_digest = rewriter.fingerprint() if rewriter is not None else "none"
    plan = PlanConfig(config.min_errors, config.max_errors, config.types)
    context_digest = context.digest()
    plan_digest = combine([repr(plan)])
    step = time.perf_counter()
    candidates: list[Candidates] = []
    futures = [
        candidates_task.submit(
            doc, context, plan, config.seed, llm, context_digest, plan_digest, llm_digest, code
        )
        for doc in documents
    ]
    for done, future in enumerate(as_completed(futures), 1):
        candidates.append(future.result())
        report("inject", done, len(documents))
    candidates.sort(key=lambda c: c.document.doc_id)
    timings["inject"] = time.perf_counter() - step

    step = time.perf_counter()
    counts: Counter[str] = Counter()
    results: list[InjectionResult] = []
    for done, c in enumerate(candidates, 1):
        chosen = choose(c, config.seed, plan, counts)
        if decisions is not None:  # review: rejected instances are replaced by other candidates
            chosen = decisions.replace_rejected(c, chosen, counts)
        result = finalize(c, chosen)
        if decisions is not None:  # review: fixed descriptions, types and locations as fixed
            result = decisions.with_fixes(result)
        if len(result.instances) >= plan.min_errors:
            results.append(result)
        else:  # too little structure to carry a benchmark item: left out and reported, not shipped short
            reason = (
                f"only {len(result.instances)} errors could be injected (at least {plan.min_errors} needed)"
            )
            bad_inputs.append({"source": _relative(c.document.source, Path(corpus)), "reason": reason})
            counts.subtract(i.error_type for i in result.instances)
        report("assemble", done, len(candidates))
    timings["assemble"] = time.perf_counter() - step

    step = time.perf_counter()
    report("write", 0, 1)
    review_report = decisions.report(results) if decisions is not None else None
    written = write_release(
        results,
        config,
        Path(out),
        bad_inputs=bad_inputs,
        llm_stats=rewriter.summary() if rewriter is not None else None,
        timings=timings,
        code_version=code,
        fingerprint=fingerprint,
        review=review_report,
        card_extra=card_section(review_report) if review_report is not None else "",
    )
    report("write", 1, 1)
    timings["write"] = time.perf_counter() - step
    timings["total"] = time.perf_counter() - started
    return BuildSummary(
        version=config.version,
        output=written.path,
        fingerprint=fingerprint,
        documents=len(results),
        instances=sum(len(r.instances) for r in results),
        bad_inputs=bad_inputs,
        critical_failures=written.critical_failures,
        timings=timings,
    )
