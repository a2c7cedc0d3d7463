"""The reference protocol on hand-computed cases (formulas of Ttchance/GBT-benchmark-agent main.py)."""

from __future__ import annotations

import math

import pytest

from evaluation.benchmark import GoldError
from evaluation.locations import reference_location
from evaluation.predictions import Prediction, parse_output
from evaluation.reference import reference_scores, rounded

GOLD = (
    GoldError("5.1", "NMS", "NMS-01"),
    GoldError("附录A", "STR", "STR-05"),
    GoldError("2", "NREF", "NREF-02"),
)


def p(location: str | None, dimension: str, error_type: str) -> Prediction:
    return Prediction(location, dimension, error_type)


PERFECT = tuple(p(g.location, g.dimension, g.error_type) for g in GOLD)


def one(predictions) -> dict:
    return reference_scores([(GOLD, predictions)])


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  5.1 ", "5.1"),
        ("[5.1]", "5.1"),
        ("[附录A]", "A"),
        ("附录 B", "B"),
        ("附 录 C", "C"),
        ("[[5]]", "[5]"),  # one enclosing pair only
        ("第5章", "第5章"),  # nothing else is normalised
        ("５.１", "５.１"),
        ("", ""),  # "" is not null
        (None, None),
        (5, "5"),
    ],
)
def test_reference_location_normalisation(raw, expected) -> None:
    assert reference_location(raw) == expected


def test_perfect_predictions() -> None:
    s = one(PERFECT)
    assert (s["location_hit"], s["dimension_hit"], s["diagnosis_hit"]) == (3, 3, 3)
    assert s["diagnosis_recall"] == 1.0
    assert s["mcs"] == 1.0 and s["penalty"] == 1.0 and s["cmcs"] == 1.0
    assert s["dmtr"]["H3"] == 1.0 and s["dmtr"]["H4"] == 0.0
    assert s["false_positive_proxy"] == 0
    assert s["location_accuracy"] == 1.0 and s["diagnosis_accuracy"] == 1.0


def test_empty_predictions() -> None:
    s = one(())
    assert (s["location_hit"], s["diagnosis_hit"], s["prediction_count"]) == (0, 0, 0)
    assert s["mcs"] == 0.0 and s["penalty"] == 1.0 and s["cmcs"] == 0.0
    assert s["dmtr"]["H1"] == 0.0
    assert s["doc_count"] == 1


def test_all_wrong() -> None:
    s = one((p("9", "STR", "STR-01"), p("8", "TER", "TER-01")))
    assert s["diagnosis_hit"] == 0 and s["location_hit"] == 0
    assert s["false_positive_proxy"] == 2
    # penalty = 1 − 0.15·2/(2 + 100) = 1 − 0.3/102
    assert s["penalty"] == pytest.approx(0.9970588235)
    assert s["cmcs"] == 0.0


def test_partial() -> None:
    # 5.1 right place and dimension, wrong type; "A" is 附录A after the reference's normalisation; "[2]" is 2
    s = one((p("5.1", "NMS", "NMS-02"), p("A", "STR", "STR-05"), p("[2]", "NREF", "NREF-02")))
    assert (s["location_hit"], s["dimension_hit"], s["diagnosis_hit"]) == (3, 3, 2)
    assert s["diagnosis_recall"] == pytest.approx(2 / 3)
    # MCS = (2/3)·e^(−1/3) = 0.477688…; fp = 1, penalty = 1 − 0.15/101 = 0.998515…
    assert s["mcs"] == pytest.approx(0.4776875)
    assert s["penalty"] == pytest.approx(0.9985149)
    assert s["cmcs"] == pytest.approx(0.4776875 * 0.9985149, rel=1e-6)
    assert s["dmtr"]["H2"] == 1.0 and s["dmtr"]["H3"] == 0.0
    r = rounded(s)
    assert r["diagnosis_recall"] == 0.6667
    assert r["mcs"] == 0.477688
    assert r["cmcs"] == 0.476978


