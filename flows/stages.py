"""The stages of a build as plain functions of one small, frozen input each, plus their names and keys.

Each stage is what an executor runs as one unit of work (a Prefect task, a thread, a process): `parse`
and `inject` run once per file and per document, `choose`, `assemble`, `validate` and `write` once per
build. Inputs are small (paths, digests, keys into the work cache) where the work is per item; the
cacheable stages have content-addressed keys (file hash, configuration, seed, code version).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from flows.fingerprint import combine
from flows.injection_budget import DEFAULT_BUDGET, InjectionBudget
from flows.llm import shared_rewriter
from flows.work_cache import WorkCache
from injectors.balance import BalancedChoice, choose_balanced
from injectors.language.cache_sizes import forget_all
from injectors.llm.settings import LLMSettings
from injectors.planner import Candidates, InjectionResult, PlanConfig, candidate_instances, finalize
from parsers.deadline import parse_with_deadline
from parsers.errors import ParseError
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.model import Document
from parsers.structure_quality import gate
from release.beside import beside
from release.config import BuildConfig
from release.stored_results import StoredResults
from review.decisions import ReviewDecisions, card_section
from validation import gx_process

if TYPE_CHECKING:  # the release writer (GX, scikit-learn, matplotlib) is imported by the once-per-build
    # stages that use it, not by every worker that parses and injects
    from release.writer import ValidatedRelease, WrittenRelease

In = TypeVar("In")
Out = TypeVar("Out")


@dataclass(frozen=True)
class Stage(Generic[In, Out]):
    """A named step: `run` does the work, `label` names one run of it, `key` (if any) caches it."""

    name: str
    run: Callable[[In], Out]
    label: Callable[[In], str]
    key: Callable[[In], str] | None = None


@dataclass(frozen=True)
class ParseInput:
    path: str
    digest: str  # sha256 of the file's bytes
    code: str  # code version
    limits: ParseLimits = DEFAULT_LIMITS  # raising a limit parses a refused file again (it is in the key)
    budget: InjectionBudget = DEFAULT_BUDGET  # as the limits: a document over it is refused here


@dataclass(frozen=True)
class ParsedFile:
    path: str
    document: Document | None = None
    error: str = ""


def parse(item: ParseInput) -> ParsedFile:
    """A bad file becomes a record with its reason, so the rest of the build goes on; each file is parsed
    in a worker process stopped at `limits.seconds`. A document whose structure fails the parse gate is a
    bad file too: nothing is injected into a broken parse, nor into a document over the injection budget
    (`flows.injection_budget`), which would hold the build for minutes."""
    try:
        document = parse_with_deadline(item.path, item.limits)
        gate(document)
    except ParseError as exc:
        return ParsedFile(item.path, error=exc.reason)
    over = item.budget.exceeded(document)
    return ParsedFile(item.path, error=over) if over else ParsedFile(item.path, document=document)


@dataclass(frozen=True)
class InjectInput:
    """One document's injection: keys into the work cache instead of the document and the context."""

    work: str  # the work cache folder
    document_key: str
    standard_id: str
    doc_id: str
    context_key: str  # the stored context (with document ids)
    context_digest: str  # what the templates can draw on (the cache key: survives a body edit)
    plan: PlanConfig
    seed: int
    llm: LLMSettings
    llm_digest: str
    code: str


@dataclass(frozen=True)
class Injected:
    """One document's injection as the build keeps it: its candidates stay in the work cache, where the
    worker put them (sending them back would pickle every document's candidates twice more)."""

    doc_id: str
    source: str
    key: str  # WorkCache.put_candidates
    found: int  # candidate errors


def inject(item: InjectInput) -> Injected:
    """Every verified error the document can take (the expensive, cached part of a build)."""
    cache = WorkCache(Path(item.work))
    document, context = cache.document(item.document_key), cache.context(item.context_key)
    found = candidate_instances(document, item.seed, context, item.plan, shared_rewriter(item.llm))
    return Injected(document.doc_id, document.source, cache.put_candidates(found), len(found.instances))


@dataclass(frozen=True)
class ChooseInput:
    """Keys of every document's candidates in the work cache (never the candidates: a task parameter is
    copied and, in Prefect, walked)."""

    work: str
    candidates: tuple[str, ...]  # WorkCache.put_candidates keys, in doc_id order
    seed: int
    plan: PlanConfig
    decisions: ReviewDecisions | None = None  # human review: rejected instances are replaced


def _candidates(work: str, keys: Sequence[str]) -> list[Candidates]:
    cache = WorkCache(Path(work))
    return [cache.candidates(k) for k in keys]


def choose(item: ChooseInput) -> BalancedChoice:
    """The corpus-wide choice; for a large corpus in a process of its own (`release.beside`), which ends
    with it: reading every document's candidates leaves a process holding the memory it took for them,
    which the rest of the build would carry to its end."""
    with beside(_choose, item, worth_it=len(item.candidates) >= APART_FROM) as choosing:
        return choosing.result()


