"""The reference protocol: the GB/T-Bench paper's figures exactly as its public implementation computes them.

Derived from the formulas of Ttchance/GBT-benchmark-agent `main.py` so that numbers compare across papers,
flaws included: locations are only trimmed, unwrapped from one `[...]` and stripped of a leading 附录;
every prediction that is not a diagnosis hit is a false positive (duplicates too, pre-existing violations
too); per-dimension and per-type figures match each group's gold items against *all* of the document's
predictions, so one prediction can count in several groups.

Per document and level, hits = Σ over keys of min(gold with the key, predictions with the key), i.e. the
size of a one-to-one matching on exact keys: location = section, dimension = section + dimension,
diagnosis = section + dimension + type. Then, with n gold items, h diagnosis hits and p predictions:
fp = max(0, p − h); MCS = (h/n)·exp(−λ(n − h)/n); penalty = 1 − α·fp/(fp + β) (1 when fp = 0);
CMCS = Σ MCS·penalty·n / Σ n over documents with gold. DMTR_k = share of scored documents with ≥ k
diagnosis hits. A document answered with JSON null is not scored at all.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.benchmark import GoldError
from evaluation.locations import reference_location
from evaluation.predictions import Prediction
from injectors.taxonomy import REFERENCE_DIMENSIONS, reference_to_ours

LAMBDA = 1.0
ALPHA = 0.15
BETA = 100.0
MAX_K = 10
LEVELS = ("location", "dimension", "diagnosis")
# Which summary figures the reference rounds to 4 digits (rates) and which to 6 (MCS and penalties).
RATE_FIELDS = (
    "location_recall",
    "dimension_recall",
    "diagnosis_recall",
    "location_accuracy",
    "diagnosis_accuracy",
)
MCS_FIELDS = ("mcs", "penalty", "np_mcs", "doc_weighted_mcs", "avg_penalty", "cmcs")

Key = tuple[str | None, ...]


def gold_key(item: GoldError, level: str) -> Key:
    location = reference_location(item.location)
    if level == "location":
        return (location,)
    if level == "dimension":
        return (location, item.dimension)
    return (location, item.dimension, item.error_type)


def prediction_key(item: Prediction, level: str) -> Key:
    """Codes of the reference (C2.1, E-S-01) become ours; anything else is compared as written."""
    location = reference_location(item.location)
    dimension = REFERENCE_DIMENSIONS.get(item.dimension or "", item.dimension)
    if level == "location":
        return (location,)
    if level == "dimension":
        return (location, dimension)
    return (location, dimension, reference_to_ours().get(item.error_type or "", item.error_type))


def matches(gold: Iterable[Key], predicted: Iterable[Key]) -> int:
    """Size of a one-to-one matching on equal keys: Σ min(count in gold, count in predictions)."""
    wanted = Counter(gold)
    have = Counter(predicted)
    return sum(min(n, have[key]) for key, n in wanted.items())


def mcs(hits: int, n: int) -> float:
    if n <= 0:
        return 0.0
    return hits / n * math.exp(-LAMBDA * max(0, n - hits) / n)


def penalty(fp: int) -> float:
    return 1.0 if fp <= 0 else 1 - ALPHA * fp / (fp + BETA)


@dataclass(frozen=True)
class DocumentCounts:
    gold: int
    predictions: int
    location: int
    dimension: int
    diagnosis: int
    location_covered: bool  # every gold location matched (the reference's document-level accuracy)
    diagnosis_covered: bool

    @property
    def fp(self) -> int:
        return max(0, self.predictions - self.diagnosis)


def _gold_keys(item: GoldError) -> dict[str, Key]:
    return {level: gold_key(item, level) for level in LEVELS}


def _predicted(predictions: Sequence[Prediction]) -> dict[str, Counter[Key]]:
    return {level: Counter(prediction_key(p, level) for p in predictions) for level in LEVELS}


def _counts(
    gold: Sequence[dict[str, Key]], predicted: dict[str, Counter[Key]], n_predictions: int
) -> DocumentCounts:
    hits = {}
    for level in LEVELS:
        wanted = Counter(g[level] for g in gold)
        have = predicted[level]
        hits[level] = sum(min(n, have[key]) for key, n in wanted.items())
    return DocumentCounts(
        len(gold),
        n_predictions,
        hits["location"],
        hits["dimension"],
        hits["diagnosis"],
        hits["location"] >= len(gold),
        hits["diagnosis"] >= len(gold),
    )


def _group_totals(
    totals: dict[str, Counter[str]],
    gold: Sequence[GoldError],
    gold_keys: Sequence[dict[str, Key]],
    predicted: dict[str, Counter[Key]],
    field: str,
) -> None:
    """The reference's per-group figures: each group's gold against all of the document's predictions
    (Σ over the group's keys of min(its gold with the key, all predictions with the key))."""
    values = [getattr(g, field) for g in gold]
    hits: dict[str, Counter[str]] = {}
    for level in LEVELS:
        wanted = Counter(zip(values, (k[level] for k in gold_keys), strict=True))
        have = predicted[level]
        found: Counter[str] = Counter()
        for (value, key), n in wanted.items():
            found[value] += min(n, have[key])
        hits[level] = found
    for value, n in Counter(values).items():
        total = totals.setdefault(value, Counter())
        total["gold"] += n
        for level in LEVELS:
            total[level] += hits[level][value]
        total["mcs_sum"] += mcs(hits["diagnosis"][value], n) * n  # type: ignore[assignment]


def _rate(hits: float, n: float) -> float:
    return hits / n if n else 0.0


def _group_summary(total: Counter[str]) -> dict[str, Any]:
    n = total["gold"]
    out: dict[str, Any] = {"ground_truth_count": n}
    for level in LEVELS:
        out[f"{level}_hit"] = total[level]
        out[f"{level}_recall"] = _rate(total[level], n)
    out["mcs"] = mcs(total["diagnosis"], n)
    if n:
        out["doc_weighted_mcs"] = total["mcs_sum"] / n
    return out


def reference_scores(
    documents: Sequence[tuple[Sequence[GoldError], Sequence[Prediction] | None]],
) -> dict[str, Any]:
    """The reference's summary over (gold, predictions) per document, unrounded (see `rounded`)."""
    total: Counter[str] = Counter()
    weighted = {"mcs": 0.0, "penalty": 0.0, "np_mcs": 0.0}
    dmtr_hits = dict.fromkeys(range(1, MAX_K + 1), 0)
    by_dimension: dict[str, Counter[str]] = {}
    by_type: dict[str, Counter[str]] = {}
    type_dimension: dict[str, set[str]] = {}
    scored = skipped = 0
    for gold, predictions in documents:
        if predictions is None:
            skipped += 1
            continue
        scored += 1
        gold_keys = [_gold_keys(g) for g in gold]
        predicted = _predicted(predictions)
        counts = _counts(gold_keys, predicted, len(predictions))
        total["gold"] += counts.gold
        total["predictions"] += counts.predictions
        for level in LEVELS:
            total[level] += getattr(counts, level)
        total["location_covered"] += counts.location_covered
        total["diagnosis_covered"] += counts.diagnosis_covered
        for k in dmtr_hits:
            dmtr_hits[k] += counts.diagnosis >= k
        if counts.gold:
            doc_mcs = mcs(counts.diagnosis, counts.gold)
            doc_penalty = penalty(counts.fp)
            weighted["mcs"] += doc_mcs * counts.gold
            weighted["penalty"] += doc_penalty * counts.gold
            weighted["np_mcs"] += doc_mcs * doc_penalty * counts.gold
        _group_totals(by_dimension, gold, gold_keys, predicted, "dimension")
        _group_totals(by_type, gold, gold_keys, predicted, "error_type")
        for g in gold:
            type_dimension.setdefault(g.error_type, set()).add(g.dimension)
    n = total["gold"]
    fp = max(0, total["predictions"] - total["diagnosis"])
    out: dict[str, Any] = {
        "doc_count": scored,
        "null_documents": skipped,
        "ground_truth_count": n,
        "prediction_count": total["predictions"],
    }
    for level in LEVELS:
        out[f"{level}_hit"] = total[level]
        out[f"{level}_recall"] = _rate(total[level], n)
    out["location_accuracy"] = _rate(total["location_covered"], scored)
    out["diagnosis_accuracy"] = _rate(total["diagnosis_covered"], scored)
    out["dmtr_hits"] = {f"H{k}": v for k, v in dmtr_hits.items()}
    out["dmtr"] = {f"H{k}": _rate(v, scored) for k, v in dmtr_hits.items()}
    out["false_positive_proxy"] = fp
    out["mcs"] = mcs(total["diagnosis"], n)
    out["penalty"] = penalty(fp)
    out["np_mcs"] = out["mcs"] * out["penalty"]
    if n:
        out["doc_weighted_mcs"] = weighted["mcs"] / n
        out["avg_penalty"] = weighted["penalty"] / n
        out["cmcs"] = weighted["np_mcs"] / n
    out["by_dimension"] = {k: _group_summary(v) for k, v in sorted(by_dimension.items())}
    out["by_error_type"] = {
        k: {"dimension": ",".join(sorted(type_dimension.get(k, ()))), **_group_summary(v)}
        for k, v in sorted(by_type.items())
    }
    out["params"] = {"lambda": LAMBDA, "alpha": ALPHA, "beta": BETA}
    return out


def rounded(scores: dict[str, Any]) -> dict[str, Any]:
    """The reference's summary rounding: 4 digits for rates and DMTR, 6 for MCS and penalties."""
    out: dict[str, Any] = {}
    for key, value in scores.items():
        if key in ("by_dimension", "by_error_type"):
            out[key] = {group: rounded(figures) for group, figures in value.items()}
        elif key == "dmtr":
            out[key] = {k: round(v, 4) for k, v in value.items()}
        elif key in RATE_FIELDS:
            out[key] = round(value, 4)
        elif key in MCS_FIELDS:
            out[key] = round(value, 6)
        else:
            out[key] = value
    return out
