"""What `score` and `evaluate` print and write of a scored run: the headlines on stdout, the notes on the
input on stderr, the files written together or not at all, and the exit status a run's failed calls give.
The lines and the files themselves are the evaluation package's (`evaluation.report`,
`evaluation.correction_task`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from flows.cli.console import FAILED, UNUSABLE, err, error
from flows.cli.output_errors import one_line, write_together


def fail(exc: Exception, status: int = UNUSABLE) -> typer.Exit:
    """The error line of `exc`, and the exit to raise."""
    error(str(exc))
    return typer.Exit(status)


def print_scores(scores: dict[str, Any], protocol: str) -> None:
    from evaluation.report import score_lines

    for line in score_lines(scores, protocol):
        print(line)


def report_input(scores: dict[str, Any]) -> None:
    from evaluation.report import input_notes

    for line in input_notes(scores):
        err.print(line, markup=False)


def write_scores(folder: Path, scores: dict[str, Any], name: str, version: str) -> None:
    """scores.json, the chart and report.md, written together or not at all."""
    from evaluation.report import report_files

    files = report_files(scores, name, version)
    with one_line(folder):
        write_together(folder, files)


def finish_run(scores: dict[str, Any], folder: Path) -> None:
    """The end of an `evaluate` run: its headlines and input, where it went, and FAILED when calls failed
    for good (a second run asks only for those)."""
    print_scores(scores, "gbtbench")
    report_input(scores)
    print(f"results in {folder}")
    if scores["input"]["failed"]["count"]:
        error("some calls failed for good: run the same command again to retry only those")
        raise typer.Exit(FAILED)


def print_corrections(scores: dict[str, Any], as_json: bool) -> None:
    from evaluation.correction_task import correction_lines

    if as_json:
        print(json.dumps(scores, ensure_ascii=False, indent=1))
    else:
        print("\n".join(correction_lines(scores)))


def write_corrections(folder: Path, scores: dict[str, Any], title: str) -> None:
    """scores.json and report.md of a correction run, written together or not at all."""
    from evaluation.correction_task import correction_files

    files = correction_files(scores, title)
    with one_line(folder):
        write_together(folder, files)
