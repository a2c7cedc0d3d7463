"""Parse one file in a worker process that is killed at the deadline, so no file can stall a build.

Readers are linear and limited (`parsers.limits`), but a library can still loop or crawl on a crafted
file; a thread cannot be stopped, a process can. Workers are forked from a forkserver that has the readers
imported already (or the worker itself is forked), so the cost is a fork, not an interpreter start.
"""

from __future__ import annotations

import multiprocessing
import threading
from multiprocessing.connection import Connection
from pathlib import Path

from parsers.errors import CorruptFileError, ParseError, ResourceLimitError
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.model import Document

# Formats read by the project's own readers, which are linear in the file's size and refuse a file past
# the size limits: parsed in place. A fork per file was most of a large corpus's parse (60 ms against 15
# for a Markdown standard). A library's reader (PDF, DOCX) still runs in a killable worker, and so does
# anything that is not a regular file (a FIFO blocks its reader forever).
OUR_READERS = frozenset({"markdown", "text"})

_PRELOAD = ["parsers", "parsers.pdf", "parsers.docx", "parsers.markdown", "parsers.text"]


def _worker(path: str, limits: ParseLimits, conn: Connection) -> None:
    from parsers import parse_file

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


def parse_with_deadline(path: Path | str, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    """`parse_file` in a worker given `limits.seconds`; past that it is killed and the file refused.

    Inside a daemonic process (which may not have children) the file is parsed in place, without the
    wall-time limit but with all the others. So is a regular Markdown or text file (`OUR_READERS`).
    """
    from parsers import SUFFIXES, parse_file

    if multiprocessing.current_process().daemon or (
        SUFFIXES.get(Path(path).suffix.lower()) in OUR_READERS and Path(path).is_file()
    ):
        return parse_file(path, limits)
    ctx = _context()
    receiver, sender = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_worker, args=(str(path), limits, sender), name=f"parse {Path(path).name}")
    worker.start()
    sender.close()
    try:
        if not receiver.poll(limits.seconds):
            raise ResourceLimitError(
                path, f"parsing took longer than {limits.seconds:g} s (the limit per file): stopped"
            )
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
