"""Write one release, `out_root/<version>/`, all or nothing, and point `out_root/latest` at it.

A release is written in two halves, each a short sequence of named steps in modules named for them:
`validate_release_contents` (traceability, tables, Great Expectations validation, into a hidden staging
folder) and `write_validated` (review queue, Parquet, the instruction sets with the shortcut audit run
beside them in a second process, Hugging Face export, card, manifest, then the rename into place).
`write_release` runs both. A build runs them as two stages, so a run shows where its time went.

Everything is written into a hidden temporary sibling (`.<version>.tmp-xxxx`) and renamed into place at the
end, so a reader never sees a half-written version and a build killed midway leaves no visible folder. An
existing version is never overwritten. Tables are Parquet with fixed writer options and no timestamps, and
the manifest carries a content hash per table computed from its rows, so two builds of the same corpus,
configuration and seed give the same hashes whatever the writer metadata.

Layout of a release:

    documents.parquet sections.parquet instances.parquet items.parquet pre_existing.parquet
    review_queue.parquet
    hf/            DatasetDict (save_to_disk), data/<config>/test-00000-of-00001.parquet, README.md, chart
    instructions/  <task>_<shot>.jsonl / .parquet, gbtbench_<task>_<shot>.yaml (lm-eval), README.md
    validation/    results.json, gx_results.json, data_docs/ (Great Expectations Data Docs)
    manifest.json
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.baselines import baseline_markdown
from injectors.planner import InjectionResult
from release.beside import beside
from release.card import write_card
from release.config import BuildConfig
from release.hf_export import HF_FOLDER, export_hf
from release.instruction_sets import write_instruction_sets
from release.manifest import (
    MANIFEST_NAME,
    BadInput,
    build_manifest,
    data_fingerprint,
    latest_fingerprint,
    read_manifest,
    release_counts,
    write_manifest,
)
from release.parquet import PARQUET_OPTIONS, file_hash, table_hash, write_parquet, write_tables
from release.review_queue import release_review_queue
from release.tables import ReleaseTables, build_tables
from release.versions import (
    LATEST_NAME,
    InvalidVersionError,
    ReleaseError,
    ReleaseExistsError,
    check_version,
    latest_version,
    next_version,
    open_staging,
    point_latest,
    publish_staging,
)
from validation.audit import audit_and_write, render_markdown
from validation.suites import SuiteResult, validate_release
from validation.traceability import Flag, check_results

# the tables as Arrow files while the release is written (`release.tables.ReleaseTables`), removed before
# the release is renamed into place
SCRATCH = ".tables"
TABLE_NAMES = ("documents", "sections", "instances", "items", "pre_existing", "review_queue")
# documents from which the audit runs in a second process: below, starting it (about a second of imports)
# costs more than auditing here
BESIDE_FROM = 50

__all__ = [
    "LATEST_NAME",
    "MANIFEST_NAME",
    "PARQUET_OPTIONS",
    "BadInput",
    "EmptyReleaseError",
    "InvalidVersionError",
    "ReleaseError",
    "ReleaseExistsError",
    "ValidatedRelease",
    "WrittenRelease",
    "file_hash",
    "latest_fingerprint",
    "latest_version",
    "next_version",
    "point_latest",
    "read_manifest",
    "table_hash",
    "validate_release_contents",
    "write_parquet",
    "write_release",
    "write_validated",
]


class EmptyReleaseError(ReleaseError, ValueError):
    """The build produced nothing to release."""


@dataclass(frozen=True)
class WrittenRelease:
    """Where a release went and whether it may be used (a critical failure means: inspect, don't ship)."""

    path: Path
    version: str
    critical_failures: list[str]
    non_critical_failures: list[str]
    flagged: int

    @property
    def success(self) -> bool:
        return not self.critical_failures

    def __fspath__(self) -> str:
        return str(self.path)


@dataclass(frozen=True)
class ValidatedRelease:
    """The first half of a release: checked tables in the staging folder, not yet visible."""

    staging: Path
    out_root: Path
    config: BuildConfig
    results: Sequence[InjectionResult]  # a StoredResults in a build: read from disk, pass by pass
    checks: Mapping[str, Sequence[Flag]]
    tables: ReleaseTables
    validation: SuiteResult
    seconds: dict[str, float] = field(default_factory=dict)  # per step, in the order they ran


@contextmanager
def _step(seconds: dict[str, float], name: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds[name] = round(time.perf_counter() - start, 3)


@contextmanager
def _discard_on_failure(staging: Path) -> Iterator[None]:
    try:
        yield
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def validate_release_contents(
    results: Sequence[InjectionResult], config: BuildConfig, out_root: Path
) -> ValidatedRelease:
    """Traceability, tables and the Great Expectations suites, into a fresh staging folder.

    Raises ReleaseExistsError (a FileExistsError) when the version exists, EmptyReleaseError (a
    ValueError) when there is nothing to release.
    """
    check_version(config.version)
    if not results:
        raise EmptyReleaseError("no document was injected: nothing to release (see the bad inputs)")
    out_root = Path(out_root).resolve()
    staging = open_staging(out_root, config.version)
    seconds: dict[str, float] = {}
    with _discard_on_failure(staging):
        with _step(seconds, "traceability"):
            checks = check_results(results)
        with _step(seconds, "tables"):
            tables = build_tables(results, checks, staging / SCRATCH)
        with _step(seconds, "validation"):
            validation = validate_release(
                tables.documents,
                tables.instances,
                checks,
                min_errors=config.plan.min_errors,
                max_errors=config.plan.max_errors,
                out_dir=staging / "validation",
                run_name=config.version,
            )
    return ValidatedRelease(staging, out_root, config, results, checks, tables, validation, seconds)


def write_validated(
    validated: ValidatedRelease,
    *,
    bad_inputs: Sequence[BadInput | Mapping[str, Any] | Sequence[str]] = (),
    llm_stats: Mapping[str, Any] | None = None,
    timings: Mapping[str, float] | None = None,
    code_version: str = "unknown",
    fingerprint: str | None = None,
    review: Mapping[str, Any] | None = None,
    card_extra: str = "",
) -> WrittenRelease:
    """Review queue, Parquet, instruction sets, HF export, card and manifest; then rename into place.

    A release whose critical expectations failed is still written, so it can be inspected, but `latest`
    is not moved to it. `fingerprint` (the build's input fingerprint) goes into the manifest so that a
    rebuild with unchanged inputs can be skipped. `review` (what the human review decided) goes into the
    manifest and `card_extra` (Markdown) at the end of the card.
    """
    start = time.perf_counter()
    v, root, config = validated, validated.staging, validated.config
    seconds = dict(v.seconds)
    final = v.out_root / config.version
    with _discard_on_failure(root):
        with _step(seconds, "review_queue"):
            tables, queue = release_review_queue(
                v.results, v.tables, v.checks, v.validation, fraction=config.review_fraction, seed=config.seed
            )
        with _step(seconds, "parquet"):
            table_info = write_tables(root, {**tables.as_dict(), "review_queue": queue}, TABLE_NAMES)
        data_id = data_fingerprint(table_info)  # the release's data fingerprint
        # the audit runs in a second process while this one writes the instruction sets (`release.beside`):
        # it reads only the tables just written, and its caches of the corpus's wording end with it
        large = len(v.results) >= BESIDE_FROM
        with beside(audit_and_write, root, config.seed, worth_it=large) as auditing:
            with _step(seconds, "instructions"):
                written, instruction_info = write_instruction_sets(root, v.results, data_id)
            with _step(seconds, "audit"):  # what was left of it once the instructions were written
                audited = auditing.result()
        # the card's baseline scores read every document's text: not while the audit's process holds the
        # corpus's wording too
        with _step(seconds, "baselines"):
            baselines = baseline_markdown(config.version, tables.as_dict(), config.seed)
        with _step(seconds, "hf"):
            layout = export_hf(root, tables, written)
        with _step(seconds, "card"):
            write_card(
                root / HF_FOLDER,
                version=config.version,
                config=config,
                tables=tables.as_dict(),
                layout=layout,
                extra=card_extra,
                audit=render_markdown(audited),
                baselines=baselines,
                fingerprint=data_id,
            )
        counts = release_counts(v.results, tables, queue)
        shutil.rmtree(root / SCRATCH)  # the tables are read for the last time
        total = sum(v.seconds.values()) + time.perf_counter() - start
        manifest = build_manifest(
            config,
            tables={**table_info, **instruction_info},
            counts=counts,
            validation=v.validation,
            llm_stats=llm_stats,
            timings={**dict(timings or {}), "release": {**seconds, "total": round(total, 3)}},
            code_version=code_version,
            fingerprint=fingerprint,
            bad_inputs=bad_inputs,
        )
        if review is not None:  # what the human review decided and what this build did with it
            manifest["review"] = dict(review)
        write_manifest(root, manifest)
        publish_staging(root, final)
    if v.validation.success:
        point_latest(v.out_root, config.version)
    return WrittenRelease(
        path=final,
        version=config.version,
        critical_failures=[o.name for o in v.validation.critical_failures],
        non_critical_failures=[o.name for o in v.validation.non_critical_failures],
        flagged=counts["flagged"],
    )


def write_release(
    results: Sequence[InjectionResult],
    config: BuildConfig,
    out_root: Path,
    *,
    bad_inputs: Sequence[BadInput | Mapping[str, Any] | Sequence[str]] = (),
    llm_stats: Mapping[str, Any] | None = None,
    timings: Mapping[str, float] | None = None,
    code_version: str = "unknown",
    fingerprint: str | None = None,
    review: Mapping[str, Any] | None = None,
    card_extra: str = "",
) -> WrittenRelease:
    """Write `out_root/<config.version>/` atomically and say where it went and whether it may be used."""
    validated = validate_release_contents(results, config, out_root)
    return write_validated(
        validated,
        bad_inputs=bad_inputs,
        llm_stats=llm_stats,
        timings=timings,
        code_version=code_version,
        fingerprint=fingerprint,
        review=review,
        card_extra=card_extra,
    )
