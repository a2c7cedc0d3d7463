"""The `gbtbench` command line: thin wrappers that call the plain-Python stages and report, one module per
command or group of commands; this module sets the process up, lists the commands in their order and runs
them."""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
from typing import Annotated

import typer

from flows.cli.audit import audit
from flows.cli.build import build
from flows.cli.console import err
from flows.cli.documents import inject, lint, parse
from flows.cli.publish import publish
from flows.cli.serve import serve
from flows.runtime.arrow_memory import prefer_jemalloc
from flows.runtime.malloc import fix_mmap_threshold

prefer_jemalloc()  # before any command imports pyarrow
fix_mmap_threshold()  # before any command starts a process

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: flags read `--json`, not typer's rich `--json <bool>`
    help="Build benchmarks of injected drafting errors from Chinese standards.",
)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"gbtbench {version('gbtbench')}")
        except PackageNotFoundError:
            print("gbtbench (not installed)")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Build benchmarks of injected drafting errors from Chinese standards."""


for command in (parse, inject, lint, build, publish, serve):  # the order of `gbtbench --help`
    app.command()(command)

from flows.cli.evaluate import evaluate_command  # noqa: E402
from flows.cli.score import score_command  # noqa: E402

app.command("score")(score_command)
app.command("evaluate")(evaluate_command)

# review: `review`, `review-stats`, `review-export`, `review-import` (thin wrappers in review.py)
from flows.cli.review import register as _register_review  # noqa: E402

_register_review(app, err)

app.command()(audit)


# Commands whose process holds nothing but their own work: they end without freeing the heap one object
# at a time (jieba's dictionary alone is half a million; a tenth of `gbtbench inject`). A command that starts
# servers or threads (build, publish, review…) ends the usual way, which waits for them.
QUICK_EXIT = frozenset({"parse", "inject", "lint"})


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in QUICK_EXIT:
        app()
        return
    try:
        app()
        code: object = 0
    except SystemExit as stop:
        code = stop.code
    if code is not None and not isinstance(code, int):  # SystemExit("message"): printed, status 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()  # what the usual ending runs first (logging's flush, an LLM cache's close…)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):  # a reader that stopped early (`| head`)
            stream.flush()
    os._exit(code or 0)


if __name__ == "__main__":
    main()
