"""How much injection work one document of a build may ask for: a count of its sections and of its
characters, both known once it is parsed.

Injection takes time in proportion to a document's sections and text, and a file within every parse limit
can still hold enough of them to take minutes (tens of thousands of numbered headings). The bound is a
count, not a deadline: a wall-clock limit would make a release depend on the machine's speed and load (the
same corpus could lose a document on a slow or busy machine and keep it on a fast one), while a count
refuses the same documents everywhere. A document over the budget is a bad input with the count and the
limit named, never injected; the budget is part of the parse stage's cache key, so raising it reads the
refused document again. The defaults are about ten times the largest real standards the project has met.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from parsers.model import Document

ENV_PREFIX = "GBTBENCH_INJECT_"


@dataclass(frozen=True)
class InjectionBudget:
    max_sections: int = 5_000
    max_chars: int = 1_000_000  # of section text: headings and bodies

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) < 1:
                raise ValueError(f"injection budget {f.name} must be at least 1, got {getattr(self, f.name)}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> InjectionBudget:
        """The defaults, each overridden by GBTBENCH_INJECT_<NAME> (MAX_SECTIONS, MAX_CHARS) when set."""
        env = os.environ if env is None else env
        values: dict[str, int] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw:
                try:
                    values[f.name] = int(raw)
                except ValueError:
                    raise ValueError(f"{ENV_PREFIX}{f.name.upper()}={raw!r} is not a whole number") from None
        return cls(**values)

    def exceeded(self, document: Document) -> str | None:
        """Why `document` is over the budget (the reason a build lists it as a bad input), or None."""
        sections = len(document.sections)
        if sections > self.max_sections:
            return (
                f"{sections:,} sections, more than the {self.max_sections:,} one document may have for "
                f"injection ({ENV_PREFIX}MAX_SECTIONS): not injected"
            )
        chars = sum(len(s.heading) + len(s.text) for s in document.sections)
        if chars > self.max_chars:
            return (
                f"{chars:,} characters of text, more than the {self.max_chars:,} one document may have for "
                f"injection ({ENV_PREFIX}MAX_CHARS): not injected"
            )
        return None


DEFAULT_BUDGET = InjectionBudget()
