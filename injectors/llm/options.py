"""What a run may choose of the LLM path, and the defaults: the mode, the types it rewrites, the answers it
may try per site and the answer cache. The settings (`injectors.llm.settings`) and the rewriter
(`injectors.llm.rewriter`) both read them from here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from injectors.registry import llm_specs

LLM_MODES = ("none", "openai")
DEFAULT_MAX_ATTEMPTS = 3


def supported_types() -> tuple[str, ...]:
    """The types an LLM may write: those whose module declares an LLM specification."""
    return tuple(llm_specs())


def parse_llm_mode(value: str) -> str:
    """`--llm` / BuildConfig.llm: none (the offline default) or openai (any OpenAI-compatible endpoint)."""
    mode = (value or "none").strip().lower()
    if mode not in LLM_MODES:
        raise ValueError(f"--llm must be one of {', '.join(LLM_MODES)}, not {value!r}")
    return mode


def parse_llm_types(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """Which types the LLM rewrites ("SCP-03,NMS-01" or a list); empty means every type it supports."""
    items = [t.strip() for t in value.split(",")] if isinstance(value, str) else list(value or ())
    wanted = tuple(dict.fromkeys(t for t in items if t))
    unsupported = [t for t in wanted if t not in llm_specs()]
    if unsupported:
        raise ValueError(
            f"no LLM prompt for {', '.join(unsupported)}: the LLM can rewrite {', '.join(supported_types())}"
        )
    return wanted or supported_types()


def default_cache_path(env: Mapping[str, str] | None = None) -> Path:
    """GBTBENCH_LLM_CACHE, else outputs/llm-cache.sqlite (git-ignored, shared by all builds)."""
    env = os.environ if env is None else env
    return Path(env.get("GBTBENCH_LLM_CACHE") or Path("outputs") / "llm-cache.sqlite")
