"""The review queue: every flagged instance plus a seeded, type-stratified quality sample of the rest.

Annotators see the flagged instances (what a check doubted), a random share of the unflagged ones per
error type (the paper's 30 % quality sample, so every type gets looked at even when it is rare), and the
LLM rewrites that were rejected and not replaced by a rule template (`InjectionResult.flagged`: never
gold, reason "llm_rejected", `instance_id` a content hash since they have no instance id). The sample
depends only on the build seed and the instance table, never on the order of the run.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from injectors.instance import FlaggedCandidate
from injectors.planner import InjectionResult
from injectors.taxonomy import by_id
from release.tables import FLAG_STRUCT, ReleaseTables, canonical_json, instance_rows
from validation.suites import SuiteResult
from validation.traceability import Flag, merge_flags

LLM_REJECTED = "llm_rejected"

REVIEW_QUEUE_SCHEMA = pa.schema(
    [
        ("instance_id", pa.string()),
        ("doc_id", pa.string()),
        ("dimension", pa.string()),
        ("error_type", pa.string()),
        ("location", pa.string()),
        ("reason", pa.string()),  # flagged | sample | llm_rejected
        ("flags", pa.list_(FLAG_STRUCT)),
        ("description", pa.string()),
        ("original_text", pa.string()),
        ("corrupted_text", pa.string()),
        ("generator", pa.string()),
    ]
)


def sample_size(n: int, fraction: float) -> int:
    """round(fraction × n) with halves rounded up, at least 1 of a non-empty type when fraction > 0."""
    if n <= 0 or fraction <= 0:
        return 0
    return min(n, max(1, math.floor(fraction * n + 0.5)))


def quality_sample(rows: list[dict[str, Any]], fraction: float, seed: int) -> set[str]:
    """Instance ids drawn per error type, each type with its own generator seeded by (seed, type)."""
    by_type: dict[str, list[str]] = {}
    for row in rows:
        by_type.setdefault(row["error_type"], []).append(row["instance_id"])
    chosen: set[str] = set()
    for error_type in sorted(by_type):
        ids = sorted(by_type[error_type])
        rng = random.Random(f"{seed}:review:{error_type}")
        chosen.update(rng.sample(ids, sample_size(len(ids), fraction)))
    return chosen


def _text(section: dict[str, Any] | None) -> str | None:
    return None if section is None else section["text"]


def rejected_row(candidate: FlaggedCandidate) -> dict[str, Any]:
    """A rejected LLM rewrite as a queue row: the failed constraints become its flags."""
    data = candidate.to_dict()
    candidate_id = hashlib.sha256(canonical_json(data).encode()).hexdigest()[:16]
    section = candidate.candidate_section
    return {
        "instance_id": candidate_id,
        "doc_id": candidate.doc_id,
        "dimension": by_id()[candidate.error_type].dimension,
        "error_type": candidate.error_type,
        "location": candidate.location,
        "reason": LLM_REJECTED,
        "flags": [{"code": LLM_REJECTED, "message": reason} for reason in candidate.reasons],
        "description": "",
        "original_text": candidate.original_section.text,
        "corrupted_text": None if section is None else section.text,
        "generator": str(data["provenance"].get("generator", "")),
    }


def review_queue(
    instances: pa.Table, *, fraction: float, seed: int, rejected: Sequence[FlaggedCandidate] = ()
) -> pa.Table:
    """Flagged instances ("flagged") and the quality sample ("sample") in table order, then `rejected`."""
    rows = instances.to_pylist()
    unflagged = [r for r in rows if not r["flags"]]
    sampled = quality_sample(unflagged, fraction, seed)
    queue = []
    for row in rows:
        if row["flags"]:
            reason = "flagged"
        elif row["instance_id"] in sampled:
            reason = "sample"
        else:
            continue
        queue.append(
            {
                "instance_id": row["instance_id"],
                "doc_id": row["doc_id"],
                "dimension": row["dimension"],
                "error_type": row["error_type"],
                "location": row["location"],
                "reason": reason,
                "flags": row["flags"],
                "description": row["description"],
                "original_text": _text(row["original_section"]),
                "corrupted_text": _text(row["corrupted_section"]),
                "generator": row["generator"],
            }
        )
    extra = [rejected_row(c) for c in rejected]
    queue.extend(sorted(extra, key=lambda r: (r["doc_id"], r["error_type"], r["location"], r["instance_id"])))
    return pa.Table.from_pylist(queue, schema=REVIEW_QUEUE_SCHEMA)


def final_flags(checks: Mapping[str, Sequence[Flag]], validation: SuiteResult) -> dict[str, tuple[Flag, ...]]:
    """Traceability flags plus those of the failed non-critical expectations, one per code."""
    from_suites = validation.flags()
    ids = sorted(set(checks) | set(from_suites))
    return {i: merge_flags(checks.get(i, ()), from_suites.get(i, ())) for i in ids}


def release_review_queue(
    results: Sequence[InjectionResult],
    tables: ReleaseTables,
    checks: Mapping[str, Sequence[Flag]],
    validation: SuiteResult,
    *,
    fraction: float,
    seed: int,
) -> tuple[ReleaseTables, pa.Table]:
    """The review step of a release: instances carry their final flags, and the queue is drawn from them."""
    tables = tables.rewritten("instances", instance_rows(results, final_flags(checks, validation)))
    rejected = [c for r in results for c in getattr(r, "flagged", ()) or ()]
    return tables, review_queue(tables.instances, fraction=fraction, seed=seed, rejected=rejected)
