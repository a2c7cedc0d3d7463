"""What injectors may draw from the rest of the corpus: other scopes, real reference numbers, terms.

Rule templates read naturally because their material is real: an out-of-scope object comes from another
document's scope, an added reference is a real standard number listed by another document of the corpus
(never an invented number), an undefined term is one that another document defines. References and terms
come from documents of the same field (`same_field`: ICS group and CCS category) first; material of
another field only where the document's own words or series vouch for it (the injectors decide): a
greenhouse standard never lists a tea-storage standard nor uses a ledger standard's term.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from parsers.entries import ReferenceEntry, TermEntry, normative_references, reference_entries, term_entries
from parsers.hash_once import hash_once, state_without_hash
from parsers.model import Document


def field_of(ics: str, ccs: str) -> tuple[str, str]:
    """A document's field: its ICS group ("65" of "65.020.20") and its CCS category ("B" of "B31")."""
    return ics.strip().split(".")[0], ccs.strip()[:1].upper()


def same_field(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Same ICS group and same CCS category, as far as both covers give them (an ICS group alone is
    broad: 13 holds fire protection and medical waste alike); unknown fields never match."""
    known = [(x, y) for x, y in zip(a, b, strict=True) if x and y]
    return bool(known) and all(x == y for x, y in known)


@dataclass(frozen=True)
class CorpusReference:
    doc_id: str
    ics: str  # the citing document's ICS code: its field
    entry: ReferenceEntry
    ccs: str = ""


@dataclass(frozen=True)
class CorpusTerm:
    doc_id: str
    entry: TermEntry
    field: tuple[str, str] = ("", "")  # the defining document's field (`field_of`)
    ics: str = ""  # the defining document's full ICS and CCS codes: a narrow field (`ter.lexicon`)
    ccs: str = ""


@dataclass(frozen=True)
class CorpusScope:
    doc_id: str
    text: str


@dataclass(frozen=True)
class ContextPart:
    """What one document adds to the context, and where it goes in it."""

    order: tuple[str, str, str]  # (standard id, title, doc_id)
    references: tuple[CorpusReference, ...]
    terms: tuple[CorpusTerm, ...]
    scopes: tuple[CorpusScope, ...]
    bibliography: tuple[CorpusReference, ...]

    @classmethod
    def of(cls, doc: Document) -> ContextPart:
        ics, ccs = doc.cover.ics, doc.cover.ccs
        return cls(
            (doc.standard_id, doc.title, doc.doc_id),
            tuple(CorpusReference(doc.doc_id, ics, e, ccs) for e in normative_references(doc)),
            tuple(CorpusTerm(doc.doc_id, e, field_of(ics, ccs), ics, ccs) for e in term_entries(doc)),
            tuple(
                CorpusScope(doc.doc_id, s.text) for s in doc.sections if s.kind == "scope" and s.level == 1
            ),
            tuple(
                CorpusReference(doc.doc_id, ics, e, ccs)
                for s in doc.sections
                if s.kind == "bibliography"
                for e in reference_entries(s)
            ),
        )


@dataclass(frozen=True)
class InjectionContext:
    references: tuple[CorpusReference, ...] = ()
    terms: tuple[CorpusTerm, ...] = ()
    scopes: tuple[CorpusScope, ...] = ()
    bibliography: tuple[CorpusReference, ...] = ()

    __hash__ = hash_once  # a cache key of every lookup that reads the corpus (parsers.hash_once)
    __getstate__ = state_without_hash

    @classmethod
    def from_documents(cls, documents: Iterable[Document]) -> InjectionContext:
        """Collected in (standard id, title) order: independent of the order files were read, and of
        edits elsewhere in a document, which change its doc_id but not its place here."""
        return cls.from_parts(ContextPart.of(doc) for doc in documents)

    @classmethod
    def from_parts(cls, parts: Iterable[ContextPart]) -> InjectionContext:
        """As `from_documents`, from each document's part (a build takes it as each document is parsed,
        and keeps no document)."""
        ordered = sorted(parts, key=lambda p: p.order)
        return cls(
            tuple(r for p in ordered for r in p.references),
            tuple(t for p in ordered for t in p.terms),
            tuple(c for p in ordered for c in p.scopes),
            tuple(r for p in ordered for r in p.bibliography),
        )

    def references_for(self, document: Document) -> tuple[CorpusReference, ...]:
        """Real reference numbers listed by other documents, those of the same field first: an injector
        takes another field's reference only when it is of this document's series or subject."""
        ranked = _references_by_field(self, field_of(document.cover.ics, document.cover.ccs))
        return tuple(r for r in ranked if r.doc_id != document.doc_id)

    def digest(self) -> str:
        """What the rule templates can draw on, without document ids: a cache key that survives an edit
        to a document's body (its doc_id changes, its references, terms and scope do not)."""
        material = (
            [(r.ics, r.ccs, r.entry) for r in self.references],
            [(t.field, t.ics, t.ccs, t.entry) for t in self.terms],
            [c.text for c in self.scopes],
            [(r.ics, r.ccs, r.entry) for r in self.bibliography],
        )
        return hashlib.sha256(repr(material).encode()).hexdigest()[:16]

    def terms_for(self, document: Document) -> tuple[CorpusTerm, ...]:
        """Terms other documents define, those of the same field first: an injector takes another
        field's term only when its words are the document's own (`ter.editing.at_home`). A term that
        several documents of one field define alike (one standard's editions, a series) comes once: what
        an injector makes of it depends on the entry and its field alone, not on who defines it."""
        field = field_of(document.cover.ics, document.cover.ccs)
        return tuple(t for t, owners in _terms_by_field(self, field) if owners - {document.doc_id})

    def scopes_for(self, document: Document) -> tuple[CorpusScope, ...]:
        return tuple(s for s in self.scopes if s.doc_id != document.doc_id)


# Both are read by every document of a build (one lookup per field): sorted once per context and field,
# not once per document, since a corpus of hundreds of documents lists tens of thousands of entries.


@lru_cache(maxsize=64)
def _references_by_field(context: InjectionContext, field: tuple[str, str]) -> tuple[CorpusReference, ...]:
    return tuple(
        sorted(
            context.references,
            key=lambda r: (not same_field(field, field_of(r.ics, r.ccs)), r.entry.number, r.entry.line),
        )
    )


@lru_cache(maxsize=64)
def _terms_by_field(
    context: InjectionContext, field: tuple[str, str]
) -> tuple[tuple[CorpusTerm, frozenset[str]], ...]:
    """Each distinct term (all but the document defining it) once, where it first comes, with the
    documents that define it."""
    owners: dict[tuple[TermEntry, tuple[str, str], str, str], set[str]] = {}
    first: dict[tuple[TermEntry, tuple[str, str], str, str], CorpusTerm] = {}
    for t in sorted(context.terms, key=lambda t: not same_field(field, t.field)):
        key = (t.entry, t.field, t.ics, t.ccs)
        owners.setdefault(key, set()).add(t.doc_id)
        first.setdefault(key, t)
    return tuple((t, frozenset(owners[k])) for k, t in first.items())
