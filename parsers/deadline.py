"""Parse one file in a worker process that is killed at the deadline, so no file can stall a build.

Readers are linear and limited (`parsers.limits`), but a library can still loop or crawl on a crafted
file; a thread cannot be stopped, a process can. Workers are forked from a forkserver that has the readers
imported already (or the worker itself is forked), so the cost is a fork, not an interpreter start.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path

from parsers.errors import CorruptFileError, ParseError, ResourceLimitError
from parsers.files import SUFFIXES, parse_file
from parsers.lifetime import end_with_parent
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.model import Document

# Formats read by the project's own readers, which are pure Python and linear in the file's size: parsed
# in place under a timer signal where this is the main thread (a fork per file would cost more than the
# parse of such a file). A library's reader (PDF, DOCX) always runs in
# a killable worker, where C code cannot hold off the deadline, and so does any reader in another thread
# (only the main thread receives signals).
OUR_READERS = frozenset({"markdown", "text"})

_PRELOAD = ["parsers", "parsers.pdf", "parsers.docx", "parsers.markdown", "parsers.text"]


def _worker(path: str, limits: ParseLimits, conn: Connection) -> None:
    end_with_parent()  # a killed build's parse of a hostile file must not go on to its end
    try:
        conn.send(("ok", parse_file(path, limits)))
    except ParseError as exc:
        conn.send(("error", exc))
    finally:
        conn.close()


def _context() -> multiprocessing.context.ForkServerContext | multiprocessing.context.ForkContext:
    """A fork where this process has one thread (a build's worker, `gbtbench inject`): it copies what is
    loaded and imports nothing. Elsewhere a forkserver, since forking a threaded process is unsafe; its
    children import the main module again (for the CLI, the whole command line)."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)  # only takes effect before the forkserver's first start
    return ctx


class _Expired(BaseException):
    """Raised by the timer inside an in-place parse; a BaseException, so no reader's `except Exception`
    can swallow it."""


@contextlib.contextmanager
def _timer(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise _Expired

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)


def _timer_free() -> bool:
    """Whether this thread may use SIGALRM: the main thread, with no timer of someone else's running."""
    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)
    )


IN_PLACE_BYTES = 16 * 1024 * 1024  # a bigger text file is read in a worker, whose memory is watched
WATCH_S = 0.05


def _small(path: Path | str) -> bool:
    """A regular file under IN_PLACE_BYTES, or anything the reader refuses without reading (a FIFO, a
    device, a missing file): `ParseLimits.read` never blocks on those."""
    try:
        return os.stat(path).st_size < IN_PLACE_BYTES
    except OSError:
        return True


def _rss(pid: int | None) -> int:
    """Resident bytes of a process (0 where /proc cannot tell)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _watch(
    path: Path | str, worker: multiprocessing.process.BaseProcess, receiver: Connection, limits: ParseLimits
) -> None:
    """Wait for the worker's answer; refuse the file past the deadline or the memory limit."""
    deadline = time.monotonic() + limits.seconds
    while not receiver.poll(WATCH_S):
        if _rss(worker.pid) > limits.max_memory:
            raise ResourceLimitError(
                path,
                f"parsing needed more than {limits.max_memory // (1 << 20)} MB of memory "
                "(the limit per file): stopped",
            )
        if time.monotonic() >= deadline:
            raise ResourceLimitError(
                path, f"parsing took longer than {limits.seconds:g} s (the limit per file): stopped"
            )


def parse_with_deadline(path: Path | str, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    """`parse_file` in a worker given `limits.seconds`; past that it is killed and the file refused.

    The worker is also stopped when its resident memory passes `limits.max_memory`. A Markdown or text
    file (`OUR_READERS`) under IN_PLACE_BYTES is parsed in place under a timer in the main thread. Inside
    a daemonic process (which may not have children) any other file is parsed in place, without the
    wall-time limit but with all the others.
    """
    ours = SUFFIXES.get(Path(path).suffix.lower()) in OUR_READERS
    if ours and _small(path) and _timer_free():
        try:
            with _timer(limits.seconds):
                return parse_file(path, limits)
        except _Expired:
            raise ResourceLimitError(
                path, f"parsing took longer than {limits.seconds:g} s (the limit per file): stopped"
            ) from None
    if multiprocessing.current_process().daemon:
        return parse_file(path, limits)
    ctx = _context()
    receiver, sender = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_worker, args=(str(path), limits, sender), name=f"parse {Path(path).name}")
    worker.start()
    sender.close()
    try:
        _watch(path, worker, receiver, limits)
        try:
            kind, payload = receiver.recv()
        except EOFError:
            worker.join(5)
            raise CorruptFileError(
                path, f"the reader crashed on this file (worker exit code {worker.exitcode})"
            ) from None
    finally:
        receiver.close()
        if worker.is_alive():
            worker.kill()
        worker.join()
    if kind == "error":
        raise payload
    return payload


__all__ = ["parse_with_deadline"]
