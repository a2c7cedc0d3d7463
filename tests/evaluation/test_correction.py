"""Verified correction on the session's small release: the original section passes, a no-op fails, a
valid rewording passes where exact match fails, and a correction that adds another violation fails."""

# The shared fixtures are imported by name (no conftest.py here), which ruff takes for redefinitions.
# ruff: noqa: F811

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evaluation.correction import answer_section, score_corrections
from parsers.model import Section
from tests.evaluation.release_fixture import release_dir  # noqa: F401  (fixture)
from tests.servers.review import ReviewServer
from validation.audit.release import load_release


@pytest.fixture(scope="module")
def rows(release_dir: Path) -> list[dict]:
    path = release_dir / "instructions" / "correction_zero_shot.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def instances(release_dir: Path) -> dict:
    return {i.instance_id: (d, i) for d in load_release(release_dir).documents for i in d.instances}


def _instance_id(row: dict) -> str:
    return row["id"].removeprefix("correction_zero_shot_")


def _multi_section_renumbering(instance, introduced: list[str]) -> bool:
    """A heading renumbering that shifted several sections (several renames, or one chapter's rename that
    carried its clauses along): the task shows one of them, so even the original section cannot undo the
    rest, which still fire under their shifted numbers."""
    if instance.edit.op != "modify" or not instance.edit.renames:
        return False
    shifted = [new + "." for _, new in instance.edit.renames]
    return len(instance.edit.renames) > 1 or any(v.startswith(tuple(shifted)) for v in introduced)


def test_the_original_section_is_a_verified_correction(release_dir: Path, rows, instances) -> None:
    scored = score_corrections(release_dir, {r["id"]: r["answer"] for r in rows})
    assert scored["answered"] == scored["rows"] == len(rows) > 20
    for item in scored["items"]:
        _, instance = instances[item["instance_id"]]
        assert item["exact_match"] and item["chrf"] == pytest.approx(1.0)
        assert item["fixed"], item
        if not _multi_section_renumbering(instance, item["introduced"]):
            assert item["verified"], item


def test_a_no_op_is_never_a_correction(release_dir: Path, rows) -> None:
    scored = score_corrections(release_dir, {r["id"]: r["text"] for r in rows})
    assert [i for i in scored["items"] if i["fixed"] or i["verified"]] == []
    assert scored["overall"]["verified"] == 0.0
    assert 0.5 < scored["overall"]["chrf"] < 1.0  # close to the original, and still no correction


def test_an_answer_that_throws_the_section_away_is_no_correction(release_dir: Path, rows) -> None:
    """Emptying a section, or writing something else in its place, removes any error from it: it must
    not verify (the dummy model of lm-eval answers "lol")."""
    for garbage in ("lol", "", "本条删除。"):
        scored = score_corrections(release_dir, {r["id"]: garbage for r in rows})
        assert [i for i in scored["items"] if i["verified"]] == [], garbage
        assert all(not i["kept"] for i in scored["items"])


def test_a_valid_rewording_passes_where_exact_match_fails(release_dir: Path, rows, instances) -> None:
    def reworded(answer: str) -> str:
        last = answer.rfind("，")
        return answer[:last] + "；" + answer[last + 1 :]

    with_comma = [r for r in rows if "，" in r["answer"]]
    assert len(with_comma) > 10
    scored = score_corrections(release_dir, {r["id"]: reworded(r["answer"]) for r in with_comma})
    for item in scored["items"]:
        assert not item["exact_match"]
        assert item["chrf"] < 1.0
        if not _multi_section_renumbering(instances[item["instance_id"]][1], item["introduced"]):
            assert item["verified"], item


def test_a_correction_that_adds_another_violation_fails(release_dir: Path, rows, instances) -> None:
    in_clauses = [r for r in rows if instances[_instance_id(r)][1].corrupted_section.kind == "clause"]
    assert len(in_clauses) > 5
    scored = score_corrections(
        release_dir, {r["id"]: r["answer"] + "\n使用者必须遵守本条。" for r in in_clauses}
    )
    assert [i for i in scored["items"] if i["verified"]] == []
    new_modals = [i for i in scored["items"] if any(v.endswith("NMS-03") for v in i["introduced"])]
    assert len(new_modals) >= len(in_clauses) // 2


