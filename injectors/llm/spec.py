"""What a type module tells the LLM path: its prompt, its edit budget and the condition on answers.

The registry collects them (`injectors.registry.llm_specs`) and the rewriter hands a type's budget and
condition to the validator with each case (`injectors.llm.constraints.RewriteCase`)."""

from __future__ import annotations

from dataclasses import dataclass

from injectors.llm.constraints import DEFAULT_BUDGET, Budget, Condition
from injectors.llm.prompts import PromptSpec


@dataclass(frozen=True)
class LLMSpec:
    prompt: PromptSpec
    budget: Budget = DEFAULT_BUDGET
    condition: Condition | None = None
