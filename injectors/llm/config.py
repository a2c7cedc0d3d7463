"""The LLM endpoint's settings, read once from the environment (GBTBENCH_LLM_*), the key never shown."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from injectors.llm.circuit import DEFAULT_THRESHOLD
from injectors.llm.masking import mask_secret

RESPONSE_FORMATS = ("auto", "json_schema", "json_object", "none")


ENV_PREFIX = "GBTBENCH_LLM_"


class LLMConfigError(ValueError):
    """The LLM option was chosen but the configuration cannot work (no model, bad number …)."""


def mask(secret: str) -> str:
    """What a log may show of a secret: that it is set, never any of its characters."""
    return "<set>" if secret else "<unset>"


def redact(text: str, secret: str) -> str:
    """`text` without the secret or any 6+ character piece of it (servers echo keys: "Incorrect API key
    sk-…"); the project's one masking function, `injectors.llm.masking.mask_secret`."""
    return mask_secret(text, secret)


@dataclass(frozen=True, repr=False)
class LLMConfig:
    """Where and how to call the model; from explicit arguments, then GBTBENCH_LLM_* environment variables."""

    model: str
    base_url: str | None = None  # None: the library's default (api.openai.com)
    api_key: str = ""
    timeout: float = 60.0  # seconds per request (the library's default would be 600)
    max_concurrency: int = 8
    max_retries: int = 4  # retries of one call after a timeout, 429, 5xx or dropped connection
    backoff_base: float = 0.5  # seconds; doubles per retry, with jitter
    backoff_max: float = 30.0
    max_retry_after: float = 120.0  # a server's Retry-After is honoured up to this many seconds
    rpm: float | None = None  # requests per minute (None: unlimited)
    tpm: float | None = None  # tokens per minute, prompt + completion (None: unlimited)
    temperature: float = 0.3
    max_tokens: int = 4096  # the answer repeats the whole section text
    response_format: str = (
        "auto"  # auto (json_schema, stepping down when refused) | json_schema | json_object | none
    )
    breaker_failures: int = DEFAULT_THRESHOLD  # consecutive transport failures that declare the endpoint down
    deadline: float | None = 7200.0  # seconds for all the LLM calls of a run (None: no limit)

    def __post_init__(self) -> None:
        if not self.model:
            raise LLMConfigError(
                f"--llm openai needs a model: set {ENV_PREFIX}MODEL (e.g. qwen2.5-72b-instruct)"
            )
        if self.response_format not in RESPONSE_FORMATS:
            raise LLMConfigError(f"response_format must be one of {', '.join(RESPONSE_FORMATS)}")
        if self.timeout <= 0 or self.max_concurrency < 1 or self.max_retries < 0:
            raise LLMConfigError("timeout must be > 0, max_concurrency ≥ 1 and max_retries ≥ 0")
        if self.breaker_failures < 1 or (self.deadline is not None and self.deadline <= 0):
            raise LLMConfigError("breaker_failures must be ≥ 1 and the deadline > 0")

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{f.name}={mask(self.api_key) if f.name == 'api_key' else repr(getattr(self, f.name))}"
            for f in fields(self)
        )
        return f"LLMConfig({shown})"

    __str__ = __repr__

    def to_dict(self) -> dict[str, Any]:
        """For manifests and logs: the key is only said to be set or not."""
        return {
            f.name: mask(self.api_key) if f.name == "api_key" else getattr(self, f.name) for f in fields(self)
        }

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> LLMConfig:
        """Explicit arguments win over GBTBENCH_LLM_*; the key falls back to OPENAI_API_KEY."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {
            "model": env.get(f"{ENV_PREFIX}MODEL", ""),
            "base_url": env.get(f"{ENV_PREFIX}BASE_URL") or None,
            "api_key": env.get(f"{ENV_PREFIX}API_KEY") or env.get("OPENAI_API_KEY", ""),
        }
        numbers = {
            "timeout": ("TIMEOUT", float),
            "max_concurrency": ("CONCURRENCY", int),
            "max_retries": ("MAX_RETRIES", int),
            "rpm": ("RPM", float),
            "tpm": ("TPM", float),
            "temperature": ("TEMPERATURE", float),
            "max_tokens": ("MAX_TOKENS", int),
            "breaker_failures": ("BREAKER", int),
            "deadline": ("DEADLINE", float),
        }
        for name, (suffix, kind) in numbers.items():
            raw = env.get(ENV_PREFIX + suffix)
            if raw:
                try:
                    values[name] = kind(raw)
                except ValueError:
                    raise LLMConfigError(f"{ENV_PREFIX}{suffix}={raw!r} is not a number") from None
        if env.get(f"{ENV_PREFIX}RESPONSE_FORMAT"):
            values["response_format"] = env[f"{ENV_PREFIX}RESPONSE_FORMAT"]
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)
