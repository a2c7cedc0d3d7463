"""The correction task's files: the release's rows as requests, answers files read back, a model's answers
as prediction rows, and the figures as a person reads them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaluation.correction import CorrectionInputError
from evaluation.correction_task import (
    PROMPT_ID,
    correction_files,
    correction_lines,
    correction_predictions,
    correction_report,
    correction_requests,
    read_corrections,
    release_version,
)
from injectors.llm.client import ChatResponse, LLMError

ROWS = [
    {"id": "correction_zero_shot_aaaa", "doc_id": "doc-a", "query": "改正第一节。", "answer": "5.1 第一节"},
    {"id": "correction_zero_shot_bbbb", "doc_id": "doc-b", "query": "改正第二节。", "answer": "6.2 第二节"},
]
SCORES = {
    "rows": 5,
    "answered": 2,
    "missing": 3,
    "unknown": ["correction_zero_shot_ffff"],
    "overall": {"n": 2, "verified": 0.5, "fixed": 1.0, "clean": 0.5, "exact_match": 0.0, "chrf": 0.75},
    "by_type": {
        "NMS-03": {"n": 2, "verified": 0.5, "fixed": 1.0, "clean": 0.5, "exact_match": 0.0, "chrf": 0.75}
    },
    "items": [],
}


def write_lines(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


def a_release(tmp_path: Path, manifest: dict | None = None) -> Path:
    release = tmp_path / "v1.2.3"
    (release / "instructions").mkdir(parents=True)
    write_lines(release / "instructions" / "correction_zero_shot.jsonl", ROWS)
    if manifest is not None:
        (release / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return release


def test_each_row_is_one_request_with_its_query(tmp_path: Path) -> None:
    rows, requests = correction_requests(a_release(tmp_path), "0")
    assert rows == ROWS
    assert [r.messages for r in requests] == [({"role": "user", "content": row["query"]},) for row in ROWS]
    assert {r.prompt_id for r in requests} == {f"{PROMPT_ID}:zero_shot"}
    assert len(correction_requests(a_release(tmp_path / "again"), "0", limit=1)[1]) == 1


def test_a_missing_task_or_a_wrong_shot_is_a_reason(tmp_path: Path) -> None:
    release = a_release(tmp_path)
    with pytest.raises(
        CorrectionInputError, match=re.escape("no correction task (correction_one_shot.jsonl missing)")
    ):
        correction_requests(release, "1")
    with pytest.raises(CorrectionInputError, match="--shots must be 0 or 1, not '2'"):
        correction_requests(release, "2")


def test_the_version_is_the_manifest_s_else_the_folder_s(tmp_path: Path) -> None:
    assert release_version(a_release(tmp_path / "a", {"version": "v7.0.0"})) == "v7.0.0"
    assert release_version(a_release(tmp_path / "b", {"version": ""})) == "v1.2.3"


def test_an_unreadable_manifest_stops_the_run_with_its_path(tmp_path: Path) -> None:
    corrupt = a_release(tmp_path / "corrupt", {"version": "v7.0.0"})
    (corrupt / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(
        CorrectionInputError, match=r"corrupt/v1\.2\.3/manifest\.json: the release manifest cannot be read"
    ):
        release_version(corrupt)
    listed = a_release(tmp_path / "listed", {"version": "v7.0.0"})
    (listed / "manifest.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CorrectionInputError, match="is not a JSON object"):
        release_version(listed)
    missing = a_release(tmp_path / "missing", {"version": "v7.0.0"})
    (missing / "manifest.json").unlink()
    with pytest.raises(CorrectionInputError, match=r"no manifest\.json: not a gbtbench release folder"):
        release_version(missing)


def test_answers_become_rows_and_failed_calls_say_why() -> None:
    answered = ChatResponse(
        "5.1 改好的第一节", prompt_tokens=3, completion_tokens=4, cache_key="k", cached=False
    )
    outputs, jsonl = correction_predictions(ROWS, [answered, LLMError("timeout", "no answer in time")])
    assert outputs == {"correction_zero_shot_aaaa": "5.1 改好的第一节"}
    assert [json.loads(line) for line in jsonl.splitlines()] == [
        {"id": "correction_zero_shot_aaaa", "doc_id": "doc-a", "output": "5.1 改好的第一节"},
        {"id": "correction_zero_shot_bbbb", "doc_id": "doc-b", "error": "timeout"},
    ]
    assert jsonl.endswith("}\n")


def test_an_answers_file_is_ours_or_lm_eval_s(tmp_path: Path) -> None:
    ours = write_lines(tmp_path / "ours.jsonl", [{"id": "correction_zero_shot_aaaa", "output": "改好"}])
    assert read_corrections(ours) == {"correction_zero_shot_aaaa": "改好"}
    folder = tmp_path / "lm-eval" / "model"
    folder.mkdir(parents=True)
    sample = {"doc": {"id": "correction_zero_shot_bbbb"}, "resps": [["改好的"]], "filtered_resps": []}
    write_lines(folder / "samples_gbtbench_correction_2026.jsonl", [sample])
    assert read_corrections(tmp_path / "lm-eval") == {"correction_zero_shot_bbbb": "改好的"}


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        ([["not", "an", "object"]], "line 1: expected a JSON object"),
        ([{"id": "x", "output": "a"}, {"id": "x", "output": "b"}], "line 2: x appears twice"),
        ([{"id": "x"}], "line 1: expected 'id' (or 'instance_id') and 'output' (a string)"),
        ([{"doc": {"id": "review_zero_shot_x"}, "resps": [["a"]]}], "not from the correction task"),
    ],
)
def test_a_bad_answers_file_names_the_file_and_the_line(tmp_path: Path, rows: list, reason: str) -> None:
    path = write_lines(tmp_path / "answers.jsonl", rows)
    with pytest.raises(CorrectionInputError) as caught:
        read_corrections(path)
    assert str(caught.value).startswith(f"{path}: ") and reason in str(caught.value)


def test_the_figures_read_the_same_on_the_terminal_and_in_the_report(tmp_path: Path) -> None:
    lines = correction_lines(SCORES)
    assert lines[0] == "corrections 2 of 5 rows answered, 1 unknown ids ignored"
    assert lines[1].startswith("verified 50.0% (fixed 100.0%, nothing new fires 50.0%)")
    assert lines[2].startswith("  NMS-03   n=2")
    report = correction_report(SCORES, "a-model: correction")
    assert report == "# a-model: correction\n\n" + "".join(f"    {line}\n" for line in lines)
    files = correction_files(SCORES, "a-model: correction")
    assert list(files) == ["scores.json", "report.md"]
    for name, write in files.items():
        write(tmp_path / name)
    assert json.loads((tmp_path / "scores.json").read_text(encoding="utf-8")) == SCORES
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == report
