"""The client an evaluation calls a model through, against real servers on 127.0.0.1: its defaults, a first
request that fails told once with the endpoint and the model, and the usage line."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from evaluation.model_client import (
    CLIENT_LOGGER,
    FirstRequestFailed,
    evaluation_client,
    evaluation_config,
    usage_line,
)
from evaluation.runner import ReviewPrompt, run_model
from injectors.llm.config import LLMConfigError
from tests.servers.review import ReviewServer

ENV = {"GBTBENCH_LLM_API_KEY": "sk-test", "GBTBENCH_LLM_MAX_RETRIES": "1"}
PROMPTS = [ReviewPrompt("doc-a", "审查甲文件。"), ReviewPrompt("doc-b", "审查乙文件。")]


def closed_port_url() -> str:
    with socket.socket() as sock:  # bound then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_an_evaluation_asks_for_the_likeliest_plain_answer_unless_told_otherwise() -> None:
    config = evaluation_config("m", "http://127.0.0.1:1/v1", 3, ENV)
    assert (config.model, config.base_url, config.max_concurrency) == ("m", "http://127.0.0.1:1/v1", 3)
    assert config.temperature == 0.0 and config.response_format == "none"
    told = {**ENV, "GBTBENCH_LLM_TEMPERATURE": "0.7", "GBTBENCH_LLM_RESPONSE_FORMAT": "json_object"}
    config = evaluation_config("m", None, 3, told)
    assert config.temperature == 0.7 and config.response_format == "json_object"
    with pytest.raises(LLMConfigError, match="GBTBENCH_LLM_TEMPERATURE='hot' is not a number"):
        evaluation_config("m", None, 3, {**ENV, "GBTBENCH_LLM_TEMPERATURE": "hot"})


def test_answers_come_through_the_cache(tmp_path: Path) -> None:
    with ReviewServer(lambda prompt: "[]") as server:
        config = evaluation_config("m", server.base_url, 2, ENV)
        for _ in range(2):  # the second run is answered from the cache
            with evaluation_client(config, tmp_path / "cache.sqlite") as client:
                results = run_model(PROMPTS, client, concurrency=2)
        assert server.requests == len(PROMPTS)
    assert [(p.doc_id, p.predictions, raw) for p, raw in results] == [
        ("doc-a", (), "[]"),
        ("doc-b", (), "[]"),
    ]


def test_a_failed_first_request_names_the_endpoint_and_the_model_and_no_fallback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = closed_port_url()
    config = evaluation_config("m", url, 2, {**ENV, "GBTBENCH_LLM_BREAKER": "1"})
    with (
        caplog.at_level(logging.WARNING),
        pytest.raises(FirstRequestFailed) as caught,
        evaluation_client(config, tmp_path / "cache.sqlite") as client,
    ):
        run_model(PROMPTS, client)
    message = str(caught.value)
    assert message.startswith(f"{url} (model m) failed the first request, so nothing was scored or written: ")
    assert caught.value.reason in {"connection", "endpoint_down"}
    assert "fall back to rules" not in caplog.text  # an evaluation has no rules to fall back to
    assert logging.getLogger(CLIENT_LOGGER).filters == []  # and a build after it still says so


def test_the_usage_line_counts_calls_tokens_and_failures() -> None:
    counts = {"counts": {"cache_hits": 2, "requests": 5, "prompt_tokens": 900, "completion_tokens": 80}}
    assert usage_line("m", "3 documents", {**counts, "failures": {}}) == (
        "LLM m: 3 documents, 2 cache hits, 5 requests, 900 tokens in, 80 out"
    )
    assert usage_line("m", "3 documents", {"counts": {}, "failures": {"timeout": 2, "connection": 1}}) == (
        "LLM m: 3 documents, 0 cache hits, 0 requests, 0 tokens in, 0 out; failures: timeout 2, connection 1"
    )
