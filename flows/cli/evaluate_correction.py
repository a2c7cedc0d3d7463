"""`evaluate --task correction`: the model rewrites each corrupted section, and each answer is verified by
its type's checker (the requests, the rows and the scores are the evaluation package's)."""

from __future__ import annotations

from pathlib import Path

import typer

from flows.cli.console import FAILED, error
from flows.cli.model_calls import model_client, report_usage
from flows.cli.run_results import fail, print_corrections, write_corrections


def evaluate_corrections(
    release_dir: Path,
    model: str,
    base_url: str | None,
    shots: str,
    concurrency: int,
    limit: int | None,
    out: Path,
    llm_cache: Path | None,
) -> None:
    """The first `limit` correction rows asked of the model; its answers kept in predictions.jsonl, then
    scored; FAILED when calls failed for good (a second run asks only for those)."""
    from evaluation.correction import CorrectionInputError, score_corrections
    from evaluation.correction_task import correction_predictions, correction_requests, release_version
    from evaluation.runner import answered_first, run_folder

    try:
        rows, requests = correction_requests(release_dir, shots, limit)
        version = release_version(release_dir)
    except CorrectionInputError as exc:
        raise fail(exc) from None
    cache_path = llm_cache or run_folder(out, model, version) / "llm-cache.sqlite"
    with model_client(model, base_url, concurrency, cache_path) as client:
        answers = answered_first(client, requests)
        counts = client.stats.to_dict()
    report_usage(model, f"{len(rows)} corrections", counts)
    outputs, predictions = correction_predictions(rows, answers)
    folder = run_folder(out, f"{model}-correction", version)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "predictions.jsonl").write_text(predictions, encoding="utf-8")
    if not outputs:
        raise fail(
            ValueError(f"no correction was answered: nothing to score (see {folder / 'predictions.jsonl'})")
        )
    scores = score_corrections(release_dir, outputs)
    scores["run"] = {"model": model, "shots": int(shots), "llm": counts}
    write_corrections(folder, scores, f"{model}: correction on gbtbench {version}")
    print_corrections(scores, False)
    print(f"results in {folder}")
    if len(outputs) < len(rows):
        error(f"{len(rows) - len(outputs)} calls failed for good: run the same command again")
        raise typer.Exit(FAILED)
