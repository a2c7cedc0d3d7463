"""Write one release, `out_root/<version>/`, all or nothing, and point `out_root/latest` at it.

Everything is written into a hidden temporary sibling (`.<version>.tmp-xxxx`) and renamed into place at the
end, so a reader never sees a half-written version and a build killed midway leaves no visible folder. An
existing version is never overwritten. Tables are Parquet with fixed writer options and no timestamps, and
the manifest carries a content hash per table computed from its rows (sorted-key JSON), so two builds of
the same corpus, configuration and seed give the same hashes whatever the writer metadata.

Layout of a release:

    documents.parquet sections.parquet instances.parquet items.parquet pre_existing.parquet
    review_queue.parquet
    hf/            DatasetDict (save_to_disk), data/*.parquet, data/instructions/*.parquet, README.md, chart
    instructions/  <task>_<shot>.jsonl / .parquet, gbtbench_<task>_<shot>.yaml (lm-eval), README.md
    validation/    results.json, gx_results.json, data_docs/ (Great Expectations Data Docs)
    manifest.json
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from injectors.planner import InjectionResult
from injectors.taxonomy import DIMENSIONS, type_ids
from release.card import InstructionConfig, write_card
from release.config import BuildConfig
from release.instructions import write_instructions
from release.review_queue import review_queue
from release.tables import ReleaseTables, build_tables, canonical_json, instances_table
from validation.audit import audit_release, render_markdown, write_audit
from validation.suites import SuiteResult, validate_release
from validation.traceability import Flag, check_results, merge_flags

MANIFEST_NAME = "manifest.json"
LATEST_NAME = "latest"
TABLE_NAMES = ("documents", "sections", "instances", "items", "pre_existing", "review_queue")
PACKAGES = (
    "gbtbench",
    "pyarrow",
    "pandas",
    "numpy",
    "datasets",
    "great-expectations",
    "huggingface-hub",
    "matplotlib",
    "regex",
    "jieba",
    "openai",
    "prefect",
)
# Fixed so the bytes depend only on the rows and the pyarrow version (which the manifest records).
PARQUET_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 9,
    "use_dictionary": True,
    "write_statistics": True,
    "version": "2.6",
    "data_page_version": "1.0",
    "row_group_size": 65_536,
}


class ReleaseError(Exception):
    """A release could not be written; the message says why and what to do."""


class ReleaseExistsError(ReleaseError, FileExistsError):
    """The version folder exists already: versions are immutable."""


class EmptyReleaseError(ReleaseError, ValueError):
    """The build produced nothing to release."""


class InvalidVersionError(ReleaseError, ValueError):
    """The version cannot name a release folder."""


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
class BadInput:
    """A source file left out of the build, and why (as the parser reported it)."""

    source: str
    reason: str


def write_parquet(table: pa.Table, path: Path) -> None:
    """Parquet with fixed options and no schema metadata (no pandas block, no timestamps)."""
    pq.write_table(table.replace_schema_metadata(None), path, **PARQUET_OPTIONS)


def table_hash(table: pa.Table) -> str:
    """sha256 of the column names and every row as sorted-key JSON: independent of how it is stored."""
    digest = hashlib.sha256()
    digest.update(canonical_json(table.column_names).encode())
    for batch in table.to_batches(max_chunksize=4096):
        for row in batch.to_pylist():
            digest.update(b"\n")
            digest.update(canonical_json(row).encode())
    return digest.hexdigest()


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _bad_input(value: BadInput | Mapping[str, Any] | Sequence[str]) -> BadInput:
    if isinstance(value, BadInput):
        return value
    if isinstance(value, Mapping):
        source = value.get("source", value.get("path", ""))
        return BadInput(str(source), str(value.get("reason", value.get("error", ""))))
    source, reason = value
    return BadInput(str(source), str(reason))


def _check_version(version: str) -> None:
    """A version names one folder beside `latest`; anything else would escape or clash."""
    if (
        not version
        or version in (".", "..", LATEST_NAME)
        or version.startswith(".")
        or any(c in version for c in "/\\\0")
    ):
        raise InvalidVersionError(
            f"invalid release version {version!r}: use a plain folder name such as v0.1.0"
        )


def _package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


class _Timer:
    """Wall-clock seconds per phase, in the order the phases ran."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = round(time.perf_counter() - start, 3)


@contextmanager
def _quiet_datasets() -> Iterator[None]:
    """datasets' progress bars off while saving, restored afterwards (the caller may want them)."""
    import datasets

    was_disabled = datasets.are_progress_bars_disabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if not was_disabled:
            datasets.enable_progress_bars()


def _write_hf(hf_dir: Path, tables: ReleaseTables) -> None:
    """The public tables as one DatasetDict keyed by table name (load_from_disk(hf/) gives all of them)."""
    import datasets
    from datasets.table import InMemoryTable

    splits = {
        name: datasets.Dataset(InMemoryTable(table.replace_schema_metadata(None)))
        for name, table in tables.as_dict().items()
    }
    with _quiet_datasets():
        # One shard per table: datasets writes no shard at all for an empty table, and then cannot load it.
        datasets.DatasetDict(splits).save_to_disk(str(hf_dir), num_shards={name: 1 for name in splits})


