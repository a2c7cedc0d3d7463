"""Reading predictions: the three JSONL shapes, robust JSON extraction, clear errors for bad files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from evaluation.predictions import PredictionsError, parse_output, read_predictions
from tests.evaluation.malformed_answers import CASES, Case

ITEM = {"location": "5.1", "dimension": "NMS", "error_type": "NMS-01", "description": "错误：“应”改为“宜”"}


@pytest.mark.parametrize(
    "raw",
    [
        json.dumps([ITEM], ensure_ascii=False),
        "```json\n" + json.dumps([ITEM], ensure_ascii=False) + "\n```\n以上是全部错误。",
        "审查结果如下：\n" + json.dumps([ITEM], ensure_ascii=False) + "\n如有疑问请告知。",
        '［｛"location"："5.1"，"dimension"："NMS"，"error_type"："NMS-01"｝］',
        '[{"location": "5.1", "dimension": "NMS", "error_type": "NMS-01",},]',
        json.dumps({"errors": [ITEM]}, ensure_ascii=False),
        '[{"section_number": "5.1", "dimension": "NMS", "error_type": "NMS-01", "reason": "x"}]',
    ],
)
def test_model_text_is_parsed_robustly(raw: str) -> None:
    got = parse_output("d", raw)
    assert not got.unparsable
    assert got.predictions is not None and len(got.predictions) == 1
    first = got.predictions[0]
    assert (first.location, first.dimension, first.error_type) == ("5.1", "NMS", "NMS-01")


@pytest.mark.parametrize("raw", ["", "抱歉，我无法完成。", "[{broken", '"just a string"'])
def test_unparsable_output_is_an_empty_list_and_counted(raw: str) -> None:
    got = parse_output("d", raw)
    assert got.unparsable and got.predictions == ()


def test_null_and_empty_list() -> None:
    assert parse_output("d", "null").predictions is None
    assert parse_output("d", " [] ").predictions == ()
    assert not parse_output("d", "[]").unparsable


def test_numeric_location_and_non_object_items() -> None:
    got = parse_output("d", '[{"location": 5, "dimension": "STR", "error_type": "STR-04"}, "x", 3]')
    assert got.predictions is not None and [p.location for p in got.predictions] == ["5"]


def _write(path: Path, rows: list) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


def test_the_three_file_shapes(tmp_path: Path) -> None:
    sample = {
        "doc_id": 0,
        "doc": {"id": "review_zero_shot_c", "doc_id": "c", "query": "…"},
        "target": "[]",
        "resps": [["```json\n[]\n```"]],
        "filtered_resps": ["```json\n[]\n```"],
    }
    path = _write(
        tmp_path / "p.jsonl",
        [
            {"doc_id": "a", "predictions": [ITEM]},
            {"doc_id": "b", "raw_output": json.dumps([ITEM, ITEM], ensure_ascii=False)},
            sample,
            {"doc_id": "d", "predictions": None},
        ],
    )
    got = {p.doc_id: p for p in read_predictions(path)}
    assert got["a"].predictions is not None and len(got["a"].predictions) == 1
    assert got["b"].predictions is not None and len(got["b"].predictions) == 2
    assert got["c"].predictions == () and not got["c"].unparsable
    assert got["d"].predictions is None


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (["not json"], "line 1 is not JSON"),
        ([{"predictions": []}], "line 1: no doc_id"),
        ([{"doc_id": "a"}], "expected 'predictions', 'raw_output'"),
        ([{"doc_id": "a", "predictions": []}, {"doc_id": "a", "predictions": []}], "appears twice"),
    ],
)
def test_bad_files_name_the_file_and_the_reason(tmp_path: Path, rows: list, reason: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows), encoding="utf-8")
    with pytest.raises(PredictionsError) as info:
        read_predictions(path)
    assert str(path) in str(info.value) and reason in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PredictionsError, match="no such file"):
        read_predictions(tmp_path / "nope.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_answers_are_read_to_every_error_they_hold(case: Case) -> None:
    got = parse_output("d", case.raw)
    assert got.predictions is not None and not got.unparsable, got.note
    assert Counter((p.location, p.error_type) for p in got.predictions) == Counter(case.expected)
    assert got.seen == case.shown and got.partial == (case.shown > len(case.expected))


def test_the_corpus_is_large_and_varied() -> None:
    assert len(CASES) >= 40 and len({c.raw for c in CASES}) == len(CASES)
    assert sum(len(c.expected) for c in CASES) >= 70


@pytest.mark.parametrize(
    ("raw", "recovered", "seen"),
    [
        (  # cut off inside the third error: two are read, three were begun
            '[{"location": "5.1", "error_type": "NMS-01"}, {"location": "6.2", "error_type": "TER-02"}, '
            '{"location": "7.1", "error_ty',
            2,
            3,
        ),
        (  # a list, then one more error written as prose with JSON fragments
            '[{"location": "5.1", "error_type": "NMS-01"}]\n'
            '还有一处："location": "6.2", "error_type": "TER-02"。',
            1,
            2,
        ),
    ],
)
def test_a_partial_read_is_reported_with_its_counts(raw: str, recovered: int, seen: int) -> None:
    got = parse_output("d", raw)
    assert got.predictions is not None and len(got.predictions) == recovered
    assert got.partial and got.seen == seen
    assert f"{recovered} of {seen} errors read" in got.note
    assert got.to_dict()["items_seen"] == seen


def test_partial_reads_reach_the_scores_and_the_report(tmp_path: Path) -> None:
    from evaluation.benchmark import Benchmark, BenchmarkItem, GoldError
    from evaluation.report import render_report
    from evaluation.score import score

    gold = (GoldError("5.1", "NMS", "NMS-01"),)
    benchmark = Benchmark("v9", (BenchmarkItem("a", gold, ()), BenchmarkItem("b", gold, ())))
    cut = '[{"location": "5.1", "error_type": "NMS-01"}, {"location": "6.2", "error_t'
    path = _write(
        tmp_path / "p.jsonl", [{"doc_id": "a", "raw_output": cut}, {"doc_id": "b", "raw_output": "[]"}]
    )
    scores = score(benchmark, read_predictions(path), np.random.default_rng(0), resamples=10)
    assert scores["input"]["partial"] == {"count": 1, "doc_ids": ["a"], "recovered": 1, "seen": 2}
    assert "read in part: 1 (a); 1 of the 2 errors" in render_report(scores, title="t")


@pytest.mark.parametrize(
    ("raw", "note"),
    [
        ("[" * 100_000, "nested deeper than"),
        ('{"errors": ' * 10_000, "nested deeper than"),
        ("[x " * (1024 * 1024 // 3), "over the"),
        ("[x " * (128 * 1024 // 3), "nested deeper than"),
    ],
)
def test_hostile_answers_are_refused_with_a_reason(raw: str, note: str) -> None:
    got = parse_output("d", raw)
    assert got.unparsable and got.predictions == () and note in got.note


def test_a_deeply_nested_line_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"doc_id": "a", "predictions": ' + "[" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(PredictionsError, match="line 1 is nested too deeply"):
        read_predictions(path)
    path.write_text(json.dumps({"doc_id": "a", "raw_output": "[" * 100_000}) + "\n", encoding="utf-8")
    (got,) = read_predictions(path)
    assert got.unparsable
