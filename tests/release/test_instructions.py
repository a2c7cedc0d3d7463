"""Instruction sets: the PIXIU schema, gold indices, one-shot exemplars from other documents, lm-eval YAML."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from injectors.taxonomy import type_ids
from release.instructions import (
    DIMENSION_CHOICES,
    INSTRUCTION_SCHEMA,
    SHOTS,
    TASKS,
    _instructions,
    instruction_rows,
    write_instructions,
)
from release.lm_eval_tasks import Function, load
from release.tables import gold_entries
from tests.support.release_data import injected

FIELDS = {"id", "query", "answer", "text", "choices", "gold", "doc_id", "exemplar_id", "prompt", "exemplar"}
CLASSIFICATION = ("dimension", "error_type")
# TaskConfig fields of lm-evaluation-harness 0.4 that these YAML files may use.
LM_EVAL_KEYS = {
    "task",
    "tag",
    "dataset_path",
    "dataset_name",
    "dataset_kwargs",
    "test_split",
    "output_type",
    "doc_to_text",
    "doc_to_target",
    "doc_to_choice",
    "target_delimiter",
    "generation_kwargs",
    "metric_list",
    "metadata",
    "custom_dataset",
    "description",
    "num_fewshot",
    "fewshot_split",
    "fewshot_delimiter",
    "fewshot_config",
    "process_results",
}


@pytest.fixture(scope="module")
def rows() -> dict[tuple[str, str], list[dict]]:
    return {(task, shot): instruction_rows(injected(), task, shot) for task in TASKS for shot in SHOTS}


@pytest.mark.parametrize("task", TASKS)
def test_rows_follow_the_pixiu_schema(rows: dict, task: str) -> None:
    for shot in SHOTS:
        table = rows[task, shot]
        assert table, (task, shot)
        ids = [r["id"] for r in table]
        assert len(ids) == len(set(ids))
        for row in table:
            assert set(row) == FIELDS
            assert row["query"].endswith("答案：") and row["text"] in row["query"]
            if task in CLASSIFICATION:
                assert 0 <= row["gold"] < len(row["choices"])
                assert row["choices"][row["gold"]] == row["answer"]
            else:
                assert row["choices"] == [] and row["gold"] == -1 and row["answer"]


def test_classification_choices_are_the_taxonomy(rows: dict) -> None:
    assert all(r["choices"] == list(DIMENSION_CHOICES) for r in rows["dimension", "zero_shot"])
    assert all(r["choices"] == list(type_ids()) for r in rows["error_type", "zero_shot"])
    instances = sum(len(r.instances) for r in injected())
    assert len(rows["dimension", "zero_shot"]) == len(rows["error_type", "zero_shot"]) == instances


@pytest.mark.parametrize("task", TASKS)
def test_one_shot_exemplars_come_from_another_document(rows: dict, task: str) -> None:
    zero = {r["id"]: r for r in rows[task, "zero_shot"]}
    assert all(r["exemplar_id"] == "" for r in zero.values())
    one = rows[task, "one_shot"]
    assert len(one) == len(zero)  # three documents: every row finds an exemplar elsewhere
    for row in one:
        exemplar = zero[row["exemplar_id"]]
        assert exemplar["doc_id"] != row["doc_id"]
        assert "示例：\n" in row["query"] and f"答案：{exemplar['answer']}\n\n" in row["query"]
        assert row["query"] == (
            f"{_instructions(task)}\n\n示例：\n{exemplar['exemplar']}{exemplar['answer']}\n\n{row['prompt']}"
        )
        assert row["query"].index("示例：") < row["query"].rindex(row["text"])


def test_review_answer_is_the_gold_list_and_corrections_undo_the_error(rows: dict) -> None:
    by_doc = {r.original.doc_id: r for r in injected()}
    for row in rows["review", "zero_shot"]:
        assert json.loads(row["answer"]) == gold_entries(by_doc[row["doc_id"]])
    for row in rows["correction", "zero_shot"]:
        assert row["answer"] != row["text"]
    for row in rows["localisation", "zero_shot"]:
        error_type = row["id"].rsplit(":", 1)[1]
        gold = [g["location"] for g in gold_entries(by_doc[row["doc_id"]]) if g["error_type"] == error_type]
        assert row["answer"].split("、") == list(dict.fromkeys(gold))


def test_rows_are_deterministic_and_one_document_has_no_one_shot(rows: dict) -> None:
    assert instruction_rows(injected(), "error_type", "one_shot") == rows["error_type", "one_shot"]
    single = injected()[:1]
    assert instruction_rows(single, "dimension", "zero_shot")
    assert instruction_rows(single, "dimension", "one_shot") == []


def test_written_files_and_lm_eval_yaml(tmp_path: Path, rows: dict) -> None:
    written = write_instructions(injected(), tmp_path, "f" * 16)
    assert {(w.task, w.shot) for w in written} == {(t, s) for t in TASKS for s in SHOTS}
    release = {"release_fingerprint": "f" * 16}  # every row names its release's data
    for w in written:
        jsonl = [json.loads(line) for line in (tmp_path / w.jsonl).read_text(encoding="utf-8").splitlines()]
        table = pq.read_table(tmp_path / w.parquet)
        assert table.schema == INSTRUCTION_SCHEMA
        assert jsonl == table.to_pylist() == [{**r, **release} for r in rows[w.task, w.shot]]
        config = load((tmp_path / w.yaml).read_text(encoding="utf-8"))
        assert set(config) <= LM_EVAL_KEYS
        assert config["task"] == f"gbtbench_{w.task}_{w.shot}" and "gbtbench" in config["tag"]
        assert config["custom_dataset"] == Function("utils.load_local") and config["test_split"] == "test"
        data_files = config["dataset_kwargs"]["data_files"]
        assert list(data_files) == ["test"] and (tmp_path / data_files["test"]).is_file()
        # the same task reads the release's Hub config of that name (one config per task and shot)
        assert config["dataset_kwargs"]["config"] == f"instructions_{w.task}_{w.shot}"
        if w.shot == "zero_shot":
            assert (config["doc_to_text"], config["num_fewshot"]) == ("query", 0)
        else:  # lm-eval assembles the one-shot query itself: description, the named exemplar, the prompt
            assert (config["doc_to_text"], config["num_fewshot"]) == ("prompt", 1)
            assert config["fewshot_config"]["sampler"] == Function("utils.ExemplarSampler")
            assert config["description"] == _instructions(w.task) + "\n\n"
        if w.task in CLASSIFICATION:
            assert config["output_type"] == "multiple_choice"
            assert (config["doc_to_choice"], config["doc_to_target"]) == ("choices", "gold")
            assert config["metric_list"][0]["metric"] == "acc"
        else:
            assert config["output_type"] == "generate_until" and config["doc_to_target"] == "answer"
            assert config["generation_kwargs"]["max_gen_toks"] > 0
        if w.task == "review":
            assert config["process_results"] == Function("utils.process_review")
            assert [m["metric"] for m in config["metric_list"]] == [
                "diagnosis_recall",
                "dmtr_1",
                "dmtr_5",
                "dmtr_10",
                "cmcs",
            ]
    assert (tmp_path / "utils.py").is_file()
    group = load((tmp_path / "gbtbench_review.yaml").read_text(encoding="utf-8"))
    assert group["task"] == ["gbtbench_review_zero_shot", "gbtbench_review_one_shot"]
    assert "lm_eval" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_one_shot_review_shows_an_excerpt_of_the_exemplar(rows: dict) -> None:
    zero = {r["id"]: r for r in rows["review", "zero_shot"]}
    by_doc = {r.original.doc_id: r.corrupted for r in injected()}
    for row in rows["review", "one_shot"]:
        exemplar = zero[row["exemplar_id"]]
        assert exemplar["exemplar"].startswith("文件（节选")
        assert len(exemplar["exemplar"]) < len(exemplar["prompt"])
        headings = {s.number: s.heading for s in by_doc[exemplar["doc_id"]].sections}
        for entry in json.loads(exemplar["answer"]):  # every erroneous section still there is shown
            if entry["location"] in headings:
                assert f"\n{headings[entry['location']]}\n" in exemplar["exemplar"]
        assert len(row["query"]) < len(zero[row["id"].replace("one_shot", "zero_shot")]["query"]) * 2
