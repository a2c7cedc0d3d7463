"""`gbtbench evaluate`: run a model (or a baseline) on a release's review task and score it.

The prompts are the release's own review instruction rows (instructions/review_<shot>.jsonl), so a model
sees exactly what lm-eval would show it. Calls go through the project's client: every answer is cached in
SQLite before it is used, so a killed run, started again, asks the server only for what it never answered.
Results land in <out>/<model>/<release version>/: predictions.jsonl, scores.json, report.md and the chart.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.benchmark import Benchmark, ReleaseError
from evaluation.predictions import DocumentPrediction, parse_output
from evaluation.report import CHART_NAME, render_report, write_chart
from evaluation.score import score
from injectors.llm.client import ChatRequest, ChatResponse, LLMClient, LLMError

SHOTS = {"0": "zero_shot", "1": "one_shot"}
PROMPT_ID = "gbtbench-review@1"


@dataclass(frozen=True)
class ReviewPrompt:
    doc_id: str
    query: str


@dataclass(frozen=True)
class Progress:
    """What the caller's progress bar shows after each document."""

    done: int
    total: int
    prompt_tokens: int
    completion_tokens: int
    cached: int


def run_folder(out_root: Path, name: str, version: str) -> Path:
    """<out>/<name>/<version>, the name made safe for a path ("Qwen/Qwen2.5-7B" → "Qwen_Qwen2.5-7B")."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "model"
    return Path(out_root) / safe / version


def review_prompts(release_dir: Path, shots: str, limit: int | None = None) -> list[ReviewPrompt]:
    """The review rows of the release for 0 or 1 shot, in the release's order (by doc_id)."""
    shot = SHOTS.get(str(shots))
    if shot is None:
        raise ReleaseError(release_dir, f"--shots must be 0 or 1, not {shots!r}")
    path = Path(release_dir) / "instructions" / f"review_{shot}.jsonl"
    if not path.is_file():
        raise ReleaseError(release_dir, f"no review task for {shots} shot(s) ({path.name} missing)")
    prompts = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            prompts.append(ReviewPrompt(row["doc_id"], row["query"]))
    return prompts if limit is None else prompts[:limit]


def _request(prompt: ReviewPrompt, shot: str) -> ChatRequest:
    return ChatRequest(
        messages=({"role": "user", "content": prompt.query},), prompt_id=f"{PROMPT_ID}:{shot}", seed=0
    )


class EndpointError(RuntimeError):
    """The endpoint failed the run's first request: nothing was answered, so nothing is scored."""

    def __init__(self, cause: LLMError) -> None:
        super().__init__(str(cause))
        self.reason = cause.reason


def answered_first(client: LLMClient, requests: Sequence[ChatRequest]) -> list[ChatResponse | LLMError]:
    """Every request's answer (or its LLMError), the first sent alone: EndpointError when it fails, before
    one failing request per item is sent."""
    if not requests:
        return []
    try:
        first: ChatResponse | LLMError = client.complete(requests[0])
    except LLMError as exc:
        raise EndpointError(exc) from None
    return [first, *client.complete_many(requests[1:])]


def run_model(
    prompts: Sequence[ReviewPrompt],
    client: LLMClient,
    *,
    shots: str = "0",
    concurrency: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
) -> list[tuple[DocumentPrediction, str | None]]:
    """(prediction, raw answer) per prompt, in prompt order; a call that fails for good is an `error`.

    The first prompt goes alone: a wrong model, a wrong key or an endpoint that is not there fails it, and
    then EndpointError stops the run before one failing request per document is sent."""
    shot = SHOTS[str(shots)]
    results: dict[int, tuple[DocumentPrediction, str | None]] = {}
    tokens = [0, 0, 0]

    def one(index: int) -> tuple[int, ChatResponse | LLMError]:
        try:
            return index, client.complete(_request(prompts[index], shot))
        except LLMError as exc:
            return index, exc

    def record(index: int, answer: ChatResponse | LLMError) -> None:
        doc_id = prompts[index].doc_id
        if isinstance(answer, LLMError):
            results[index] = (DocumentPrediction(doc_id, (), error=answer.reason), None)
        else:
            results[index] = (parse_output(doc_id, answer.content), answer.content)
            tokens[0] += answer.prompt_tokens
            tokens[1] += answer.completion_tokens
            tokens[2] += answer.cached
        if on_progress is not None:
            on_progress(Progress(len(results), len(prompts), tokens[0], tokens[1], tokens[2]))

    if not prompts:
        return []
    first = one(0)[1]
    if isinstance(first, LLMError):
        raise EndpointError(first)
    record(0, first)
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = [pool.submit(one, i) for i in range(1, len(prompts))]
        for future in as_completed(futures):
            record(*future.result())
    return [results[i] for i in range(len(prompts))]


def model_meta(model: str, shots: str, llm: dict[str, Any]) -> dict[str, Any]:
    """scores.json's `run` of a model's review: the model, its shots, the prompt and the client's counts."""
    return {"model": model, "shots": int(shots), "prompt_id": PROMPT_ID, "llm": llm}


def _write_atomic(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(tmp, path)


def write_run(
    folder: Path,
    benchmark: Benchmark,
    results: Sequence[tuple[DocumentPrediction, str | None]],
    *,
    title: str,
    rng: np.random.Generator,
    meta: dict[str, Any],
    rows: Sequence[dict[str, Any]] | None = None,
    appendix: str = "",
) -> dict[str, Any]:
    """predictions.jsonl, scores.json (unrounded, with `meta`), report.md and the chart; returns scores.
    `rows` replace the predictions.jsonl rows made from `results` (a method that records more per
    document, such as the reviewer's provenance); every row names the release it was made on."""
    if rows is None:
        rows = []
        for prediction, raw in results:
            row = prediction.to_dict()
            if raw is not None:
                row["raw_output"] = raw
            rows.append(row)
    identity = {"release": benchmark.version, "release_fingerprint": benchmark.fingerprint}
    lines = [json.dumps({**row, **identity}, ensure_ascii=False) for row in rows]
    _write_atomic(folder / "predictions.jsonl", "\n".join(lines) + ("\n" if lines else ""))
    scores = score(benchmark, [p for p, _ in results], rng)
    scores["run"] = meta
    _write_atomic(folder / "scores.json", json.dumps(scores, ensure_ascii=False, indent=1) + "\n")
    write_chart(scores, folder / CHART_NAME, title)
    report = render_report(scores, title=title)
    _write_atomic(folder / "report.md", f"{report.rstrip()}\n\n{appendix.strip()}\n" if appendix else report)
    return scores
