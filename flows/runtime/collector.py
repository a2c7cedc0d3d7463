"""Fewer cyclic garbage collections while a build runs.

A build allocates millions of small objects that live to its end (sections, instances, n-grams, cache
entries); with Python's default thresholds each full collection walks all of them again, a large share of
the choice's time on a large corpus. The build's objects form few cycles, so collecting less often keeps
memory as it was.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from parsers.lifetime import end_with_parent

BUILD_THRESHOLDS = (50_000, 20, 100)  # Python's defaults: (700, 10, 10)


@contextmanager
def fewer_collections() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(*BUILD_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def in_worker() -> None:
    """A build worker's initializer: the worker lives for one build, and ends with it (also when the build
    is killed: a worker would otherwise go on with its item and then wait for work forever)."""
    gc.set_threshold(*BUILD_THRESHOLDS)
    end_with_parent()


def build_finished() -> None:
    """Called by the command line once a build has returned: the collections the interpreter runs at exit
    would walk every object the build left, seconds for a large corpus; frozen, they are freed without."""
    gc.freeze()
