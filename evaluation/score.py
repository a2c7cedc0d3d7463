"""Scoring a set of predictions against a benchmark under both protocols, with what the input lacked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evaluation.benchmark import Benchmark
from evaluation.predictions import DocumentPrediction
from evaluation.protocol import gbtbench_scores
from evaluation.reference import reference_scores

PROTOCOLS = ("gbtbench", "reference")


@dataclass(frozen=True)
class InputSummary:
    """How the predictions met the benchmark: what was missing, unparsable, null, failed or unknown."""

    documents: int
    predicted: int
    missing: tuple[str, ...]  # benchmark documents without a prediction (scored as empty)
    unparsable: tuple[str, ...]  # output without usable JSON (scored as empty)
    null: tuple[str, ...]  # answered JSON null (not scored, as in the reference)
    failed: tuple[str, ...]  # the model call failed (scored as empty)
    unknown: tuple[str, ...]  # predictions for documents the benchmark does not have (ignored)
    partial: tuple[str, ...] = ()  # raw answers read in part: fewer errors recovered than the text shows
    recovered: int = 0  # errors recovered from the partial answers
    seen: int = 0  # errors the partial answers show

    def to_dict(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "predicted": self.predicted,
            **{
                name: {"count": len(ids), "doc_ids": list(ids)}
                for name, ids in (
                    ("missing", self.missing),
                    ("unparsable", self.unparsable),
                    ("null", self.null),
                    ("failed", self.failed),
                    ("unknown", self.unknown),
                )
            },
            "partial": {
                "count": len(self.partial),
                "doc_ids": list(self.partial),
                "recovered": self.recovered,
                "seen": self.seen,
            },
        }


class ReleaseMismatchError(ValueError):
    """Predictions that do not belong to the release they are scored against."""


def check_release(
    benchmark: Benchmark,
    predictions: Sequence[DocumentPrediction],
    where: str,
    *,
    other_release: bool = False,
) -> None:
    """Refuse predictions made on another release (unless `other_release`: a deliberate comparison) and a
    file none of whose documents is in this release, which would score 0% without saying why."""
    known = {item.doc_id for item in benchmark.items}
    if predictions and not any(p.doc_id in known for p in predictions):
        raise ReleaseMismatchError(
            f"{where}: none of its {len(predictions)} documents is in release {benchmark.version} "
            "(wrong release folder, or predictions of another benchmark?)"
        )
    if other_release:
        return
    named = sorted(
        {(p.release, p.release_fingerprint) for p in predictions if p.release or p.release_fingerprint}
    )
    for version, fingerprint in named:
        if fingerprint and benchmark.fingerprint:  # the data decides: a new version of the same rows is fine
            mismatch = fingerprint != benchmark.fingerprint
        else:
            mismatch = bool(version) and version != benchmark.version
        if mismatch:
            made_on = (
                f"{version} (data {fingerprint})"
                if version and fingerprint
                else version or f"data {fingerprint}"
            )
            this = benchmark.version + (f" (data {benchmark.fingerprint})" if benchmark.fingerprint else "")
            raise ReleaseMismatchError(
                f"{where}: predictions made on release {made_on}, not on {this}: score them against the "
                "release they were made on, or pass --other-release to score them here on purpose"
            )


def score(
    benchmark: Benchmark,
    predictions: Sequence[DocumentPrediction],
    rng: np.random.Generator,
    resamples: int = 1000,
) -> dict[str, Any]:
    """Both protocols (unrounded) plus the input summary; missing documents score as empty lists."""
    by_id = {p.doc_id: p for p in predictions}
    reference_docs = []
    ours_docs = []
    missing = []
    for item in benchmark.items:
        found = by_id.get(item.doc_id)
        if found is None:
            missing.append(item.doc_id)
            preds: tuple | None = ()
        else:
            preds = found.predictions
        reference_docs.append((item.gold, preds))
        ours_docs.append((item.gold, item.pre_existing, preds))
    known = {item.doc_id for item in benchmark.items}
    in_benchmark = [p for p in predictions if p.doc_id in known]
    partial = [p for p in in_benchmark if p.partial]
    summary = InputSummary(
        documents=len(benchmark.items),
        predicted=len(in_benchmark),
        missing=tuple(missing),
        unparsable=tuple(p.doc_id for p in in_benchmark if p.unparsable),
        null=tuple(p.doc_id for p in in_benchmark if p.predictions is None),
        failed=tuple(p.doc_id for p in in_benchmark if p.error),
        unknown=tuple(sorted(p.doc_id for p in predictions if p.doc_id not in known)),
        partial=tuple(p.doc_id for p in partial),
        recovered=sum(len(p.predictions or ()) for p in partial),
        seen=sum(p.seen for p in partial),
    )
    return {
        "release": benchmark.version,
        "input": summary.to_dict(),
        "gbtbench": gbtbench_scores(ours_docs, rng, resamples),
        "reference": reference_scores(reference_docs),
    }
