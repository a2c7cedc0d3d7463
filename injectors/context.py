"""What injectors may draw from the rest of the corpus: other scopes, real reference numbers, terms.

Rule templates read naturally because their material is real: an out-of-scope object comes from another
document's scope, an added reference is a real standard number listed by another document of the corpus
(never an invented number), an undefined term is one that another document defines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from parsers.entries import ReferenceEntry, TermEntry, normative_references, reference_entries, term_entries
from parsers.model import Document


@dataclass(frozen=True)
class CorpusReference:
    doc_id: str
    ics: str  # the citing document's ICS code: its field
    entry: ReferenceEntry


@dataclass(frozen=True)
class CorpusTerm:
    doc_id: str
    entry: TermEntry


@dataclass(frozen=True)
class CorpusScope:
    doc_id: str
    text: str


@dataclass(frozen=True)
class InjectionContext:
    references: tuple[CorpusReference, ...] = ()
    terms: tuple[CorpusTerm, ...] = ()
    scopes: tuple[CorpusScope, ...] = ()
    bibliography: tuple[CorpusReference, ...] = ()

    @classmethod
    def from_documents(cls, documents: Iterable[Document]) -> InjectionContext:
        """Collected in (standard id, title) order: independent of the order files were read, and of
        edits elsewhere in a document, which change its doc_id but not its place here."""
        references: list[CorpusReference] = []
        terms: list[CorpusTerm] = []
        scopes: list[CorpusScope] = []
        bibliography: list[CorpusReference] = []
        for doc in sorted(documents, key=lambda d: (d.standard_id, d.title, d.doc_id)):
            ics = doc.cover.ics
            references.extend(CorpusReference(doc.doc_id, ics, e) for e in normative_references(doc))
            terms.extend(CorpusTerm(doc.doc_id, e) for e in term_entries(doc))
            scopes.extend(
                CorpusScope(doc.doc_id, s.text) for s in doc.sections if s.kind == "scope" and s.level == 1
            )
            for s in doc.sections:
                if s.kind == "bibliography":
                    bibliography.extend(CorpusReference(doc.doc_id, ics, e) for e in reference_entries(s))
        return cls(tuple(references), tuple(terms), tuple(scopes), tuple(bibliography))

    def references_for(self, document: Document) -> tuple[CorpusReference, ...]:
        """Real reference numbers from other documents, those of the same field (ICS group) first."""
        field = document.cover.ics.split(".")[0]
        others = [r for r in self.references if r.doc_id != document.doc_id]
        return tuple(
            sorted(others, key=lambda r: (r.ics.split(".")[0] != field, r.entry.number, r.entry.line))
        )

    def digest(self) -> str:
        """What the rule templates can draw on, without document ids: a cache key that survives an edit
        to a document's body (its doc_id changes, its references, terms and scope do not)."""
        material = (
            [(r.ics, r.entry) for r in self.references],
            [t.entry for t in self.terms],
            [c.text for c in self.scopes],
            [(r.ics, r.entry) for r in self.bibliography],
        )
        return hashlib.sha256(repr(material).encode()).hexdigest()[:16]

    def terms_for(self, document: Document) -> tuple[CorpusTerm, ...]:
        return tuple(t for t in self.terms if t.doc_id != document.doc_id)

    def scopes_for(self, document: Document) -> tuple[CorpusScope, ...]:
        return tuple(s for s in self.scopes if s.doc_id != document.doc_id)
