"""Reading a model's predictions: JSONL of lists, raw model text, or lm-evaluation-harness samples.

Model output is messy (evaluation.answer_json reads it). What cannot be read scores as an empty list and
is counted (`DocumentPrediction.unparsable`); an answer read in part (fewer errors recovered than the text
shows) is counted too (`partial`). A model answering JSON `null` is different: the reference leaves such a
document out of every denominator, and so do we.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evaluation.answer_json import FIELDS, MISSING, error_items, read_answer


class PredictionsError(ValueError):
    """A predictions file that cannot be read; the message names the file and the reason."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@dataclass(frozen=True)
class Prediction:
    """One error a model reports; fields as the model wrote them (codes are mapped when scoring)."""

    location: str | None
    dimension: str | None
    error_type: str | None
    description: str = ""


@dataclass(frozen=True)
class DocumentPrediction:
    """A model's answer for one document. `predictions` is None when the model answered JSON null."""

    doc_id: str
    predictions: tuple[Prediction, ...] | None
    unparsable: bool = False  # the output held no usable JSON: scored as an empty list
    error: str = ""  # the call failed for good (evaluate): scored as an empty list, reported
    seen: int = 0  # error items the raw text shows (0 when the predictions came decoded)
    note: str = ""  # why the raw text was not read, or not all of it
    release: str = ""  # the release version the prediction was made on, when the file says
    release_fingerprint: str = ""  # that release's data fingerprint, when the file says

    @property
    def partial(self) -> bool:
        """Fewer errors recovered than the raw text shows."""
        return self.predictions is not None and self.seen > len(self.predictions)

    def to_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "doc_id": self.doc_id,
            "predictions": None
            if self.predictions is None
            else [
                {
                    "location": p.location,
                    "dimension": p.dimension,
                    "error_type": p.error_type,
                    "description": p.description,
                }
                for p in self.predictions
            ],
        }
        if self.unparsable:
            row["unparsable"] = True
        if self.error:
            row["error"] = self.error
        if self.partial:
            row["items_seen"] = self.seen
        if self.note:
            row["note"] = self.note
        if self.release:
            row["release"] = self.release
        if self.release_fingerprint:
            row["release_fingerprint"] = self.release_fingerprint
        return row


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _prediction(item: Mapping[str, Any]) -> Prediction:
    values: dict[str, Any] = {}
    for name, keys in FIELDS.items():
        values[name] = next((item[k] for k in keys if k in item), None)
    location = values["location"]
    return Prediction(
        location=str(location)
        if isinstance(location, int | float) and not isinstance(location, bool)
        else _text(location),
        dimension=_text(values["dimension"]),
        error_type=_text(values["error_type"]),
        description=_text(values["description"]) or "",
    )


def predictions_from_value(value: Any) -> tuple[tuple[Prediction, ...] | None, bool]:
    """(predictions, unparsable) of a decoded JSON answer: null → None; a list of objects, an object
    holding one under errors/predictions/…, or one error object → those; anything else → unparsable."""
    if value is None:
        return None, False
    items = error_items(value)
    if items is None:
        return (), True
    return tuple(_prediction(item) for item in items), False


def parse_output(doc_id: str, raw: str | None) -> DocumentPrediction:
    """A document's prediction from raw model text (None, like the text `null`, means JSON null)."""
    if raw is None:
        return DocumentPrediction(doc_id, None)
    reading = read_answer(raw)
    if reading.value is MISSING:
        return DocumentPrediction(doc_id, (), unparsable=True, seen=reading.seen, note=reading.note)
    predictions, unparsable = predictions_from_value(reading.value)
    note = reading.note
    if predictions is not None and reading.seen > len(predictions) and not note:
        note = f"{len(predictions)} of {reading.seen} errors read"
    return DocumentPrediction(doc_id, predictions, unparsable=unparsable, seen=reading.seen, note=note)


def _lm_eval_sample(row: Mapping[str, Any], where: str) -> DocumentPrediction:
    doc = row["doc"]
    if not isinstance(doc, dict) or "doc_id" not in doc:
        raise ValueError(f"{where}: an lm-eval sample without doc.doc_id (not a gbtbench task)")
    if not str(doc.get("id", "review_")).startswith("review_"):
        raise ValueError(f"{where}: sample {doc.get('id')!r} is not from the review task")
    responses = row.get("filtered_resps")
    for name in ("filtered_resps", "resps"):
        if row.get(name) is not None and not isinstance(row[name], list):
            raise ValueError(f"{where}: {name} is {type(row[name]).__name__}, expected a list of answers")
    if not responses:
        responses = [r[0] if isinstance(r, list) and r else r for r in row.get("resps") or []]
    first = responses[0] if responses else ""
    while isinstance(first, list):  # some lm-eval versions nest one level deeper
        first = first[0] if first else ""
    return _with_release(parse_output(str(doc["doc_id"]), str(first)), doc)


