"""The build as plain Python: parse → context → candidates → balanced choice → assemble → validate → write.

`build_dataset(corpus, out, config, map=...)` is the whole build, with no Prefect in it. `map` is how an
executor runs one stage over its items (yielding each result as it completes, in any order); the default
runs them here, one after the other (the protocol and the executors: `flows.executors`). `run_stages` is
one small function per stage, each returning a frozen record that the next one reads.

Whether anything changed since the latest release (same corpus bytes, configuration and code) is
decided once, by `prepare`, before any stage runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from flows.executors import Map, in_process
from flows.fingerprint import code_version, combine
from flows.injection_budget import InjectionBudget
from flows.llm import shared_rewriter
from flows.progress import Progress, silent
from flows.runtime.collector import fewer_collections
from flows.stages import (
    ASSEMBLE,
    CHOOSE,
    INJECT,
    PARSE,
    VALIDATE,
    WRITE,
    AssembleInput,
    ChooseInput,
    InjectInput,
    ParsedFile,
    ParseInput,
    ValidateInput,
    WriteInput,
)
from flows.work_cache import WorkCache
from injectors.context import ContextPart, InjectionContext
from parsers.corpus import corpus_listing
from parsers.duplicates import split_duplicates
from parsers.limits import ParseLimits
from parsers.model import Document
from release.config import BuildConfig
from release.lock import output_lock
from release.manifest import latest_fingerprint
from release.parquet import file_hash
from release.versions import check_version, refuse_existing
from review.decisions import REVIEWS_NAME, ReviewDecisions, load_decisions
from review.store import ReviewStoreError
from validation import gx_process

if TYPE_CHECKING:  # the release writer is imported by the stages that use it
    from injectors.balance import BalancedChoice
    from injectors.llm.rewriter import LLMRewriter
    from release.stored_results import StoredResults
    from release.writer import ValidatedRelease, WrittenRelease

T = TypeVar("T")
log = logging.getLogger("gbtbench.build")


@dataclass(frozen=True)
class BuildInputs:
    """The corpus files of a build, their hashes, the review decisions it applies, and the fingerprint that
    says whether anything changed."""

    corpus: Path
    out: Path
    files: tuple[Path, ...]
    digests: tuple[str, ...]
    fingerprint: str
    up_to_date: bool
    decisions: ReviewDecisions | None = None
    skipped: tuple[dict[str, str], ...] = ()  # corpus entries that are not files to read, with the reason


@dataclass(frozen=True)
class ParsedDocument:
    """What a build keeps of a parsed document: the document itself is in the work cache (`key`)."""

    path: str
    doc_id: str
    standard_id: str
    key: str
    part: ContextPart  # what it adds to the injection context

    @classmethod
    def of(cls, path: str, document: Document, work: WorkCache) -> ParsedDocument:
        key = work.put_document(document)
        return cls(path, document.doc_id, document.standard_id, key, ContextPart.of(document))


@dataclass(frozen=True)
class BuildSummary:
    version: str
    output: Path | None
    fingerprint: str
    documents: int = 0
    instances: int = 0
    bad_inputs: tuple[dict[str, str], ...] = ()
    up_to_date: bool = False
    critical_failures: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)


def build_fingerprint(
    files: Sequence[Path], digests: Sequence[str], config: BuildConfig, reviews: ReviewDecisions | None = None
) -> str:
    """Same corpus bytes, configuration, code and review decisions: same dataset, no new version needed."""
    named = (f"{p.name}:{d}" for p, d in zip(files, digests, strict=True))
    parts = [config.fingerprint(), code_version(), *named]
    if reviews is not None:  # decisions change the build; none leave the fingerprint as it was
        parts.append(f"reviews:{reviews.digest()}")
    return combine(parts)


def read_reviews(reviews: Path | None, out: Path) -> ReviewDecisions | None:
    """The review decisions a build applies (default: reviews.sqlite next to the outputs)."""
    try:
        return load_decisions(reviews if reviews is not None else Path(out) / REVIEWS_NAME, Path(out))
    except ReviewStoreError as exc:
        raise ValueError(str(exc)) from None


def prepare(
    corpus: Path,
    out: Path,
    config: BuildConfig,
    prefer: str = "pdf",
    force: bool = False,
    reviews: Path | None = None,
) -> BuildInputs:
    """List and hash the corpus once, read the review decisions, and decide whether the latest release
    already has these inputs.

    A missing or empty corpus, a malformed GBTBENCH_PARSE_* or GBTBENCH_INJECT_*, or an unreadable review
    database is a ValueError with a plain message, and a version that exists already (or names no folder)
    is refused, before any executor starts: a build never works for minutes to fail at its last step. The
    write stage checks the version again (another build may have written it meanwhile).
    """
    corpus, out = Path(corpus).resolve(), Path(out).resolve()
    if not corpus.is_dir():
        raise ValueError(f"{corpus}: corpus folder not found")
    listing = corpus_listing(corpus, prefer)
    files = listing.files
    if not files:
        raise ValueError(f"{corpus}: no standards found (.pdf .docx .md .txt)")
    ParseLimits.from_env()
    InjectionBudget.from_env()
    decisions = read_reviews(reviews, out)
    digests = tuple(file_hash(p) for p in files)
    fingerprint = build_fingerprint(files, digests, config, decisions)
    up_to_date = not force and latest_fingerprint(out) == fingerprint
    if not up_to_date:
        check_version(config.version)
        refuse_existing(out / config.version)
    skipped = tuple({"source": s.source, "reason": s.reason} for s in listing.skipped)
    return BuildInputs(corpus, out, files, digests, fingerprint, up_to_date, decisions, skipped)


def _relative(path: str, root: Path) -> str:
    """Paths in a release are relative to the corpus, so nothing about the build machine leaks."""
    try:
        return str(Path(path).relative_to(root))
    except ValueError:
        return Path(path).name


def _only(results: Iterator[T]) -> T:
    (result,) = list(results)
    return result


Logger = logging.Logger | logging.LoggerAdapter[Any]


class _Laps:
    """The time each stage took, for the manifest."""

    def __init__(self) -> None:
        self.started = self._step = time.perf_counter()
        self.timings: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name], self._step = now - self._step, now


@dataclass(frozen=True)
class _Run:
    """What every stage of one build reads: its inputs and configuration, the executor, where it reports,
    and the work cache its workers share."""

    inputs: BuildInputs
    config: BuildConfig
    map: Map
    report: Progress
    say: Logger
    work: WorkCache
    code: str


@dataclass(frozen=True)
class Parsed:
    """The parse stage's record: the documents kept (each in the work cache) and the bad inputs so far."""

    documents: tuple[ParsedDocument, ...]  # by doc_id, duplicates left out
    bad_inputs: tuple[dict[str, str], ...]


