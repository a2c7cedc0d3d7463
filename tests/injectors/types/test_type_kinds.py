"""A type of any kind is its module alone: a judgement type, an LLM-rewritten type and a type whose fix is no
rewrite of one section, dropped in as a plug-in package (tests/injectors/types/toy_kinds), are built, audited,
scored and written into the instruction sets by the production command line, with nothing else told about
them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from corpus.stdsource import gold_document
from injectors.context import InjectionContext
from injectors.registry import including
from parsers.model import Document
from parsers.render import render_text
from tests.conftest import corpus_sources
from tests.servers.chat_completions import ChatCompletionsServer
from tests.support.llm_run import run

ROOT = Path(__file__).resolve().parents[3]
TOYS = Path(__file__).resolve().parent / "toy_kinds"
JUDGEMENT, LLM_REWRITTEN, NO_CORRECTION = "NMS-97", "NMS-96", "STR-97"
KINDS = (JUDGEMENT, LLM_REWRITTEN, NO_CORRECTION)


def _cli(env: dict[str, str], *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in ok, done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A release built, audited and scored with the toy package registered through the environment."""
    root = tmp_path_factory.mktemp("kinds")
    shutil.copytree(TOYS, root / "plugins" / "toy_kinds")
    corpus = root / "corpus"
    corpus.mkdir()
    # the corpus standards that have an 引言 (the removal toy's only site)
    for source in corpus_sources():
        document = gold_document(source)
        if any(s.number == "引言" for s in document.sections):
            (corpus / f"{source.stem}.txt").write_text(render_text(document), encoding="utf-8")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GBTBENCH_")},
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(root / "plugins")]),
        "GBTBENCH_TYPE_PACKAGES": "toy_kinds",
    }
    _cli(env, "build", "--corpus", str(corpus), "--out", str(root / "out"), "--workers", "1")
    release = root / "out" / "latest"
    _cli(env, "audit", str(release), ok=(0, 1))  # 1: a goal missed, as a release this small may
    gold: dict[str, list[dict[str, str]]] = {}
    for row in pq.read_table(release / "instances.parquet").to_pylist():
        keys = ("location", "dimension", "error_type", "description")
        gold.setdefault(row["doc_id"], []).append({k: row[k] for k in keys})
    predictions = root / "predictions.jsonl"
    predictions.write_text(
        "".join(
            json.dumps({"doc_id": d, "predictions": p}, ensure_ascii=False) + "\n" for d, p in gold.items()
        ),
        encoding="utf-8",
    )
    scores = json.loads(_cli(env, "score", str(release), str(predictions), "--json").stdout)
    return {"release": release, "scores": scores}


def _rows(release: Path, name: str) -> list[dict[str, Any]]:
    text = (release / "instructions" / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_each_kind_is_built_with_its_version_in_the_manifest(release: dict[str, Any]) -> None:
    manifest = json.loads((release["release"] / "manifest.json").read_text(encoding="utf-8"))
    assert all(manifest["counts"]["by_type"][t] >= 1 for t in KINDS), manifest["counts"]["by_type"]
    assert all(manifest["types"][t]["version"] == "1" for t in KINDS)


def test_the_audit_holds_the_judgement_kinds_to_the_pattern_goals(release: dict[str, Any]) -> None:
    audit = json.loads((release["release"] / "validation" / "audit.json").read_text(encoding="utf-8"))
    judged = set(audit["judgement_types"])
    assert {JUDGEMENT, NO_CORRECTION} <= judged and LLM_REWRITTEN not in judged  # its check is D


def test_perfect_predictions_score_every_kind(release: dict[str, Any]) -> None:
    by_type = release["scores"]["gbtbench"]["by_error_type"]
    assert all(by_type[t]["recall"] == 1.0 and by_type[t]["hits"] >= 1 for t in KINDS), by_type


def test_the_instruction_sets_offer_each_kind_and_correct_only_in_place_rewrites(
    release: dict[str, Any],
) -> None:
    choices = _rows(release["release"], "error_type_zero_shot")[0]["choices"]
    assert set(KINDS) <= set(choices)
    corrected = {
        r["query"].split("错误类型：")[1].split(" ")[0]
        for r in _rows(release["release"], "correction_zero_shot")
    }
    assert {JUDGEMENT, LLM_REWRITTEN} <= corrected and NO_CORRECTION not in corrected
    # the card says why, in the type's own words; lm-eval maps the judgement toy's reference code
    card = (release["release"] / "hf" / "README.md").read_text(encoding="utf-8")
    assert f"- {NO_CORRECTION} 引言被删除: the element was removed: the fix restores a whole element." in card
    codes = json.loads(
        (release["release"] / "instructions" / "reference_codes.json").read_text(encoding="utf-8")
    )
    assert codes["types"]["E-T-97"] == JUDGEMENT


@pytest.fixture
def toy_kinds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    shutil.copytree(TOYS, tmp_path / "toy_kinds")
    monkeypatch.syspath_prepend(str(tmp_path))
    with including("toy_kinds"):
        yield
    for name in [m for m in sys.modules if m.startswith("toy_kinds")]:
        del sys.modules[name]


@pytest.mark.usefixtures("toy_kinds")
def test_the_llm_rewrites_the_llm_kind(corpus_documents: list[Document]) -> None:
    """Its LLMSpec is all the LLM path needs: the production rewriter asks a chat-completions server on
    127.0.0.1 and the instance is the model's."""
    document = next(d for d in corpus_documents if any("可" in s.text for s in d.sections))
    with ChatCompletionsServer() as server:
        result, _ = run(document, InjectionContext.from_documents([document]), server, (LLM_REWRITTEN,))
        assert server.requests
    assert [(i.error_type, i.provenance.generator) for i in result.instances] == [(LLM_REWRITTEN, "llm")]
