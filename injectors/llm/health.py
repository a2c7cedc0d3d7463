"""What went wrong in a run's LLM stage as plain data, for the run's report line and the manifest."""

from __future__ import annotations

from typing import Any


def stage_health(client: Any) -> dict[str, object]:
    """`endpoint_down` (the circuit breaker's reason), `deadline_passed` and `cache_repairs`, when any.

    `client` is an LLMClient; duck-typed so that a client built without these parts reports nothing.
    """
    out: dict[str, object] = {}
    breaker = getattr(client, "breaker", None)
    if breaker is not None and breaker.reason:
        out["endpoint_down"] = breaker.reason
    deadline = getattr(client, "deadline", None)
    if deadline is not None and deadline.seconds is not None and deadline.expired:
        out["deadline_passed"] = f"the LLM stage's deadline of {deadline.seconds:g} s passed"
    cache = getattr(client, "cache", None)
    repairs = list(getattr(cache, "healed", []) or [])
    if repairs:
        out["cache_repairs"] = repairs
    return out


__all__ = ["stage_health"]
