"""`gbtbench evaluate --method reviewer` as a user runs it: real subprocesses against a scripted
OpenAI-compatible server on 127.0.0.1 whose answers differ by agent, so that agreement, the threshold,
deduplication, dropped codes, every ablation flag and a resumed run show in the predictions."""

# The shared fixtures are imported by name (no conftest.py here), which ruff takes for redefinitions.
# ruff: noqa: F811

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from evaluation.benchmark import load_benchmark
from injectors.taxonomy import DIMENSIONS, by_id
from tests.evaluation.release_fixture import items, release_dir  # noqa: F401  (fixtures)
from tests.servers.review import ReviewServer
from validation.linter import lint

ROOT = Path(__file__).resolve().parents[2]
GBTBENCH = [sys.executable, "-m", "flows.cli"]


def env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GBTBENCH_LLM_", "OPENAI_"))}
    return {**clean, "GBTBENCH_LLM_MAX_RETRIES": "2", "GBTBENCH_LLM_API_KEY": "sk-test"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GBTBENCH, *args], capture_output=True, text=True, cwd=ROOT, env=env(), check=False
    )


@pytest.fixture(scope="module")
def script(release_dir: Path, items: list[dict]) -> dict:
    """The document the agents talk about, a judgement-type error of it (`a`: seen by every LLM family) and
    another of its errors that the scanners do not find (`b`: seen only by the direct reviewer, unsure)."""
    documents = {i.doc_id: i.document for i in load_benchmark(release_dir, with_documents=True).items}
    for item in items:
        scanned = {(v.location, v.error_type) for v in lint(documents[item["doc_id"]])}
        judged = [g for g in item["gold"] if not by_id()[g["error_type"]].deterministic]
        judged.sort(key=lambda g: "." not in g["location"])  # a subsection first: its parent is a place too
        unseen = [
            g
            for g in item["gold"]
            if (g["location"], g["error_type"]) not in scanned
            and judged
            and g["location"] != judged[0]["location"]
        ]
        if judged and unseen:
            return {"item": item, "a": judged[0], "b": unseen[0]}
    pytest.fail("no document of the session's release has two errors the scanners do not find")


def parent(location: str) -> str:
    return location.rsplit(".", 1)[0]


def answers(script: dict):
    a, b = script["a"], script["b"]
    dimension = a["error_type"].split("-")[0]

    def answer(prompt: str) -> str:
        if script["item"]["standard_id"] not in prompt:
            return "[]"
        if "从全部审查维度" in prompt:  # Direct-All
            found = [
                {"location": f"[{a['location']}]", "error_type": a["error_type"], "confidence": 0.6},
                {"location": a["location"], "error_type": a["error_type"], "confidence": 0.6},  # a duplicate
                {"location": b["location"], "error_type": b["error_type"], "confidence": 0.5},
                {"location": a["location"], "error_type": "E-X-99", "confidence": 1.0},  # no such code
            ]
            return "审查结果如下：\n```json\n" + json.dumps(found, ensure_ascii=False) + "\n```"
        if f"（{dimension}）”这一个审查维度" in prompt:
            return json.dumps([{"location": a["location"], "error_type": a["error_type"], "confidence": 0.6}])
        if f"你只负责查找一种错误：{a['error_type']}" in prompt:  # sure of the error, vague about the place
            return json.dumps(
                [{"location": parent(a["location"]), "error_type": a["error_type"], "confidence": 0.9}]
            )
        return "[]"

    return answer


