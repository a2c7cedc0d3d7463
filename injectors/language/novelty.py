"""New wording: the word n-grams an edit adds that its document never used.

A phrase an injector writes into many documents ("，以及", "保护、") becomes a pattern a classifier can learn
instead of reviewing. An injector that can choose between several equally valid edits prefers the one whose
new n-grams all carry the words of the error itself (the aspect, the object), which differ between
instances, over one that also brings in joining words no instance of the document had.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import regex

from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.words import words
from parsers.model import Document

SIZES = (2, 3, 4)
_WORDLIKE = regex.compile(r"[\p{Han}A-Za-z]")


@lru_cache(maxsize=LINE_CACHE)
def line_ngrams(line: str) -> frozenset[tuple[str, ...]]:
    """Word n-grams (n = 2–4) of one line, whitespace dropped, punctuation-or-digit-only n-grams skipped."""
    tokens = [w for w in words(line) if w.strip()]
    wordlike = [_WORDLIKE.search(t) is not None for t in tokens]
    out = set()
    for n in SIZES:
        for i in range(len(tokens) - n + 1):
            if any(wordlike[i : i + n]):
                out.add(tuple(tokens[i : i + n]))
    return frozenset(out)


def text_ngrams(text: str) -> frozenset[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for line in text.splitlines():
        if line.strip():
            out |= line_ngrams(line)
    return frozenset(out)


@lru_cache(maxsize=16)
def document_ngrams(document: Document) -> frozenset[tuple[str, ...]]:
    """Every n-gram of the document's titles and texts."""
    out: set[tuple[str, ...]] = set()
    for s in document.sections:
        out |= text_ngrams(s.title or "")
        out |= text_ngrams(s.text)
    return frozenset(out)


def forget_ngrams() -> None:
    """Empty the n-gram caches: a process done with n-grams (the audit, once it has counted them) gets
    their memory back for what it does next (a hundred megabytes at 500 documents)."""
    line_ngrams.cache_clear()
    document_ngrams.cache_clear()


def stock_ngrams(new_text: str, document: Document, own: Iterable[str]) -> set[tuple[str, ...]]:
    """New n-grams of `new_text` (absent from the document) that contain none of the words in `own`: the
    wording that would be the same from one instance to the next."""
    mine = set(own)
    return {g for g in text_ngrams(new_text) - document_ngrams(document) if not mine & set(g)}
