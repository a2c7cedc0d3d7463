"""Our protocol (gbtbench): the reference's matching with its known flaws fixed.

- Locations are normalised fully (evaluation.locations.normalise_location), codes case- and width-folded
  and mapped through the taxonomy, so "第5章" / "ｓｔｒ-01" / "E-S-01" score as the gold "5" / "STR-01".
  A prediction of a type located at a whole element (TER-01: the terms chapter that lacks the entry)
  inside an element a gold error of that type names is located at that element (3.4 → 3).
- Precision and F1 at each level. A prediction that is not a hit but matches a violation the original
  document already had (pre_existing.parquet) on location + dimension + type is *neutral*: neither a hit
  nor a false positive (one neutral prediction per pre-existing violation; a repeat is a false positive).
- Per-dimension and per-type figures come from one matching per document, so each prediction counts
  once: a hit in the group of the gold item it matched, a false positive in the group it predicted.
- Every headline figure carries a 95% bootstrap interval over documents; the generator is passed in.
Figures are pooled over documents (micro averages), like the reference's recall.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evaluation.benchmark import GoldError
from evaluation.locations import at_element, normalise_location
from evaluation.predictions import Prediction
from injectors.taxonomy import DIMENSIONS, REFERENCE_DIMENSIONS, by_id, element_located, reference_to_ours

LEVELS = ("location", "dimension", "diagnosis")
CONFIDENCE = 0.95
_DIMENSION_NAMES = {zh: code for code, (zh, _) in DIMENSIONS.items()} | {
    en.upper(): code for code, (_, en) in DIMENSIONS.items()
}
UNKNOWN = "?"

Key = tuple[str | None, ...]


def _fold(raw: str | None) -> str | None:
    if raw is None:
        return None
    return unicodedata.normalize("NFKC", raw).strip().upper().replace("_", "-").replace("－", "-")


def canonical_type(raw: str | None) -> str | None:
    code = _fold(raw)
    if code is None:
        return None
    return reference_to_ours().get(code, code)


def canonical_dimension(raw: str | None, error_type: str | None = None) -> str | None:
    """Our dimension code; a missing dimension is taken from a known type."""
    code = _fold(raw)
    if not code:
        known = by_id()
        return known[error_type].dimension if error_type is not None and error_type in known else code
    code = REFERENCE_DIMENSIONS.get(code, code)
    return _DIMENSION_NAMES.get(code, code)


def _key(location: str | None, dimension: str | None, error_type: str | None, level: str) -> Key:
    if level == "location":
        return (location,)
    if level == "dimension":
        return (location, dimension)
    return (location, dimension, error_type)


def gold_keys(item: GoldError) -> dict[str, Key]:
    location = normalise_location(item.location)
    return {lv: _key(location, item.dimension, item.error_type, lv) for lv in LEVELS}


def prediction_keys(
    item: Prediction, elements: Mapping[str, set[str | None]] | None = None
) -> dict[str, Key]:
    """`elements`: per type located at a whole element, the locations of the document's gold errors."""
    error_type = canonical_type(item.error_type)
    location = normalise_location(item.location)
    if elements and error_type is not None and error_type in elements:
        location = at_element(location, elements[error_type])
    dimension = canonical_dimension(item.dimension, error_type)
    return {lv: _key(location, dimension, error_type, lv) for lv in LEVELS}


@dataclass(frozen=True)
class DocumentResult:
    """One document under our protocol: per level hits / false positives / neutral, per group counts."""

    gold: int
    predictions: int
    hits: dict[str, int]
    false_positives: dict[str, int]
    neutral: dict[str, int]
    gold_by_dimension: Counter[str] = field(default_factory=Counter)
    hits_by_dimension: Counter[str] = field(default_factory=Counter)  # diagnosis hits, by gold dimension
    dimension_hits_by_dimension: Counter[str] = field(default_factory=Counter)
    fp_by_dimension: Counter[str] = field(default_factory=Counter)  # diagnosis FPs, by predicted dimension
    gold_by_type: Counter[str] = field(default_factory=Counter)
    hits_by_type: Counter[str] = field(default_factory=Counter)


def score_document(
    gold: Sequence[GoldError], pre_existing: Sequence[GoldError], predictions: Sequence[Prediction]
) -> DocumentResult:
    g_keys = [gold_keys(g) for g in gold]
    elements = {
        t: {normalise_location(g.location) for g in gold if g.error_type == t} for t in element_located()
    }
    p_keys = [prediction_keys(p, elements) for p in predictions]
    known = Counter(gold_keys(v)["diagnosis"] for v in pre_existing)
    p_known = [known[k["diagnosis"]] > 0 for k in p_keys]
    hits: dict[str, int] = {}
    fps: dict[str, int] = {}
    neutral: dict[str, int] = {}
    result = DocumentResult(len(gold), len(predictions), hits, fps, neutral)
    for level in LEVELS:
        wanted = Counter(k[level] for k in g_keys)
        by_key: dict[Key, list[int]] = {}
        for i, k in enumerate(p_keys):
            by_key.setdefault(k[level], []).append(i)
        unmatched: list[int] = []
        level_hits: Counter[Key] = Counter()
        for key, indices in by_key.items():
            # a prediction that could be neutral is the last to be used as a hit
            indices = sorted(indices, key=lambda i: (p_known[i], i))
            take = min(wanted[key], len(indices))
            level_hits[key] = take
            unmatched.extend(indices[take:])
        remaining = Counter(known)
        n_neutral = 0
        for i in sorted(unmatched):
            diagnosis = p_keys[i]["diagnosis"]
            if remaining[diagnosis] > 0:
                remaining[diagnosis] -= 1
                n_neutral += 1
            elif level == "diagnosis":
                predicted = diagnosis[1]
                dimension = predicted if predicted is not None and predicted in DIMENSIONS else UNKNOWN
                result.fp_by_dimension[dimension] += 1
        hits[level] = sum(level_hits.values())
        neutral[level] = n_neutral
        fps[level] = len(unmatched) - n_neutral
        if level == "diagnosis":
            for key, n in level_hits.items():
                result.hits_by_dimension[str(key[1])] += n
                result.hits_by_type[str(key[2])] += n
        elif level == "dimension":
            for key, n in level_hits.items():
                result.dimension_hits_by_dimension[str(key[1])] += n
    for g in gold:
        result.gold_by_dimension[g.dimension] += 1
        result.gold_by_type[g.error_type] += 1
    return result


