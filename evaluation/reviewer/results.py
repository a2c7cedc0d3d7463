"""What a reviewer run leaves: its name, the facts scores.json keeps of it, the agents' usage as tables, and
its predictions (with their provenance) and report written like any other run's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.benchmark import Benchmark
from evaluation.reviewer.agents import LLM_FAMILIES, PROMPT_VERSION
from evaluation.reviewer.run import Reviewed
from evaluation.runner import write_run


def uses_llm(families: Sequence[str]) -> bool:
    """Whether the families include an LLM agent (the scanners alone need no model)."""
    return any(f in LLM_FAMILIES for f in families)


def run_label(model: str | None, families: Sequence[str]) -> str:
    """The run's name, its folder under --out: the model (or "rules") and the families."""
    return f"{model or 'rules'}-reviewer-{'-'.join(families)}"


def run_meta(families: Sequence[str], threshold: float, seed: int) -> dict[str, Any]:
    """scores.json's `run` of a reviewer run, before the model's name and counts are known."""
    return {
        "method": "reviewer",
        "agents": list(families),
        "threshold": threshold,
        "prompt_version": PROMPT_VERSION,
        "seed": seed,
    }


def usage_totals(reviewed: Sequence[Reviewed]) -> dict[str, dict[str, int]]:
    """Per agent family over the run: sums, and the largest single prompt."""
    out: dict[str, dict[str, int]] = {}
    for r in reviewed:
        for family, u in r.usage.items():
            row = out.setdefault(family, {k: 0 for k in u.to_dict()})
            for name, value in u.to_dict().items():
                row[name] = max(row[name], value) if name == "largest_prompt" else row[name] + value
    return out


def usage_table(reviewed: Sequence[Reviewed]) -> str:
    """Markdown: per agent family, requests and tokens per document, the largest prompt and the failures."""
    n = max(1, len(reviewed))
    lines = [
        "| agent family | requests / document | prompt tokens / document | completion tokens / document "
        "| largest prompt (tokens) | cache hits | failed | unparsable |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for family, t in usage_totals(reviewed).items():
        lines.append(
            f"| {family} | {t['requests'] / n:.1f} | {t['prompt_tokens'] / n:,.0f} "
            f"| {t['completion_tokens'] / n:,.0f} | {t['largest_prompt']:,} | {t['cache_hits']} "
            f"| {t['failed']} | {t['unparsable']} |"
        )
    return "\n".join(lines)


def usage_by_document(reviewed: Sequence[Reviewed]) -> str:
    """Markdown: per document, each family's requests and prompt tokens."""
    families = [f for f in ("direct", "dimension", "type", "rules") if any(f in r.usage for r in reviewed)]
    lines = [
        "| document | " + " | ".join(f"{f} requests / prompt tokens" for f in families) + " |",
        "|---|" + "---|" * len(families),
    ]
    for r in reviewed:
        cells = []
        for family in families:
            u = r.usage.get(family)
            cells.append("–" if u is None else f"{u.requests} / {u.prompt_tokens:,}")
        lines.append(f"| {r.prediction.doc_id} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def usage_appendix(reviewed: Sequence[Reviewed]) -> str:
    """The report's section on the agents: their usage over the run, then per document."""
    return "\n\n".join(
        [
            "## Reviewer agents",
            "Requests and tokens per document, by agent family (mean over the documents):",
            usage_table(reviewed),
            "Each document:",
            usage_by_document(reviewed),
        ]
    )


def write_reviewed(
    folder: Path,
    benchmark: Benchmark,
    reviewed: Sequence[Reviewed],
    *,
    title: str,
    seed: int,
    meta: dict[str, Any],
) -> dict[str, Any]:
    """The run's files (`runner.write_run`), its rows carrying each finding's provenance, its report the
    agents' usage, scores.json's `run` the usage totals; returns the scores."""
    return write_run(
        folder,
        benchmark,
        [(r.prediction, None) for r in reviewed],
        title=title,
        rng=np.random.default_rng(seed),
        meta={**meta, "usage": usage_totals(reviewed)},
        rows=[r.row() for r in reviewed],
        appendix=usage_appendix(reviewed),
    )
