"""Parsed documents kept between commands, so `gbtbench inject` parses its template corpus once, not per call.

Keyed by the code version and each file's path, size and modification time: a changed file or a changed
parser is parsed again. The cache lives in the user's cache folder (`injectors.cache_folder`); where it
cannot be written, documents are simply parsed every time.
"""

from __future__ import annotations

import contextlib
import pickle
from pathlib import Path

from flows.fingerprint import code_version, combine
from flows.work_cache import store
from injectors.cache_folder import cache_dir
from parsers import parse_many
from parsers.model import Document


def _key(path: Path) -> str:
    stat = path.stat()
    return combine([code_version(), str(path.resolve()), str(stat.st_size), str(stat.st_mtime_ns)])


def parsed_documents(paths: list[Path], root: Path | None = None) -> list[Document]:
    """The documents of `paths` in order, from the cache where it has them; unreadable files are left out
    (they are the build's business to report, not a template source's)."""
    folder = (root or cache_dir()) / "parsed"
    documents: list[Document] = []
    for path in paths:
        cached = folder / f"{_key(path)}.pickle"
        try:
            with open(cached, "rb") as handle:
                documents.append(pickle.load(handle))  # written by store below, from our own parse
            continue
        except (OSError, pickle.UnpicklingError, EOFError):
            pass
        for outcome in parse_many([path]):
            if outcome.document is None:
                continue
            documents.append(outcome.document)
            with contextlib.suppress(OSError):  # a read-only home: parse every time
                store(cached, outcome.document)
    return documents
