"""Spreading lexicon material over a release: which scope aspects each document of the corpus draws first.

A lexicon of a few dozen aspects, drawn at random by every document of a release, promises the same aspect
in two documents more often than not ("系统性能" in two of nine scopes), and that repeated phrase is a
pattern a model can learn instead of reviewing. The injection context lists every document of the release
in a fixed order, so each document can start from its own place in the lexicon: the aspects are cut into
groups that share no first or last word (so no two groups add a common n-gram), document k of N owns the
stretch of groups from k·G/N and takes the first one there that it can use; a document with none borrows
the nearest group before its stretch, the one its neighbour would take last.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from injectors.context import InjectionContext
from injectors.language.words import words
from parsers.model import Document


def word_groups(names: Sequence[str], kinds: Sequence[str] = ()) -> tuple[tuple[str, ...], ...]:
    """The names joined into groups wherever two share their first or their last word ("安装调试" and
    "安装位置": the n-gram "、安装" would be common to both) or their entry in `kinds` (two names of one
    aspect: "节能", "能效"), in the names' order."""
    parent = list(range(len(names)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_seen: dict[str, int] = {}
    for i, name in enumerate(names):
        ws = words(name)
        same = [f"={kinds[i]}"] if i < len(kinds) else []
        for key in (f"<{ws[0]}", f">{ws[-1]}", *same):
            if key in first_seen:
                parent[root(i)] = root(first_seen[key])
            else:
                first_seen[key] = i
    groups: dict[int, list[str]] = {}
    for i, name in enumerate(names):
        groups.setdefault(root(i), []).append(name)
    return tuple(tuple(g) for g in groups.values())


def place_in_release(document: Document, context: InjectionContext) -> tuple[int, int]:
    """(k, N): the document's place among the N documents of the context (by doc_id, else by its scope
    text); (0, 1) for a document the context does not hold."""
    ids = list(dict.fromkeys(s.doc_id for s in context.scopes))
    if document.doc_id in ids:
        return ids.index(document.doc_id), len(ids)
    scope = next((s.text for s in document.sections if s.kind == "scope" and s.level == 1), None)
    texts = {s.doc_id: s.text for s in context.scopes}
    for i, doc_id in enumerate(ids):
        if scope is not None and texts[doc_id] == scope:
            return i, len(ids)
    return 0, 1


@functools.lru_cache(maxsize=64)
def _groups(names: tuple[str, ...], kinds: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return word_groups(names, kinds)


def own_group(
    names: tuple[str, ...],
    kinds: tuple[str, ...],
    usable: frozenset[str],
    document: Document,
    context: InjectionContext,
    borrow: bool = True,
) -> tuple[str, ...]:
    """The usable names of the first group of this document's own stretch of the lexicon that has any;
    else of the nearest group before it (the end of the previous stretch, which its own document takes
    last, since it takes its first usable group)."""
    groups = _groups(names, kinds)
    k, n = place_in_release(document, context)
    start, end = k * len(groups) // n, max((k + 1) * len(groups) // n, k * len(groups) // n + 1)
    order = [*range(start, end)]
    if borrow:
        order += [(start - step) % len(groups) for step in range(1, len(groups))]
    for i in dict.fromkeys(order):
        found = tuple(x for x in groups[i] if x in usable)
        if found:
            return found
    return ()
