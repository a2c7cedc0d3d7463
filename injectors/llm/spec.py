"""What a type module tells the LLM path: its prompt, its edit budget and the condition on answers."""

from __future__ import annotations

from dataclasses import dataclass

from injectors.llm.constraints import DEFAULT_BUDGET, Budget, Condition
from injectors.llm.prompts import PromptSpec


@dataclass(frozen=True)
class LLMSpec:
    prompt: PromptSpec
    budget: Budget = DEFAULT_BUDGET
    condition: Condition | None = None


def llm_specs() -> dict[str, LLMSpec]:
    """Type ID → LLM specification, for the types an LLM may write (taxonomy order)."""
    from injectors.registry import definitions

    return {d.error_type.id: d.llm for d in definitions() if d.llm is not None}
