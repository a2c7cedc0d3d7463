"""New wording: the word n-grams an edit adds that its document never used.

A phrase an injector writes into many documents ("，以及", "保护、") becomes a pattern a classifier can learn
instead of reviewing. An injector that can choose between several equally valid edits prefers the one whose
new n-grams all carry the words of the error itself (the aspect, the object), which differ between
instances, over one that also brings in joining words no instance of the document had.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable
from functools import lru_cache

import regex

from injectors.language.words import words
from parsers.model import Document

SIZES = (2, 3, 4)
# An edited line's n-grams are asked for again by the document's other checks of the same edit, rarely by
# another document (its lines differ): a few hundred lines, not a corpus's, at about 12 kB each.
EDITED_LINES = 512
_WORDLIKE = regex.compile(r"[\p{Han}A-Za-z]")


@lru_cache(maxsize=EDITED_LINES)
def line_ngrams(line: str) -> frozenset[tuple[str, ...]]:
    """Word n-grams (n = 2–4) of one line, whitespace dropped, punctuation-or-digit-only n-grams skipped."""
    tokens = _tokens(line)
    wordlike = [_WORDLIKE.search(t) is not None for t in tokens]
    out = set()
    for n in SIZES:
        for i in range(len(tokens) - n + 1):
            if any(wordlike[i : i + n]):
                out.add(tuple(tokens[i : i + n]))
    return frozenset(out)


def _tokens(line: str) -> tuple[str, ...]:
    return tuple(w for w in words(line) if w.strip())


def _has_run(tokens: tuple[str, ...], gram: tuple[str, ...]) -> bool:
    """Whether `gram` is consecutive words of `tokens`: for a word n-gram of another text, the same as
    `gram in line_ngrams(line)` for the line of these tokens, without building the line's n-grams."""
    at = 0
    try:
        while True:
            at = tokens.index(gram[0], at)
            if tokens[at : at + len(gram)] == gram:
                return True
            at += 1
    except ValueError:
        return False


def text_ngrams(text: str) -> frozenset[tuple[str, ...]]:
    """Every n-gram of a text's lines (what `DocumentWording.new` is measured against)."""
    return frozenset(g for line in _lines(text) for g in line_ngrams(line))


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


class DocumentWording:
    """Which word n-grams a document uses, asked one n-gram at a time.

    Listing every n-gram of every line of a document kept about 60 MB more in a build's worker, and was
    a fifth of the audit; an edit's new n-grams are few. An n-gram's words joined are a substring of the
    line it comes from once that line's whitespace is dropped (whitespace is never inside a word, and is
    dropped between words), so only lines holding that substring are segmented, and a line the document
    has as written brings nothing new at all. A line looked into keeps its words, not its n-grams: caching
    every document line's n-grams was the largest part of a worker's growth (88 MB after 80 documents, at
    12 kB a line, against 17 MB for the same lines' words)."""

    def __init__(self, document: Document) -> None:
        self.lines = [line for s in document.sections for t in (s.title or "", s.text) for line in _lines(t)]
        self._written = frozenset(self.lines)
        flat = ["".join(line.split()) for line in self.lines]  # one per line, whitespace dropped
        self._flat = "\n".join(flat)
        self._starts = list(itertools.accumulate((len(f) + 1 for f in flat), initial=0))  # line k's offset
        # the n-grams asked about so far, by answer (an edited line asks mostly what the line it edits
        # asked before: set operations answer those without a call per n-gram)
        self._used: set[tuple[str, ...]] = set()
        self._unused: set[tuple[str, ...]] = set()
        self._line_tokens: dict[int, tuple[str, ...]] = {}  # the lines looked into so far

    def new(self, text: str) -> set[tuple[str, ...]]:
        """The n-grams of `text` the document never uses (`text_ngrams(text)` less the document's)."""
        out: set[tuple[str, ...]] = set()
        for line in _lines(text):
            if line in self._written:
                continue
            grams = line_ngrams(line)
            for gram in grams.difference(self._used, self._unused):
                self._learn(gram)
            out |= grams & self._unused
        return out

    def _learn(self, gram: tuple[str, ...]) -> None:
        (self._used if self._find(gram) else self._unused).add(gram)

    def _find(self, gram: tuple[str, ...]) -> bool:
        joined, at = "".join(gram), 0
        while (at := self._flat.find(joined, at)) >= 0:
            k = bisect.bisect_right(self._starts, at) - 1  # the line it is in
            if _has_run(self._tokens_of(k), gram):
                return True
            at = self._starts[k + 1]  # the next line
        return False

    def _tokens_of(self, k: int) -> tuple[str, ...]:
        found = self._line_tokens.get(k)
        if found is None:
            found = self._line_tokens[k] = _tokens(self.lines[k])
        return found


@lru_cache(maxsize=16)
def document_wording(document: Document) -> DocumentWording:
    return DocumentWording(document)


def forget_ngrams() -> None:
    """Empty the n-gram caches: a process done with n-grams (the audit, once it has counted them) gets
    their memory back for what it does next."""
    line_ngrams.cache_clear()
    document_wording.cache_clear()


def stock_ngrams(new_text: str, document: Document, own: Iterable[str]) -> set[tuple[str, ...]]:
    """New n-grams of `new_text` (absent from the document) that contain none of the words in `own`: the
    wording that would be the same from one instance to the next."""
    mine = set(own)
    return {g for g in document_wording(document).new(new_text) if not mine & set(g)}