def evaluate(release: Path, out: Path, server: ReviewServer, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ["evaluate", str(release), "--method", "reviewer", "--model", "m", "--base-url", server.base_url]
    return run(*args, "--out", str(out), "--concurrency", "4", *extra)


def rows_of(folder: Path) -> dict[str, dict]:
    lines = (folder / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["doc_id"]: row for row in map(json.loads, lines)}


def keys(row: dict) -> set[tuple[str, str]]:
    return {(p["location"], p["error_type"]) for p in row["predictions"]}


@dataclass(frozen=True)
class FullRun:
    """A reviewer run with every agent family, as a user starts it: where it wrote, how many requests it
    made and the port of its endpoint (part of its cache's keys)."""

    out: Path
    calls: int
    port: int


@pytest.fixture(scope="module")
def full_run(release_dir: Path, script: dict, tmp_path_factory: pytest.TempPathFactory) -> FullRun:
    """Run once for the module: its outputs are checked below, and its request count is what a killed run
    and its resumption must add up to."""
    out = tmp_path_factory.mktemp("full-run")
    with ReviewServer(answers(script)) as server:
        done = evaluate(release_dir, out, server)
        assert done.returncode == 0, done.stderr
        return FullRun(out, server.requests, server.port)


def test_agreement_fusion_and_provenance(script: dict, full_run: FullRun, release_dir: Path) -> None:
    a, b, doc_id = script["a"], script["b"], script["item"]["doc_id"]
    tmp_path, calls, port = full_run.out, full_run.calls, full_run.port
    folder = tmp_path / "m-reviewer-direct-dimension-type-rules" / "v0.0.9"
    row = rows_of(folder)[doc_id]
    assert (a["location"], a["error_type"]) in keys(row)
    assert (b["location"], b["error_type"]) not in keys(row)  # one unsure agent: below the threshold
    kept = [
        p for p in row["provenance"] if (p["location"], p["error_type"]) == (a["location"], a["error_type"])
    ]
    assert len(kept) == 1  # the duplicate and the bracketed spelling are one finding
    if "." in a["location"]:  # the type agent's chapter-level finding was refined to the section others named
        assert (parent(a["location"]), a["error_type"]) not in keys(row)
    dimension = a["error_type"].split("-")[0]
    assert set(kept[0]["sources"]) == {"direct", f"dimension:{dimension}", f"type:{a['error_type']}"}
    assert row["dropped"]["unknown_type"] == 1
    # per document and family: requests and tokens, in the predictions and the report
    assert row["usage"]["direct"]["requests"] == 1 and row["usage"]["dimension"]["requests"] == len(
        DIMENSIONS
    )
    assert row["usage"]["rules"]["requests"] == 0
    report = (folder / "report.md").read_text(encoding="utf-8")
    assert "## Reviewer agents" in report and "| dimension | 5.0 |" in report
    scores = json.loads((folder / "scores.json").read_text(encoding="utf-8"))
    assert scores["run"]["agents"] == ["direct", "dimension", "type", "rules"]
    assert sum(u["requests"] for u in scores["run"]["usage"].values()) == calls
    # a lower threshold keeps the unsure finding, from the cache alone (the same endpoint: its key)
    with ReviewServer(answers(script), port=port) as server:
        lower = evaluate(
            release_dir,
            tmp_path / "low",
            server,
            "--threshold",
            "0.3",
            "--llm-cache",
            str(folder.parent.parent / "m" / "v0.0.9" / "llm-cache.sqlite"),
        )
        assert lower.returncode == 0, lower.stderr
        assert server.requests == 0
    low = rows_of(tmp_path / "low" / "m-reviewer-direct-dimension-type-rules" / "v0.0.9")[doc_id]
    assert (b["location"], b["error_type"]) in keys(low)


@pytest.mark.parametrize(
    ("agents", "keeps_a", "requests_per_document"),
    [
        ("direct,rules", False, 1),  # the direct reviewer alone is unsure of it
        ("dimension,rules", False, len(DIMENSIONS)),  # so is its specialist
        ("type", True, None),  # its error-type agent is sure
        ("direct,dimension", True, 1 + len(DIMENSIONS)),  # two unsure families agree
    ],
)
def test_each_ablation_flag_changes_the_predictions(
    release_dir: Path,
    script: dict,
    tmp_path: Path,
    agents: str,
    keeps_a: bool,
    requests_per_document: int | None,
) -> None:
    a, doc_id = script["a"], script["item"]["doc_id"]
    with ReviewServer(answers(script)) as server:
        done = evaluate(release_dir, tmp_path, server, "--agents", agents)
        assert done.returncode == 0, done.stderr
        if requests_per_document is not None:
            assert server.requests == 3 * requests_per_document
    row = rows_of(tmp_path / f"m-reviewer-{agents.replace(',', '-')}" / "v0.0.9")[doc_id]
    place = parent(a["location"]) if agents == "type" else a["location"]  # alone, nothing refines it
    assert ((place, a["error_type"]) in keys(row)) is keeps_a
    families = {source.split(":")[0] for p in row["provenance"] for source in p["sources"]}
    assert families <= set(agents.split(","))


def test_the_scanners_alone_need_no_model(release_dir: Path, tmp_path: Path) -> None:
    done = run(
        "evaluate", str(release_dir), "--method", "reviewer", "--agents", "rules", "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    rows = rows_of(tmp_path / "rules-reviewer-rules" / "v0.0.9")
    assert sum(len(r["predictions"]) for r in rows.values()) > 0
    assert all(s.startswith("rules:") for r in rows.values() for p in r["provenance"] for s in p["sources"])
    needs_model = run("evaluate", str(release_dir), "--method", "reviewer", "--agents", "direct")
    assert needs_model.returncode == 2 and "give --model NAME" in needs_model.stderr
    bad = run(
        "evaluate", str(release_dir), "--method", "reviewer", "--agents", "direct,oracle", "--model", "m"
    )
    assert bad.returncode == 2 and "--agents takes" in bad.stderr and "Traceback" not in bad.stderr


def test_a_killed_reviewer_run_resumes_without_repeating_a_cached_call(
    release_dir: Path, script: dict, full_run: FullRun, tmp_path: Path
) -> None:
    args = ["evaluate", str(release_dir), "--method", "reviewer", "--model", "slow", "--out", str(tmp_path)]
    args += ["--concurrency", "2"]
    cache = tmp_path / "slow" / "v0.0.9" / "llm-cache.sqlite"
    with ReviewServer(answers(script), latency=0.3) as server:
        port = server.port  # the run resumes against the same endpoint, part of the cache's key
        process = subprocess.Popen(
            [*GBTBENCH, *args, "--base-url", server.base_url],
            cwd=ROOT,
            env=env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 60
            while len(server.prompts) < 6 and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.05)
        finally:
            process.send_signal(signal.SIGKILL)
            process.communicate()
        assert process.returncode == -signal.SIGKILL
    with sqlite3.connect(cache) as db:
        cached = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0]
    assert cached >= 4
    with ReviewServer(answers(script), port=port) as server:
        done = run(*args, "--base-url", server.base_url)
        assert done.returncode == 0, done.stderr
        resumed = server.requests
    # only what was never answered: an uninterrupted run (another model's name, the same requests) made
    # `full_run.calls`
    assert resumed == full_run.calls - cached
    assert f"{cached} cache hits" in done.stderr