def _counts(results: Sequence[InjectionResult], tables: ReleaseTables, queue: pa.Table) -> dict[str, Any]:
    types = Counter(tables.instances.column("error_type").to_pylist())
    dims = Counter(tables.instances.column("dimension").to_pylist())
    generators = Counter(tables.instances.column("generator").to_pylist())
    reasons = Counter(queue.column("reason").to_pylist())
    skipped: dict[str, Counter[str]] = {}
    for r in results:
        for error_type, reason in r.skipped.items():
            skipped.setdefault(error_type, Counter())[reason] += 1
    flagged = sum(1 for f in tables.instances.column("flags").to_pylist() if f)
    return {
        "documents": tables.documents.num_rows,
        "sections": sum(len(r.original.sections) for r in results),
        "instances": tables.instances.num_rows,
        "pre_existing": tables.pre_existing.num_rows,
        "flagged": flagged,
        "review_queue": {reason: reasons.get(reason, 0) for reason in ("flagged", "sample", "llm_rejected")},
        "by_type": {t: types.get(t, 0) for t in type_ids()},
        "by_dimension": {d: dims.get(d, 0) for d in DIMENSIONS},
        "by_generator": dict(sorted(generators.items())),
        "skipped_types": {t: dict(sorted(c.items())) for t, c in sorted(skipped.items())},
    }


def _llm_facts(config: BuildConfig, llm_stats: Mapping[str, Any] | None) -> dict[str, Any]:
    """The LLM mode plus the build's call and token counters; an offline build made no calls at all."""
    facts: dict[str, Any] = {"mode": config.llm}
    if llm_stats is None and config.llm == "none":
        facts.update(calls=0, prompt_tokens=0, completion_tokens=0)
    facts.update(llm_stats or {})
    return facts


def _final_flags(
    checks: Mapping[str, Sequence[Flag]], validation: SuiteResult
) -> dict[str, tuple[Flag, ...]]:
    """Traceability flags plus those of the failed non-critical expectations, one per code."""
    from_suites = validation.flags()
    ids = sorted(set(checks) | set(from_suites))
    return {i: merge_flags(checks.get(i, ()), from_suites.get(i, ())) for i in ids}


