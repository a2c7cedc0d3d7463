"""Running the reviewer on a benchmark: every agent call through the project's cached LLM client.

All calls of all documents share one pool of `concurrency` threads, so a slow document does not hold the
others back; each answer is cached before it is used (`LLMClient`), so a killed run started again asks the
server only for what it never answered. Usage (requests, cache hits, tokens, failures) is counted per
document and agent family for the report.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from evaluation.answer_json import MISSING, error_items, read_answer
from evaluation.benchmark import BenchmarkItem
from evaluation.predictions import DocumentPrediction, Prediction, predictions_from_value
from evaluation.reviewer.agents import AgentCall, plan_calls, scanner_candidates
from evaluation.reviewer.fusion import DEFAULT_THRESHOLD, Candidate, Fused, fuse
from evaluation.runner import EndpointError
from injectors.llm.client import ChatRequest, LLMClient, LLMError
from parsers.model import Document


@dataclass
class Usage:
    """One agent family's calls on one document."""

    requests: int = 0  # calls made (an answer from the cache included)
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    largest_prompt: int = 0  # prompt tokens of the largest call
    failed: int = 0
    unparsable: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Reviewed:
    """One document's review: the fused prediction, its provenance and what each family cost."""

    prediction: DocumentPrediction
    provenance: tuple[dict[str, Any], ...]
    usage: Mapping[str, Usage]
    dropped: Mapping[str, int] = field(default_factory=dict)
    answers: tuple[dict[str, Any], ...] = ()  # per call: agent, part and raw answer or error

    def row(self) -> dict[str, Any]:
        """The predictions.jsonl row: the prediction, which agents proposed each item, and the usage."""
        out = self.prediction.to_dict()
        out["provenance"] = list(self.provenance)
        out["usage"] = {family: u.to_dict() for family, u in self.usage.items()}
        if self.dropped:
            out["dropped"] = dict(self.dropped)
        out["agent_answers"] = list(self.answers)
        return out


def _confidence(item: Any) -> float:
    value = item.get("confidence", item.get("置信度", 1.0)) if isinstance(item, dict) else 1.0
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return 1.0
    try:
        return min(1.0, max(0.0, float(value)))
    except ValueError:
        return 1.0


def candidates_from_answer(call: AgentCall, content: str) -> tuple[list[Candidate], bool]:
    """(candidates, unparsable) of one agent's answer: the fields as the scorer reads them, plus the
    agent's own confidence."""
    reading = read_answer(content)
    if reading.value is MISSING:
        return [], True
    predictions, unparsable = predictions_from_value(reading.value)
    if unparsable or predictions is None:
        return [], unparsable
    confidences = [_confidence(item) for item in error_items(reading.value) or []]
    confidences += [1.0] * (len(predictions) - len(confidences))
    return [
        Candidate(call.family, call.agent, p.location, p.error_type, p.description, c)
        for p, c in zip(predictions, confidences, strict=False)
    ], False


@dataclass(frozen=True)
class Progress:
    done: int
    total: int


def run_reviewer(
    items: Sequence[BenchmarkItem],
    client: LLMClient | None,
    families: Sequence[str],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    concurrency: int = 8,
    seed: int = 0,
    on_progress: Callable[[Progress], None] | None = None,
) -> list[Reviewed]:
    """Each document reviewed by the chosen families and fused, in `items` order. `client` may be None only
    when no LLM family is chosen (the scanners alone)."""
    documents = []
    for item in items:
        if item.document is None:
            raise ValueError(f"the reviewer needs the sections of {item.doc_id} (load the release with them)")
        documents.append(item.document)
    calls = [call for document in documents for call in plan_calls(document, families)]
    if calls and client is None:
        raise ValueError("the reviewer's LLM agents need a client (--model)")
    usage: dict[str, dict[str, Usage]] = {d.doc_id: defaultdict(Usage) for d in documents}
    candidates: dict[str, list[Candidate]] = {d.doc_id: [] for d in documents}
    answers: dict[str, list[dict[str, Any]]] = {d.doc_id: [] for d in documents}

    def one(call: AgentCall) -> tuple[AgentCall, Any]:
        assert client is not None
        request = ChatRequest(
            messages=({"role": "user", "content": call.prompt},), prompt_id=call.prompt_id, seed=seed
        )
        try:
            return call, client.complete(request)
        except LLMError as exc:
            return call, exc

    done = 0
    answered: list[tuple[AgentCall, Any]] = []
    if calls:  # the first call alone: a dead endpoint or a wrong model stops the run before the others
        first = one(calls[0])
        if isinstance(first[1], LLMError):
            raise EndpointError(first[1])
        answered.append(first)
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = [pool.submit(one, call) for call in calls[1:]]
        # the scanners' CPU work overlaps the agents' waits on the endpoint
        scanned = {d.doc_id: scanner_candidates(d) for d in documents} if "rules" in families else {}
        for call, answer in [*answered, *(future.result() for future in as_completed(futures))]:
            found, record = _account(call, answer, usage[call.doc_id][call.family])
            candidates[call.doc_id].extend(found)
            answers[call.doc_id].append(record)
            done += 1
            if on_progress is not None:
                on_progress(Progress(done, len(calls)))

    out = []
    for document in documents:
        found = [*candidates[document.doc_id], *scanned.get(document.doc_id, ())]
        if "rules" in families:
            usage[document.doc_id]["rules"]  # the scanners' row in the report, with no requests
        out.append(_reviewed(document, fuse(found, document, threshold), usage, answers))
    return out


def _account(call: AgentCall, answer: Any, counted: Usage) -> tuple[list[Candidate], dict[str, Any]]:
    """One call's answer (a response or an LLMError) counted in its family's usage: its candidates and the
    record of what it said."""
    counted.requests += 1
    record: dict[str, Any] = {"agent": call.agent, "part": call.part}
    if isinstance(answer, LLMError):
        counted.failed += 1
        record["error"] = answer.reason
        return [], record
    counted.cache_hits += int(answer.cached)
    counted.prompt_tokens += answer.prompt_tokens
    counted.completion_tokens += answer.completion_tokens
    counted.largest_prompt = max(counted.largest_prompt, answer.prompt_tokens)
    found, unparsable = candidates_from_answer(call, answer.content)
    counted.unparsable += int(unparsable)
    record["raw_output"] = answer.content
    return found, record


def _reviewed(
    document: Document,
    fused: Fused,
    usage: dict[str, dict[str, Usage]],
    answers: dict[str, list[dict[str, Any]]],
) -> Reviewed:
    failed = sum(u.failed for u in usage[document.doc_id].values())
    every_call_failed = bool(failed) and failed == len(answers[document.doc_id])
    prediction = DocumentPrediction(
        document.doc_id,
        tuple(Prediction(f.location, f.dimension, f.error_type, f.description) for f in fused.findings),
        error=f"all {failed} agent calls failed" if every_call_failed else "",
    )
    return Reviewed(
        prediction,
        tuple(f.provenance() for f in fused.findings),
        dict(usage[document.doc_id]),
        fused.dropped,
        tuple(sorted(answers[document.doc_id], key=lambda a: (a["agent"], a["part"]))),
    )
