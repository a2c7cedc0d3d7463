"""`gbtbench parse` as a user runs it: a real subprocess, JSON on stdout, errors on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.sample_standard import SAMPLE

GBTBENCH = [sys.executable, "-m", "flows.cli"]
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GBTBENCH, *args], capture_output=True, text=True, cwd=ROOT, check=False)


def test_parse_json_and_errors(tmp_path: Path) -> None:
    good = tmp_path / "sample.txt"
    good.write_text(SAMPLE, encoding="utf-8")
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"")
    result = run("parse", str(good), str(bad), "--json")
    assert result.returncode == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 1
    keys = {"doc_id", "source", "format", "standard_id", "title", "drafting_rules", "sections", "structure"}
    assert set(rows[0]) == keys
    structure = rows[0]["structure"]
    assert (structure["passed"], structure["sections"], structure["findings"]) == (True, 22, [])
    assert set(rows[0]["sections"][0]) == {"number", "title", "text", "level", "kind"}
    assert rows[0]["standard_id"] == "GB/T 99901—2025"
    assert f"ERROR: {bad}: empty file (0 bytes)" in result.stderr


def test_parse_outline_and_out_folder(tmp_path: Path) -> None:
    good = tmp_path / "sample.txt"
    good.write_text(SAMPLE, encoding="utf-8")
    out = tmp_path / "out"
    result = run("parse", str(tmp_path), "--out", str(out))
    assert result.returncode == 0, result.stderr
    written = json.loads((out / "sample.text.json").read_text(encoding="utf-8"))
    assert written["sections"][1]["title"] == "范围"
    assert json.loads((out / "errors.json").read_text(encoding="utf-8")) == []
    outline = run("parse", str(good)).stdout
    assert "  5.1 外观  (clause," in outline


def test_parse_shows_the_gate_and_inject_refuses_a_broken_parse(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text(SAMPLE.replace("6 试验方法\n", "5.3\n5.4\n6 试验方法\n"), encoding="utf-8")
    shown = run("parse", str(broken), "--json")
    assert shown.returncode == 0, shown.stderr  # parsed: the gate's verdict is part of what it shows
    structure = json.loads(shown.stdout)["structure"]
    assert structure["passed"] is False
    assert [(f["check"], f["locations"]) for f in structure["findings"]] == [
        ("ghost_headings", ["5.3", "5.4"])
    ]
    assert "structure: refused for injection" in run("parse", str(broken)).stdout
    refused = run("inject", str(broken), "--corpus", str(tmp_path / "none"))
    assert refused.returncode == 2 and refused.stdout == ""  # nothing done
    assert f"ERROR: {broken}: structure check failed: 2 empty heading(s)" in refused.stderr


def test_lint_reports_violations_and_exit_status(tmp_path: Path) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(SAMPLE.replace("箱体表面应平整", "箱体表面必须平整"), encoding="utf-8")
    result = run("lint", str(draft), "--json")
    assert result.returncode == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert {
        "source": str(draft),
        "location": "5.1.1",
        "dimension": "NMS",
        "error_type": "NMS-03",
    }.items() <= next(r for r in rows if r["error_type"] == "NMS-03").items()
    assert all(set(r) == {"source", "location", "dimension", "error_type", "message"} for r in rows)
    clean = ROOT / "corpus" / "docx" / "green-tea-processing.docx"
    assert run("lint", str(clean)).returncode == 0
    assert run("lint", str(tmp_path / "missing.pdf")).returncode == 2


def test_an_offline_inject_loads_no_llm_client_and_no_progress_bars() -> None:
    """`gbtbench inject` without --llm starts without the LLM client (asyncio and ssl with it) and without
    rich's progress bars, which it never uses: about a tenth of a second of its start-up."""
    document = ROOT / "corpus" / "pdf" / "battery-storage-fire-detection.pdf"
    heavy = ("asyncio", "ssl", "openai", "injectors.llm.client", "rich.progress", "great_expectations")
    code = (
        "import atexit, sys\n"
        f"atexit.register(lambda: print(sorted(m for m in {heavy!r} if m in sys.modules), file=sys.stderr))\n"
        f"sys.argv = ['gbtbench', 'inject', {str(document)!r}, '--json']\n"
        "from flows.cli import main\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["instances"]
    assert result.stderr.strip().splitlines()[-1] == "[]"
