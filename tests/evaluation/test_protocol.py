"""Our protocol, hand-computed: normalisation, precision/F1, neutral pre-existing, groups, CIs."""

from __future__ import annotations

import numpy as np
import pytest

from evaluation.benchmark import GoldError
from evaluation.locations import normalise_location
from evaluation.predictions import Prediction
from evaluation.protocol import gbtbench_scores

GOLD = (
    GoldError("5.1", "NMS", "NMS-01"),
    GoldError("附录A", "STR", "STR-05"),
    GoldError("2", "NREF", "NREF-02"),
)
PRE = (GoldError("6.2", "NMS", "NMS-03"),)


def p(location: str | None, dimension: str | None, error_type: str | None) -> Prediction:
    return Prediction(location, dimension, error_type)


def run(docs, seed: int = 7, resamples: int = 200) -> dict:
    return gbtbench_scores(docs, np.random.default_rng(seed), resamples)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("第5章", "5"),
        ("５.２条", "5.2"),
        ("第5.2条", "5.2"),
        ("[5.2]", "5.2"),
        ("【5.2】", "5.2"),
        ("5.2 要求", "5.2"),
        ("5.2。", "5.2"),
        ("附录 A", "附录A"),
        ("A", "附录A"),
        ("附录Ａ", "附录A"),
        ("[附录B]", "附录B"),
        ("附录A.1", "A.1"),
        ("A.1", "A.1"),
        ("前 言", "前言"),
        ("序言", "前言"),
        ("参考文献", "参考文献"),
        (None, None),
    ],
)
def test_full_location_normalisation(raw, expected) -> None:
    assert normalise_location(raw) == expected


def test_perfect_and_empty() -> None:
    perfect = run([(GOLD, PRE, tuple(p(g.location, g.dimension, g.error_type) for g in GOLD))])
    d = perfect["levels"]["diagnosis"]
    assert (d["recall"], d["precision"], d["f1"]) == (1.0, 1.0, 1.0)
    empty = run([(GOLD, PRE, ())])
    e = empty["levels"]["diagnosis"]
    assert e["recall"] == 0.0 and e["precision"] is None and e["f1"] == 0.0


def test_spellings_codes_pre_existing_and_duplicates() -> None:
    preds = (
        p("第5.1条", "nms", "nms-01"),  # hit: location and codes folded
        p("A", "C2.1", "E-S-05"),  # hit: annex letter and reference codes
        p("6.2", "NMS", "NMS-03"),  # the original already had this: neutral
        p("6.2", "NMS", "NMS-03"),  # a repeat of it: a false positive
        p("9", "TER", "TER-01"),  # false positive
    )
    s = run([(GOLD, PRE, preds)])
    d = s["levels"]["diagnosis"]
    assert (d["hits"], d["false_positives"], d["neutral_pre_existing"]) == (2, 2, 1)
    assert d["recall"] == pytest.approx(2 / 3)
    assert d["precision"] == pytest.approx(0.5)  # 2 / (2 + 2): the neutral one is not counted
    assert d["f1"] == pytest.approx(4 / 7)  # 2·0.5·(2/3) / (0.5 + 2/3)
    loc = s["levels"]["location"]
    assert (loc["hits"], loc["false_positives"], loc["neutral_pre_existing"]) == (2, 2, 1)


def test_missing_dimension_taken_from_the_type() -> None:
    s = run([(GOLD, (), (p("5.1", None, "NMS-01"),))])
    assert s["levels"]["diagnosis"]["hits"] == 1


def test_groups_without_double_counting() -> None:
    gold = (GoldError("5", "NMS", "NMS-01"), GoldError("5", "TER", "TER-01"))
    s = run([(gold, (), (p("5", "NMS", "NMS-01"),))])
    assert s["levels"]["location"]["hits"] == 1
    assert s["by_dimension"]["NMS"]["hits"] == 1
    assert s["by_dimension"]["TER"]["hits"] == 0
    assert s["by_error_type"]["TER-01"]["recall"] == 0.0
    assert sum(row["hits"] for row in s["by_dimension"].values()) == s["levels"]["diagnosis"]["hits"]


def test_false_positives_count_in_the_predicted_dimension() -> None:
    s = run([(GOLD, (), (p("9", "TER", "TER-01"), p("5.1", "NMS", "NMS-01")))])
    assert s["by_dimension"]["TER"]["false_positives"] == 1
    assert s["by_dimension"]["TER"]["precision"] == 0.0
    assert s["by_dimension"]["NMS"]["precision"] == 1.0


def test_null_documents_are_not_scored() -> None:
    s = run([(GOLD, (), None), (GOLD, (), tuple(p(g.location, g.dimension, g.error_type) for g in GOLD))])
    assert s["doc_count"] == 1 and s["null_documents"] == 1 and s["ground_truth_count"] == 3


def test_bootstrap_is_seeded_and_brackets_the_estimate() -> None:
    docs = []
    for i in range(30):  # document i finds i % 4 of its 3 errors (capped at 3)
        found = GOLD[: min(3, i % 4)]
        docs.append((GOLD, (), tuple(p(g.location, g.dimension, g.error_type) for g in found)))
    a, b, c = run(docs, seed=1), run(docs, seed=1), run(docs, seed=2)
    ci = a["levels"]["diagnosis"]["ci"]["recall"]
    assert ci == b["levels"]["diagnosis"]["ci"]["recall"]
    assert ci != c["levels"]["diagnosis"]["ci"]["recall"]
    assert ci[0] < a["levels"]["diagnosis"]["recall"] < ci[1]
    same = run([docs[3]] * 10)  # identical documents: no spread
    assert same["levels"]["diagnosis"]["ci"]["recall"] == [1.0, 1.0]


def test_an_undefined_term_is_hit_at_its_chapter_or_inside_it() -> None:
    """TER-01 is located at the element that lacks the entry (docs/taxonomy.md): a reviewer pointing at
    the chapter or at the entry's place in it hits; pointing elsewhere, or another type there, does not."""
    gold = (GoldError("3", "TER", "TER-01"), GoldError("附录B", "STR", "STR-05"))
    for where in ("3", "第3章", "3.4", "3.4.1"):
        hit = run([(gold, (), (p(where, "TER", "TER-01"),))])["levels"]["diagnosis"]
        assert hit["hits"] == 1, where
    for prediction in (p("4.2", "TER", "TER-01"), p("3.4", "TER", "TER-04"), p("B.1", "STR", "STR-05")):
        miss = run([(gold, (), (prediction,))])["levels"]["diagnosis"]
        assert miss["hits"] == 0, prediction
    # two predictions inside the same element are one hit and one false positive, as at any location
    twice = run([(gold, (), (p("3.1", "TER", "TER-01"), p("3.2", "TER", "TER-01")))])["levels"]["diagnosis"]
    assert (twice["hits"], twice["false_positives"]) == (1, 1)
