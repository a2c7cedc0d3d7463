"""Deeply nested JSON (100,000 `[`) is refused with one line naming the file, never a RecursionError: in
a predictions file and a raw model answer (a review import's: tests/review/test_review_labelstudio.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
DEEP = "[" * 100_000


def gbtbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_score_of_a_deeply_nested_line_is_one_line(tmp_path: Path) -> None:
    release = tmp_path / "release"
    release.mkdir()
    items = pa.table({"doc_id": ["a"], "gold": ["[]"], "pre_existing": ["[]"]})
    pq.write_table(items, release / "items.parquet")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"doc_id": "a", "predictions": ' + DEEP + "\n", encoding="utf-8")
    done = gbtbench("score", str(release), str(predictions))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{predictions}: line 1 is nested too deeply" in done.stderr
    predictions.write_text('{"doc_id": "a", "raw_output": "' + DEEP + '"}\n', encoding="utf-8")
    done = gbtbench("score", str(release), str(predictions))
    assert done.returncode == 0, done.stderr
    assert "1 documents with unparsable output" in done.stderr
