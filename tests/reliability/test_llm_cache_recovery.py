"""A build whose LLM cache is garbled goes on: the file is moved aside and a fresh one used.

Before: `file is not a database` ended the build with a traceback after minutes of work.

The same CLI build is the suite's `gbtbench build --llm openai` end to end (one build serves both: each
costs a cold build in its own process): the scripted chat-completions server on 127.0.0.1 is called, the
manifest records the endpoint's model and its request count, LLM-written instances ship, and the API key is
written nowhere.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from release.writer import read_manifest
from tests.reliability.helpers import ROOT, build_command, write_corpus
from tests.servers.chat_completions import ChatCompletionsServer

pytestmark = pytest.mark.usefixtures("prefect_api")  # the session's Prefect server, not one per build

KEY = "sk-reliability-sentinel-0042"


def test_a_build_with_a_garbled_llm_cache_recovers(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)
    out = tmp_path / "out"
    cache = out / ".cache" / "llm-cache.sqlite"
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"SQLite format 3\x00" + b"\x13" * 8192)  # a header SQLite rejects
    with ChatCompletionsServer() as server:
        env = {
            **os.environ,
            "GBTBENCH_LLM_BASE_URL": server.base_url,
            "GBTBENCH_LLM_MODEL": "scripted-model",
            "GBTBENCH_LLM_API_KEY": KEY,
        }
        command = build_command(corpus, out, "--llm=openai")  # every type the LLM may write
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        requests = server.count()
    assert "Traceback" not in done.stderr
    assert list(cache.parent.glob("llm-cache.sqlite.corrupt-*"))
    manifest = read_manifest(out / "v0.1.0")
    llm = manifest["llm"]
    assert any("is unreadable" in r for r in llm["cache_repairs"])
    assert requests > 1 and llm["counts"]["requests"] == requests - 1  # one was the endpoint check
    assert manifest["config"]["llm"]["mode"] == "openai"
    assert manifest["config"]["llm"]["model"] == "scripted-model"
    instances = pq.read_table(out / "v0.1.0" / "instances.parquet").to_pylist()
    assert "llm" in {i["provenance"]["generator"] for i in instances}
    release_text = "".join(p.read_text(errors="ignore") for p in (out / "v0.1.0").rglob("*.json"))
    assert KEY not in release_text + done.stderr + done.stdout
