"""`gbtbench build --llm openai` checks its endpoint once before building: a closed port, a wrong model or
a wrong key stops the build with the server's own message, unless --llm-fallback asks for the rule
templates, which the manifest then records."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from parsers.render import render_text
from tests.conftest import corpus_sources
from tests.servers.chat_completions import ChatCompletionsServer

ROOT = Path(__file__).resolve().parents[3]
KEY = "sk-endpoint-check-secret-7d1e"


def closed_port_url() -> str:
    with socket.socket() as sock:  # bound then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def build(tmp_path: Path, base_url: str, model: str, *options: str) -> subprocess.CompletedProcess[str]:
    corpus = tmp_path / "corpus"
    if not corpus.is_dir():
        corpus.mkdir()
        source = corpus_sources()[0]
        (corpus / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GBTBENCH_LLM_", "OPENAI_"))}
    env |= {
        "GBTBENCH_LLM_BASE_URL": base_url,
        "GBTBENCH_LLM_MODEL": model,
        "GBTBENCH_LLM_API_KEY": KEY,
        "GBTBENCH_LLM_MAX_RETRIES": "1",
        "GBTBENCH_LLM_TIMEOUT": "5",
    }
    args = ["build", "--corpus", str(corpus), "--out", str(tmp_path / "out"), "--llm", "openai", *options]
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.mark.parametrize("case", ["closed port", "wrong model", "wrong key"])
def test_a_misconfigured_endpoint_stops_the_build(tmp_path: Path, case: str) -> None:
    with ChatCompletionsServer(
        api_key="sk-the-right-one" if case == "wrong key" else KEY, models=("real",)
    ) as s:
        url = closed_port_url() if case == "closed port" else s.base_url
        done = build(tmp_path, url, "nope" if case == "wrong model" else "real")
        requests = s.count()
    assert done.returncode == 2, done.stderr  # nothing done
    assert "failed a first request" in done.stderr and "--llm-fallback" in done.stderr
    assert "Traceback" not in done.stderr and KEY not in done.stderr
    expected = {
        "closed port": "connection",
        "wrong model": "The model `nope` does not exist",
        "wrong key": "Incorrect API key provided",
    }[case]
    assert expected in done.stderr
    assert requests == (0 if case == "closed port" else 1)  # one request, not one per LLM site
    assert not (tmp_path / "out" / "v0.1.0").exists()


def test_the_fallback_is_asked_for_and_recorded(tmp_path: Path) -> None:
    done = build(tmp_path, closed_port_url(), "real", "--llm-fallback")
    assert done.returncode == 0, done.stderr
    assert "building with the rule templates" in done.stderr
    manifest = json.loads((tmp_path / "out" / "v0.1.0" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["llm"]["mode"] == "none"
    assert "failed a first request" in manifest["llm"]["fallback"]
    assert manifest["config"]["llm_fallback"] == manifest["llm"]["fallback"]
    assert KEY not in json.dumps(manifest)
