"""`gbtbench publish`: a release to the Hugging Face Hub as one commit tagged with its version."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from flows.cli.console import FAILED, err, error


def publish(
    output_dir: Annotated[
        Path,
        typer.Argument(metavar="OUTPUT_DIR", help="A release folder: outputs/<version>/ or outputs/latest."),
    ],
    repo_id: Annotated[
        str, typer.Option("--repo-id", metavar="ORG/NAME", help="Dataset repo on the Hub, ORG/NAME.")
    ],
    private: Annotated[bool, typer.Option("--private", help="Create the repo private.")] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List what would be uploaded and contact nothing.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Move the version's tag if it already exists; publish even if critical validation failed.",
        ),
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", metavar="SECONDS", help="Give up after this many seconds (default 900)."),
    ] = None,
    preview: Annotated[
        Path | None,
        typer.Option(
            "--preview",
            metavar="DIR",
            help="Write the card as it would be uploaded to DIR/README.md; send nothing.",
        ),
    ] = None,
) -> None:
    """Upload a release to the Hugging Face Hub as one commit tagged with its version.

    The token comes from HF_TOKEN or `hf auth login` and is never shown; HF_ENDPOINT selects another Hub.
    """
    from release.hub import DEFAULT_DEADLINE_S, preview_card
    from release.hub import publish as publish_release
    from release.hub_errors import PublishError

    if preview is not None:
        try:
            written = preview_card(output_dir, repo_id, preview)
        except PublishError as exc:
            print(f"ERROR: {exc}", file=sys.stderr)
            raise typer.Exit(1) from None
        print(f"card preview in {written}; nothing was sent", file=sys.stderr)
        return

    try:
        result = publish_release(
            output_dir,
            repo_id,
            private=private,
            dry_run=dry_run,
            force=force,
            deadline_s=DEFAULT_DEADLINE_S if timeout is None else timeout,
            warn=lambda message: err.print(f"WARNING: {message}", markup=False, highlight=False),
        )
    except PublishError as exc:
        error(str(exc))
        raise typer.Exit(FAILED) from None
    target = f"{result.endpoint}/datasets/{repo_id}"
    if dry_run:
        for f in result.files:
            print(f"{f.size:>14,}  {f.path_in_repo}")
        print(
            f"dry run: {len(result.files)} files, {result.total_bytes:,} bytes would go to {target} "
            f"tagged {result.version}; nothing was sent",
            file=sys.stderr,
        )
        return
    moved = f" (tag moved from {result.replaced_tag_commit[:12]})" if result.replaced_tag_commit else ""
    print(
        f"published {result.version}: {len(result.files)} files, {result.total_bytes:,} bytes → {target}, "
        f"commit {result.commit_oid}, tag {result.version}{moved}",
        file=sys.stderr,
    )
    print(f'load_dataset("{repo_id}", revision="{result.version}")')
