"""What an injected error leaves behind: an ErrorInstance that a reviewer is scored against."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from injectors.edit import Edit, section_dict
from injectors.language.quotes import nested
from parsers.model import Section


@dataclass(frozen=True)
class InjectionProvenance:
    generator: str  # rule | rule-template | llm
    injector_version: str
    seed: int
    model: str | None = None
    prompt_id: str | None = None
    cache_key: str | None = None
    # when an LLM was asked: why its answers were not used (generator is then rule-template), how many
    # answers it gave, and what each failed answer or retried request broke ("leaked_heading", "transport:…")
    fallback_reason: str | None = None
    llm_attempts: int | None = None
    llm_failures: tuple[str, ...] | None = None
    # which of its type's forms the error takes (the element deleted, the verb used, the prefix added), so
    # that an audit can tell a type that always takes one form from a varied one; None where a type has one
    form: str | None = None


@dataclass(frozen=True)
class LLMTrace:
    """What an LLM rewrite (or its failed attempt before a fallback) leaves in an instance's provenance."""

    model: str
    prompt_id: str
    cache_key: str | None  # of the answer used, or of the last answer tried before the fallback
    attempts: int
    failures: tuple[str, ...] = ()
    fallback_reason: str | None = None

    def provenance_fields(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "prompt_id": self.prompt_id,
            "cache_key": self.cache_key,
            "fallback_reason": self.fallback_reason,
            "llm_attempts": self.attempts,
            "llm_failures": self.failures,
        }


@dataclass(frozen=True)
class ErrorInstance:
    instance_id: str
    doc_id: str
    error_type: str
    location: str  # section number as printed in the corrupted document
    original_section: Section | None  # None when the error inserted a new section
    corrupted_section: Section | None  # None when the error removed the section
    edit: Edit
    description: str  # 错误：…；修改建议：…；依据：…
    provenance: InjectionProvenance

    @property
    def dimension(self) -> str:
        return dimension_of(self.error_type)

    def to_dict(self) -> dict[str, Any]:
        return {
            "instance_id": self.instance_id,
            "doc_id": self.doc_id,
            "dimension": self.dimension,
            "error_type": self.error_type,
            "location": self.location,
            "original_section": section_dict(self.original_section),
            "corrupted_section": section_dict(self.corrupted_section),
            "edit": self.edit.to_dict(),
            "description": self.description,
            "provenance": vars(self.provenance).copy(),
        }


@dataclass(frozen=True)
class FlaggedCandidate:
    """An LLM rewrite that no rule template could replace and that failed its constraints: never gold.

    It goes to the review queue with the reasons it failed; `candidate_section` is the last answer's text
    (None when no answer could even be parsed), kept for the annotator and never applied to a document.
    """

    doc_id: str
    error_type: str
    location: str  # the target's number in the original document
    original_section: Section
    candidate_section: Section | None
    reasons: tuple[str, ...]
    provenance: InjectionProvenance

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "dimension": dimension_of(self.error_type),
            "error_type": self.error_type,
            "location": self.location,
            "original_section": section_dict(self.original_section),
            "candidate_section": section_dict(self.candidate_section),
            "reasons": list(self.reasons),
            "provenance": vars(self.provenance).copy(),
        }


def dimension_of(error_type: str) -> str:
    """A type ID starts with its dimension (`ErrorType` holds every row to it): NREF-02 → NREF."""
    return error_type.split("-")[0]


def instance_id(doc_id: str, error_type: str, location: str, seed: int, edit: Edit) -> str:
    """Stable across runs: the same document, type, place, seed and edit always give the same id.

    The edit is part of it because one section may take two errors of a type on separate spans (the
    reference list, the scope)."""
    payload = json.dumps(edit.to_dict(), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(f"{doc_id}|{error_type}|{location}|{seed}|{payload}".encode()).hexdigest()[:16]


def describe(error: str, fix: str, rule: str) -> str:
    return f"错误：{nested(error)}；修改建议：{nested(fix)}；依据：{rule}"
