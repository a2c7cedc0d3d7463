"""A document whose injection would ask for more work than one document may (its sections, its characters)
is a bad input of the build, named with the count and the limit, and the rest of the build goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from flows.injection_budget import InjectionBudget
from parsers import parse_file
from parsers.render import render_text
from tests.conftest import corpus_sources

ROOT = Path(__file__).resolve().parents[2]


def many_headings(clauses: int) -> str:
    """A Markdown standard of `clauses` numbered clauses, fifty to a chapter, each a heading and a line."""
    out = ["# 1 范围\n\n本文件规定了试验方法。\n\n# 2 规范性引用文件\n\n本文件没有规范性引用文件。\n\n"]
    out.append("# 3 术语和定义\n\n本文件没有需要界定的术语和定义。\n\n")
    for i in range(clauses):
        chapter, clause = 4 + i // 50, i % 50 + 1
        if clause == 1:
            out.append(f"# {chapter} 要求{chapter}\n\n")
        out.append(f"## {chapter}.{clause} 试验项目{i}\n\n")
        out.append(f"试样的温度应为{20 + i % 7}℃，偏差不应大于{i % 9 + 1}%。\n\n")
    return "".join(out)


def test_the_budget_counts_sections_and_characters(tmp_path: Path) -> None:
    path = tmp_path / "many.md"
    path.write_text(many_headings(300), encoding="utf-8")
    document = parse_file(path)
    sections = len(document.sections)
    assert sections > 300
    assert InjectionBudget().exceeded(document) is None
    assert InjectionBudget(max_sections=sections).exceeded(document) is None
    over = InjectionBudget(max_sections=sections - 1).exceeded(document)
    assert over is not None and over.startswith(f"{sections:,} sections, more than the {sections - 1:,}")
    chars = InjectionBudget(max_chars=1_000).exceeded(document)
    assert chars is not None and "characters of text, more than the 1,000" in chars


def test_a_malformed_budget_is_a_plain_error() -> None:
    with pytest.raises(ValueError, match="GBTBENCH_INJECT_MAX_SECTIONS='many' is not a whole number"):
        InjectionBudget.from_env({"GBTBENCH_INJECT_MAX_SECTIONS": "many"})
    with pytest.raises(ValueError, match="max_chars must be at least 1"):
        InjectionBudget.from_env({"GBTBENCH_INJECT_MAX_CHARS": "0"})
    assert InjectionBudget.from_env({"GBTBENCH_INJECT_MAX_CHARS": "7"}) == InjectionBudget(max_chars=7)


def test_a_document_over_the_budget_is_a_bad_input_and_the_build_goes_on(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    corpus.mkdir()
    for source in corpus_sources()[:2]:
        (corpus / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")
    (corpus / "headings.md").write_text(many_headings(3_000), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GBTBENCH_INJECT_MAX_SECTIONS": "1000"}
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", "build", "--corpus", str(corpus), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
    assert len(errors) == 1, done.stderr[-3000:]
    assert errors[0].startswith("ERROR: headings.md: 3,")
    assert "sections, more than the 1,000 one document may have for injection" in errors[0]
    manifest = json.loads((out / "latest" / "manifest.json").read_text(encoding="utf-8"))
    assert [b["source"] for b in manifest["bad_inputs"]] == ["headings.md"]
    assert manifest["bad_inputs"][0]["reason"] == errors[0].removeprefix("ERROR: headings.md: ")
    assert "built v0.1.0: 2 documents" in done.stderr


def test_inject_refuses_a_document_over_the_budget(tmp_path: Path) -> None:
    path = tmp_path / "headings.md"
    path.write_text(many_headings(300), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GBTBENCH_INJECT_MAX_SECTIONS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", "inject", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"ERROR: {path}: 3")
    assert "sections, more than the 100 one document may have for injection" in done.stderr
