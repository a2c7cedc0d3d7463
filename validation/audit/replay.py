"""A document's edits replayed on its original, so the audit knows where every section came from.

Sections are tagged with their original position (in `provenance.offset`, which takes no part in
comparisons), so after the edits each corrupted section still says which original section it was (None
for an inserted one), even where a real standard repeats a number. The replay is trusted only when it
gives exactly the published corrupted text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from injectors.edit import Applied, EditConflict, apply_edits
from parsers.model import Document, Provenance, Section
from validation.audit.release import AuditDocument


@dataclass(frozen=True)
class Replayed:
    applied: Applied | None  # None when the edits did not replay to the published corrupted document

    @property
    def ok(self) -> bool:
        return self.applied is not None

    def origin(self, section: Section) -> int | None:
        """The original position of a corrupted section (None: inserted, or the replay failed)."""
        return section.provenance.offset if self.applied is not None else None

    def section_of(self, index: int) -> Section | None:
        """Where the index-th instance's target now stands (None: removed, or the replay failed)."""
        return self.applied.sections[index] if self.applied is not None else None


def _tagged(document: Document) -> Document:
    sections = tuple(replace(s, provenance=Provenance(offset=p)) for p, s in enumerate(document.sections))
    return replace(document, sections=sections)


def _rows(document: Document) -> list[tuple[str, str, str]]:
    return [(s.number, s.title, s.text) for s in document.sections]


def replay_document(document: AuditDocument) -> Replayed:
    try:
        applied = apply_edits(_tagged(document.original), [i.edit for i in document.instances])
    except (EditConflict, StopIteration, IndexError, AssertionError, KeyError):
        return Replayed(None)
    if _rows(applied.document) != _rows(document.corrupted):
        return Replayed(None)
    return Replayed(applied)
