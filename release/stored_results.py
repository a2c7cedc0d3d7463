"""A build's assembled documents kept on disk, one pickle per document, read back one at a time.

The release passes over the corpus several times (traceability, tables, review queue, instruction sets,
counts). Holding every assembled document for all of them made a build's memory grow with its corpus; a
`StoredResults` is a folder and keys in doc_id order, small enough to be a task parameter, and each pass
reads one document at a time. The build's work cache writes them (`flows.work_cache.WorkCache.put_results`).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import overload

from injectors.planner import InjectionResult


@dataclass(frozen=True)
class StoredResults(Sequence[InjectionResult]):
    """Assembled documents in doc_id order, read from `folder` (`<key>.pickle`) as they are iterated."""

    folder: str
    keys: tuple[str, ...]
    instances: tuple[int, ...]  # errors per document, for counts that need no pass over the documents

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self) -> Iterator[InjectionResult]:
        return (self._read(key) for key in self.keys)

    @overload
    def __getitem__(self, index: int) -> InjectionResult: ...
    @overload
    def __getitem__(self, index: slice) -> list[InjectionResult]: ...
    def __getitem__(self, index: int | slice) -> InjectionResult | list[InjectionResult]:
        if isinstance(index, slice):
            return [self._read(key) for key in self.keys[index]]
        return self._read(self.keys[index])

    def _read(self, key: str) -> InjectionResult:
        with open(Path(self.folder) / f"{key}.pickle", "rb") as handle:
            value = pickle.load(handle)  # the build's own file, written by `WorkCache.put_results`
        assert isinstance(value, InjectionResult)
        return value
