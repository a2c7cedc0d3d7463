"""The correction task's files around the verifier (`evaluation.correction`): the release's rows as model
requests, a model's answers as prediction rows, an answers file read back, and the figures as a person reads
them on the terminal and in report.md."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.correction import CorrectionInputError
from evaluation.runner import SHOTS
from injectors.llm.client import ChatRequest, ChatResponse, LLMError

PROMPT_ID = "gbtbench-correction@1"


def _answer_of(row: Mapping[str, Any], where: str) -> tuple[str, str]:
    """(row id or instance id, the model's text) of one JSONL row: ours or an lm-eval sample."""
    if "doc" in row and ("resps" in row or "filtered_resps" in row):
        doc = row["doc"]
        if not isinstance(doc, dict) or not str(doc.get("id", "")).startswith("correction_"):
            raise ValueError(f"{where}: an lm-eval sample that is not from the correction task")
        responses = row.get("filtered_resps") or row.get("resps") or [""]
        first: Any = responses[0] if isinstance(responses, list) and responses else ""
        while isinstance(first, list):  # lm-eval nests generations one level deeper in `resps`
            first = first[0] if first else ""
        return str(doc["id"]), str(first)
    key = row.get("id") or row.get("instance_id")
    text = next((row[k] for k in ("output", "correction", "raw_output") if k in row), None)
    if not isinstance(key, str) or not key or not isinstance(text, str):
        raise ValueError(f"{where}: expected 'id' (or 'instance_id') and 'output' (a string)")
    return key, text


def read_corrections(path: Path | str) -> dict[str, str]:
    """A corrections file: JSONL of {"id" | "instance_id", "output"}, or lm-eval's correction samples (a
    file, or an --output_path folder holding one samples_gbtbench_correction_* file)."""
    path = Path(path)
    if path.is_dir():
        found = sorted(path.rglob("samples_gbtbench_correction*.jsonl"))
        if len(found) != 1:
            names = ", ".join(p.name for p in found) or "none"
            raise CorrectionInputError(
                f"{path}: expected one samples_gbtbench_correction*.jsonl, found {names}"
            )
        path = found[0]
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CorrectionInputError(f"{path}: cannot read: {exc}") from None
    answers: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict):
                raise ValueError(f"line {number}: expected a JSON object")
            key, text = _answer_of(row, f"line {number}")
        except (ValueError, RecursionError) as exc:
            raise CorrectionInputError(f"{path}: {exc}") from None
        if key in answers:
            raise CorrectionInputError(f"{path}: line {number}: {key} appears twice")
        answers[key] = text
    return answers


def correction_lines(scores: Mapping[str, Any]) -> list[str]:
    """The headline of a correction score, for the terminal and the report."""
    overall = scores["overall"]
    lines = [
        f"corrections {scores['answered']} of {scores['rows']} rows answered"
        + (f", {len(scores['unknown'])} unknown ids ignored" if scores["unknown"] else ""),
        f"verified {overall['verified']:.1%} (fixed {overall['fixed']:.1%}, nothing new fires "
        f"{overall['clean']:.1%})  exact match {overall['exact_match']:.1%}  chrF {overall['chrf']:.3f}",
    ]
    for kind, row in scores["by_type"].items():
        lines.append(
            f"  {kind:8} n={row['n']:<3} verified {row['verified']:.1%}  exact {row['exact_match']:.1%}  "
            f"chrF {row['chrf']:.3f}"
        )
    return lines


def correction_report(scores: Mapping[str, Any], title: str) -> str:
    """report.md of a correction run: the title, then the terminal's lines as a code block."""
    return "\n".join([f"# {title}", "", *(f"    {line}" for line in correction_lines(scores))]) + "\n"


def correction_files(scores: Mapping[str, Any], title: str) -> dict[str, Callable[[Path], object]]:
    """The files of a scored correction run, each as a writer of its path: scores.json and report.md."""
    text = json.dumps(scores, ensure_ascii=False, indent=1) + "\n"
    report = correction_report(scores, title)
    return {
        "scores.json": lambda p: p.write_text(text, encoding="utf-8"),
        "report.md": lambda p: p.write_text(report, encoding="utf-8"),
    }


def correction_requests(
    release_dir: Path, shots: str, limit: int | None = None
) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """The release's correction rows for 0 or 1 shot and one chat request per row (its query, as lm-eval
    shows it)."""
    shot = SHOTS.get(str(shots))
    if shot is None:
        raise CorrectionInputError(f"--shots must be 0 or 1, not {shots!r}")
    path = Path(release_dir) / "instructions" / f"correction_{shot}.jsonl"
    if not path.is_file():
        raise CorrectionInputError(f"{release_dir}: no correction task ({path.name} missing)")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = rows if limit is None else rows[:limit]
    requests = [
        ChatRequest(
            messages=({"role": "user", "content": row["query"]},), prompt_id=f"{PROMPT_ID}:{shot}", seed=0
        )
        for row in rows
    ]
    return rows, requests


def release_version(release_dir: Path) -> str:
    """The version a run on the release is filed under: the manifest's, else the folder's name. A manifest
    that cannot be read stops the run: results filed under a guessed version could mix two releases."""
    path = release_dir / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorrectionInputError(f"{path}: no manifest.json: not a gbtbench release folder") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CorrectionInputError(f"{path}: the release manifest cannot be read ({exc})") from None
    if not isinstance(manifest, dict):
        raise CorrectionInputError(f"{path}: the release manifest is not a JSON object")
    return str(manifest.get("version", "") or release_dir.resolve().name)


def correction_predictions(
    rows: Sequence[Mapping[str, Any]], answers: Sequence[ChatResponse | LLMError]
) -> tuple[dict[str, str], str]:
    """(row id → the model's section, for the rows answered; predictions.jsonl: per row its id, its
    document and the output, or why its call failed for good), the answers in the rows' order."""
    outputs: dict[str, str] = {}
    lines = []
    for row, answer in zip(rows, answers, strict=True):
        record: dict[str, Any] = {"id": row["id"], "doc_id": row["doc_id"]}
        if isinstance(answer, Exception):
            record["error"] = str(getattr(answer, "reason", answer))
        else:
            outputs[row["id"]] = record["output"] = answer.content
        lines.append(json.dumps(record, ensure_ascii=False))
    return outputs, "\n".join(lines) + "\n"
