"""The LLM options of `inject` and `build`, and what the command line does with them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from flows.cli.choices import Choices
from flows.cli.console import UNUSABLE, err, error

if TYPE_CHECKING:
    from injectors.llm.rewriter import LLMRewriter
    from injectors.llm.settings import LLMSettings


# The LLM options, shared by `inject` and `build`: --llm none (default, offline) | openai, the types it
# rewrites and its cache. The endpoint comes from GBTBENCH_LLM_BASE_URL / _MODEL / _API_KEY (README).
LLMMode = Annotated[
    str,
    typer.Option(
        "--llm",
        click_type=Choices("injectors.llm.settings:LLM_MODES", case_sensitive=False),
        help="none (offline rule templates) or openai (OpenAI-compatible endpoint).",
    ),
]
LLMTypes = Annotated[
    str | None,
    typer.Option(
        "--llm-types",
        metavar="TYPES",
        help="Types the LLM rewrites, e.g. SCP-03,NMS-01 (default: all it can).",
    ),
]
LLMCachePath = Annotated[
    Path | None,
    typer.Option(
        "--llm-cache", metavar="FILE", help="SQLite cache of LLM answers (default: outputs/llm-cache.sqlite)."
    ),
]


def open_llm(llm: str, llm_types: str | None = None, llm_cache: Path | None = None) -> LLMRewriter | None:
    """The rewriter the options ask for (None for --llm none); a bad option exits with status 2."""
    from injectors.llm.cache import LLMCacheError
    from injectors.llm.settings import open_rewriter_with

    settings = llm_settings(llm, llm_types, llm_cache)
    try:
        return open_rewriter_with(settings)
    except LLMCacheError as exc:  # locked by another process, or not ours to open
        err.print(f"ERROR: {exc}", markup=False)
        raise typer.Exit(1) from None


def llm_settings(llm: str, llm_types: str | None, llm_cache: Path | None) -> LLMSettings:
    """The LLM settings from the options and GBTBENCH_LLM_* (the one place the environment is read);
    a bad option or setting exits with status 2 and one line."""
    from injectors.llm.settings import LLMSettings

    try:
        return LLMSettings.from_env(llm, llm_types, llm_cache)
    except ValueError as exc:  # unknown mode or type, no model configured, a malformed number
        error(str(exc))
        raise typer.Exit(UNUSABLE) from None


def report_llm(rewriter: LLMRewriter) -> None:
    """One stderr line: calls, cache hits, requests, tokens, outcomes and failures (never the key)."""
    summary = rewriter.summary()
    counts: dict[str, int] = summary["counts"]  # type: ignore[assignment]
    outcomes: dict[str, int] = summary["outcomes"]  # type: ignore[assignment]
    failures: dict[str, int] = summary["failures"]  # type: ignore[assignment]
    line = (
        f"LLM {rewriter.client.config.model}: {counts.get('calls', 0)} calls, "
        f"{counts.get('cache_hits', 0)} cache hits, {counts.get('requests', 0)} requests, "
        f"{counts.get('prompt_tokens', 0)} tokens in, {counts.get('completion_tokens', 0)} out; "
        + ", ".join(f"{k} {v}" for k, v in outcomes.items())
    )
    if failures:
        line += "; failures: " + ", ".join(f"{k} {v}" for k, v in failures.items())
    err.print(line, markup=False)
    for key in ("endpoint_down", "deadline_passed"):
        if summary.get(key):
            err.print(f"WARNING: {summary[key]}; the remaining sites used rule templates", markup=False)