def parse_stage(run: _Run) -> Parsed:
    """Each corpus file parsed (by the executor); unreadable files and duplicates become bad inputs.

    Each document goes to the work cache as it is parsed, and this process keeps only a small record of it:
    holding the whole corpus until the context is made would keep it for the rest of the build."""
    inputs = run.inputs
    limits, budget = ParseLimits.from_env(), InjectionBudget.from_env()
    pairs = zip(inputs.files, inputs.digests, strict=True)
    items = [ParseInput(str(p), d, run.code, limits, budget) for p, d in pairs]
    parsed: list[ParsedDocument] = []
    unreadable: list[ParsedFile] = []
    for done, one in enumerate(run.map(PARSE, items), 1):
        if one.document is None:
            unreadable.append(one)
        else:
            parsed.append(ParsedDocument.of(one.path, one.document, run.work))
        run.report("parse", done, len(items))
    parsed.sort(key=lambda p: p.path)
    kept, duplicates = split_duplicates([(_relative(p.path, inputs.corpus), p) for p in parsed])
    documents = tuple(sorted((d for _, d in kept), key=lambda d: d.doc_id))
    bad_inputs = (
        *inputs.skipped,
        *(
            {"source": _relative(p.path, inputs.corpus), "reason": p.error}
            for p in sorted(unreadable, key=lambda p: p.path)
        ),
        *({"source": d.source, "reason": d.reason} for d in duplicates),
    )
    run.say.info("parse: %d of %d files parsed, %d unreadable", len(documents), len(items), len(bad_inputs))
    return Parsed(documents, bad_inputs)


@dataclass(frozen=True)
class Injections:
    """The context stage's record: one injection job per document, and the build's LLM rewriter (if any)."""

    jobs: tuple[InjectInput, ...]
    rewriter: LLMRewriter | None


