"""The shipped lm-eval tasks: run every one with lm-eval's dummy model from another directory, from the
published tree, and check that their review metrics are the reference protocol's."""

# The shared fixtures are imported by name (no conftest.py here), which ruff takes for redefinitions.
# ruff: noqa: F811

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import huggingface_hub.constants
import numpy as np
import pytest

from evaluation.benchmark import GoldError
from evaluation.predictions import parse_output
from evaluation.reference import reference_scores
from injectors.taxonomy import REFERENCE_DIMENSIONS, reference_to_ours, type_ids
from tests.evaluation.release_fixture import items, release_dir  # noqa: F401  (fixtures)
from tests.servers.hub import LocalHub
from tests.servers.review import ReviewServer

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("lm_eval")


def utils_module(folder: Path):
    spec = importlib.util.spec_from_file_location("gbtbench_lm_eval_utils", folder / "utils.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# `python -m lm_eval` (its own command line, arguments and outputs), except that its task index holds the
# --include_path tasks only: indexing the 14,000 tasks lm-eval bundles costs 10 s of CPU per run, and none of
# them is run or read here (that no bundled task's file names the shipped tasks is checked below)
LM_EVAL = """
import lm_eval.tasks
from lm_eval.__main__ import cli_evaluate

bundled_too = lm_eval.tasks.TaskManager.__init__

def include_path_only(self, *args, **kwargs):
    bundled_too(self, *args, **{**kwargs, "include_defaults": False})

lm_eval.tasks.TaskManager.__init__ = include_path_only
cli_evaluate()
"""


def bundled_tasks_naming(word: str) -> list[Path]:
    """The YAML files of the tasks lm-eval bundles that contain `word` (read as text, not indexed)."""
    spec = importlib.util.find_spec("lm_eval")
    assert spec is not None and spec.origin is not None
    files = (Path(spec.origin).parent / "tasks").rglob("*.yaml")
    return [p for p in files if word in p.read_text(encoding="utf-8", errors="replace")]


def lm_eval(cwd: Path, include: Path, tasks: str, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(out / "hf-home")}
    command = [sys.executable, "-c", LM_EVAL, "--model", "dummy", "--include_path", str(include)]
    command += ["--tasks", tasks, "--limit", "2", "--output_path", str(out), "--log_samples", *extra]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=600)


def results_of(out: Path) -> tuple[dict, dict[str, list[dict]]]:
    results = json.loads(next(out.rglob("results_*.json")).read_text(encoding="utf-8"))
    samples = {}
    for path in out.rglob("samples_*.jsonl"):
        task = path.name.removeprefix("samples_").rsplit("_", 1)[0]
        samples[task] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return results, samples


def context(sample: dict) -> str:
    arguments = sample["arguments"]
    return arguments["gen_args_0"]["arg_0"] if isinstance(arguments, dict) else arguments[0][0]


