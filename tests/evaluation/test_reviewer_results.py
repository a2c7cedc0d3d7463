"""What a reviewer run leaves: its name, its facts in scores.json, and its files with the agents' usage."""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.benchmark import Benchmark, BenchmarkItem, GoldError
from evaluation.predictions import DocumentPrediction, Prediction
from evaluation.reviewer.agents import PROMPT_VERSION
from evaluation.reviewer.results import (
    run_label,
    run_meta,
    usage_appendix,
    usage_totals,
    uses_llm,
    write_reviewed,
)
from evaluation.reviewer.run import Reviewed, Usage

BENCHMARK = Benchmark(
    "v9.9.9",
    (
        BenchmarkItem("doc-a", (GoldError("5.1", "NMS", "NMS-03"),), ()),
        BenchmarkItem("doc-b", (GoldError("6.2", "STR", "STR-01"),), ()),
    ),
    fingerprint="f" * 16,
)
PROVENANCE = ({"location": "5.1", "error_type": "NMS-03", "agents": ["direct", "rules"]},)
REVIEWED = [
    Reviewed(
        DocumentPrediction("doc-a", (Prediction("5.1", "NMS", "NMS-03"),)),
        PROVENANCE,
        {
            "direct": Usage(requests=1, prompt_tokens=120, completion_tokens=30, largest_prompt=120),
            "rules": Usage(),
        },
    ),
    Reviewed(
        DocumentPrediction("doc-b", ()),
        (),
        {"direct": Usage(requests=2, prompt_tokens=300, largest_prompt=200, failed=1), "rules": Usage()},
    ),
]


def test_a_run_is_named_for_its_model_and_families() -> None:
    assert run_label("Qwen/x", ("direct", "rules")) == "Qwen/x-reviewer-direct-rules"
    assert run_label(None, ("rules",)) == "rules-reviewer-rules"
    assert uses_llm(("direct", "rules")) and not uses_llm(("rules",))
    assert run_meta(("rules",), 0.5, 3) == {
        "method": "reviewer",
        "agents": ["rules"],
        "threshold": 0.5,
        "prompt_version": PROMPT_VERSION,
        "seed": 3,
    }


def test_usage_sums_the_families_and_keeps_the_largest_prompt() -> None:
    totals = usage_totals(REVIEWED)
    assert totals["direct"]["requests"] == 3 and totals["direct"]["prompt_tokens"] == 420
    assert totals["direct"]["largest_prompt"] == 200 and totals["direct"]["failed"] == 1
    assert totals["rules"]["requests"] == 0
    appendix = usage_appendix(REVIEWED)
    assert appendix.startswith("## Reviewer agents\n\n")
    assert "| direct | 1.5 | 210 | 15 | 200 | 0 | 1 | 0 |" in appendix
    assert "| doc-b | 2 / 300 | 0 / 0 |" in appendix


def test_the_run_s_files_carry_provenance_usage_and_the_release(tmp_path: Path) -> None:
    meta = {**run_meta(("direct", "rules"), 0.5, 0), "model": "m"}
    scores = write_reviewed(tmp_path, BENCHMARK, REVIEWED, title="m on gbtbench v9.9.9", seed=0, meta=meta)
    assert scores["run"] == {**meta, "usage": usage_totals(REVIEWED)}
    assert json.loads((tmp_path / "scores.json").read_text(encoding="utf-8")) == scores
    rows = [
        json.loads(line) for line in (tmp_path / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [r["doc_id"] for r in rows] == ["doc-a", "doc-b"]
    assert rows[0]["provenance"] == list(PROVENANCE) and rows[1]["usage"]["direct"]["failed"] == 1
    assert {(r["release"], r["release_fingerprint"]) for r in rows} == {("v9.9.9", "f" * 16)}
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# m on gbtbench v9.9.9\n") and report.endswith(usage_appendix(REVIEWED) + "\n")
    assert scores["gbtbench"]["levels"]["diagnosis"]["hits"] == 1
