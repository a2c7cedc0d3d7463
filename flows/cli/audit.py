"""`gbtbench audit OUTPUT_DIR`: the shortcut audit of a release, printed and written into the release."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from flows.cli.console import FAILED, UNUSABLE, error


def audit(
    output_dir: Annotated[
        Path,
        typer.Argument(metavar="OUTPUT_DIR", help="A release folder: outputs/<version>/ or outputs/latest."),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the audit as JSON instead of a table.")
    ] = False,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the surface classifier's sampling.")
    ] = 0,
) -> None:
    """Audit a release for shortcuts: stock wording, a surface classifier, position bias, broken
    cross-references and instances that no longer hold; writes validation/audit.json into the release.

    Exits 0 when every goal is met, 1 when one is not, 2 when the folder is not a readable release.
    """
    from validation.audit import AuditInputError, audit_release, render_text, write_audit

    try:
        result = audit_release(output_dir, seed)
    except AuditInputError as exc:
        error(f"{exc.path}: {exc.reason}")
        raise typer.Exit(UNUSABLE) from None
    from flows.cli.output_errors import one_line

    with one_line(output_dir, code=UNUSABLE):
        path = write_audit(result, output_dir)
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_text(result), end="", flush=True)
        print(f"written to {path}", file=sys.stderr)
    raise typer.Exit(0 if all(result.goals().values()) else FAILED)