def context_stage(run: _Run, documents: Sequence[ParsedDocument]) -> Injections:
    """The corpus-wide injection context, stored in the work cache (each worker reads it from there), and
    the rewriter whose deadline and circuit breaker start now."""
    context = InjectionContext.from_parts(d.part for d in documents)
    llm = run.config.llm
    if not llm.cache_path:  # a build keeps the answers of its own runs beside its outputs
        llm = llm.with_cache(run.inputs.out / ".cache" / "llm-cache.sqlite")
    rewriter = shared_rewriter(llm)
    if rewriter is not None:
        rewriter.start_stage()
    context_key, context_digest = run.work.put_context(context), context.digest()
    llm_digest = rewriter.fingerprint() if rewriter is not None else "none"
    config = run.config
    jobs = tuple(
        InjectInput(
            work=str(run.work.root),
            document_key=d.key,
            standard_id=d.standard_id,
            doc_id=d.doc_id,
            context_key=context_key,
            context_digest=context_digest,
            plan=config.plan,
            seed=config.seed,
            llm=llm,
            llm_digest=llm_digest,
            code=run.code,
        )
        for d in documents
    )
    return Injections(jobs, rewriter)


@dataclass(frozen=True)
class Candidates:
    """The inject stage's record: each document's candidates stay in the work cache (the worker put them
    there); only their keys come back."""

    keys: tuple[str, ...]  # WorkCache.put_candidates keys, in doc_id order
    sources: Mapping[str, str]  # doc_id → its file
    found: int  # candidate errors in all documents


def inject_stage(run: _Run, jobs: Sequence[InjectInput]) -> Candidates:
    """Every verified error each document can take (by the executor)."""
    keys: dict[str, str] = {}
    sources: dict[str, str] = {}
    found = 0
    by_doc = {job.doc_id: job for job in jobs}
    for done, one in enumerate(run.map(INJECT, jobs), 1):
        if not run.work.has_candidates(
            one.key
        ):  # a result kept elsewhere (Prefect's store) outlived the cache
            one = INJECT.run(by_doc[one.doc_id])
        keys[one.doc_id], sources[one.doc_id] = one.key, one.source
        found += one.found
        run.report("inject", done, len(jobs))
    run.say.info("inject: %d candidate errors in %d documents", found, len(keys))
    return Candidates(tuple(keys[doc_id] for doc_id in sorted(keys)), sources, found)


def choose_stage(run: _Run, candidates: Candidates) -> BalancedChoice:
    """The corpus-wide balanced choice (the review decisions replace rejected errors)."""
    item = ChooseInput(
        str(run.work.root), candidates.keys, run.config.seed, run.config.plan, run.inputs.decisions
    )
    choice = _only(run.map(CHOOSE, [item]))
    chosen = sum(len(v) for v in choice.chosen.values())
    n_docs, left_out = len(choice.chosen), len(choice.dropped)
    run.say.info("choose: %d errors for %d documents, %d left out", chosen, n_docs, left_out)
    return choice


def left_out(run: _Run, candidates: Candidates, choice: BalancedChoice) -> tuple[dict[str, str], ...]:
    """The documents the choice left out (too little structure to carry a benchmark item), as bad inputs."""
    return tuple(
        {"source": _relative(candidates.sources[doc_id], run.inputs.corpus), "reason": reason}
        for doc_id, reason in choice.dropped.items()
    )


def assemble_stage(run: _Run, candidates: Candidates, choice: BalancedChoice) -> StoredResults:
    """Each kept document with its chosen errors applied, stored in the work cache."""
    item = AssembleInput(str(run.work.root), candidates.keys, choice, run.inputs.decisions)
    results = _only(run.map(ASSEMBLE, [item]))
    run.say.info("assemble: %d documents, %d errors", len(results), sum(results.instances))
    return results


def validate_stage(run: _Run, results: StoredResults, warm_validation: bool) -> ValidatedRelease:
    """The release's tables, checked; a large one validated in GX's own process (see `run_stages`)."""
    own_process = warm_validation and len(results) >= gx_process.WORTH_IT_FROM
    validated = _only(
        run.map(VALIDATE, [ValidateInput(results, run.config, str(run.inputs.out), own_process)])
    )
    outcome = validated.validation
    run.say.info(
        "validate: %d critical and %d other expectations failed",
        len(outcome.critical_failures),
        len(outcome.non_critical_failures),
    )
    return validated


