"""How `evaluate` shows its calls to a model: the client for the run (a setting that cannot work, or a first
request that fails, is one error line and nothing written), a progress bar on a terminal, and the usage
line when the calls are done. The client and the lines are the evaluation package's
(`evaluation.model_client`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flows.cli.console import err
from flows.cli.run_results import fail

if TYPE_CHECKING:  # the client (asyncio, ssl) loads when a command calls a model, not on every CLI call
    from injectors.llm.client import LLMClient


@contextmanager
def model_client(model: str, base_url: str | None, concurrency: int, cache_path: Path) -> Iterator[LLMClient]:
    """The project's client and cache for an evaluation, with our defaults unless GBTBENCH_LLM_* sets them;
    a run whose first request fails stops with the server's message and scores nothing."""
    from evaluation.model_client import FirstRequestFailed, evaluation_client, evaluation_config
    from injectors.llm.config import LLMConfigError

    try:
        config = evaluation_config(model, base_url, concurrency)
    except LLMConfigError as exc:
        raise fail(exc) from None
    try:
        with evaluation_client(config, cache_path) as client:
            yield client
    except FirstRequestFailed as exc:
        raise fail(exc) from None


@contextmanager
def progress_bar(description: str, total: int) -> Iterator[Callable[..., None]]:
    """A progress bar on a terminal (nothing otherwise); yields update(done, tokens text[, total])."""
    from rich.progress import (  # here, like the evaluation modules: not on every CLI call
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tokens]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, disable=not err.is_terminal) as bar:
        task = bar.add_task(description, total=total, tokens="")
        yield lambda done, tokens, total=None: bar.update(task, completed=done, tokens=tokens, total=total)


def report_usage(model: str, what: str, counts: dict[str, Any]) -> None:
    """The run's calls in one line on stderr: a summary, not an error."""
    from evaluation.model_client import usage_line

    err.print(usage_line(model, what, counts), markup=False)
