"""The `gbtbench` command line: thin wrappers that call the plain-Python stages and report."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from parsers import ParseOutcome, expand_paths, parse_many
from parsers.model import Document

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Build benchmarks of injected drafting errors from Chinese standards.",
)
err = Console(stderr=True)


@app.callback()
def _root() -> None:
    """Build benchmarks of injected drafting errors from Chinese standards."""


def _write_atomic(path: Path, text: str) -> None:
    """Readers never see a half-written file: write a temporary sibling, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


def _outline(doc: Document) -> str:
    lines = [f"{doc.standard_id or '(no id)'}  {doc.title}  [{doc.format}, {doc.drafting_rules}]"]
    for s in doc.sections:
        indent = "  " * s.level
        lines.append(f"{indent}{s.heading}  ({s.kind}, {len(s.text)} chars)")
    return "\n".join(lines)


@app.command()
def parse(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders (searched for .pdf .docx .md .txt).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per parsed file on stdout.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write <doc>.json per document and errors.json here.")
    ] = None,
) -> None:
    """Parse standards into numbered sections."""
    files = expand_paths(paths)
    if not files:
        err.print("ERROR: no input files found")
        raise typer.Exit(1)
    outcomes: list[ParseOutcome] = []
    show_progress = not as_json and len(files) > 1 and err.is_terminal
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not show_progress,
    ) as progress:
        task = progress.add_task("parsing", total=len(files))
        for outcome in parse_many(files):
            outcomes.append(outcome)
            progress.advance(task)
            if outcome.error is not None:
                print(f"ERROR {outcome.path}: {outcome.error.reason}", file=sys.stderr)
                continue
            doc = outcome.document
            assert doc is not None
            if as_json:
                row = doc.to_dict(provenance=False)
                del row["cover"]
                print(json.dumps(row, ensure_ascii=False))
            elif out is None:
                print(_outline(doc))
            if out is not None:
                name = f"{outcome.path.stem}.{doc.format}.json"
                _write_atomic(out / name, doc.to_json(indent=1))
    failed = [o for o in outcomes if o.error is not None]
    if out is not None:
        errors = [{"source": str(o.path), "reason": o.error.reason} for o in failed if o.error]
        _write_atomic(out / "errors.json", json.dumps(errors, ensure_ascii=False, indent=1))
    if not as_json:
        err.print(
            f"parsed {len(outcomes) - len(failed)} of {len(outcomes)} files" + (f" into {out}" if out else "")
        )
    raise typer.Exit(1 if failed else 0)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