def _choose(item: ChooseInput) -> BalancedChoice:
    adjust = item.decisions.replace_rejected if item.decisions is not None else None
    return choose_balanced(_candidates(item.work, item.candidates), item.seed, item.plan, adjust)


# documents from which the choice and the assembly run in a process of their own: below, starting one
# (its imports) costs more than the memory it gives back
APART_FROM = 50


@dataclass(frozen=True)
class AssembleInput:
    work: str
    candidates: tuple[str, ...]  # as in ChooseInput
    choice: BalancedChoice
    decisions: ReviewDecisions | None = None  # human review: fixed descriptions, types and locations


def assemble(item: AssembleInput) -> StoredResults:
    """Each kept document with its chosen errors applied together, stored in the work cache as it is done
    (one document's candidates read, and one result held, at a time); the release reads them back. For a
    large corpus in a process of its own, as the choice: the linter's dictionaries and its caches of the
    corpus's text end with it."""
    with beside(_assemble, item, worth_it=len(item.candidates) >= APART_FROM) as assembling:
        return assembling.result()


def _assemble(item: AssembleInput) -> StoredResults:
    cache, chosen = WorkCache(Path(item.work)), item.choice.chosen

    def assembled() -> Iterator[InjectionResult]:
        for key in item.candidates:
            candidates = cache.candidates(key)
            if candidates.document.doc_id in chosen:
                result = finalize(candidates, list(chosen[candidates.document.doc_id]))
                yield item.decisions.with_fixes(result) if item.decisions is not None else result

    stored = cache.put_results(assembled())
    if len(item.candidates) >= FORGET_FROM:
        forget_all()  # the release needs the memory more than the analyses of text that is finished with
    return stored


# A build of this many documents empties the injectors' caches after assembly, which lowers the release's
# peak (`python -m bench.build` shows it). A smaller build's caches are small, and the next build in the
# same process (a flow, a test) reads the same text again.
FORGET_FROM = 50


@dataclass(frozen=True)
class ValidateInput:
    results: StoredResults
    config: BuildConfig
    out: str
    # the validation runs in this process: start GX's own (`validation.gx_process`) first, so that its import
    # overlaps the tables
    warm_validation: bool = False


def validate(item: ValidateInput) -> ValidatedRelease:
    from release.writer import validate_release_contents

    if item.warm_validation:
        gx_process.start()
    return validate_release_contents(item.results, item.config, Path(item.out))


@dataclass(frozen=True)
class WriteInput:
    validated: ValidatedRelease
    bad_inputs: tuple[Mapping[str, str], ...]
    llm_stats: Mapping[str, Any] | None
    timings: Mapping[str, float] = field(default_factory=dict)
    code: str = "unknown"
    fingerprint: str | None = None
    review: Mapping[str, Any] | None = None  # what the human review decided (for the manifest)


def write(item: WriteInput) -> WrittenRelease:
    from release.writer import write_validated

    return write_validated(
        item.validated,
        bad_inputs=item.bad_inputs,
        llm_stats=item.llm_stats,
        timings=item.timings,
        code_version=item.code,
        fingerprint=item.fingerprint,
        review=item.review,
        card_extra=card_section(item.review) if item.review is not None else "",
    )


def _parse_label(item: ParseInput) -> str:
    return f"parse {Path(item.path).name}"


def _parse_key(item: ParseInput) -> str:
    limits = combine([repr(item.limits), repr(item.budget)])
    return f"parse-{item.digest}-{combine([item.path])}-{item.code}-{limits}"


def _inject_label(item: InjectInput) -> str:
    return f"inject {item.standard_id or item.doc_id}"


def _inject_key(item: InjectInput) -> str:
    parts = [item.doc_id, item.context_digest, combine([repr(item.plan)]), item.llm_digest, str(item.seed)]
    return "candidates-" + "-".join([*parts, item.code])


def _named(name: str) -> Callable[[Any], str]:
    return lambda _: name


PARSE: Stage[ParseInput, ParsedFile] = Stage("parse", parse, _parse_label, _parse_key)
INJECT: Stage[InjectInput, Injected] = Stage("inject", inject, _inject_label, _inject_key)
CHOOSE: Stage[ChooseInput, BalancedChoice] = Stage("choose", choose, _named("choose"))
ASSEMBLE: Stage[AssembleInput, StoredResults] = Stage("assemble", assemble, _named("assemble"))
VALIDATE: Stage[ValidateInput, ValidatedRelease] = Stage("validate", validate, _named("validate"))
WRITE: Stage[WriteInput, WrittenRelease] = Stage("write", write, _named("write"))
STAGES: Sequence[Stage[Any, Any]] = (PARSE, INJECT, CHOOSE, ASSEMBLE, VALIDATE, WRITE)
