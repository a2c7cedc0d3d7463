"""The review queue: every flagged instance plus a seeded, type-stratified quality sample of the rest.

Annotators see the flagged instances (what a check doubted) and a random share of the unflagged ones per
error type (the paper's 30 % quality sample), so that every type gets looked at even when it is rare.
The sample depends only on the build seed and the instance table, never on the order of the run.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pyarrow as pa

from release.tables import FLAG_STRUCT

REVIEW_QUEUE_SCHEMA = pa.schema(
    [
        ("instance_id", pa.string()),
        ("doc_id", pa.string()),
        ("dimension", pa.string()),
        ("error_type", pa.string()),
        ("location", pa.string()),
        ("reason", pa.string()),  # flagged | sample
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


def review_queue(instances: pa.Table, *, fraction: float, seed: int) -> pa.Table:
    """Flagged instances (reason "flagged") and the quality sample (reason "sample"), in table order."""
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
    return pa.Table.from_pylist(queue, schema=REVIEW_QUEUE_SCHEMA)
