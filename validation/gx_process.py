"""Great Expectations in a second process, started before the release's tables exist.

Importing GX (pandas, altair, SQLAlchemy…) takes seconds of one core and a large share of memory
that a build would otherwise carry to its end. A large build starts this process as its validation begins
(`flows.stages.validate`), so the import overlaps the traceability checks and the tables on the other
core; the validation then runs there, and the process ends with it. Without a started process, or when it
died, the validation runs in the caller, with the same result. A small build validates in the caller from
the start: its tables are too quick to hide the import, and a process that runs several builds (a test
session, a scheduled server) then imports GX once, not per build."""

from __future__ import annotations

import logging
import multiprocessing
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from parsers.lifetime import end_with_parent
from validation.gx_import import import_gx

T = TypeVar("T")
log = logging.getLogger("gbtbench.validation")

_STARTED: ProcessPoolExecutor | None = None

# documents from which a build validates in a process of its own: below, its tables take a second or less,
# and the new process's import (seconds) is waited for instead of overlapped
WORTH_IT_FROM = 50


def _warm_up() -> None:
    import_gx()


def start() -> bool:
    """Start the process and its GX import, unless one is running, GX is already imported here (a test
    session, a second build in one process: validating here is then immediate), or this process may not
    have children (a daemonic worker). Returns whether it started."""
    global _STARTED
    daemonic = multiprocessing.current_process().daemon
    if _STARTED is not None or "great_expectations" in sys.modules or daemonic:
        return False
    context = multiprocessing.get_context("spawn")
    _STARTED = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=end_with_parent)
    _STARTED.submit(_warm_up)
    return True


def stop() -> None:
    """End the process (a build that stopped before validating, or that has validated)."""
    global _STARTED
    pool, _STARTED = _STARTED, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def run(step: Callable[..., T], *args: Any) -> T:
    """`step(*args)` in the started process (which then ends), or here when there is none or it died."""
    pool = _STARTED
    if pool is not None:
        try:
            return pool.submit(step, *args).result()
        except BrokenProcessPool:
            log.warning("the validation process stopped: the release is validated here")
        finally:
            stop()
    return step(*args)
