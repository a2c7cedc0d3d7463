"""Injection with the production LLM client and rewriter against a scripted chat-completions server (shared
by test_llm.py and test_llm_resilience.py)."""

from __future__ import annotations

import re
from pathlib import Path

from injectors.context import InjectionContext
from injectors.llm.cache import LLMCache
from injectors.llm.client import LLMClient
from injectors.llm.config import LLMConfig
from injectors.llm.rewriter import LLMRewriter
from injectors.planner import InjectionResult, PlanConfig, inject_document
from parsers.model import Document
from tests.servers.chat_completions import ChatCompletionsServer

LEAKS = re.compile(r"【|抱歉|对不起|我无法|sorry|I cannot", re.I)
SENTINEL = "sk-SENTINEL-7f3a9c2e5b1d4086a1c3"


def make_rewriter(
    server: ChatCompletionsServer, cache: Path | None = None, max_attempts: int = 3, **config: object
) -> LLMRewriter:
    settings = {"timeout": 10.0, "max_retries": 2, "backoff_base": 0.02, "max_concurrency": 4, **config}
    client = LLMClient(
        LLMConfig(model="scripted-model", base_url=server.base_url, api_key=SENTINEL, **settings),  # type: ignore[arg-type]
        LLMCache(cache) if cache is not None else None,
    )
    return LLMRewriter(client, max_attempts=max_attempts, owns_client=True)


def run(
    document: Document,
    context: InjectionContext,
    server: ChatCompletionsServer,
    types: tuple[str, ...],
    cache: Path | None = None,
    **config: object,
) -> tuple[InjectionResult, LLMRewriter]:
    with make_rewriter(server, cache, **config) as rewriter:
        plan = PlanConfig(min_errors=1, max_errors=1 if len(types) == 1 else 18, types=types)
        result = inject_document(document, 0, context, plan, rewriter=rewriter)
    return result, rewriter


def only(result: InjectionResult, error_type: str) -> list:
    return [i for i in result.instances if i.error_type == error_type]


def assert_clean(result: InjectionResult) -> None:
    """No instance text carries a heading bracket, a refusal or a changed heading."""
    for i in result.instances:
        section = i.corrupted_section
        if section is None:
            continue
        assert not LEAKS.search(section.text), section.text
        if i.original_section is not None and i.edit.op == "modify":
            assert section.title == i.original_section.title
    for s in result.corrupted.sections:
        assert "【" not in s.text
