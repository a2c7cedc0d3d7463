"""The configuration of a dataset build: everything that, with the corpus, determines its tables.

One object, validated once where the run starts (the CLI, a schedule) and passed down explicitly: the
seed and version label, the plan (how many errors of which types, `PlanConfig`) and the LLM settings
(`LLMSettings`, never the API key).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from injectors.llm.settings import LLMSettings
from injectors.planner import PlanConfig


@dataclass(frozen=True)
class BuildConfig:
    seed: int = 0
    version: str = "v0.1.0"
    plan: PlanConfig = field(default_factory=PlanConfig)
    llm: LLMSettings = field(default_factory=LLMSettings)
    review_fraction: float = 0.3  # share of instances in the type-stratified quality sample
    license: str = "cc-by-4.0"  # the data licence the card declares (release.license)
    third_party_corpus: bool = False  # the corpus is third-party standards: the card says so
    # why the build asked for an LLM but used the rule templates (--llm-fallback): "" when it did not
    llm_fallback: str = ""

    def __post_init__(self) -> None:
        if self.seed < 0:
            raise ValueError(f"the seed must be 0 or more, not {self.seed}")
        if not 0 <= self.review_fraction <= 1:
            raise ValueError(f"the review fraction must be between 0 and 1, not {self.review_fraction}")

    def fingerprint(self) -> str:
        """Hash of everything that decides the tables (not the version label, not where LLM answers are
        cached): two builds with the same fingerprint agree."""
        data = asdict(self)
        data.pop("version")
        data.pop("llm_fallback")  # a fallback build's tables are a rules-only build's (its llm is "none")
        data["llm"] = self.llm.fingerprint_fields()
        return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, object]:
        """For the manifest: plain values; no API key (never part of it) and no path of the build machine."""
        data = asdict(self)
        data["llm"].pop("cache_path")
        return data