def _with_release(prediction: DocumentPrediction, source: Mapping[str, Any]) -> DocumentPrediction:
    """The release the row (or the lm-eval sample's task row) names."""
    release, fingerprint = source.get("release") or "", source.get("release_fingerprint") or ""
    if not release and not fingerprint:
        return prediction
    return replace(prediction, release=str(release), release_fingerprint=str(fingerprint))


def prediction_from_row(row: Any, where: str) -> DocumentPrediction:
    """One JSONL row in any of the accepted shapes; ValueError with the reason otherwise."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(row).__name__}")
    if "doc" in row and ("resps" in row or "filtered_resps" in row):
        return _lm_eval_sample(row, where)
    return _with_release(_prediction_row(row, where), row)


def _prediction_row(row: dict[str, Any], where: str) -> DocumentPrediction:
    doc_id = row.get("doc_id")
    if not isinstance(doc_id, str) or not doc_id:
        raise ValueError(f"{where}: no doc_id")
    if "predictions" in row:
        value = row["predictions"]
        if isinstance(value, str):
            return parse_output(doc_id, value)
        predictions, unparsable = predictions_from_value(value)
        return DocumentPrediction(doc_id, predictions, unparsable, str(row.get("error") or ""))
    if "raw_output" in row:
        raw = row["raw_output"]
        return parse_output(doc_id, None if raw is None else str(raw))
    raise ValueError(f"{where}: expected 'predictions', 'raw_output' or an lm-eval sample ('doc', 'resps')")


def _task(samples: Path) -> str:
    """The lm-eval task of a samples file: samples_<task>_<timestamp>.jsonl."""
    return samples.stem.removeprefix("samples_").rsplit("_", 1)[0]


def sample_files(folder: Path) -> list[tuple[str, Path]]:
    """(task, file) of each review task's samples in an lm-eval --output_path folder: one run per task
    (the group `gbtbench_review` writes one file per shot)."""
    found = sorted(folder.rglob("samples_gbtbench_review*.jsonl"))
    if not found:
        raise PredictionsError(
            folder, "no samples_gbtbench_review*.jsonl here (run lm_eval with --log_samples on a review task)"
        )
    by_task: dict[str, list[Path]] = {}
    for file in found:
        by_task.setdefault(_task(file), []).append(file)
    for task, files in by_task.items():
        if len(files) > 1:
            names = ", ".join(str(f.relative_to(folder)) for f in files)
            raise PredictionsError(folder, f"{len(files)} runs of {task} ({names}): give one samples file")
    return [(task, files[0]) for task, files in sorted(by_task.items())]


def _files(path: Path) -> list[Path]:
    if path.is_dir():  # an lm-eval --output_path folder: its review samples
        found = sample_files(path)
        if len(found) != 1:
            names = ", ".join(task for task, _ in found)
            raise PredictionsError(path, f"expected the samples of one review task here, found {names}")
        return [found[0][1]]
    if not path.is_file():
        raise PredictionsError(path, "no such file")
    return [path]


def prediction_sets(path: Path | str) -> list[tuple[str, list[DocumentPrediction]]]:
    """(name, predictions) per set to score: a file is one set; an lm-eval output folder gives one per
    review task (its zero- and one-shot samples after a `gbtbench_review` group run)."""
    path = Path(path)
    if path.is_dir():
        return [(task, read_predictions(file)) for task, file in sample_files(path)]
    return [(path.name, read_predictions(path))]


def read_predictions(path: Path | str) -> list[DocumentPrediction]:
    """Every document's prediction in a JSONL file (or an lm-eval samples folder); one doc_id once."""
    path = Path(path)
    out: dict[str, DocumentPrediction] = {}
    for file in _files(path):
        try:
            lines: Iterable[str] = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise PredictionsError(file, f"cannot read: {exc}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise PredictionsError(file, f"line {number} is not JSON ({exc.msg})") from None
            except RecursionError:
                raise PredictionsError(
                    file, f"line {number} is nested too deeply to be a prediction"
                ) from None
            try:
                prediction = prediction_from_row(row, f"line {number}")
            except ValueError as exc:
                raise PredictionsError(file, str(exc)) from None
            if prediction.doc_id in out:
                raise PredictionsError(file, f"line {number}: doc_id {prediction.doc_id} appears twice")
            out[prediction.doc_id] = prediction
    return list(out.values())