def test_duplicates_count_once_as_hits_and_again_as_false_positives() -> None:
    s = one((PERFECT[0], PERFECT[0], PERFECT[1]))
    assert s["diagnosis_hit"] == 2
    assert s["false_positive_proxy"] == 1  # 3 predictions − 2 hits


def test_extra_false_positives() -> None:
    extra = tuple(p(f"9.{i}", "TER", "TER-01") for i in range(100))
    s = one(PERFECT + extra)
    assert s["diagnosis_hit"] == 3 and s["false_positive_proxy"] == 100
    assert s["penalty"] == pytest.approx(0.925)  # 1 − 0.15·100/200
    assert s["cmcs"] == pytest.approx(0.925)


def test_unparsable_output_scores_as_empty_and_null_is_left_out() -> None:
    unparsable = parse_output("a", "抱歉，我无法完成这项审查。")
    null = parse_output("b", "null")
    assert unparsable.unparsable and unparsable.predictions == ()
    assert null.predictions is None and not null.unparsable
    s = reference_scores([(GOLD, PERFECT), (GOLD, unparsable.predictions), (GOLD, null.predictions)])
    assert s["doc_count"] == 2 and s["null_documents"] == 1
    assert s["ground_truth_count"] == 6  # the null document's gold is in no denominator
    assert s["diagnosis_recall"] == 0.5
    assert s["dmtr"]["H1"] == 0.5
    # CMCS = (1·1·3 + 0·1·3) / 6
    assert s["cmcs"] == pytest.approx(0.5)


def test_reference_codes_map_through_the_taxonomy() -> None:
    s = one((p("5.1", "C3.1", "E-T-01"), p("附录A", "C2.1", "E-S-05"), p("2", "C3.3", "E-R-02")))
    assert s["diagnosis_hit"] == 3


def test_codes_are_case_sensitive_in_the_reference() -> None:
    s = one((p("5.1", "nms", "nms-01"),))
    assert s["location_hit"] == 1 and s["dimension_hit"] == 0 and s["diagnosis_hit"] == 0


def test_cmcs_is_weighted_by_gold_count_and_pooled_figures_differ() -> None:
    partial = (p("5.1", "NMS", "NMS-02"), p("A", "STR", "STR-05"), p("[2]", "NREF", "NREF-02"))
    single = (GoldError("4", "SCP", "SCP-01"),)
    s = reference_scores([(GOLD, partial), (single, (p("4", "SCP", "SCP-01"),))])
    doc_a = 2 / 3 * math.exp(-1 / 3) * (1 - 0.15 / 101)
    assert s["cmcs"] == pytest.approx((3 * doc_a + 1 * 1.0) / 4)
    assert s["doc_weighted_mcs"] == pytest.approx((3 * 2 / 3 * math.exp(-1 / 3) + 1) / 4)
    # pooled: 3 hits of 4, fp = 4 predictions − 3 hits = 1
    assert s["mcs"] == pytest.approx(0.75 * math.exp(-0.25))
    assert s["penalty"] == pytest.approx(1 - 0.15 / 101)


def test_groups_match_against_all_predictions_so_one_prediction_counts_twice() -> None:
    gold = (GoldError("5", "NMS", "NMS-01"), GoldError("5", "TER", "TER-01"))
    s = reference_scores([(gold, (p("5", "NMS", "NMS-01"),))])
    assert s["location_hit"] == 1  # overall: one prediction, one location hit
    assert s["by_dimension"]["NMS"]["location_hit"] == 1
    assert s["by_dimension"]["TER"]["location_hit"] == 1  # the same prediction again
    assert s["by_error_type"]["TER-01"]["diagnosis_hit"] == 0


def test_document_without_gold_counts_for_dmtr_but_not_cmcs() -> None:
    s = reference_scores([(GOLD, PERFECT), ((), (p("1", "STR", "STR-01"),))])
    assert s["doc_count"] == 2
    assert s["dmtr"]["H1"] == 0.5
    assert s["cmcs"] == 1.0  # the document without gold has no weight
