"""`gbtbench evaluate` and `gbtbench score` as a user runs them: real subprocesses against a scripted
OpenAI-compatible server on 127.0.0.1, including a run killed midway and resumed from the cache."""

# The shared fixtures are imported by name (no conftest.py here), which ruff takes for redefinitions.
# ruff: noqa: F811

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.evaluation.release_fixture import items, release_dir  # noqa: F401  (fixtures)
from tests.servers.chat_completions import ChatCompletionsServer
from tests.servers.review import ReviewServer

ROOT = Path(__file__).resolve().parents[2]
GBTBENCH = [sys.executable, "-m", "flows.cli"]


SENTINEL = "sk-SENTINEL-never-print-me-4f1c9e"


def env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GBTBENCH_LLM_", "OPENAI_"))}
    return {**clean, "GBTBENCH_LLM_MAX_RETRIES": "2", "GBTBENCH_LLM_API_KEY": SENTINEL}


def run(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GBTBENCH, *args], capture_output=True, text=True, cwd=ROOT, env={**env(), **extra}, check=False
    )


def scripted(items: list[dict]):
    """First document: its gold list in a code fence with prose; second: an apology; third: null."""

    def answer(prompt: str) -> str:
        position = next(n for n, item in enumerate(items) if item["text"] in prompt)
        if position == 0:
            return "审查结果：\n```json\n" + json.dumps(items[0]["gold"], ensure_ascii=False) + "\n```"
        if position == 1:
            return "抱歉，我无法审查这份文件。"
        return "null"

    return answer


