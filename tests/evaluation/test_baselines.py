"""Baselines on a real (small) release, and the baseline table of its dataset card."""

# The shared fixtures are imported by name (no conftest.py here), which ruff takes for redefinitions.
# ruff: noqa: F811

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from evaluation.baselines import RANDOM_GUESSES, BaselineError, run_baseline
from evaluation.benchmark import load_benchmark
from injectors.taxonomy import by_id
from tests.evaluation.release_fixture import release_dir  # noqa: F401  (fixtures)
from validation.linter import lint


def test_linter_baseline_is_the_linter_minus_pre_existing(release_dir: Path) -> None:
    benchmark = load_benchmark(release_dir, with_documents=True)
    for item, found in zip(
        benchmark.items, run_baseline("linter", benchmark, np.random.default_rng(0)), strict=True
    ):
        assert item.document is not None and found.doc_id == item.doc_id
        everything = Counter((v.location, v.error_type) for v in lint(item.document))
        known = Counter((v.location, v.error_type) for v in item.pre_existing)
        predicted = Counter((p.location, p.error_type) for p in found.predictions or ())
        assert predicted == everything - known
        assert all(p.dimension == by_id()[p.error_type].dimension for p in found.predictions or ())


def test_random_baseline_is_seeded_and_guesses_real_sections(release_dir: Path) -> None:
    benchmark = load_benchmark(release_dir, with_documents=True)
    a = run_baseline("random", benchmark, np.random.default_rng(5))
    b = run_baseline("random", benchmark, np.random.default_rng(5))
    c = run_baseline("random", benchmark, np.random.default_rng(6))
    assert a == b and a != c
    for item, guess in zip(benchmark.items, a, strict=True):
        numbers = {s.number for s in item.document.sections}  # type: ignore[union-attr]
        assert len(guess.predictions or ()) == RANDOM_GUESSES
        assert all(p.location in numbers and p.error_type in by_id() for p in guess.predictions or ())


def test_empty_baseline_and_missing_documents(release_dir: Path) -> None:
    benchmark = load_benchmark(release_dir)
    assert all(p.predictions == () for p in run_baseline("empty", benchmark, np.random.default_rng(0)))
    with pytest.raises(BaselineError, match="needs the corrupted sections"):
        run_baseline("linter", benchmark, np.random.default_rng(0))  # loaded without the documents


def test_the_card_shows_the_baseline_table(release_dir: Path) -> None:
    card = (release_dir / "hf" / "README.md").read_text(encoding="utf-8")
    section = card.split("## Baselines", 1)[1].split("\n## ", 1)[0]
    rows = {line.split(" | ")[0].strip("| "): line for line in section.splitlines() if line.startswith("| ")}
    assert {"baseline", "linter", "random", "empty", "reviewer (rules only)"} <= set(rows)
    assert (
        rows["empty"].count("0.0%") == 7 and " – " in rows["empty"]
    )  # 5 dimensions, recall, F1; no precision
    linter = rows["linter"].split(" | ")
    assert linter[1].endswith("%") and float(linter[1].rstrip("%")) > 50  # structure is rule-solvable


def test_the_reviewer_s_scanners_find_what_the_linter_finds(release_dir: Path) -> None:
    """reviewer-rules: the linter's findings through the reviewer's fusion: one prediction per (location,
    type), at the checker's own location, pre-existing ones included (the scorer holds them neutral)."""
    benchmark = load_benchmark(release_dir, with_documents=True)
    found = run_baseline("reviewer-rules", benchmark, np.random.default_rng(0))
    for item, prediction in zip(benchmark.items, found, strict=True):
        assert item.document is not None
        scanned = {(v.location, v.error_type) for v in lint(item.document)}
        predicted = [(p.location, p.error_type) for p in prediction.predictions or ()]
        assert sorted(predicted) == sorted(scanned)
    with pytest.raises(BaselineError, match="needs the corrupted sections"):
        run_baseline("reviewer-rules", load_benchmark(release_dir), np.random.default_rng(0))
