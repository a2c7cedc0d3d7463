"""`gbtbench serve`: scheduled rebuilds served from this process."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from flows.cli.common_options import DEFAULT_CORPUS, DEFAULT_OUT, Seed
from flows.cli.console import err


def serve(
    cron: Annotated[
        str, typer.Option("--cron", metavar="CRON", help='When to rebuild, e.g. "0 3 * * 1" (Mondays 03:00).')
    ],
    corpus: Annotated[
        Path, typer.Option("--corpus", metavar="DIR", help="Folder of standards.")
    ] = DEFAULT_CORPUS,
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="Root of the versioned outputs.")
    ] = DEFAULT_OUT,
    seed: Seed = 0,
    prefer: Annotated[
        str, typer.Option("--prefer", metavar="FORMAT", help="Format to read from a manifest corpus.")
    ] = "pdf",
    publish_to: Annotated[
        str | None,
        typer.Option(
            "--publish-to", metavar="ORG/NAME", help="Also push each new version to this Hub dataset repo."
        ),
    ] = None,
) -> None:
    """Serve scheduled rebuilds; a run that finds nothing changed creates no new version."""
    from flows.runtime import settings

    corpus, out = corpus.resolve(), out.resolve()  # scheduled runs may start in another directory

    settings.configure(out / ".cache")
    from flows.executors.schedule import serve as serve_schedule

    err.print(f"serving scheduled builds ({cron}) of {corpus} into {out}; Ctrl-C stops")
    serve_schedule(cron, corpus, out, seed, prefer, publish_to)