def write_stage(run: _Run, item: WriteInput) -> WrittenRelease:
    """The release written and, when usable, made the latest."""
    written = _only(run.map(WRITE, [item]))
    run.say.info("write: %s (%s)", written.path, "latest" if written.success else "not made latest")
    return written


def run_stages(
    inputs: BuildInputs,
    config: BuildConfig,
    *,
    map: Map = in_process,
    progress: Progress | None = None,
    logger: Logger | None = None,
    warm_validation: bool = False,
) -> BuildSummary:
    """Every stage of a build whose inputs are known to have changed (see `prepare`), in order.

    `warm_validation`: `map` runs a stage of one item (choose, assemble, validate) in this process, so the
    validation of a large corpus (`gx_process.WORTH_IT_FROM` documents) may start GX's own process, which
    imports GX while the tables are built (`validation.gx_process`)."""
    code = code_version()
    work = WorkCache(inputs.out / ".cache" / "work" / code)
    run = _Run(inputs, config, map, progress or silent, logger or log, work, code)
    laps = _Laps()
    parsed = parse_stage(run)
    bad_inputs = list(parsed.bad_inputs)
    laps.lap("parse")
    if not parsed.documents:  # nothing usable: the caller reports every bad input and fails
        return BuildSummary(
            config.version, None, inputs.fingerprint, bad_inputs=parsed.bad_inputs, timings=laps.timings
        )
    injections = context_stage(run, parsed.documents)
    del parsed  # the context is in the work cache now: the documents' records are not needed here
    laps.lap("context")
    candidates = inject_stage(run, injections.jobs)
    laps.lap("inject")
    try:
        run.report("assemble", 0, 1)
        choice = choose_stage(run, candidates)
        bad_inputs.extend(left_out(run, candidates, choice))
        laps.lap("choose")
        results = assemble_stage(run, candidates, choice)
        del choice  # every chosen error with its sections: the results hold them now
        run.report("assemble", 1, 1)
        laps.lap("assemble")
        run.report("write", 0, 1)
        validated = validate_stage(run, results, warm_validation)
        laps.lap("validate")
    finally:
        gx_process.stop()  # GX's process, when the validation started one and stopped before using it
    rewriter, decisions = injections.rewriter, inputs.decisions
    llm_stats = rewriter.summary() if rewriter is not None else None
    review = decisions.report(validated.tables.instances, inputs.out) if decisions is not None else None
    item = WriteInput(
        validated, tuple(bad_inputs), llm_stats, dict(laps.timings), code, inputs.fingerprint, review
    )
    written = write_stage(run, item)
    run.report("write", 1, 1)
    laps.lap("write")
    laps.timings["total"] = time.perf_counter() - laps.started
    return BuildSummary(
        version=config.version,
        output=written.path,
        fingerprint=inputs.fingerprint,
        documents=len(results),
        instances=sum(results.instances),
        bad_inputs=tuple(bad_inputs),
        critical_failures=tuple(written.critical_failures),
        timings=laps.timings,
    )


def build_dataset(
    corpus: Path,
    out: Path,
    config: BuildConfig,
    *,
    map: Map = in_process,
    prefer: str = "pdf",
    force: bool = False,
    reviews: Path | None = None,
    wait_s: float = 0.0,
    progress: Progress | None = None,
    logger: logging.Logger | None = None,
    warm_validation: bool | None = None,
) -> BuildSummary:
    """Build `out/<config.version>/` from `corpus`, or say that nothing changed (`up_to_date`).

    The output folder is locked for the whole build: another build waits `wait_s` seconds for it, then
    stops with OutputBusyError. `warm_validation` as in `run_stages` (default: when `map` is the default,
    which runs everything here).
    """
    with output_lock(Path(out), wait_s=wait_s):
        inputs = prepare(corpus, out, config, prefer, force, reviews)
        if inputs.up_to_date:
            return BuildSummary(config.version, None, inputs.fingerprint, up_to_date=True)
        with fewer_collections():
            warm = map is in_process if warm_validation is None else warm_validation
            return run_stages(inputs, config, map=map, progress=progress, logger=logger, warm_validation=warm)
