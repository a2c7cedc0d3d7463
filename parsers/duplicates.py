"""Duplicate standards in one corpus: the same bytes twice, or the same standard id and version twice.

A copy would give two documents one doc_id (a critical validation failure, which would stop the whole
build) or ship one standard twice; instead the first copy (in path order) is kept and each later one is
reported as a bad input that names the first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

_SPACE = re.compile(r"\s+")
_DASHES = re.compile(r"[—–\-－]+")


@dataclass(frozen=True)
class Duplicate:
    """`source` repeats `first` (both as the caller named them)."""

    source: str
    first: str
    same: str  # "content" or "standard id and version"

    @property
    def reason(self) -> str:
        return f"duplicate of {self.first} (same {self.same}); the first copy is used"


class Identified(Protocol):
    """What the check reads of a document (a build passes a small record of each, not the document)."""

    @property
    def doc_id(self) -> str: ...
    @property
    def standard_id(self) -> str: ...


D = TypeVar("D", bound=Identified)


def standard_key(document: Identified) -> str | None:
    """The id with its version ("GB/T 37947.4—2024"), spacing and dash style folded; None when unknown."""
    sid = _DASHES.sub("-", _SPACE.sub("", document.standard_id or "")).upper()
    return sid or None


def split_duplicates(named: Sequence[tuple[str, D]]) -> tuple[list[tuple[str, D]], list[Duplicate]]:
    """(kept, duplicates): documents in the given order, each kept unless an earlier one is the same."""
    by_content: dict[str, str] = {}
    by_id: dict[str, str] = {}
    kept: list[tuple[str, D]] = []
    duplicates: list[Duplicate] = []
    for name, document in named:
        key = standard_key(document)
        if document.doc_id in by_content:
            duplicates.append(Duplicate(name, by_content[document.doc_id], "content"))
            continue
        if key is not None and key in by_id:
            duplicates.append(Duplicate(name, by_id[key], "standard id and version"))
            continue
        by_content[document.doc_id] = name
        if key is not None:
            by_id[key] = name
        kept.append((name, document))
    return kept, duplicates


__all__ = ["Duplicate", "Identified", "split_duplicates", "standard_key"]
