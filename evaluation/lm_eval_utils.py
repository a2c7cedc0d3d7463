"""utils.py of the gbtbench lm-evaluation-harness tasks (copied beside the task YAMLs of every release).

Standalone on purpose: it runs wherever lm-eval runs, without gbtbench installed. It loads the task data
from the files beside it (so lm_eval works from any directory) or from a Hub release, picks each one-shot
row's exemplar (always from another document), and scores the review task with the GB/T-Bench reference
protocol: diagnosis recall, DMTR_1/5/10 and CMCS (the project's `gbtbench score` computes the same
figures, and more; a test keeps the two in step).
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

try:  # the sampler base class; absent when this module is imported outside lm-eval
    from lm_eval.api.samplers import ContextSampler
except ImportError:  # pragma: no cover - only without lm-eval
    ContextSampler = object  # type: ignore[assignment,misc]

HERE = Path(__file__).resolve().parent
REFERENCE_CODES = "reference_codes.json"  # written beside this file by the release, from the type registry


def _reference_codes() -> tuple[dict[str, str], dict[str, str]]:
    """(dimension codes, type codes) of the reference implementation (Ttchance/GBT-benchmark-agent) → ours:
    in the source tree the type registry's, in a release the file written beside this copy from it."""
    if Path(__file__).name == "lm_eval_utils.py":
        from injectors.taxonomy import REFERENCE_DIMENSIONS as dimensions
        from injectors.taxonomy import reference_to_ours

        return dict(dimensions), dict(reference_to_ours())
    path = HERE / REFERENCE_CODES
    if not path.is_file():  # pragma: no cover - the release always ships it
        raise ImportError(f"{path} is missing: copy it from the release's instructions/")
    codes = json.loads(path.read_text(encoding="utf-8"))
    return dict(codes["dimensions"]), dict(codes["types"])


REFERENCE_DIMENSIONS, REFERENCE_TYPES = _reference_codes()
LAMBDA, ALPHA, BETA = 1.0, 0.15, 100.0


def load_local(
    data_files: dict[str, str] | None = None,
    dataset: str = "",
    revision: str = "",
    config: str = "",
    **_: Any,
) -> Any:
    """The task's DatasetDict: the JSONL files beside this module, or, with --metadata
    '{"dataset": "ORG/NAME", "revision": "v0.1.0"}', the release's config on the Hub."""
    import datasets

    if dataset:
        return datasets.load_dataset(dataset, config, revision=revision or None)
    files = {split: str(HERE / name) for split, name in (data_files or {}).items()}
    return datasets.load_dataset("json", data_files=files)


class ExemplarSampler(ContextSampler):  # type: ignore[misc,valid-type]
    """The one-shot exemplar a row names (`exemplar_id`, a row of another document), not a random one."""

    def sample(self, n: int, eval_doc: dict | None = None, df: Any = None, **kwargs: Any) -> list[dict]:
        if n == 0 or eval_doc is None:
            return []
        if not getattr(self, "_by_key", None):
            self._by_key = {_key(d["id"]): d for d in self.fewshot_docs()}
        exemplar = self._by_key.get(_key(eval_doc.get("exemplar_id", "")))
        return [exemplar] if exemplar is not None else []


def _key(row_id: str) -> str:
    return re.sub(r"_(zero|one)_shot_", "_", row_id, count=1)


def _load_reader() -> Any:
    """answer_json.py beside this file: the reader `gbtbench score` uses, so that lm-eval's figures and
    gbtbench's read a model's answer the same way (it needs the `json-repair` package)."""
    spec = importlib.util.spec_from_file_location("gbtbench_answer_json", HERE / "answer_json.py")
    if spec is None or spec.loader is None:  # pragma: no cover - the release always ships it
        raise ImportError(f"{HERE / 'answer_json.py'} is missing: copy it from the release's instructions/")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


_READER = _load_reader()


