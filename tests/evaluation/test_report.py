"""What a scored run shows a person: the terminal's headlines, the notes on its input and its files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from evaluation.benchmark import Benchmark, BenchmarkItem, GoldError
from evaluation.predictions import DocumentPrediction, Prediction
from evaluation.report import CHART_NAME, headline, input_notes, render_report, report_files, score_lines
from evaluation.score import PROTOCOLS, score

BENCHMARK = Benchmark(
    "v9.9.9",
    tuple(
        BenchmarkItem(doc_id, (GoldError("5.1", "NMS", "NMS-03"),), ())
        for doc_id in ("doc-a", "doc-b", "doc-c", "doc-d", "doc-e")
    ),
)
FOUND = (Prediction("5.1", "NMS", "NMS-03"),)


def scored(*predictions: DocumentPrediction) -> dict:
    return score(BENCHMARK, predictions, np.random.default_rng(0), resamples=20)


def test_every_protocol_is_shown_the_chosen_one_first() -> None:
    scores = scored(DocumentPrediction("doc-a", FOUND))
    for protocol in PROTOCOLS:
        lines = score_lines(scores, protocol)
        headers = [line for line in lines if line.startswith("[")]
        assert headers[0] == f"[{protocol}]" and sorted(headers) == sorted(f"[{p}]" for p in PROTOCOLS)
        start = lines.index(f"[{protocol}]") + 1
        assert lines[start : start + len(headline(scores, protocol))] == [
            f"  {line}" for line in headline(scores, protocol)
        ]
        assert len(lines) == len(PROTOCOLS) + sum(len(headline(scores, p)) for p in PROTOCOLS)


def test_each_kind_of_unclean_input_gets_its_note() -> None:
    scores = scored(
        DocumentPrediction("doc-a", FOUND),
        DocumentPrediction("doc-b", (), unparsable=True),
        DocumentPrediction("doc-c", None),
        DocumentPrediction("doc-d", (), error="timeout"),
        DocumentPrediction("not-in-the-release", FOUND),
        DocumentPrediction("doc-e", FOUND, seen=3),
    )
    assert input_notes(scores) == [
        "1 documents with unparsable output, scored as empty",
        "1 documents answered null, left out of every denominator",
        "1 documents whose model call failed, scored as empty",
        "1 documents predicted but not in the release, ignored",
        "1 documents read in part: 1 of the 3 errors their answers show were recovered",
    ]
    missing = scored(DocumentPrediction("doc-a", FOUND))
    assert input_notes(missing) == ["4 documents without a prediction, scored as empty"]


def test_a_clean_input_has_no_note() -> None:
    scores = scored(*(DocumentPrediction(item.doc_id, FOUND) for item in BENCHMARK.items))
    assert input_notes(scores) == []


def test_a_run_s_files_are_its_figures_its_chart_and_its_report(tmp_path: Path) -> None:
    scores = scored(DocumentPrediction("doc-a", FOUND))
    files = report_files(scores, "a-model", BENCHMARK.version)
    assert list(files) == ["scores.json", CHART_NAME, "report.md"]
    for name, write in files.items():
        write(tmp_path / name)
    assert json.loads((tmp_path / "scores.json").read_text(encoding="utf-8")) == scores
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == render_report(scores, title="a-model")
    assert (tmp_path / CHART_NAME).read_bytes().startswith(b"\x89PNG")
