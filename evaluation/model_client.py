"""The LLM client an evaluation calls a model through: the project's client and cache with the evaluation's
own defaults, a first request that fails told once with the server's reason, and the run's usage in a line.

An evaluation scores what the model answers, so it asks for the model's most likely answer (temperature 0)
in plain text (no response_format, which not every server takes); GBTBENCH_LLM_* still sets either.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evaluation.runner import EndpointError
from injectors.llm.cache import LLMCache
from injectors.llm.client import LLMClient
from injectors.llm.config import LLMConfig

CLIENT_LOGGER = LLMClient.__module__  # the logger the client warns on (its module's name)


class FirstRequestFailed(RuntimeError):
    """The endpoint failed the run's first request: nothing was scored or written."""

    def __init__(self, config: LLMConfig, cause: EndpointError) -> None:
        where = config.base_url or "the default endpoint"
        super().__init__(
            f"{where} (model {config.model}) failed the first request, "
            f"so nothing was scored or written: {cause}"
        )
        self.reason = cause.reason


def evaluation_config(
    model: str, base_url: str | None, concurrency: int, env: Mapping[str, str] | None = None
) -> LLMConfig:
    """The client's settings for a run: the arguments, then GBTBENCH_LLM_*, then our defaults (temperature
    0, no response_format); LLMConfigError names a setting that is not usable."""
    env = os.environ if env is None else env
    # None leaves the environment's value
    temperature = None if env.get("GBTBENCH_LLM_TEMPERATURE") else 0.0
    response_format = None if env.get("GBTBENCH_LLM_RESPONSE_FORMAT") else "none"
    return LLMConfig.from_env(
        env,
        model=model,
        base_url=base_url,
        max_concurrency=concurrency,
        temperature=temperature,
        response_format=response_format,
    )


class _NoRulesHere(logging.Filter):
    """The client's "the remaining calls fall back to rules" is about building: an evaluation has no rules
    to fall back to, it stops at a failed first request and counts later failures itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "fall back to rules" not in record.getMessage()


@contextmanager
def evaluation_client(config: LLMConfig, cache_path: Path) -> Iterator[LLMClient]:
    """The client and its SQLite cache for the block; an EndpointError the block raises (its first request
    failed) comes out as FirstRequestFailed, which names the endpoint and the model."""
    quiet = _NoRulesHere()
    logging.getLogger(CLIENT_LOGGER).addFilter(quiet)
    try:
        with LLMCache(cache_path) as cache, LLMClient(config, cache) as client:
            yield client
    except EndpointError as exc:
        raise FirstRequestFailed(config, exc) from None
    finally:
        logging.getLogger(CLIENT_LOGGER).removeFilter(quiet)


def usage_line(model: str, what: str, counts: Mapping[str, Any]) -> str:
    """The run's calls in one line, from the client's `stats.to_dict()`: cache hits, requests, tokens and
    the failures by reason."""
    c, f = counts["counts"], counts["failures"]
    line = (
        f"LLM {model}: {what}, {c.get('cache_hits', 0)} cache hits, "
        f"{c.get('requests', 0)} requests, {c.get('prompt_tokens', 0)} tokens in, "
        f"{c.get('completion_tokens', 0)} out"
    )
    if f:
        line += "; failures: " + ", ".join(f"{k} {v}" for k, v in f.items())
    return line
