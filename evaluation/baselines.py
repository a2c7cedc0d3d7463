"""Reviewers that need no model: the project's linter, random guesses, and nothing at all.

They bound the benchmark from below and show which part of it is rule-solvable: the linter finds what
GB/T 1.1's deterministic rules can see in the corrupted document alone (minus what the original already
had); the judgement types (scope, semantic terminology and modality) are beyond it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np
import pyarrow as pa

from evaluation.benchmark import Benchmark, BenchmarkItem, benchmark_from_tables
from evaluation.predictions import DocumentPrediction, Prediction
from evaluation.reviewer.run import run_reviewer
from evaluation.score import score
from injectors.taxonomy import DIMENSIONS, by_id, type_ids
from parsers.model import Document
from validation.linter import lint

BASELINES = ("linter", "random", "empty", "reviewer-rules")
# how the card's table names a baseline whose command-line name is terse
LABELS = {"reviewer-rules": "reviewer (rules only)"}
RANDOM_GUESSES = 15  # the median number of errors per document


class BaselineError(ValueError):
    """A baseline that cannot run on this benchmark (e.g. the documents' sections are not loaded)."""


def _document(item: BenchmarkItem, baseline: str) -> Document:
    if item.document is None:
        raise BaselineError(f"the {baseline} baseline needs the corrupted sections of {item.doc_id}")
    return item.document


def linter_predictions(item: BenchmarkItem) -> DocumentPrediction:
    """The linter's findings on the corrupted document, minus the pre-existing ones (one for one)."""
    known = Counter((v.location, v.error_type) for v in item.pre_existing)
    found = []
    for violation in lint(_document(item, "linter")):
        key = (violation.location, violation.error_type)
        if known[key] > 0:
            known[key] -= 1
            continue
        found.append(
            Prediction(violation.location, violation.dimension, violation.error_type, violation.message)
        )
    return DocumentPrediction(item.doc_id, tuple(found))


def random_predictions(item: BenchmarkItem, rng: np.random.Generator) -> DocumentPrediction:
    """RANDOM_GUESSES guesses: a section of the document and a type, uniformly and independently."""
    numbers = [s.number for s in _document(item, "random").sections] or ["1"]
    places = rng.integers(0, len(numbers), size=RANDOM_GUESSES)
    types = rng.integers(0, len(type_ids()), size=RANDOM_GUESSES)
    return DocumentPrediction(
        item.doc_id,
        tuple(
            Prediction(numbers[int(s)], by_id()[type_ids()[int(t)]].dimension, type_ids()[int(t)])
            for s, t in zip(places, types, strict=True)
        ),
    )


def run_baseline(name: str, benchmark: Benchmark, rng: np.random.Generator) -> list[DocumentPrediction]:
    """Every document's predictions by one baseline (documents in benchmark order)."""
    if name == "empty":
        return [DocumentPrediction(item.doc_id, ()) for item in benchmark.items]
    if name == "linter":
        return [linter_predictions(item) for item in benchmark.items]
    if name == "random":
        return [random_predictions(item, rng) for item in benchmark.items]
    if name == "reviewer-rules":
        for item in benchmark.items:
            _document(item, name)
        return [r.prediction for r in run_reviewer(benchmark.items, None, ("rules",))]
    raise BaselineError(f"unknown baseline {name!r}: expected one of {', '.join(BASELINES)}")


def baseline_rng(seed: int) -> np.random.Generator:
    """The generator a baseline run starts from: the card's table and `gbtbench evaluate --baseline NAME
    --seed SEED` both use it, so they show the same figures."""
    return np.random.default_rng(seed)


def baseline_scores(benchmark: Benchmark, seed: int, resamples: int = 200) -> dict[str, dict]:
    """Each baseline scored under both protocols, each from a fresh `baseline_rng(seed)`."""
    out = {}
    for name in BASELINES:
        rng = baseline_rng(seed)
        out[name] = score(benchmark, run_baseline(name, benchmark, rng), rng, resamples)
    return out


def baseline_table(scores: Mapping[str, dict]) -> str:
    """Markdown: per baseline, diagnosis recall by dimension and overall, precision, reference CMCS."""
    header = ["baseline", *DIMENSIONS, "recall", "precision", "F1", "CMCS (reference)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, s in scores.items():
        ours = s["gbtbench"]
        cells = [LABELS.get(name, name)]
        for dimension in DIMENSIONS:
            row = ours["by_dimension"].get(dimension)
            cells.append("–" if row is None or not row["ground_truth_count"] else f"{row['recall']:.1%}")
        diagnosis = ours["levels"]["diagnosis"]
        cells.append(f"{diagnosis['recall']:.1%}")
        cells.append("–" if diagnosis["precision"] is None else f"{diagnosis['precision']:.1%}")
        cells.append(f"{diagnosis['f1']:.1%}")
        cells.append(f"{s['reference'].get('cmcs', 0.0):.4f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def baseline_markdown(version: str, tables: Mapping[str, pa.Table], seed: int) -> str:
    """The dataset card's baseline section, from a build's in-memory tables."""
    scores = baseline_scores(benchmark_from_tables(version, tables), seed)
    return (
        "Diagnosis recall (location + dimension + type) by dimension under the gbtbench protocol, with "
        "precision, F1 and the reference protocol's CMCS. `linter` is the project's GB/T 1.1 linter run on "
        "each corrupted document (pre-existing findings removed), `random` guesses "
        f"{RANDOM_GUESSES} sections and types per document (seed {seed}: `gbtbench evaluate RELEASE "
        f"--baseline random --seed {seed}` gives the same figures), `empty` predicts nothing. What the "
        "linter finds is rule-solvable; the rest needs judgement. `reviewer (rules only)` is the multi-agent "
        "reviewer's rule scanners and fusion without an LLM (`gbtbench evaluate --method reviewer`). "
        "Score a model with `gbtbench evaluate` or "
        "`gbtbench score`.\n\n" + baseline_table(scores)
    )
