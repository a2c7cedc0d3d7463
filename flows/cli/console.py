"""The console every command writes its messages to: stderr, never hard-wrapped (it is often a log); and
the one form of an error line and the exit statuses every command uses."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:  # imported by the commands that show bars: `gbtbench inject` starts without it
    from rich.progress import Progress

err = Console(stderr=True, soft_wrap=True)

# Exit statuses (the README's command-line section): 0 done; FAILED, done but with failures that the ERROR
# lines name (files not parsed, violations, failed expectations, refused decisions, failed model calls);
# UNUSABLE, nothing done: a wrong option or an input or output that cannot be used (the command line's own
# usage errors are 2 as well).
FAILED = 1
UNUSABLE = 2


def error(message: str) -> None:
    """One error line, `ERROR: <file>: <reason>` or `ERROR: <reason>`, as every command writes it."""
    print(f"ERROR: {message}", file=sys.stderr, flush=True)


def progress_bar(*, show: bool) -> Progress:
    """Bars of done/total with the time elapsed, on `err`; nothing at all when `show` is false."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not show,
    )
