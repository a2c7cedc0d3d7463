"""The configuration of a dataset build: everything that, with the corpus, determines its tables."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from injectors.taxonomy import type_ids


@dataclass(frozen=True)
class BuildConfig:
    seed: int = 0
    version: str = "v0.1.0"
    min_errors: int = 10
    max_errors: int = 18
    types: tuple[str, ...] = field(default_factory=type_ids)
    llm: str = "none"  # none | openai
    llm_types: tuple[str, ...] = ()  # types rewritten by the LLM when llm != none (empty: all it supports)
    review_fraction: float = 0.3  # share of instances in the type-stratified quality sample
    license: str = "cc-by-4.0"  # the data licence the card declares (release.license)
    third_party_corpus: bool = False  # the corpus is third-party standards: the card says so
    extra: dict[str, str] = field(default_factory=dict)

    def fingerprint(self) -> str:
        """Hash of everything but the version label: two builds with the same fingerprint agree."""
        data = asdict(self)
        data.pop("version")
        return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
