"""The LLM settings from the environment, and the command line's `--llm openai` against a scripted
chat-completions server (a second run answered from the cache; the API key appears in no output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from injectors.llm.config import LLMConfig
from injectors.llm.rewriter import open_rewriter
from injectors.llm.settings import parse_llm_types, supported_types
from parsers.model import Document
from tests.servers.chat_completions import ChatCompletionsServer
from tests.support.llm_run import SENTINEL

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def battery(corpus_documents: list[Document]) -> Document:
    """A corpus standard with sites for every scope, modality and terminology type the LLM rewrites."""
    return next(d for d in corpus_documents if "battery-storage" in d.source)


def test_config_from_environment() -> None:
    env = {
        "GBTBENCH_LLM_MODEL": "qwen",
        "GBTBENCH_LLM_BASE_URL": "http://127.0.0.1:1/v1",
        "OPENAI_API_KEY": "k1",
    }
    config = LLMConfig.from_env(env, timeout=7.5)
    assert (config.model, config.base_url, config.api_key, config.timeout) == (
        "qwen",
        "http://127.0.0.1:1/v1",
        "k1",
        7.5,
    )
    assert LLMConfig.from_env({**env, "GBTBENCH_LLM_API_KEY": "k2"}).api_key == "k2"
    assert LLMConfig.from_env({**env, "GBTBENCH_LLM_RPM": "30"}).rpm == 30
    assert (
        "k1" not in repr(config) and "api_key='<set>'" not in repr(config) and "api_key=<set>" in repr(config)
    )
    with pytest.raises(ValueError, match="GBTBENCH_LLM_MODEL"):
        LLMConfig.from_env({})
    with pytest.raises(ValueError, match="not a number"):
        LLMConfig.from_env({**env, "GBTBENCH_LLM_TIMEOUT": "soon"})
    assert open_rewriter("none") is None
    with pytest.raises(ValueError, match="--llm"):
        open_rewriter("gpt")
    assert (
        parse_llm_types("SCP-03, NMS-01") == ("SCP-03", "NMS-01") and parse_llm_types("") == supported_types()
    )
    with pytest.raises(ValueError, match="STR-01"):
        parse_llm_types("STR-01")


@pytest.fixture
def standard_file(tmp_path: Path, battery: Document) -> Iterator[Path]:
    from parsers.render import render_text

    path = tmp_path / "standard.txt"
    path.write_text(render_text(battery), encoding="utf-8")
    yield path


def test_command_line_llm_option(standard_file: Path, tmp_path: Path) -> None:
    empty = tmp_path / "no-corpus"
    empty.mkdir()
    cache = tmp_path / "cache.sqlite"
    with ChatCompletionsServer(api_key=SENTINEL) as server:
        env = {
            **os.environ,
            "GBTBENCH_LLM_BASE_URL": server.base_url,
            "GBTBENCH_LLM_MODEL": "scripted-model",
            "GBTBENCH_LLM_API_KEY": SENTINEL,
        }
        args = [sys.executable, "-m", "flows.cli", "inject", str(standard_file), "--corpus", str(empty)]
        args += [
            "--json",
            "--llm",
            "openai",
            "--llm-types",
            "NMS-01,NMS-02,TER-04",
            "--llm-cache",
            str(cache),
        ]
        first = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
        assert first.returncode == 0, first.stderr
        requests = server.count()
        second = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
        assert server.count() == requests > 0
        bad = subprocess.run(
            [*args[:-6], "--llm", "gpt"], capture_output=True, text=True, cwd=ROOT, env=env, check=False
        )
    generators = {
        i["error_type"]: i["provenance"]["generator"] for i in json.loads(first.stdout)["instances"]
    }
    assert {generators.get(t) for t in ("NMS-01", "NMS-02", "TER-04")} == {"llm"}
    assert first.stdout == second.stdout
    assert "cache hits" in first.stderr and "0 calls" not in first.stderr
    assert " 0 requests" in second.stderr
    assert bad.returncode == 2 and "'gpt' is not one of 'none', 'openai'" in bad.stderr
    for output in (first.stdout, first.stderr, second.stdout, second.stderr, bad.stderr):
        assert SENTINEL not in output