def test_evaluate_end_to_end(release_dir: Path, items: list[dict], tmp_path: Path) -> None:
    with ReviewServer(scripted(items), fail_first=1) as server:
        done = run(
            "evaluate",
            str(release_dir),
            "--model",
            "org/scripted-7b",
            "--base-url",
            server.base_url,
            "--out",
            str(tmp_path),
            "--concurrency",
            "2",
        )
        assert done.returncode == 0, done.stderr
        assert server.requests == 4  # three documents plus one retried 500
        assert set(server.authorizations) == {f"Bearer {SENTINEL}"}
    folder = tmp_path / "org_scripted-7b" / "v0.0.9"
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == [
        "dimensions.png",
        "llm-cache.sqlite",
        "predictions.jsonl",
        "report.md",
        "scores.json",
    ]
    scores = json.loads((folder / "scores.json").read_text(encoding="utf-8"))
    n0, n1 = len(items[0]["gold"]), len(items[1]["gold"])
    diagnosis = scores["gbtbench"]["levels"]["diagnosis"]
    assert diagnosis["hits"] == n0 and diagnosis["precision"] == 1.0
    assert diagnosis["recall"] == pytest.approx(n0 / (n0 + n1))  # the null document is not scored
    assert scores["reference"]["diagnosis_recall"] == pytest.approx(n0 / (n0 + n1))
    assert scores["reference"]["dmtr"]["H1"] == 0.5
    assert scores["input"]["unparsable"]["count"] == 1 and scores["input"]["null"]["count"] == 1
    rows = [
        json.loads(line) for line in (folder / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [r["doc_id"] for r in rows] == [i["doc_id"] for i in items]
    assert rows[2]["predictions"] is None and rows[1].get("unparsable") is True
    report = (folder / "report.md").read_text(encoding="utf-8")
    assert "DMTR_10" in report and "dimensions.png" in report
    assert "1 documents with unparsable output" in done.stderr
    assert SENTINEL not in done.stdout + done.stderr  # the key is sent, never printed or stored
    assert not any(SENTINEL.encode() in p.read_bytes() for p in folder.rglob("*") if p.is_file())

    # the written predictions score the same through `gbtbench score`
    again = run("score", str(release_dir), str(folder / "predictions.jsonl"), "--json")
    assert again.returncode == 0, again.stderr
    rescored = json.loads(again.stdout)
    assert rescored["reference"] == scores["reference"]
    assert rescored["gbtbench"]["levels"] == scores["gbtbench"]["levels"]


def test_a_killed_run_resumes_from_the_cache(release_dir: Path, items: list[dict], tmp_path: Path) -> None:
    args = ["evaluate", str(release_dir), "--model", "slow", "--out", str(tmp_path), "--concurrency", "1"]
    args += ["--shots", "1"]  # the one-shot prompts: an exemplar from another document first
    cache = tmp_path / "slow" / "v0.0.9" / "llm-cache.sqlite"
    with ReviewServer(scripted(items), latency=1.0) as server:
        port = int(server.base_url.rsplit(":", 1)[1].split("/")[0])
        process = subprocess.Popen(
            [*GBTBENCH, *args, "--base-url", server.base_url],
            cwd=ROOT,
            env=env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 60
            while len(server.prompts) < 2 and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.05)
            time.sleep(0.3)  # the first answer has reached the cache; the second is still on its way
        finally:
            process.send_signal(signal.SIGKILL)
            process.communicate()
        assert process.returncode == -signal.SIGKILL
    with sqlite3.connect(cache) as db:
        cached = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0]
    assert 1 <= cached < 3
    assert not (tmp_path / "slow" / "v0.0.9" / "scores.json").exists()
    with ReviewServer(scripted(items), port=port) as server:  # the same endpoint: its answers are cached
        done = run(*args, "--base-url", server.base_url)
        assert done.returncode == 0, done.stderr
        assert server.requests == 3 - cached  # only what was never answered
        assert all(prompt.count("示例：\n文件（节选") == 1 for prompt in server.prompts)
    assert f"{cached} cache hits" in done.stderr
    scores = json.loads((tmp_path / "slow" / "v0.0.9" / "scores.json").read_text(encoding="utf-8"))
    assert scores["gbtbench"]["levels"]["diagnosis"]["hits"] == len(items[0]["gold"])


@pytest.fixture(scope="module")
def baselines(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three baselines evaluated once for the module (read only by its tests); returns where."""
    out = tmp_path_factory.mktemp("baselines")
    for name in ("empty", "linter", "random"):
        done = run("evaluate", str(release_dir), "--baseline", name, "--out", str(out))
        assert done.returncode == 0, done.stderr
    return out


def test_baselines_run_without_a_model(release_dir: Path, baselines: Path, tmp_path: Path) -> None:
    def scores(name: str) -> dict:
        return json.loads((baselines / name / "v0.0.9" / "scores.json").read_text(encoding="utf-8"))

    empty, linter = scores("baseline-empty"), scores("baseline-linter")
    assert empty["gbtbench"]["levels"]["diagnosis"]["recall"] == 0.0
    assert empty["reference"]["prediction_count"] == 0
    # the linter sees the deterministic structure and reference errors, and none of the judgement types
    by_dim = linter["gbtbench"]["by_dimension"]
    assert by_dim["STR"]["recall"] > 0.5 and by_dim["NREF"]["recall"] > 0.5
    assert linter["gbtbench"]["by_error_type"].get("SCP-03", {"recall": 0.0})["recall"] == 0.0
    first = (baselines / "baseline-random" / "v0.0.9" / "predictions.jsonl").read_text(encoding="utf-8")
    run("evaluate", str(release_dir), "--baseline", "random", "--out", str(tmp_path / "again"))
    assert (tmp_path / "again" / "baseline-random" / "v0.0.9" / "predictions.jsonl").read_text(
        encoding="utf-8"
    ) == first  # seeded


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["evaluate", "{rel}"], "give either --model NAME or --baseline"),
        (["evaluate", "{rel}", "--baseline", "oracle"], "'oracle' is not one of 'linter', 'random', 'empty'"),
        (["evaluate", "{tmp}", "--baseline", "empty"], "not a release folder"),
        (["evaluate", "{rel}", "--model", "m", "--shots", "3"], "'3' is not one of '0', '1'"),
        (["score", "{rel}", "{tmp}/none.jsonl"], "no such file"),
    ],
)
def test_bad_invocations_get_one_clear_line(
    release_dir: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    done = run(*(a.format(rel=release_dir, tmp=tmp_path) for a in args))
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_predictions_name_their_release_and_score_refuses_another(
    release_dir: Path, baselines: Path, tmp_path: Path
) -> None:
    manifest = json.loads((release_dir / "manifest.json").read_text(encoding="utf-8"))
    fingerprint = manifest["data_fingerprint"]
    written = baselines / "baseline-linter" / "v0.0.9" / "predictions.jsonl"
    rows = [json.loads(line) for line in written.read_text(encoding="utf-8").splitlines()]
    assert {(r["release"], r["release_fingerprint"]) for r in rows} == {("v0.0.9", fingerprint)}
    assert run("score", str(release_dir), str(written)).returncode == 0

    other = tmp_path / "other.jsonl"  # the same documents, made on another build of the benchmark
    other.write_text(
        "".join(json.dumps({**r, "release": "v0.0.8", "release_fingerprint": "0" * 16}) + "\n" for r in rows),
        encoding="utf-8",
    )
    refused = run("score", str(release_dir), str(other))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"predictions made on release v0.0.8 (data {'0' * 16}), not on v0.0.9 (data {fingerprint})" in (
        refused.stderr
    )
    assert "--other-release" in refused.stderr and not refused.stdout
    assert run("score", str(release_dir), str(other), "--other-release").returncode == 0

    unknown = tmp_path / "unknown.jsonl"  # no release named, and no document of this one
    unknown.write_text(json.dumps({"doc_id": "not-a-document", "predictions": []}) + "\n", encoding="utf-8")
    for extra in ((), ("--other-release",)):
        refused = run("score", str(release_dir), str(unknown), *extra)
        assert refused.returncode == 2 and "none of its 1 documents is in release v0.0.9" in refused.stderr


def closed_port_url() -> str:
    with socket.socket() as sock:  # bound then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.mark.parametrize("case", ["closed port", "wrong model", "wrong key"])
def test_a_misconfigured_endpoint_stops_at_the_first_request(
    release_dir: Path, tmp_path: Path, case: str
) -> None:
    key = "sk-the-right-one" if case == "wrong key" else SENTINEL
    with ChatCompletionsServer(api_key=key, models=("real",)) as server:
        url = closed_port_url() if case == "closed port" else server.base_url
        model = "nope" if case == "wrong model" else "real"
        args = ["evaluate", str(release_dir), "--model", model, "--base-url", url, "--out", str(tmp_path)]
        done = run(*args, GBTBENCH_LLM_BREAKER="2")  # the breaker opens within the first request
        requests = server.count()
    assert done.returncode == 2, done.stderr  # nothing done
    assert f"{url} (model {model}) failed the first request, so nothing was scored or written" in done.stderr
    expected = {
        "closed port": "(last: connection)",
        "wrong model": "The model `nope` does not exist",
        "wrong key": "Incorrect API key provided",
    }[case]
    assert expected in done.stderr and "Traceback" not in done.stderr and SENTINEL not in done.stderr
    assert requests == (0 if case == "closed port" else 1)  # not one failing request per document
    written = {p.name for p in tmp_path.rglob("*") if p.is_file()}
    assert not written & {"scores.json", "report.md", "predictions.jsonl", "dimensions.png"}
    assert "fall back" not in done.stderr


def test_a_deeply_nested_answer_is_read_as_unparsable_and_a_rerun_works(
    release_dir: Path, tmp_path: Path
) -> None:
    args = ["evaluate", str(release_dir), "--model", "deep", "--out", str(tmp_path), "--concurrency", "1"]
    port = 0  # the second run comes back to the same endpoint, which the cache's keys name
    for attempt in range(2):  # the second run answers from the cache: the answer must not crash it
        with ReviewServer(lambda prompt: "[" * 100_000, port=port) as server:
            port = server.port
            done = run(*args, "--base-url", server.base_url)
            assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
            assert server.requests == (3 if attempt == 0 else 0)
        scores = json.loads((tmp_path / "deep" / "v0.0.9" / "scores.json").read_text(encoding="utf-8"))
        assert scores["input"]["unparsable"]["count"] == 3


@pytest.mark.parametrize("task", [["--method", "reviewer"], ["--task", "correction"]])
def test_the_reviewer_and_the_correction_task_stop_at_a_dead_endpoint_too(
    release_dir: Path, tmp_path: Path, task: list[str]
) -> None:
    url = closed_port_url()
    done = run("evaluate", str(release_dir), "--model", "m", "--base-url", url, "--out", str(tmp_path), *task)
    assert done.returncode == 2, done.stderr
    assert f"{url} (model m) failed the first request, so nothing was scored or written" in done.stderr
    assert "Traceback" not in done.stderr
    written = {p.name for p in tmp_path.rglob("*") if p.is_file()}
    assert not written & {"scores.json", "report.md", "predictions.jsonl", "dimensions.png"}
