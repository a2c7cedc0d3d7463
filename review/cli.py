"""The `review*` commands of the gbtbench CLI: thin wrappers over review/ (registered by flows.cli)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

ReleaseDir = Annotated[Path, typer.Argument(help="A release folder (outputs/<version>, outputs/latest).")]
ReviewDb = Annotated[
    Path | None, typer.Option("--db", help="Review database (default: reviews.sqlite next to the versions).")
]


def register(app: typer.Typer, err: Console) -> None:
    """Add the review commands to the `gbtbench` app."""

    def _review_fail(exc: Exception) -> typer.Exit:
        err.print(f"ERROR {exc}", highlight=False)
        return typer.Exit(1)

    @app.command()
    def review(
        output_dir: ReleaseDir,
        db: ReviewDb = None,
        host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8765,
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

    @app.command("review-export")
    def review_export(
        output_dir: ReleaseDir,
        fmt: Annotated[str, typer.Option("--format", help="Only label-studio.")] = "label-studio",
        out: Annotated[
            Path | None,
            typer.Option("--out", help="Folder for the files (default: the release folder's parent)."),
        ] = None,
    ) -> None:
        """Write the review queue as Label Studio tasks plus its labelling configuration (XML)."""
        from review.labelstudio import write_export
        from review.queue import ReleaseQueue, ReleaseReadError

        if fmt != "label-studio":
            err.print(f"ERROR: unknown format {fmt!r}: only label-studio")
            raise typer.Exit(2)
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
        file: Annotated[Path, typer.Argument(help="Label Studio's JSON export of the project.")],
        db: Annotated[Path, typer.Option("--db", help="Review database to add the decisions to.")] = Path(
            "outputs"
        )
        / "reviews.sqlite",
    ) -> None:
        """Read Label Studio's JSON export of completed annotations into the review database."""
        from review.labelstudio import LabelStudioError, import_export
        from review.store import ReviewStore, ReviewStoreError

        try:
            with ReviewStore(db) as store:
                added = import_export(file, store)
        except (LabelStudioError, ReviewStoreError) as exc:
            raise _review_fail(exc) from None
        err.print(f"{added} decisions imported into {db}", highlight=False)
