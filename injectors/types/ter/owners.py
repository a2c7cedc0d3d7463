"""Which document of a release may write a given undefined term (TER-01).

A term that TER-01 writes into several documents of one release ("网络数据" in three network
standards) is a stock phrase a classifier learns, not an error a reviewer finds. Each term is therefore
given to one document only, decided from the injection context alone (every document's terms and scope),
so that documents injected independently, in any order or process, never share one.
"""

from __future__ import annotations

from functools import lru_cache

from injectors.context import InjectionContext
from injectors.language.noun_phrases import noun_phrases
from injectors.language.terms import words
from injectors.types.ter.editing import COMMON_WORDS, relatedness


def _context_vocabularies(context: InjectionContext) -> dict[str, frozenset[str]]:
    """Each document's distinctive words as the context shows it: its scope, terms and definitions."""
    texts: dict[str, list[str]] = {}
    for scope in context.scopes:
        texts.setdefault(scope.doc_id, []).append(scope.text)
    for t in context.terms:
        texts.setdefault(t.doc_id, []).append(t.entry.term + "，" + t.entry.definition)
    return {
        doc: frozenset(w for w in words("\n".join(parts)) if len(w) >= 2 and w not in COMMON_WORDS)
        for doc, parts in texts.items()
    }


@lru_cache(maxsize=4)
def term_owners(context: InjectionContext) -> dict[str, str]:
    """Term → the one document that may write it undefined.

    A term another document defines goes to the other document whose own words it shares most (ties: the
    smallest doc id); a noun phrase of several documents' definitions goes to the first of them."""
    vocabularies = _context_vocabularies(context)
    defined_by: dict[str, set[str]] = {}
    for t in context.terms:
        defined_by.setdefault(t.entry.term, set()).add(t.doc_id)
    owners: dict[str, str] = {}
    for t in context.terms:
        term = t.entry.term
        if term in owners:
            continue
        scored = [
            (-relatedness(term, t.entry.definition, vocab), doc)
            for doc, vocab in vocabularies.items()
            if doc not in defined_by[term]
        ]
        if scored:
            owners[term] = min(scored)[1]
    phrases: dict[str, str] = {}
    for t in sorted(context.terms, key=lambda t: t.doc_id):
        for phrase in noun_phrases(t.entry.definition):
            if phrase not in defined_by:
                phrases.setdefault(phrase, t.doc_id)
    return {**phrases, **owners}


def may_write(context: InjectionContext, doc_id: str, term: str) -> bool:
    """Whether this document may write the term: it owns it, or the context does not know the term (a
    document injected on its own, as in `gbtbench inject`)."""
    owner = term_owners(context).get(term)
    return owner is None or owner == doc_id
