"""The build as plain Python: parse → context → candidates → balanced choice → assemble → validate → write.

`build_dataset(corpus, out, config, map=...)` is the whole build, with no Prefect in it. `map` is how an
executor runs one stage over its items (yielding each result as it completes, in any order); the default
runs them here, one after the other. The Prefect flow (`flows/build.py`) passes a `map` that runs each
item as a named task, and adds nothing else.

Whether anything changed since the latest release (same corpus bytes, configuration and code) is
decided once, by `prepare`, before any stage runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from flows.collector import fewer_collections
from flows.fingerprint import code_version, combine
from flows.injection_budget import InjectionBudget
from flows.llm import shared_rewriter
from flows.progress import Progress, silent
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
    Stage,
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

T = TypeVar("T")
Map = Callable[[Stage[Any, Any], Sequence[Any]], Iterator[Any]]
log = logging.getLogger("gbtbench.build")


def in_process(stage: Stage[Any, T], items: Sequence[Any]) -> Iterator[T]:
    """The default executor: each item in turn, in this process."""
    for item in items:
        yield stage.run(item)


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


def run_stages(
    inputs: BuildInputs,
    config: BuildConfig,
    *,
    map: Map = in_process,
    progress: Progress | None = None,
    logger: logging.Logger | logging.LoggerAdapter[Any] | None = None,
    warm_validation: bool = False,
) -> BuildSummary:
    """Every stage of a build whose inputs are known to have changed (see `prepare`).

    `warm_validation`: `map` runs a stage of one item (choose, assemble, validate) in this process, so the
    validation of a large corpus (`gx_process.WORTH_IT_FROM` documents) may start GX's own process, which
    imports GX while the tables are built (`validation.gx_process`)."""
    report, say = progress or silent, logger or log
    started = step = time.perf_counter()
    timings: dict[str, float] = {}

    def lap(name: str) -> None:
        nonlocal step
        timings[name] = time.perf_counter() - step
        step = time.perf_counter()

    code = code_version()
    limits, budget = ParseLimits.from_env(), InjectionBudget.from_env()
    items = [
        ParseInput(str(p), d, code, limits, budget) for p, d in zip(inputs.files, inputs.digests, strict=True)
    ]
    # each document goes to the work cache as it is parsed, and this process keeps only a small record of
    # it: holding the corpus until the context was made left 60 MB more here at 500 documents than at 100,
    # for the rest of the build
    work = WorkCache(inputs.out / ".cache" / "work" / code)
    parsed: list[ParsedDocument] = []
    unreadable: list[ParsedFile] = []
    for done, one in enumerate(map(PARSE, items), 1):
        if one.document is None:
            unreadable.append(one)
        else:
            parsed.append(ParsedDocument.of(one.path, one.document, work))
        report("parse", done, len(items))
    parsed.sort(key=lambda p: p.path)
    kept, duplicates = split_duplicates([(_relative(p.path, inputs.corpus), p) for p in parsed])
    documents = sorted((d for _, d in kept), key=lambda d: d.doc_id)
    bad_inputs = (
        [*inputs.skipped]
        + [
            {"source": _relative(p.path, inputs.corpus), "reason": p.error}
            for p in sorted(unreadable, key=lambda p: p.path)
        ]
        + [{"source": d.source, "reason": d.reason} for d in duplicates]
    )
    lap("parse")
    say.info("parse: %d of %d files parsed, %d unreadable", len(documents), len(items), len(bad_inputs))
    if not documents:  # nothing usable: the caller reports every bad input and fails
        return BuildSummary(
            config.version, None, inputs.fingerprint, bad_inputs=tuple(bad_inputs), timings=timings
        )

    context = InjectionContext.from_parts(d.part for d in documents)
    llm = config.llm
    if not llm.cache_path:  # a build keeps the answers of its own runs beside its outputs
        llm = llm.with_cache(inputs.out / ".cache" / "llm-cache.sqlite")
    rewriter = shared_rewriter(llm)
    if rewriter is not None:
        rewriter.start_stage()  # the LLM stage's deadline and circuit breaker start now
    context_key = work.put_context(context)
    context_digest = context.digest()
    llm_digest = rewriter.fingerprint() if rewriter is not None else "none"
    lap("context")
    jobs = [
        InjectInput(
            work=str(work.root),
            document_key=d.key,
            standard_id=d.standard_id,
            doc_id=d.doc_id,
            context_key=context_key,
            context_digest=context_digest,
            plan=config.plan,
            seed=config.seed,
            llm=llm,
            llm_digest=llm_digest,
            code=code,
        )
        for d in documents
    ]
    # the context is in the work cache now, and each worker reads it from there
    del parsed, kept, documents, context
    # each document's candidates are in the work cache (the worker put them there): only their keys here
    keys: dict[str, str] = {}
    sources: dict[str, str] = {}
    found = 0
    by_doc = {job.doc_id: job for job in jobs}
    for done, one in enumerate(map(INJECT, jobs), 1):
        if not work.has_candidates(one.key):  # a result kept elsewhere (Prefect's store) outlived this cache
            one = INJECT.run(by_doc[one.doc_id])
        keys[one.doc_id], sources[one.doc_id] = one.key, one.source
        found += one.found
        report("inject", done, len(jobs))
    candidates = tuple(keys[doc_id] for doc_id in sorted(keys))
    lap("inject")
    say.info("inject: %d candidate errors in %d documents", found, len(candidates))

    try:
        report("assemble", 0, 1)
        decisions = inputs.decisions
        choose_input = ChooseInput(str(work.root), candidates, config.seed, config.plan, decisions)
        choice = _only(map(CHOOSE, [choose_input]))
        for doc_id, reason in choice.dropped.items():  # too little structure to carry a benchmark item
            bad_inputs.append({"source": _relative(sources[doc_id], inputs.corpus), "reason": reason})
        lap("choose")
        chosen = sum(len(v) for v in choice.chosen.values())
        n_chosen_docs, left_out = len(choice.chosen), len(choice.dropped)
        say.info("choose: %d errors for %d documents, %d left out", chosen, n_chosen_docs, left_out)
        results = _only(map(ASSEMBLE, [AssembleInput(str(work.root), candidates, choice, decisions)]))
        del choice  # every chosen error with its sections (50 MB at 500 documents): the results hold them now
        report("assemble", 1, 1)
        lap("assemble")
        say.info("assemble: %d documents, %d errors", len(results), sum(results.instances))

        report("write", 0, 1)
        own_process = warm_validation and len(results) >= gx_process.WORTH_IT_FROM
        validate_input = ValidateInput(results, config, str(inputs.out), own_process)
        validated = _only(map(VALIDATE, [validate_input]))
        lap("validate")
        outcome = validated.validation
        say.info(
            "validate: %d critical and %d other expectations failed",
            len(outcome.critical_failures),
            len(outcome.non_critical_failures),
        )
    finally:
        gx_process.stop()  # GX's process, when the validation started one and stopped before using it
    llm_stats = rewriter.summary() if rewriter is not None else None
    review = decisions.report(validated.tables.instances, inputs.out) if decisions is not None else None
    fingerprint = inputs.fingerprint
    item = WriteInput(validated, tuple(bad_inputs), llm_stats, dict(timings), code, fingerprint, review)
    written = _only(map(WRITE, [item]))
    report("write", 1, 1)
    lap("write")
    timings["total"] = time.perf_counter() - started
    say.info("write: %s (%s)", written.path, "latest" if written.success else "not made latest")
    return BuildSummary(
        version=config.version,
        output=written.path,
        fingerprint=inputs.fingerprint,
        documents=len(results),
        instances=sum(results.instances),
        bad_inputs=tuple(bad_inputs),
        critical_failures=tuple(written.critical_failures),
        timings=timings,
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
