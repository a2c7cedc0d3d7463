"""The build as plain Python: parse → context → candidates → balanced choice → assemble → validate → write.

`build_dataset(corpus, out, config, map=...)` is the whole build, with no Prefect in it. `map` is how an
executor runs one stage over its items (yielding each result as it completes, in any order); the default
runs them here, one after the other (the protocol and the executors: `flows.executors`). `run_stages`
calls the steps of `flows.steps` in order, one per stage, each returning a frozen record.

Whether anything changed since the latest release (same corpus bytes, configuration and code) is
decided once, by `prepare`, before any stage runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from flows.build_inputs import BuildInputs
from flows.executors import Map, in_process
from flows.fingerprint import code_version, combine
from flows.injection_budget import InjectionBudget
from flows.progress import Progress, silent
from flows.runtime.collector import fewer_collections
from flows.stages import WriteInput
from flows.steps import (
    Logger,
    StageRun,
    assemble_stage,
    choose_stage,
    context_stage,
    inject_stage,
    left_out,
    parse_stage,
    validate_stage,
    write_stage,
)
from flows.work_cache import WorkCache
from parsers.corpus import corpus_listing
from parsers.limits import ParseLimits
from release.config import BuildConfig
from release.lock import output_lock
from release.manifest import latest_fingerprint
from release.parquet import file_hash
from release.versions import check_version, refuse_existing
from review.decisions import REVIEWS_NAME, ReviewDecisions, load_decisions
from review.store import ReviewStoreError
from validation import gx_process

log = logging.getLogger("gbtbench.build")


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


class _Laps:
    """The time each stage took, for the manifest."""

    def __init__(self) -> None:
        self.started = self._step = time.perf_counter()
        self.timings: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name], self._step = now - self._step, now


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
    run = StageRun(inputs, config, map, progress or silent, logger or log, work, code)
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
