"""The console every command writes its messages to: stderr, never hard-wrapped (it is often a log)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:  # imported by the commands that show bars: `gbtbench inject` starts without it
    from rich.progress import Progress

err = Console(stderr=True, soft_wrap=True)


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
