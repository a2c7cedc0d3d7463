"""The `score` command: predictions (or corrections) read from a file and scored on a release."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from flows.cli.choices import Choices
from flows.cli.output_errors import reports_os_errors
from flows.cli.run_results import (
    fail,
    print_corrections,
    print_scores,
    report_input,
    write_corrections,
    write_scores,
)


@reports_os_errors("out")
def score_command(
    release_dir: Annotated[
        Path, typer.Argument(metavar="OUTPUT_DIR", help="A release folder (outputs/<version>).")
    ],
    predictions: Annotated[
        Path,
        typer.Argument(
            metavar="PREDICTIONS",
            help="JSONL of predictions or raw outputs, or lm-eval --log_samples output.",
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print every figure (unrounded) as JSON.")] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="DIR", help="Also write scores.json, report.md and the chart here."),
    ] = None,
    protocol: Annotated[
        str,
        typer.Option(
            "--protocol",
            click_type=Choices("evaluation.score:PROTOCOLS"),
            help="Headline protocol: gbtbench or reference (both are reported).",
        ),
    ] = "gbtbench",
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the bootstrap intervals.", min=0)
    ] = 0,
    task: Annotated[
        str,
        typer.Option(
            "--task",
            click_type=Choices("evaluation:TASKS"),
            help="review: error lists; correction: corrected sections, verified by each type's checker.",
        ),
    ] = "review",
    other_release: Annotated[
        bool,
        typer.Option(
            "--other-release", help="Score predictions made on another release of the same benchmark."
        ),
    ] = False,
) -> None:
    """Score predictions on a release under the reference protocol and ours."""
    import numpy as np

    from evaluation.benchmark import ReleaseError, load_benchmark
    from evaluation.predictions import PredictionsError, prediction_sets
    from evaluation.score import ReleaseMismatchError, check_release, score

    if task == "correction":
        _score_corrections(release_dir, predictions, as_json, out)
        return
    try:
        benchmark = load_benchmark(release_dir)
        sets = prediction_sets(predictions)
        for name, found in sets:
            where = str(predictions) if len(sets) == 1 else f"{predictions} ({name})"
            check_release(benchmark, found, where, other_release=other_release)
    except (ReleaseError, PredictionsError, ReleaseMismatchError) as exc:
        raise fail(exc) from None
    scored = {name: score(benchmark, found, np.random.default_rng(seed)) for name, found in sets}
    if as_json:  # one set: its figures; an lm-eval group run: the figures of each task by name
        only = next(iter(scored.values())) if len(scored) == 1 else scored
        print(json.dumps(only, ensure_ascii=False, indent=1))
    for name, scores in scored.items():
        if not as_json:
            if len(scored) > 1:
                print(f"== {name} ==")
            print_scores(scores, protocol)
        report_input(scores)
        if out is not None:
            write_scores(out if len(scored) == 1 else out / name, scores, name, benchmark.version)


def _score_corrections(release_dir: Path, answers_file: Path, as_json: bool, out: Path | None) -> None:
    """`score --task correction`: verified correction, chrF and exact match of a corrections file."""
    from evaluation.correction import CorrectionInputError, score_corrections
    from evaluation.correction_task import read_corrections

    try:
        scores = score_corrections(release_dir, read_corrections(answers_file))
    except CorrectionInputError as exc:
        raise fail(exc) from None
    print_corrections(scores, as_json)
    if not scores["answered"]:
        raise fail(ValueError(f"{answers_file}: no answer matches a correction row of {release_dir}"))
    if out is not None:
        write_corrections(out, scores, "Correction")
