"""Expensive test inputs computed once per test session and shared by every pytest-xdist worker.

Injected corpus documents, candidates per seed and small written releases cost seconds of CPU each; the
test modules that read them run on both workers. A value is pickled (a folder is written) under the
session's base temporary folder, the one every worker's own base folder sits in; a lock file makes the first
worker that needs it do the work while another waits and then reads the result. A new session has a new
base folder, so nothing computed by older code is ever read.

Without `configure` (a module imported outside pytest) every value is simply computed.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

_root: list[Path] = []  # the configured folder, if any


def session_root(factory: pytest.TempPathFactory) -> Path:
    """The session's base temporary folder: under xdist each worker's base is `<session base>/popen-gwN`."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def configure(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    _root[:] = [root]


def folder() -> Path | None:
    """The configured store folder (for a subprocess that reads the session's values), or None."""
    return _root[0] if _root else None


@contextmanager
def locked(name: str) -> Iterator[Path | None]:
    """Hold `name`'s lock (another worker computing it waits here); yields the store folder, or None."""
    if not _root:
        yield None
        return
    root = _root[0]
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield root
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def shared(name: str, compute: Callable[[], T]) -> T:
    """`compute()`, done once per session: the first caller stores the value, the others read it.

    `name` must say everything the value depends on (document count, seed …). Locks nest one way only
    (a folder's `fill` may read shared values; a value's `compute` takes no lock), so two workers never
    wait on each other.
    """
    with locked(name) as root:
        if root is None:
            return compute()
        path = root / f"{name}.pickle"
        if path.exists():
            with open(path, "rb") as handle:
                value: T = pickle.load(handle)  # written below, in this session
            return value
        value = compute()
        fd, tmp = tempfile.mkstemp(dir=root, prefix=f".{name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        return value


def shared_folder(name: str, fill: Callable[[Path], None], fallback: Path) -> Path:
    """A folder `fill` writes once per session (under `fallback` when no store is configured).

    Readers must not change it; a test that does copies it first.
    """
    with locked(name) as root:
        base = root if root is not None else fallback
        folder, done = base / name, base / f"{name}.done"
        if not done.exists():  # absent, or left half-written by a failed fill
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            fill(folder)
            done.touch()
        return folder
