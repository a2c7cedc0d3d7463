"""One build configuration: the plan and the LLM settings inside it, read from the environment once."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from injectors.llm.settings import LLMSettings, api_key_from_env, supported_types
from injectors.planner import PlanConfig
from release.config import BuildConfig

ENV = {
    "GBTBENCH_LLM_MODEL": "qwen-test",
    "GBTBENCH_LLM_BASE_URL": "http://127.0.0.1:9/v1",
    "GBTBENCH_LLM_API_KEY": "sk-secret-never-stored",
    "GBTBENCH_LLM_CONCURRENCY": "3",
    "GBTBENCH_LLM_TIMEOUT": "12.5",
}


def test_offline_settings_read_nothing_from_the_environment() -> None:
    assert LLMSettings.from_env("none", env=ENV) == LLMSettings()


def test_llm_settings_from_the_environment_without_the_key() -> None:
    settings = LLMSettings.from_env("openai", "SCP-03,NMS-01", "/tmp/answers.sqlite", env=ENV)
    assert (settings.model, settings.base_url) == ("qwen-test", "http://127.0.0.1:9/v1")
    assert (settings.max_concurrency, settings.timeout) == (3, 12.5)
    assert settings.types == ("SCP-03", "NMS-01") and settings.cache_path == "/tmp/answers.sqlite"
    assert LLMSettings.from_env("openai", env=ENV).types == supported_types()
    config = BuildConfig(llm=settings)
    shown = json.dumps(config.to_dict()) + repr(config) + config.fingerprint()
    assert "sk-secret" not in shown and "/tmp/answers.sqlite" not in json.dumps(config.to_dict())
    client = settings.client_config(api_key_from_env(ENV))
    assert client.api_key == "sk-secret-never-stored" and client.model == "qwen-test"
    assert client.max_concurrency == 3


@pytest.mark.parametrize(
    ("mode", "env", "message"),
    [
        ("gpt", ENV, "--llm must be one of"),
        ("openai", {}, "needs a model: set GBTBENCH_LLM_MODEL"),
        ("openai", {**ENV, "GBTBENCH_LLM_TIMEOUT": "soon"}, "is not a number"),
    ],
)
def test_bad_llm_settings_are_refused_plainly(mode: str, env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LLMSettings.from_env(mode, env=env)


def test_the_fingerprint_follows_what_decides_the_tables() -> None:
    base = BuildConfig()
    assert replace(base, version="v9.9.9").fingerprint() == base.fingerprint()
    assert replace(base, seed=1).fingerprint() != base.fingerprint()
    assert replace(base, plan=PlanConfig(max_errors=12)).fingerprint() != base.fingerprint()
    llm = LLMSettings.from_env("openai", env=ENV)
    with_llm = replace(base, llm=llm)
    assert with_llm.fingerprint() != base.fingerprint()
    # where answers are cached and how fast they come do not change them; the model does
    faster = replace(llm, cache_path="/elsewhere.sqlite", max_concurrency=32, timeout=5.0)
    assert replace(base, llm=faster).fingerprint() == with_llm.fingerprint()
    assert replace(base, llm=replace(llm, model="other")).fingerprint() != with_llm.fingerprint()


def test_a_bad_configuration_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="error count range 5-3 is empty"):
        BuildConfig(plan=PlanConfig(min_errors=5, max_errors=3))
    with pytest.raises(ValueError, match="unknown error types: XYZ-01"):
        PlanConfig(types=("XYZ-01",))
    with pytest.raises(ValueError, match="seed"):
        BuildConfig(seed=-5)
