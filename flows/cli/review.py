"""The `review*` commands of the gbtbench CLI: thin wrappers over review/ (registered by flows.cli)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from flows.cli.choices import Choices
from flows.cli.console import FAILED, UNUSABLE, error

ReleaseDir = Annotated[
    Path, typer.Argument(metavar="OUTPUT_DIR", help="A release folder (outputs/<version>, outputs/latest).")
]
EXPORT_FORMATS = ("label-studio",)
ReviewDb = Annotated[
    Path | None,
    typer.Option(
        "--db", metavar="FILE", help="Review database (default: reviews.sqlite next to the versions)."
    ),
]


def register(app: typer.Typer, err: Console) -> None:
    """Add the review commands to the `gbtbench` app."""
    _register_server(app, err)
    _register_stats(app)
    _register_label_studio(app, err)


def _review_fail(exc: Exception) -> typer.Exit:
    """Nothing was done: the release, the database or the address cannot be used."""
    error(str(exc))
    return typer.Exit(UNUSABLE)


def _register_server(app: typer.Typer, err: Console) -> None:
    """`review`: the web app."""

    @app.command()
    def review(
        output_dir: ReleaseDir,
        db: ReviewDb = None,
        host: Annotated[
            str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on.")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", metavar="PORT", help="Port to listen on.")] = 8765,
    ) -> None:
        """Serve the review web app over a release's review queue (GBTBENCH_REVIEW_TOKEN off loopback)."""
        from review.app import bound_hosts, create_app
        from review.commands import TOKEN_ENV, ReviewCommandError, check_bind, default_db
        from review.queue import ReleaseReadError
        from review.store import ReviewStoreError

        token = os.environ.get(TOKEN_ENV) or None
        try:
            check_bind(host, token)
            web = create_app(
                output_dir, db or default_db(output_dir), token=token, hosts=bound_hosts(host, port)
            )
        except (ReviewCommandError, ReleaseReadError, ReviewStoreError) as exc:
            raise _review_fail(exc) from None
        import uvicorn

        err.print(f"reviewing {web.state.review.queue.version} at http://{host}:{port}/ (Ctrl-C stops)")
        uvicorn.run(web, host=host, port=port, log_level="warning")


def _register_stats(app: typer.Typer) -> None:
    """`review-stats`: decision counts and agreement."""

    @app.command("review-stats")
    def review_stats(
        output_dir: ReleaseDir,
        db: ReviewDb = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    ) -> None:
        """Decision counts and agreement (Cohen's kappa, Krippendorff's alpha) overall and per dimension."""
        from review.commands import default_db, stats, stats_json, stats_text
        from review.queue import ReleaseReadError
        from review.store import ReviewStoreError

        try:
            report = stats(output_dir, db or default_db(output_dir))
        except (ReleaseReadError, ReviewStoreError) as exc:
            raise _review_fail(exc) from None
        print(stats_json(report) if as_json else stats_text(report))


def _register_label_studio(app: typer.Typer, err: Console) -> None:
    """`review-export` and `review-import`: the queue to Label Studio and its annotations back."""

    @app.command("review-export")
    def review_export(
        output_dir: ReleaseDir,
        fmt: Annotated[
            str,
            typer.Option(
                "--format",
                click_type=Choices("flows.cli.review:EXPORT_FORMATS"),
                help="Only label-studio for now.",
            ),
        ] = "label-studio",
        out: Annotated[
            Path | None,
            typer.Option(
                "--out", metavar="DIR", help="Folder for the files (default: the release folder's parent)."
            ),
        ] = None,
    ) -> None:
        """Write the review queue as Label Studio tasks plus its labelling configuration (XML)."""
        from review.labelstudio import write_export
        from review.queue import ReleaseQueue, ReleaseReadError

        try:
            queue = ReleaseQueue(output_dir)
        except ReleaseReadError as exc:
            raise _review_fail(exc) from None
        written = write_export(queue, out or queue.path.parent)
        err.print(
            f"{written.count} tasks → {written.tasks}; labelling config → {written.config}", highlight=False
        )

    @app.command("review-import")
    def review_import(
        output_dir: ReleaseDir,
        file: Annotated[
            Path, typer.Argument(help="Label Studio's JSON export of the project.", metavar="FILE")
        ],
        db: ReviewDb = None,
    ) -> None:
        """Read Label Studio's JSON export of completed annotations on a release into the review database.

        Each annotation is checked as the review app checks a decision; those that fail are listed and
        not imported (exit 1). A file that is not such an export imports nothing (exit 2).
        """
        from review.commands import default_db
        from review.labelstudio import LabelStudioError, import_annotations, read_annotations
        from review.queue import ReleaseQueue, ReleaseReadError
        from review.store import ReviewStore, ReviewStoreError

        try:
            queue = ReleaseQueue(output_dir)
            annotations = read_annotations(file)  # the whole file, before the database is touched
            target = db or default_db(output_dir)
            with ReviewStore(target) as store:
                done = import_annotations(file, annotations, queue, store)
        except (LabelStudioError, ReleaseReadError, ReviewStoreError) as exc:
            raise _review_fail(exc) from None
        for line in done.refused:
            error(line)
        err.print(
            f"{done.added} decisions imported into {target}"
            + (f" ({done.known} already there)" if done.known else "")
            + (f"; {len(done.refused)} not imported (listed above)" if done.refused else ""),
            markup=False,
            highlight=False,
        )
        if done.refused:
            raise typer.Exit(FAILED)
