"""The steps of a build, one per stage: each runs its stage through the executor (`flows.executors.Map`),
reports and logs, and returns a frozen record that the next step reads. `flows.pipeline.run_stages` calls
them in order; none of them knows which executor runs it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from flows.build_inputs import BuildInputs
from flows.executors import Map
from flows.injection_budget import InjectionBudget
from flows.llm import shared_rewriter
from flows.progress import Progress
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
from parsers.duplicates import split_duplicates
from parsers.limits import ParseLimits
from parsers.model import Document
from release.config import BuildConfig
from validation import gx_process

if TYPE_CHECKING:  # the release writer is imported by the stages that use it
    from injectors.balance import BalancedChoice
    from injectors.llm.rewriter import LLMRewriter
    from release.stored_results import StoredResults
    from release.writer import ValidatedRelease, WrittenRelease

T = TypeVar("T")


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


@dataclass(frozen=True)
class StageRun:
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


def parse_stage(run: StageRun) -> Parsed:
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


def context_stage(run: StageRun, documents: Sequence[ParsedDocument]) -> Injections:
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


def inject_stage(run: StageRun, jobs: Sequence[InjectInput]) -> Candidates:
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


def choose_stage(run: StageRun, candidates: Candidates) -> BalancedChoice:
    """The corpus-wide balanced choice (the review decisions replace rejected errors)."""
    item = ChooseInput(
        str(run.work.root), candidates.keys, run.config.seed, run.config.plan, run.inputs.decisions
    )
    choice = _only(run.map(CHOOSE, [item]))
    chosen = sum(len(v) for v in choice.chosen.values())
    n_docs, left_out = len(choice.chosen), len(choice.dropped)
    run.say.info("choose: %d errors for %d documents, %d left out", chosen, n_docs, left_out)
    return choice


def left_out(run: StageRun, candidates: Candidates, choice: BalancedChoice) -> tuple[dict[str, str], ...]:
    """The documents the choice left out (too little structure to carry a benchmark item), as bad inputs."""
    return tuple(
        {"source": _relative(candidates.sources[doc_id], run.inputs.corpus), "reason": reason}
        for doc_id, reason in choice.dropped.items()
    )


def assemble_stage(run: StageRun, candidates: Candidates, choice: BalancedChoice) -> StoredResults:
    """Each kept document with its chosen errors applied, stored in the work cache."""
    item = AssembleInput(str(run.work.root), candidates.keys, choice, run.inputs.decisions)
    results = _only(run.map(ASSEMBLE, [item]))
    run.say.info("assemble: %d documents, %d errors", len(results), sum(results.instances))
    return results


def validate_stage(run: StageRun, results: StoredResults, warm_validation: bool) -> ValidatedRelease:
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


def write_stage(run: StageRun, item: WriteInput) -> WrittenRelease:
    """The release written and, when usable, made the latest."""
    written = _only(run.map(WRITE, [item]))
    run.say.info("write: %s (%s)", written.path, "latest" if written.success else "not made latest")
    return written
