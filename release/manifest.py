"""The manifest of a release: what was built from what (seed, configuration, code, packages), a content
hash per table, counts, LLM usage, validation results, timings and the inputs that were left out."""

from __future__ import annotations

import hashlib
import json
import platform
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow as pa

from injectors.planner import InjectionResult
from injectors.registry import recorded_versions
from injectors.taxonomy import DIMENSIONS, type_ids
from release.config import BuildConfig
from release.tables import ReleaseTables
from release.versions import latest_version
from validation.suites import SuiteResult

MANIFEST_NAME = "manifest.json"
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


@dataclass(frozen=True)
class BadInput:
    """A source file left out of the build, and why (as the parser reported it)."""

    source: str
    reason: str


def bad_input(value: BadInput | Mapping[str, Any] | Sequence[str]) -> BadInput:
    if isinstance(value, BadInput):
        return value
    if isinstance(value, Mapping):
        source = value.get("source", value.get("path", ""))
        return BadInput(str(source), str(value.get("reason", value.get("error", ""))))
    source, reason = value
    return BadInput(str(source), str(reason))


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def release_counts(
    results: Sequence[InjectionResult], tables: ReleaseTables, queue: pa.Table
) -> dict[str, Any]:
    instances = tables.instances
    types = Counter(instances.column("error_type").to_pylist())
    dims = Counter(instances.column("dimension").to_pylist())
    generators = Counter(instances.column("generator").to_pylist())
    reasons = Counter(queue.column("reason").to_pylist())
    skipped: dict[str, Counter[str]] = {}
    sections = pre_existing = 0
    for r in results:  # one pass: a large build's results are read from disk one at a time
        sections += len(r.original.sections)
        pre_existing += len(r.pre_existing)
        for error_type, reason in r.skipped.items():
            skipped.setdefault(error_type, Counter())[reason] += 1
    flagged = sum(1 for f in instances.column("flags").to_pylist() if f)
    return {
        "documents": len(results),
        "sections": sections,
        "instances": instances.num_rows,
        "pre_existing": pre_existing,
        "flagged": flagged,
        "review_queue": {reason: reasons.get(reason, 0) for reason in ("flagged", "sample", "llm_rejected")},
        "by_type": {t: types.get(t, 0) for t in type_ids()},
        "by_dimension": {d: dims.get(d, 0) for d in DIMENSIONS},
        "by_generator": dict(sorted(generators.items())),
        "skipped_types": {t: dict(sorted(c.items())) for t, c in sorted(skipped.items())},
    }


def llm_facts(config: BuildConfig, llm_stats: Mapping[str, Any] | None) -> dict[str, Any]:
    """The LLM mode plus the build's call and token counters; an offline build made no calls at all."""
    facts: dict[str, Any] = {"mode": config.llm.mode}
    if config.llm_fallback:
        facts["fallback"] = config.llm_fallback
    if llm_stats is None and config.llm.mode == "none":
        facts.update(calls=0, prompt_tokens=0, completion_tokens=0)
    facts.update(llm_stats or {})
    return facts


def build_manifest(
    config: BuildConfig,
    *,
    tables: Mapping[str, Any],
    counts: Mapping[str, Any],
    validation: SuiteResult,
    llm_stats: Mapping[str, Any] | None,
    timings: Mapping[str, Any],
    code_version: str,
    fingerprint: str | None,
    bad_inputs: Sequence[BadInput | Mapping[str, Any] | Sequence[str]],
) -> dict[str, Any]:
    return {
        "version": config.version,
        "built_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seed": config.seed,
        "config": config.to_dict(),
        "config_fingerprint": config.fingerprint(),
        "code_version": code_version,
        "build_fingerprint": fingerprint,
        "data_fingerprint": data_fingerprint(tables),
        "packages": package_versions(),
        # each type's version and the digest of its candidates on the project's corpus (injectors.versions)
        "types": recorded_versions(),
        "tables": dict(tables),
        "counts": dict(counts),
        "llm": llm_facts(config, llm_stats),
        "validation": {
            **validation.to_dict(),
            "expectations": [o.to_dict() for o in validation.outcomes if not o.success],
        },
        "timings": dict(timings),
        "bad_inputs": [asdict(bad_input(b)) for b in bad_inputs],
    }


def data_fingerprint(tables: Mapping[str, Any]) -> str:
    """One hash of the release's data: its tables' content hashes (manifest `tables`), so two releases
    with the same rows share it whatever their build's timing or paths. The instruction sets, derived from
    the same rows, are left out: their rows carry the fingerprint."""
    content = {
        name: entry.get("sha256")
        for name, entry in sorted(tables.items())
        if "/" not in name and name != "review_queue"
    }
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def write_manifest(root: Path, manifest: Mapping[str, Any]) -> None:
    (root / MANIFEST_NAME).write_text(
        json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


def read_manifest(release: Path | Any) -> dict[str, Any]:
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