def _ratio(num: np.ndarray | float, den: np.ndarray | float) -> Any:
    num_a, den_a = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num_a, den_a, out=np.full_like(den_a, np.nan), where=den_a > 0)


def _figures(hits: Any, fp: Any, gold: Any) -> dict[str, Any]:
    recall = np.nan_to_num(_ratio(hits, gold))
    precision = _ratio(hits, hits + fp)
    p0 = np.nan_to_num(precision)
    f1 = np.nan_to_num(_ratio(2 * p0 * recall, p0 + recall))
    return {"recall": recall, "precision": precision, "f1": f1}


# The percentile interval over the resamples where a figure is defined (precision is not, in a resample with
# no prediction), on one draw shared by every figure. scipy.stats.bootstrap gives NaN for such a figure:
# tests/evaluation/test_bootstrap_choice.py.
def _interval(samples: np.ndarray) -> list[float] | None:
    values = samples[~np.isnan(samples)]
    if values.size == 0:
        return None
    tail = (1 - CONFIDENCE) / 2 * 100
    return [float(np.percentile(values, tail)), float(np.percentile(values, 100 - tail))]


def _value(x: Any) -> float | None:
    x = float(x)
    return None if np.isnan(x) else x


def gbtbench_scores(
    documents: Sequence[tuple[Sequence[GoldError], Sequence[GoldError], Sequence[Prediction] | None]],
    rng: np.random.Generator,
    resamples: int = 1000,
) -> dict[str, Any]:
    """Our summary over (gold, pre_existing, predictions) per document; None predictions are not scored."""
    results = [score_document(g, pre, p) for g, pre, p in documents if p is not None]
    n_docs = len(results)
    gold = np.array([r.gold for r in results], dtype=np.int64)
    samples = rng.integers(0, n_docs, size=(resamples, n_docs)) if n_docs and resamples > 0 else None
    out: dict[str, Any] = {
        "doc_count": n_docs,
        "null_documents": len(documents) - n_docs,
        "ground_truth_count": int(gold.sum()),
        "prediction_count": sum(r.predictions for r in results),
        "levels": {},
    }
    for level in LEVELS:
        hits = np.array([r.hits[level] for r in results], dtype=np.int64)
        fp = np.array([r.false_positives[level] for r in results], dtype=np.int64)
        point = _figures(hits.sum(), fp.sum(), gold.sum())
        figures: dict[str, Any] = {
            "hits": int(hits.sum()),
            "false_positives": int(fp.sum()),
            "neutral_pre_existing": sum(r.neutral[level] for r in results),
            **{name: _value(v) for name, v in point.items()},
        }
        if samples is not None:
            boot = _figures(hits[samples].sum(axis=1), fp[samples].sum(axis=1), gold[samples].sum(axis=1))
            figures["ci"] = {name: _interval(v) for name, v in boot.items()}
        out["levels"][level] = figures
    out["by_dimension"] = _by_dimension(results, samples)
    out["by_error_type"] = _by_type(results)
    out["bootstrap"] = {"resamples": resamples if samples is not None else 0, "confidence": CONFIDENCE}
    return out


def _by_dimension(results: Sequence[DocumentResult], samples: np.ndarray | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dimension in DIMENSIONS:
        gold = np.array([r.gold_by_dimension[dimension] for r in results], dtype=np.int64)
        hits = np.array([r.hits_by_dimension[dimension] for r in results], dtype=np.int64)
        fp = np.array([r.fp_by_dimension[dimension] for r in results], dtype=np.int64)
        dim_hits = sum(r.dimension_hits_by_dimension[dimension] for r in results)
        if not gold.sum() and not fp.sum():
            continue
        point = _figures(hits.sum(), fp.sum(), gold.sum())
        row: dict[str, Any] = {
            "ground_truth_count": int(gold.sum()),
            "hits": int(hits.sum()),
            "false_positives": int(fp.sum()),
            "recall": _value(point["recall"]),
            "precision": _value(point["precision"]),
            "f1": _value(point["f1"]),
            "dimension_recall": _value(np.nan_to_num(_ratio(dim_hits, gold.sum()))),
        }
        if samples is not None and gold.sum():
            row["recall_ci"] = _interval(_ratio(hits[samples].sum(axis=1), gold[samples].sum(axis=1)))
        out[dimension] = row
    unknown = sum(r.fp_by_dimension[UNKNOWN] for r in results)
    if unknown:
        out[UNKNOWN] = {"ground_truth_count": 0, "hits": 0, "false_positives": unknown}
    return out


def _by_type(results: Sequence[DocumentResult]) -> dict[str, Any]:
    gold: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    for r in results:
        gold.update(r.gold_by_type)
        hits.update(r.hits_by_type)
    return {
        t: {
            "dimension": by_id()[t].dimension if t in by_id() else "",
            "ground_truth_count": gold[t],
            "hits": hits[t],
            "recall": hits[t] / gold[t],
        }
        for t in sorted(gold)
    }
