"""Results kept by content address (instance ids), for the corpus-wide choice's repeated passes.

A key made of instance ids always has the same value (an id is a hash of the document, type, place and
edit), so nothing kept goes stale; the memo is emptied when full instead of growing with the corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


_MISSING: Any = object()


class ContentMemo(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: dict[K, V] = {}

    def get(self, key: K, compute: Callable[[], V]) -> V:
        kept = self._kept.get(key, _MISSING)  # one lookup: another thread may empty the memo meanwhile
        if kept is not _MISSING:
            return kept
        value = compute()
        if len(self._kept) >= self._size:
            self._kept.clear()
        self._kept[key] = value
        return value

    def cache_clear(self) -> None:
        self._kept.clear()
