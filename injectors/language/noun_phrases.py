"""Noun phrases of a text: runs of nouns that jieba tags as such ("电池管理系统", "箱式围护结构").

Injectors that write a term into a document take it from the document's own words first; a noun phrase
of its definitions that the body never uses is such a term (a concept the drafter names, but only in
passing).
"""

from __future__ import annotations

from functools import lru_cache

from injectors.language.patterns import HAN_WORD
from injectors.language.words import tagged

# jieba flags of words that may form a compound noun; names of people, places and bodies excluded
_NOUNISH = frozenset(("n", "nz", "vn", "ng", "l", "an"))


@lru_cache(maxsize=4096)
def noun_phrases(text: str, min_chars: int = 4) -> tuple[str, ...]:
    """Maximal runs of two or more noun-like words ending in a noun of two characters or more, all
    Chinese, at least `min_chars` long, in order of first appearance."""
    out: list[str] = []
    run: list[tuple[str, str]] = []
    for word, flag in (*tagged(text), ("。", "x")):
        if flag in _NOUNISH and HAN_WORD.fullmatch(word):
            run.append((word, flag))
            continue
        while run and (len(run[-1][0]) < 2 or not run[-1][1].startswith("n")):
            run.pop()  # a phrase ends on its head noun
        phrase = "".join(w for w, _ in run)
        if len(run) >= 2 and len(phrase) >= min_chars:
            out.append(phrase)
        run = []
    return tuple(dict.fromkeys(out))


def head_noun(phrase: str) -> str:
    """The last word of a noun phrase: what the phrase is a kind of ("电池管理系统" → "系统")."""
    words = tagged(phrase)
    return words[-1][0] if words else phrase
