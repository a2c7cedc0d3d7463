"""`gbtbench evaluate` against a model that echoes the API key in its answers: the key is masked in
predictions.jsonl and in the LLM cache, and both are readable by their owner only."""

# ruff: noqa: F811

from __future__ import annotations

import json
import stat
from pathlib import Path

from tests.evaluation.release_fixture import items, release_dir  # noqa: F401  (fixtures)
from tests.evaluation.test_evaluate import SENTINEL, run
from tests.servers.review import ReviewServer


def test_an_echoed_key_is_masked_in_predictions_and_cache(release_dir: Path, tmp_path: Path) -> None:
    def echo(prompt: str) -> str:
        return f"我的密钥是 {SENTINEL}，审查结果：[]"

    with ReviewServer(echo) as server:
        args = ["--base-url", server.base_url]
        done = run("evaluate", str(release_dir), "--model", "echo", "--out", str(tmp_path), *args)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "echo" / "v0.0.9"
    predictions = folder / "predictions.jsonl"
    rows = [json.loads(line) for line in predictions.read_text(encoding="utf-8").splitlines()]
    assert rows and all("***" in row["raw_output"] for row in rows)
    for path in (predictions, folder / "llm-cache.sqlite"):
        assert SENTINEL[8:20].encode() not in path.read_bytes(), path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
