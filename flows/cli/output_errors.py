"""A command's outputs written whole or not at all, and an operating-system error while writing them
(a full disk, a read-only folder) told in one line that names the file, instead of a traceback."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

import typer

from flows.cli.console import UNUSABLE, error

F = TypeVar("F", bound=Callable[..., Any])


def describe(exc: OSError, where: Path) -> str:
    """`<file>: <reason>`, naming `where` when the error names no file (a write through an open handle)."""
    target = exc.filename if exc.filename is not None else where
    return f"{os.fsdecode(target) if isinstance(target, bytes) else target}: {exc.strerror or exc}"


@contextlib.contextmanager
def one_line(where: Path, code: int = UNUSABLE) -> Iterator[None]:
    """Turn an OSError raised inside into `ERROR: <file>: <reason>` and exit `code` (the outputs could
    not be written: nothing usable was done)."""
    try:
        yield
    except OSError as exc:
        error(describe(exc, where))
        raise typer.Exit(code) from None


def reports_os_errors(folder_option: str, code: int = UNUSABLE) -> Callable[[F], F]:
    """A command decorator: `one_line` around the whole command, naming its `folder_option` argument
    when the error names no file."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            with one_line(Path(kwargs.get(folder_option) or "."), code):
                return command(*args, **kwargs)

        return cast(F, run)

    return decorate


def write_together(folder: Path, writers: Mapping[str, Callable[[Path], object]]) -> None:
    """Each `writers[name](path)` writes one file; all are written into a hidden sibling folder first and
    moved into `folder` only when every one was written, so a failure leaves no file half-written."""
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder, prefix=".writing-"))
    try:
        for name, write in writers.items():
            write(staging / name)
        for name in writers:
            os.replace(staging / name, folder / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
