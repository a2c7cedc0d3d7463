"""Reading a model's predictions: JSONL of lists, raw model text, or lm-evaluation-harness samples.

Model output is messy: JSON inside code fences, prose after the array, full-width brackets and commas,
trailing commas. `extract_json` recovers the JSON where a careful reader would; what it cannot recover
scores as an empty list and is counted (`DocumentPrediction.unparsable`). A model answering JSON `null`
is different: the reference leaves such a document out of every denominator, and so do we.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


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
        return row


_FIELDS = {
    "location": ("location", "section_number", "section", "位置", "章条编号"),
    "dimension": ("dimension", "维度"),
    "error_type": ("error_type", "type", "错误类型"),
    "description": ("description", "error_description", "reason", "描述"),
}
_LIST_KEYS = ("errors", "predictions", "items", "results", "错误")
_FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.S)
_STRUCTURAL = str.maketrans({"［": "[", "］": "]", "｛": "{", "｝": "}", "：": ":", "，": ","})
_QUOTES = str.maketrans({"“": '"', "”": '"', "＂": '"'})
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_MISSING = object()


def _first_json(text: str) -> Any:
    """The first JSON array (else object) that decodes at some '[' or '{' of `text`; _MISSING if none."""
    decoder = json.JSONDecoder()
    found_object: Any = _MISSING
    for match in re.finditer(r"[\[{]", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, list):
            return value
        if found_object is _MISSING and isinstance(value, dict):
            found_object = value
            if any(isinstance(value.get(k), list) for k in _LIST_KEYS):
                return value
    return found_object


def extract_json(text: str) -> Any:
    """The JSON value in a model's text, or _MISSING: whole text, code fences, first array, repaired forms."""
    stripped = text.strip().removeprefix("\ufeff")
    if not stripped:
        return _MISSING
    candidates = [stripped, *(m.group(1).strip() for m in _FENCE.finditer(stripped))]
    for repair in (
        lambda s: s,
        lambda s: _TRAILING_COMMA.sub(r"\1", s),
        lambda s: _TRAILING_COMMA.sub(r"\1", s.translate(_STRUCTURAL)),
        lambda s: _TRAILING_COMMA.sub(r"\1", s.translate(_STRUCTURAL).translate(_QUOTES)),
    ):
        for candidate in candidates:
            fixed = repair(candidate)
            try:
                return json.loads(fixed)
            except json.JSONDecodeError:
                pass
            value = _first_json(fixed)
            if value is not _MISSING:
                return value
    return _MISSING


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _prediction(item: Mapping[str, Any]) -> Prediction:
    values: dict[str, Any] = {}
    for name, keys in _FIELDS.items():
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
    """(predictions, unparsable) of a decoded JSON answer: null → None; a list → its objects; an object
    holding a list under errors/predictions/… → that list; any other value → no predictions, unparsable."""
    if value is None:
        return None, False
    if isinstance(value, dict):
        inner = next((value[k] for k in _LIST_KEYS if isinstance(value.get(k), list)), None)
        if inner is not None:
            value = inner
        elif any(k in value for k in _FIELDS["error_type"] + _FIELDS["location"]):
            value = [value]
        else:
            return (), True
    if not isinstance(value, list):
        return (), True
    return tuple(_prediction(item) for item in value if isinstance(item, dict)), False


def parse_output(doc_id: str, raw: str | None) -> DocumentPrediction:
    """A document's prediction from raw model text (None, like the text `null`, means JSON null)."""
    if raw is None:
        return DocumentPrediction(doc_id, None)
    value = extract_json(raw)
    if value is _MISSING:
        return DocumentPrediction(doc_id, (), unparsable=True)
    predictions, unparsable = predictions_from_value(value)
    return DocumentPrediction(doc_id, predictions, unparsable=unparsable)


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
    return parse_output(str(doc["doc_id"]), str(first))


def prediction_from_row(row: Any, where: str) -> DocumentPrediction:
    """One JSONL row in any of the accepted shapes; ValueError with the reason otherwise."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(row).__name__}")
    if "doc" in row and ("resps" in row or "filtered_resps" in row):
        return _lm_eval_sample(row, where)
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


def _files(path: Path) -> list[Path]:
    if path.is_dir():  # an lm-eval --output_path folder: its review samples
        found = sorted(path.rglob("samples_gbtbench_review*.jsonl"))
        if len(found) != 1:
            names = ", ".join(p.name for p in found) or "none"
            raise PredictionsError(
                path, f"expected one samples_gbtbench_review*.jsonl in this folder, found {names}"
            )
        return found
    if not path.is_file():
        raise PredictionsError(path, "no such file")
    return [path]


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
            try:
                prediction = prediction_from_row(row, f"line {number}")
            except ValueError as exc:
                raise PredictionsError(file, str(exc)) from None
            if prediction.doc_id in out:
                raise PredictionsError(file, f"line {number}: doc_id {prediction.doc_id} appears twice")
            out[prediction.doc_id] = prediction
    return list(out.values())