def _write_contents(
    root: Path,
    results: Sequence[InjectionResult],
    config: BuildConfig,
    timer: _Timer,
) -> tuple[dict[str, Any], SuiteResult]:
    """Every file of the release except the manifest; returns what the manifest needs."""
    with timer.phase("traceability"):
        checks = check_results(results)
    with timer.phase("tables"):
        tables = build_tables(results, checks)
    with timer.phase("validation"):
        validation = validate_release(
            tables.documents,
            tables.instances,
            checks,
            min_errors=config.min_errors,
            max_errors=config.max_errors,
            out_dir=root / "validation",
            run_name=config.version,
        )
    with timer.phase("review_queue"):
        tables = replace(tables, instances=instances_table(results, _final_flags(checks, validation)))
        rejected = [c for r in results for c in getattr(r, "flagged", ()) or ()]
        queue = review_queue(
            tables.instances, fraction=config.review_fraction, seed=config.seed, rejected=rejected
        )
    table_info: dict[str, Any] = {}
    with timer.phase("parquet"):
        all_tables = {**tables.as_dict(), "review_queue": queue}
        for name in TABLE_NAMES:
            path = root / f"{name}.parquet"
            write_parquet(all_tables[name], path)
            table_info[name] = {
                "file": path.name,
                "rows": all_tables[name].num_rows,
                "sha256": table_hash(all_tables[name]),
                "file_sha256": file_hash(path),
            }
    with timer.phase("instructions"):
        written = write_instructions(results, root / "instructions", write_parquet)
        for w in written:
            table = pq.read_table(root / "instructions" / w.parquet)
            table_info[f"instructions/{w.task}_{w.shot}"] = {
                "file": f"instructions/{w.parquet}",
                "rows": w.rows,
                "sha256": table_hash(table),
                "file_sha256": file_hash(root / "instructions" / w.parquet),
            }
    with timer.phase("hf"):
        hf = root / "hf"
        _write_hf(hf, tables)
        data = hf / "data"
        (data / "instructions").mkdir(parents=True)
        for name in tables.as_dict():
            shutil.copyfile(root / f"{name}.parquet", data / f"{name}.parquet")
        files: dict[str, dict[str, str]] = {}
        for w in written:
            shutil.copyfile(root / "instructions" / w.parquet, data / "instructions" / w.parquet)
            files.setdefault(w.task, {})[w.shot] = f"data/instructions/{w.parquet}"
    with timer.phase("audit"):  # reads the tables just written, like `gbtbench audit`
        audited = audit_release(root, config.seed)
        write_audit(audited, root)
    with timer.phase("card"):
        write_card(
            hf,
            version=config.version,
            config=config,
            tables=tables.as_dict(),
            instruction_configs=[InstructionConfig(task, splits) for task, splits in files.items()],
            instruction_rows={f"{w.task}_{w.shot}": w.rows for w in written},
            audit=render_markdown(audited),
        )
    return {"tables": table_info, "counts": _counts(results, tables, queue)}, validation


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
) -> WrittenRelease:
    """Write `out_root/<config.version>/` atomically and say where it went and whether it may be used.

    Raises ReleaseExistsError (a FileExistsError) when that version exists, EmptyReleaseError (a
    ValueError) when there is nothing to release. A release whose critical expectations failed is still
    written, so it can be inspected, but `latest` is not moved to it. `fingerprint` (the build's input
    fingerprint) is stored in the manifest so a rebuild with unchanged inputs can be skipped.
    """
    start = time.perf_counter()
    _check_version(config.version)
    results = list(results)
    if not results:
        raise EmptyReleaseError("no document was injected: nothing to release (see the bad inputs)")
    out_root = Path(out_root).resolve()
    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / config.version
    if final.exists() or final.is_symlink():
        raise ReleaseExistsError(
            f"{final} exists: a released version is never overwritten; choose a new version"
        )
    for stale in out_root.glob(f".{config.version}.tmp-*"):  # left by a build that was killed while writing
        shutil.rmtree(stale, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{config.version}.tmp-", dir=out_root))
    try:
        os.chmod(tmp, 0o755)
        timer = _Timer()
        facts, validation = _write_contents(tmp, results, config, timer)
        manifest = {
            "version": config.version,
            "built_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seed": config.seed,
            "config": asdict(config),
            "config_fingerprint": config.fingerprint(),
            "code_version": code_version,
            "build_fingerprint": fingerprint,
            "packages": _package_versions(),
            "tables": facts["tables"],
            "counts": facts["counts"],
            "llm": _llm_facts(config, llm_stats),
            "validation": {
                **validation.to_dict(),
                "expectations": [o.to_dict() for o in validation.outcomes if not o.success],
            },
            "timings": {
                **dict(timings or {}),
                "release": {**timer.seconds, "total": round(time.perf_counter() - start, 3)},
            },
            "bad_inputs": [asdict(_bad_input(b)) for b in bad_inputs],
        }
        (tmp / MANIFEST_NAME).write_text(
            json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        if final.exists() or final.is_symlink():
            raise ReleaseExistsError(
                f"{final} appeared while writing: a released version is never overwritten"
            )
        os.rename(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if validation.success:
        point_latest(out_root, config.version)
    return WrittenRelease(
        path=final,
        version=config.version,
        critical_failures=[o.name for o in validation.critical_failures],
        non_critical_failures=[o.name for o in validation.non_critical_failures],
        flagged=facts["counts"]["flagged"],
    )


def point_latest(out_root: Path, version: str) -> None:
    """`latest` → version, replaced atomically: a relative symlink, or a one-line file where links fail."""
    link = out_root / LATEST_NAME
    if link.is_dir() and not link.is_symlink():
        raise ReleaseError(f"{link} is a folder; remove it so that it can point at the latest release")
    tmp = out_root / f".{LATEST_NAME}.tmp-{os.getpid()}"
    if tmp.exists() or tmp.is_symlink():
        tmp.unlink()
    try:
        os.symlink(version, tmp, target_is_directory=True)
    except OSError:
        tmp.write_text(version + "\n", encoding="utf-8")
    os.replace(tmp, link)


def latest_version(out_root: Path) -> str | None:
    """The version `latest` points at, whichever form it has; None when there is none."""
    link = Path(out_root) / LATEST_NAME
    if link.is_symlink():
        return Path(os.readlink(link)).name
    if link.is_file():
        return link.read_text(encoding="utf-8").strip() or None
    return None


def read_manifest(release: Path | WrittenRelease) -> dict[str, Any]:
    """The manifest of a written release (validation.success tells whether a critical expectation failed)."""
    return json.loads((Path(release) / MANIFEST_NAME).read_text(encoding="utf-8"))


def latest_fingerprint(out_root: Path) -> str | None:
    """The build fingerprint recorded by the release `latest` points at (None: no usable latest release)."""
    version = latest_version(out_root)
    if version is None:
        return None
    try:
        return read_manifest(Path(out_root) / version).get("build_fingerprint")
    except (OSError, ValueError):
        return None


_VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")


def next_version(out_root: Path, first: str = "v0.1.0") -> str:
    """The highest vX.Y.Z folder in out_root with its patch number raised; `first` when there is none."""
    root = Path(out_root)
    found = []
    if root.is_dir():
        for p in root.iterdir():
            match = _VERSION.match(p.name)
            if match and p.is_dir():
                found.append(tuple(int(g) for g in match.groups()))
    if not found:
        return first
    major, minor, patch = max(found)
    return f"v{major}.{minor}.{patch + 1}"
