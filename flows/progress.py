"""Progress callbacks of running builds, kept in this process and looked up by a key.

Flow parameters and the flow itself travel to task workers (Dask, processes) with the run context, and a
terminal progress bar cannot be pickled; so the flow receives a key, and the callbacks stay here.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

Progress = Callable[[str, int, int], None]  # stage, done, total

_CALLBACKS: dict[str, Progress] = {}


def silent(stage: str, done: int, total: int) -> None:
    del stage, done, total


def register(callback: Progress | None) -> str:
    key = uuid.uuid4().hex
    _CALLBACKS[key] = callback or silent
    return key


def reporter(key: str) -> Progress:
    return _CALLBACKS.get(key, silent)


def unregister(key: str) -> None:
    _CALLBACKS.pop(key, None)
