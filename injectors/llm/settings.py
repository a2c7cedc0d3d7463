"""The LLM settings of a run, read from the environment once at the edge and passed down explicitly.

`LLMSettings` is everything about the model that a build or an `inject` needs except the API key: the
mode, the types it rewrites, the model and endpoint, the limits and the cache file. It is frozen and
hashable, so it can be part of the build configuration, of a fingerprint and of a per-process cache key.
The key is a secret and never travels in it: each process that opens a client reads it from its own
environment (`api_key_from_env`), so it never appears in a configuration, a manifest or a Prefect
parameter.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from injectors.llm.config import ENV_PREFIX, LLMConfig
from injectors.llm.options import (
    DEFAULT_MAX_ATTEMPTS,
    LLM_MODES,
    default_cache_path,
    parse_llm_mode,
    parse_llm_types,
    supported_types,
)

if TYPE_CHECKING:  # the client (asyncio, openai) loads when a rewriter is opened: an offline run goes without
    from injectors.llm.rewriter import LLMRewriter

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "LLM_MODES",
    "LLMSettings",
    "api_key_from_env",
    "default_cache_path",
    "open_rewriter_with",
    "parse_llm_mode",
    "parse_llm_types",
    "supported_types",
]

# Fields that change how fast answers come, not what they are: left out of the build fingerprint.
_NOT_FINGERPRINTED = ("cache_path", "timeout", "max_concurrency", "max_retries", "rpm", "tpm")


@dataclass(frozen=True)
class LLMSettings:
    """How (and whether) a model rewrites the semantic types; `mode="none"` is the offline default."""

    mode: str = "none"  # none | openai
    types: tuple[str, ...] = ()  # types the model rewrites (all it supports when mode != none)
    model: str = ""
    base_url: str | None = None  # None: the library's default (api.openai.com)
    cache_path: str = ""  # SQLite cache of answers ("" when mode is none)
    timeout: float = 60.0
    max_concurrency: int = 8
    max_retries: int = 4
    rpm: float | None = None
    tpm: float | None = None
    temperature: float = 0.3
    max_tokens: int = 4096
    response_format: str = "auto"
    max_attempts: int = DEFAULT_MAX_ATTEMPTS

    @classmethod
    def from_env(
        cls,
        mode: str = "none",
        types: str | Iterable[str] | None = None,
        cache_path: str | Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> LLMSettings:
        """Validated settings from the options and GBTBENCH_LLM_* (ValueError with a plain message).

        With mode none nothing is read from the environment: an offline run does not depend on it.
        """
        mode = parse_llm_mode(mode)
        if mode == "none":
            return cls()
        env = os.environ if env is None else env
        client = LLMConfig.from_env(env)  # validates the model, the numbers and the response format
        values = {f.name: getattr(client, f.name) for f in fields(cls) if hasattr(client, f.name)}
        cache = Path(cache_path) if cache_path is not None else default_cache_path(env)
        return cls(mode=mode, types=parse_llm_types(types), cache_path=str(cache), **values)

    def with_cache(self, cache_path: str | Path) -> LLMSettings:
        """The same settings with another answer cache (a build keeps its own under `<out>/.cache/`)."""
        if self.mode == "none":
            return self
        return LLMSettings(**{**asdict(self), "cache_path": str(cache_path)})

    def client_config(self, api_key: str) -> LLMConfig:
        """The client's configuration: these settings plus the key, which only the caller holds."""
        names = {f.name for f in fields(LLMConfig)}
        values = {k: v for k, v in asdict(self).items() if k in names}
        return LLMConfig(api_key=api_key, **values)

    def fingerprint_fields(self) -> dict[str, Any]:
        """What the answers depend on (for the build fingerprint): no cache path, no limits."""
        if self.mode == "none":
            return {"mode": "none"}
        return {k: v for k, v in asdict(self).items() if k not in _NOT_FINGERPRINTED}


def api_key_from_env(env: Mapping[str, str] | None = None) -> str:
    """GBTBENCH_LLM_API_KEY, else OPENAI_API_KEY; empty for local servers that need none."""
    env = os.environ if env is None else env
    return env.get(f"{ENV_PREFIX}API_KEY") or env.get("OPENAI_API_KEY", "")


def open_rewriter_with(settings: LLMSettings, env: Mapping[str, str] | None = None) -> LLMRewriter | None:
    """The rewriter the settings describe (None for mode none); the caller closes it."""
    if settings.mode == "none":
        return None
    from injectors.llm.cache import LLMCache
    from injectors.llm.client import LLMClient
    from injectors.llm.rewriter import LLMRewriter

    client = LLMClient(settings.client_config(api_key_from_env(env)), LLMCache(Path(settings.cache_path)))
    return LLMRewriter(client, types=settings.types, max_attempts=settings.max_attempts, owns_client=True)
