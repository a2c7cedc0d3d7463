"""What an instance writes that its document never says: the n-grams the audit counts as stock wording.

The planner's corpus-wide choice avoids a candidate whose added wording an earlier instance of its type
already used; it reads it for every candidate in every balancing pass, so a document's candidates carry
it (`Candidates.added`, computed where the candidates are, in a build's worker). The audit counts the
same n-grams on a published release.
"""

from __future__ import annotations

from typing import Protocol

from injectors.language.novelty import document_wording
from parsers.model import Document, Section


class Written(Protocol):
    """What this reads of an instance (an `ErrorInstance`, or one the audit read back from a release)."""

    @property
    def corrupted_section(self) -> Section | None: ...


def added_wording(instance: Written, document: Document) -> frozenset[tuple[str, ...]]:
    """The word n-grams the instance's section has and its document never used (what the audit counts as
    stock wording when instances of a type share it)."""
    section = instance.corrupted_section
    if section is None:
        return frozenset()
    wording = document_wording(document)
    return frozenset(wording.new(section.title or "") | wording.new(section.text))
