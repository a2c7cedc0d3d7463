"""The multi-agent reviewer's cost and throughput on a release, against a local scripted chat server.

    python -m bench.reviewer [RELEASE] [--latency 0.2] [--concurrency 8]

RELEASE defaults to outputs/latest (`make build` writes it). The production path runs: `run_reviewer`
with every agent family, through the project's client and a fresh cache, against a chat-completions
server in its own process that answers every call after `latency` seconds with an empty review. It prints
per agent family the requests and prompt tokens per document and the largest prompt (goal ≤ 12,000 tokens),
then the wall time against the ideal (calls ÷ concurrency × latency; goal ≥ 80% of ideal throughput).
Tokens are estimated without a tokenizer (one per Han character, one per four other characters).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from multiprocessing.connection import Connection
from pathlib import Path

from bench.llm import server_process
from evaluation.benchmark import ReleaseError, load_benchmark
from evaluation.reviewer.agents import plan_calls
from evaluation.reviewer.fusion import FAMILIES
from evaluation.reviewer.run import run_reviewer
from injectors.llm.cache import LLMCache
from injectors.llm.client import LLMClient
from injectors.llm.config import LLMConfig
from tests.servers.chat_completions import estimate_tokens
from tests.servers.review import ReviewServer

ROOT = Path(__file__).resolve().parents[1]
TOKEN_GOAL = 12_000
THROUGHPUT_GOAL = 0.8


def _serve(latency: float, connection: Connection) -> None:
    """An empty review after `latency` seconds for every call (the server of `bench.llm.server_process`)."""
    with ReviewServer(lambda prompt: "[]", latency=latency) as server:
        connection.send(server.base_url)
        connection.recv()  # until the benchmark says stop


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("release", nargs="?", type=Path, default=ROOT / "outputs" / "latest")
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    try:
        benchmark = load_benchmark(args.release, with_documents=True)
    except ReleaseError as exc:
        sys.exit(f"ERROR: {exc} (run `make build` first, or name a release folder)")
    documents = [item.document for item in benchmark.items if item.document is not None]
    calls = [call for document in documents for call in plan_calls(document, FAMILIES)]
    n = len(documents)
    print(f"## Reviewer on {args.release} ({benchmark.version}): {n} documents, {len(calls)} LLM calls")
    tokens: dict[str, list[int]] = defaultdict(list)
    for call in calls:
        tokens[call.family].append(estimate_tokens(call.prompt))
    print(f"{'family':10} {'requests/doc':>12} {'prompt tokens/doc':>18} {'median/call':>12} {'largest':>8}")
    for family in FAMILIES:
        values = tokens.get(family, [])
        if not values:
            print(f"{family:10} {0:12.1f} {0:18,.0f} {'–':>12} {'–':>8}  (no LLM: the linter)")
            continue
        print(
            f"{family:10} {len(values) / n:12.1f} {sum(values) / n:18,.0f} "
            f"{statistics.median(values):12,.0f} {max(values):8,}"
        )
    largest = max(t for values in tokens.values() for t in values)
    verdict = "ok" if largest <= TOKEN_GOAL else "MISSED"
    print(f"largest prompt {largest:,} tokens (goal ≤ {TOKEN_GOAL:,}): {verdict}")

    with server_process(args.latency, _serve) as (base_url, _), tempfile.TemporaryDirectory() as folder:
        config = LLMConfig(
            model="bench", base_url=base_url, api_key="bench", timeout=30, max_concurrency=args.concurrency
        )
        with LLMCache(Path(folder) / "cache.sqlite") as cache, LLMClient(config, cache) as client:
            started = time.perf_counter()
            reviewed = run_reviewer(benchmark.items, client, FAMILIES, concurrency=args.concurrency)
            elapsed = time.perf_counter() - started
    failed = sum(u.failed for r in reviewed for u in r.usage.values())
    ideal = math.ceil(len(calls) / args.concurrency) * args.latency
    ratio = ideal / elapsed
    print(
        f"\n## Wall time at concurrency {args.concurrency}, {args.latency * 1000:.0f} ms latency: "
        f"{len(calls)} calls ({failed} failed) in {elapsed:.2f} s; ideal {ideal:.2f} s; "
        f"{ratio:.0%} of ideal throughput (goal ≥ {THROUGHPUT_GOAL:.0%}): "
        f"{'ok' if ratio >= THROUGHPUT_GOAL else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
