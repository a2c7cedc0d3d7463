"""The console every command writes its messages to: stderr, never hard-wrapped (it is often a log)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

err = Console(stderr=True, soft_wrap=True)


def progress_bar(*, show: bool) -> Progress:
    """Bars of done/total with the time elapsed, on `err`; nothing at all when `show` is false."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not show,
    )
