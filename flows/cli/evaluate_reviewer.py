"""`evaluate --method reviewer`: the multi-agent reviewer on every document, fused, then scored (the
reviewer and its files are `evaluation.reviewer`'s)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flows.cli.model_calls import model_client, progress_bar, report_usage
from flows.cli.run_results import fail, finish_run

if TYPE_CHECKING:  # the client (asyncio, ssl) loads when a command calls a model, not on every CLI call
    from injectors.llm.client import LLMClient


def evaluate_reviewer(
    release_dir: Path,
    model: str | None,
    base_url: str | None,
    agents: str,
    threshold: float,
    concurrency: int,
    limit: int | None,
    out: Path,
    llm_cache: Path | None,
    seed: int,
) -> None:
    """The reviewer's families on the first `limit` documents; a model only when an LLM family is chosen."""
    from evaluation.benchmark import ReleaseError, load_benchmark
    from evaluation.reviewer.agents import AgentsError, parse_families
    from evaluation.reviewer.results import run_label, run_meta, uses_llm, write_reviewed
    from evaluation.reviewer.run import run_reviewer
    from evaluation.runner import run_folder

    try:
        families = parse_families(agents)
        benchmark = load_benchmark(release_dir, with_documents=True)
    except (AgentsError, ReleaseError) as exc:
        raise fail(exc) from None
    benchmark = benchmark.first(limit)
    with_llm = uses_llm(families)
    if with_llm and model is None:
        raise fail(ValueError(f"--agents {','.join(families)} includes LLM agents: give --model NAME"))
    label = run_label(model, families)
    meta = run_meta(families, threshold, seed)

    def review(client: LLMClient | None, update: Callable[..., None]) -> list[Any]:
        return run_reviewer(
            benchmark.items,
            client,
            families,
            threshold=threshold,
            concurrency=concurrency,
            seed=seed,
            on_progress=lambda p: update(p.done, "agent calls", p.total),
        )

    if with_llm:
        assert model is not None
        cache_path = llm_cache or run_folder(out, model, benchmark.version) / "llm-cache.sqlite"
        with (
            model_client(model, base_url, concurrency, cache_path) as client,
            progress_bar(f"reviewer agents with {model}", 0) as update,
        ):
            reviewed = review(client, update)
            counts = client.stats.to_dict()
        report_usage(model, f"{len(benchmark.items)} documents, reviewer agents {','.join(families)}", counts)
        meta.update(model=model, llm=counts)
        print(f"cache {cache_path}", file=sys.stderr)
    else:
        reviewed = review(None, lambda *_: None)
    folder = run_folder(out, label, benchmark.version)
    scores = write_reviewed(
        folder, benchmark, reviewed, title=f"{label} on gbtbench {benchmark.version}", seed=seed, meta=meta
    )
    finish_run(scores, folder)