def test_answers_for_rows_the_release_does_not_have_are_reported(release_dir: Path, rows) -> None:
    scored = score_corrections(
        release_dir, {"correction_zero_shot_0000": "x", rows[0]["id"]: rows[0]["answer"]}
    )
    assert scored["unknown"] == ["correction_zero_shot_0000"]
    assert scored["answered"] == 1 and scored["missing"] == len(rows) - 1


def test_the_answer_s_first_line_is_read_as_the_parser_reads_headings() -> None:
    target = Section("5.4", "性能", "响应时间宜不大于2 s。", 2, "clause")
    renumbered = answer_section(target, "5.3 性能\n响应时间应不大于2 s。")
    assert (renumbered.number, renumbered.title, renumbered.text) == ("5.3", "性能", "响应时间应不大于2 s。")
    fenced = answer_section(target, "```\n5.4 性能\n响应时间应不大于2 s。\n```")
    assert (fenced.number, fenced.text) == ("5.4", "响应时间应不大于2 s。")
    untitled = Section("5.2.1", "", "响应时间宜不大于2 s。", 3, "clause")
    inline = answer_section(untitled, "5.2.1 响应时间应不大于2 s。")
    assert (inline.number, inline.title, inline.text) == ("5.2.1", "", "响应时间应不大于2 s。")
    term = Section(
        "3.1", "示例环境监测系统 example environment monitoring system", "是指……的系统。", 2, "terms"
    )
    long_title = answer_section(
        term, "3.1 示例环境监测系统 example environment monitoring system\n由……的系统。"
    )
    assert (long_title.title, long_title.text) == (term.title, "由……的系统。")  # the title, not text
    body_only = answer_section(target, "响应时间应不大于2 s。")
    assert (body_only.number, body_only.title, body_only.text) == ("5.4", "性能", "响应时间应不大于2 s。")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GBTBENCH_LLM_", "OPENAI_"))}
    env.update(GBTBENCH_LLM_API_KEY="sk-test", GBTBENCH_LLM_MAX_RETRIES="1")
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *args], capture_output=True, text=True, env=env, check=False
    )


def test_score_and_evaluate_report_verified_corrections(release_dir: Path, rows, tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    lines = [{"id": r["id"], "output": r["answer"]} for r in rows[:6]]
    lines += [{"id": r["id"], "output": r["text"]} for r in rows[6:10]]
    answers.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8")
    scored = _cli("score", str(release_dir), str(answers), "--task", "correction", "--json")
    assert scored.returncode == 0, scored.stderr
    figures = json.loads(scored.stdout)
    assert figures["answered"] == 10 and figures["missing"] == len(rows) - 10
    assert figures["overall"]["exact_match"] == pytest.approx(0.6)
    assert sum(i["verified"] for i in figures["items"]) <= 6
    # a file answering nothing of this release is refused, not scored as 0%
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text(json.dumps({"id": "correction_zero_shot_ffff", "output": "x"}), encoding="utf-8")
    refused = _cli("score", str(release_dir), str(stranger), "--task", "correction")
    assert refused.returncode == 2 and "no answer matches a correction row" in refused.stderr

    by_query = {r["query"]: r["answer"] for r in rows}
    with ReviewServer(lambda prompt: by_query.get(prompt, "")) as server:
        done = _cli(
            "evaluate", str(release_dir), "--task", "correction", "--model", "fixer",
            "--base-url", server.base_url, "--out", str(tmp_path / "runs"), "--limit", "8",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert server.requests == 8
    folder = tmp_path / "runs" / "fixer-correction" / "v0.0.9"
    result = json.loads((folder / "scores.json").read_text(encoding="utf-8"))
    assert result["answered"] == 8 and result["overall"]["exact_match"] == 1.0
    assert result["overall"]["verified"] >= 7 / 8
    assert "verified" in (folder / "report.md").read_text(encoding="utf-8")