def test_every_shipped_task_runs_from_another_directory(release_dir: Path, tmp_path: Path) -> None:
    instructions = release_dir / "instructions"
    tasks = sorted(p.stem for p in instructions.glob("gbtbench_*.yaml") if p.stem != "gbtbench_review")
    assert len(tasks) == 10
    assert not bundled_tasks_naming("gbtbench")  # no bundled task, group or tag takes a shipped name
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    others = [t for t in tasks if not t.startswith("gbtbench_review_")]
    done = lm_eval(elsewhere, instructions, ",".join(["gbtbench_review", *others]), tmp_path / "out")
    assert done.returncode == 0, done.stderr[-3000:]
    results, samples = results_of(tmp_path / "out")
    manifest = json.loads((release_dir / "manifest.json").read_text(encoding="utf-8"))
    fingerprint = manifest["data_fingerprint"]  # every sample names its release's data
    assert set(tasks) <= set(results["results"]) and "gbtbench_review" in results["results"]
    for task in tasks:  # one-shot tasks are real 1-shot tasks now
        assert results["n-shot"][task] == (1 if task.endswith("one_shot") else 0), task
        assert len(samples[task]) == 2
        for sample in samples[task]:  # lm-eval assembles exactly the row's query
            assert context(sample) == sample["doc"]["query"], task
            assert sample["doc"]["release_fingerprint"] == fingerprint, task
    for shot in ("zero_shot", "one_shot"):
        figures = results["results"][f"gbtbench_review_{shot}"]
        for metric in ("diagnosis_recall", "dmtr_1", "dmtr_5", "dmtr_10", "cmcs"):
            assert figures[f"{metric},none"] == 0.0  # the dummy model answers "lol": nothing found
        corrected = results["results"][f"gbtbench_correction_{shot}"]
        assert corrected["verified,none"] == 0.0 and corrected["exact_match,none"] == 0.0
        assert 0.0 <= corrected["chrf,none"] < 0.2
    assert "diagnosis_recall,none" in results["results"]["gbtbench_review"]
    # lm-eval's samples are a predictions file for `gbtbench score`
    sample_file = next((tmp_path / "out").rglob("samples_gbtbench_review_zero_shot_*.jsonl"))
    scored = subprocess.run(
        [sys.executable, "-m", "flows.cli", "score", str(release_dir), str(sample_file), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    figures = json.loads(scored.stdout)
    assert figures["input"]["predicted"] == 2 and figures["input"]["unparsable"]["count"] == 2


def test_the_tasks_read_a_published_release(release_dir: Path, tmp_path: Path, monkeypatch) -> None:
    """Publish to a Hub on 127.0.0.1, check the tagged tree out, and point the shipped tasks at it."""
    from release.hub import publish

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    with LocalHub(tokens=("hf_test_token",)) as hub:
        result = publish(release_dir, "org/gbtbench", token="hf_test_token", endpoint=hub.url, deadline_s=60)
        repo = hub.repo("org/gbtbench")
        assert repo is not None
        tree = repo.files_at(result.version)
    checkout = tmp_path / "checkout"
    for path, content in tree.items():
        (checkout / path).parent.mkdir(parents=True, exist_ok=True)
        (checkout / path).write_bytes(content)
    tasks = checkout / "release" / "instructions"
    assert (tasks / "utils.py").is_file()
    metadata = json.dumps({"dataset": str(checkout)})
    done = lm_eval(tmp_path, tasks, "gbtbench_review", tmp_path / "out", "--metadata", metadata)
    assert done.returncode == 0, done.stderr[-3000:]
    results, samples = results_of(tmp_path / "out")
    assert results["n-shot"]["gbtbench_review_one_shot"] == 1
    local = {
        json.loads(line)["id"]: json.loads(line)
        for line in (release_dir / "instructions" / "review_one_shot.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    }
    for sample in samples["gbtbench_review_one_shot"]:
        assert context(sample) == local[sample["doc"]["id"]]["query"]


def test_the_review_metrics_are_the_reference_protocol(release_dir: Path) -> None:
    utils = utils_module(release_dir / "instructions")
    assert reference_to_ours() == utils.REFERENCE_TYPES
    assert utils.REFERENCE_DIMENSIONS == REFERENCE_DIMENSIONS
    rng = np.random.default_rng(3)
    places = ["5.1", "附录A", "2", "[3]", "A", "4.2"]
    reverse = {v: k for k, v in reference_to_ours().items()}
    documents, per_doc = [], []
    for n in range(40):
        gold = []
        for _ in range(int(rng.integers(0, 6))):
            t = type_ids()[int(rng.integers(0, 8))]
            gold.append(
                {"location": places[int(rng.integers(0, 4))], "dimension": t.split("-")[0], "error_type": t}
            )
        predicted = []
        for g in gold + gold[:1]:  # some right, some duplicated, some spelled the reference's way
            kind = int(rng.integers(0, 4))
            if kind == 0:
                continue
            p = dict(g)
            if kind == 2 and g["error_type"] in reverse:
                p["error_type"] = reverse[g["error_type"]]
            if kind == 3:
                p["location"] = places[int(rng.integers(0, len(places)))]
            predicted.append(p)
        raw = (
            "null"
            if n % 13 == 5
            else ("我拒绝" if n % 11 == 3 else json.dumps(predicted, ensure_ascii=False))
        )
        doc = {"answer": json.dumps(gold, ensure_ascii=False)}
        per_doc.append(utils.process_review(doc, [raw]))
        documents.append(
            (
                tuple(GoldError(g["location"], g["dimension"], g["error_type"]) for g in gold),
                parse_output("d", raw).predictions,
            )
        )
    expected = reference_scores(documents)
    assert expected["null_documents"] == 3
    assert utils.pooled([d["diagnosis_recall"] for d in per_doc]) == pytest.approx(
        expected["diagnosis_recall"]
    )
    assert utils.pooled([d["cmcs"] for d in per_doc]) == pytest.approx(expected["cmcs"])
    for k in (1, 5, 10):
        assert utils.mean([d[f"dmtr_{k}"] for d in per_doc]) == pytest.approx(expected["dmtr"][f"H{k}"])


def test_the_correction_metrics_run_the_type_s_checker(release_dir: Path) -> None:
    """utils.process_correction as lm-eval calls it: the original section verifies, a no-op does not."""
    utils = utils_module(release_dir / "instructions")
    path = release_dir / "instructions" / "correction_zero_shot.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    gold = [utils.process_correction(row, [row["answer"]]) for row in rows]
    noop = [utils.process_correction(row, [row["text"]]) for row in rows]
    assert all(g["exact_match"] == 1.0 and g["chrf"] == pytest.approx(1.0) for g in gold)
    assert sum(g["verified"] for g in gold) >= len(rows) - 2  # a multi-section renumbering cannot verify
    assert sum(n["verified"] for n in noop) == 0.0
    assert all(n["exact_match"] == 0.0 for n in noop)
    # chrF ignores spaces, so an error that is a space (a citation's form) leaves it at 1
    assert sum(n["chrf"] < 1.0 for n in noop) > len(rows) // 2


def test_local_chat_completions_then_score_the_group_run(
    release_dir: Path, items: list[dict], tmp_path: Path
) -> None:
    """lm-eval's API model against a chat server on 127.0.0.1, the documented group run, then `gbtbench
    score` on its output folder: two samples files, scored per task, both readers agreeing."""

    def answer(prompt: str) -> str:  # each document's gold list, written the way models write it
        gold = next(item["gold"] for item in items if item["text"] in prompt)
        listed = json.dumps(gold, ensure_ascii=False, indent=1)
        return f"依据 GB/T 1.1[1] 审查如下：\n```json\n{listed[:-1]},]\n```"

    out = tmp_path / "out"
    with ReviewServer(answer) as server:
        args = f"model=scripted,base_url={server.base_url}/chat/completions,num_concurrent=1,max_retries=1"
        env = {
            **os.environ,
            "HF_DATASETS_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
            "HF_HOME": str(tmp_path / "hf"),
        }
        command = [sys.executable, "-c", LM_EVAL, "--model", "local-chat-completions", "--model_args", args]
        command += ["--apply_chat_template", "--include_path", str(release_dir / "instructions")]
        command += ["--tasks", "gbtbench_review", "--output_path", str(out), "--log_samples"]
        done = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=600
        )
        assert done.returncode == 0, done.stderr[-3000:]
        prompts = list(server.prompts)
    rows = {
        shot: [
            json.loads(line)
            for line in (release_dir / "instructions" / f"review_{shot}.jsonl").open(encoding="utf-8")
        ]
        for shot in ("zero_shot", "one_shot")
    }
    assert len(prompts) == len(rows["zero_shot"]) + len(rows["one_shot"])
    assert {r["query"] for r in rows["zero_shot"]} <= set(prompts)  # sent exactly as the rows hold them
    results, samples = results_of(out)
    assert set(samples) == {"gbtbench_review_zero_shot", "gbtbench_review_one_shot"}
    for task in samples:
        assert results["results"][task]["diagnosis_recall,none"] == 1.0  # lm-eval's figures: all found
    scored = subprocess.run(
        [sys.executable, "-m", "flows.cli", "score", str(release_dir), str(out), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    figures = json.loads(scored.stdout)
    assert set(figures) == set(samples)
    gold = sum(len(item["gold"]) for item in items)
    for task, scores in figures.items():
        assert scores["input"]["predicted"] == len(samples[task]) == len(items), task
        assert scores["input"]["unparsable"]["count"] == scores["input"]["partial"]["count"] == 0
        assert scores["gbtbench"]["levels"]["diagnosis"]["hits"] == gold
        assert scores["reference"]["diagnosis_recall"] == 1.0
