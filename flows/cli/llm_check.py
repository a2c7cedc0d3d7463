"""Whether the LLM endpoint of a build answers, asked once before the build starts.

Without it an unreachable endpoint, a wrong key or a wrong model made every LLM site fall back to the
rule templates one by one, and the build exited 0 with a rules-only release the user did not ask for.
"""

from __future__ import annotations

from dataclasses import replace

from injectors.llm.client import ChatRequest, LLMClient, LLMError
from injectors.llm.settings import LLMSettings, api_key_from_env

CHECK_PROMPT_ID = "gbtbench-endpoint-check@1"


def endpoint_problem(settings: LLMSettings) -> str | None:
    """None when the endpoint answers a one-line request; else why not, with the server's own message
    (the key masked). Not cached, so a cached past answer cannot hide a broken endpoint."""
    config = replace(
        settings.client_config(api_key_from_env()), max_retries=1, max_tokens=8, response_format="none"
    )
    request = ChatRequest(
        messages=({"role": "user", "content": "请只回答：好"},), prompt_id=CHECK_PROMPT_ID, seed=0
    )
    with LLMClient(config) as client:
        try:
            client.complete(request)
        except LLMError as exc:
            return str(exc)
    return None
