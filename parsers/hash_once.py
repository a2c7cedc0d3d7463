"""A hash computed once per frozen object: for the large values that caches are keyed on.

A document (every section) and the corpus-wide injection context (every term, reference and scope of the
corpus) key many `lru_cache`s; a dataclass's own hash walks every field on every lookup, so a lookup cost
grew with the document, and with the corpus for the context. The hash is kept on the instance and never
pickled: string hashes differ from one process to the next.

A frozen dataclass opts in in its body (`dataclass` replaces an inherited `__hash__`, not its own):

    __hash__ = hash_once
    __getstate__ = state_without_hash
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

_SLOT = "_hash_once"


def hash_once(self: Any) -> int:
    """The hash of the compared fields, as the dataclass would compute it, computed once."""
    cached: int | None = self.__dict__.get(_SLOT)
    if cached is None:
        cached = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare and f.hash is not False))
        object.__setattr__(self, _SLOT, cached)
    return cached


def state_without_hash(self: Any) -> dict[str, Any]:
    """What pickle and copy keep: every field, not the cached hash."""
    return {k: v for k, v in self.__dict__.items() if k != _SLOT}
