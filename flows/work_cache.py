"""Large shared inputs of the injection stage, stored once per build under `<out>/.cache/work/`.

An injection task needs its parsed document and the corpus-wide context its rule templates draw on.
Passing them as task parameters would copy (and, in Prefect, walk) the whole corpus for every task; so
the pipeline stores them here and a task receives only their keys. Each process keeps what it loaded,
so threads share one copy. Keys are content addresses: a stored file never changes meaning.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from injectors.context import InjectionContext
from injectors.planner import Candidates, InjectionResult
from parsers.model import Document
from release.stored_results import StoredResults

ASSEMBLED = "assembled"  # the folder of assembled documents (release.stored_results)


def store(path: Path, value: Any) -> None:
    """Write once, atomically (a reader never sees half a file; a stored key never changes meaning)."""
    if not path.exists():
        _write(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def _write(path: Path, data: bytes) -> None:
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)


@lru_cache(maxsize=4)
def _load(path: str) -> Any:
    """Kept: the context, which every task of a worker reads. A document is read once, so a bigger cache
    would only keep every document a worker injected, and grow with the corpus."""
    with open(path, "rb") as handle:
        return pickle.load(handle)  # the build's own cache, written by store


class WorkCache:
    """Documents and contexts of one code version (the caller puts the code version in `root`)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def put_document(self, document: Document) -> str:
        """The key: the source bytes' hash and the path they were read from (the same bytes may sit in
        two places, and a document records where it came from)."""
        key = hashlib.sha256(f"{document.doc_id}\0{document.source}".encode()).hexdigest()[:16]
        store(self.root / "documents" / f"{key}.pickle", document)
        return key

    def document(self, key: str) -> Document:
        value = _load(str(self.root / "documents" / f"{key}.pickle"))
        assert isinstance(value, Document)
        return value

    def put_context(self, context: InjectionContext) -> str:
        """The key covers the document ids too (the context's own digest leaves them out on purpose)."""
        return self._put_by_content("contexts", context)

    def context(self, key: str) -> InjectionContext:
        value = _load(str(self.root / "contexts" / f"{key}.pickle"))
        assert isinstance(value, InjectionContext)
        return value

    def put_candidates(self, candidates: Candidates) -> str:
        """One document's candidates, so that the once-per-build stages receive keys, not the corpus."""
        return self._put_by_content("candidates", candidates)

    def put_results(self, results: Iterable[InjectionResult]) -> StoredResults:
        """Each assembled document as it comes (the caller's iterable may make them one at a time), read
        back in doc_id order by the release."""
        stored = sorted(
            (r.original.doc_id, self._put_by_content(ASSEMBLED, r), len(r.instances)) for r in results
        )
        keys, counts = tuple(k for _, k, _ in stored), tuple(n for _, _, n in stored)
        return StoredResults(str(self.root / ASSEMBLED), keys, counts)

    def _put_by_content(self, kind: str, value: Any) -> str:
        """Pickled once: the bytes are both the content address and what is written."""
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        key = hashlib.sha256(data).hexdigest()[:16]
        _write(self.root / kind / f"{key}.pickle", data)
        return key

    def has_candidates(self, key: str) -> bool:
        return (self.root / "candidates" / f"{key}.pickle").exists()

    def candidates(self, key: str) -> Candidates:
        """Read each time, not kept: a build reads every document's candidates once per stage."""
        with open(self.root / "candidates" / f"{key}.pickle", "rb") as handle:
            value = pickle.load(handle)  # the build's own cache, written by put_candidates
        assert isinstance(value, Candidates)
        return value