def predictions(text: str) -> list[dict] | None:
    """The predicted errors; None when the model answered null (not scored); [] when unparsable."""
    value = _READER.read_answer(str(text)).value
    if value is None:
        return None
    if value is _READER.MISSING:
        return []
    return _READER.error_items(value) or []


def _location(raw: Any) -> str | None:
    if raw is None:
        return None
    text = re.sub(r"^\[(.+)]$", r"\1", str(raw).strip())
    return re.sub(r"^附\s*录\s*", "", text).strip()


def _keys(item: dict, predicted: bool) -> tuple:
    location = item.get("location", item.get("section_number"))
    dimension, error_type = item.get("dimension"), item.get("error_type")
    if predicted:
        dimension = (
            REFERENCE_DIMENSIONS.get(dimension, dimension) if isinstance(dimension, str) else dimension
        )
        error_type = (
            REFERENCE_TYPES.get(error_type, error_type) if isinstance(error_type, str) else error_type
        )
    return (_location(location), dimension, error_type)


def review_counts(gold: list[dict], predicted: list[dict]) -> tuple[int, int, int]:
    """(gold items, predictions, diagnosis hits): a one-to-one match on section + dimension + type."""
    wanted = Counter(_keys(g, False) for g in gold)
    have = Counter(_keys(p, True) for p in predicted)
    return len(gold), len(predicted), sum(min(n, have[k]) for k, n in wanted.items())


def process_review(doc: dict, results: list[str]) -> dict[str, Any]:
    """Per document: what the aggregations need (None for a null answer: it is left out of everything)."""
    predicted = predictions(results[0] if results else "")
    if predicted is None:
        return dict.fromkeys(("diagnosis_recall", "dmtr_1", "dmtr_5", "dmtr_10", "cmcs"))
    n, p, h = review_counts(json.loads(doc["answer"]), predicted)
    fp = max(0, p - h)
    mcs = h / n * math.exp(-LAMBDA * (n - h) / n) if n else 0.0
    penalty = 1.0 if fp == 0 else 1 - ALPHA * fp / (fp + BETA)
    return {
        "diagnosis_recall": (h, n),
        "dmtr_1": float(h >= 1),
        "dmtr_5": float(h >= 5),
        "dmtr_10": float(h >= 10),
        "cmcs": (mcs * penalty * n, n),
    }


_VERIFIER_MISSING = (
    "gbtbench is not installed here: `verified` is NaN (install gbtbench to verify corrections)"
)


def process_correction(doc: dict, results: list[str]) -> dict[str, Any]:
    """Per correction row: exact match, chrF against the original section (sacrebleu, which lm-eval
    installs) and `verified`, the error type's own checker run on the document with the section replaced
    (gbtbench's evaluation.correction, on the release this file sits in; NaN, said once, without gbtbench)."""
    from sacrebleu.metrics import CHRF

    answer = results[0] if results else ""
    plain = "\n".join(line.strip() for line in answer.strip().splitlines() if line.strip())
    reference = "\n".join(line.strip() for line in doc["answer"].strip().splitlines() if line.strip())
    out = {
        "exact_match": float(plain == reference),
        "chrf": CHRF().sentence_score(plain, [reference]).score / 100.0,
    }
    try:
        from evaluation.correction import verify_row
    except ImportError:
        global _VERIFIER_MISSING
        if _VERIFIER_MISSING:
            print(_VERIFIER_MISSING)
            _VERIFIER_MISSING = ""
        out["verified"] = math.nan
        return out
    out["verified"] = float(verify_row(HERE.parent, str(doc["id"]), answer).verified)
    return out


def pooled(items: list[Any]) -> float:
    """Σ numerators ÷ Σ denominators over scored documents (diagnosis recall, CMCS weighted by gold)."""
    pairs = [i for i in items if i is not None]
    total = sum(d for _, d in pairs)
    return sum(v for v, _ in pairs) / total if total else 0.0


def mean(items: list[Any]) -> float:
    """Mean over scored documents (DMTR_k: the share with at least k diagnosis hits)."""
    values = [i for i in items if i is not None]
    return sum(values) / len(values) if values else 0.0
