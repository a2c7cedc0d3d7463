"""LLM path throughput and prompt size, against the project's scripted chat-completions server.

    python bench/llm.py [--latency 0.2] [--levels 1,4,16,32]

1. Throughput: the production client (semaphore, retries, sync facade on its private loop) sends real
   prompts to the server (run in its own process, as a real endpoint would be, so that its threads do not
   compete with the client for the GIL), which answers each after `latency` seconds. For each concurrency
   level it prints requests per second and the ratio to the ideal concurrency / latency (goal ≥ 0.8).
2. Prompt size: every corpus document is injected with `--llm openai` semantics (all eleven LLM types,
   correct answers from the server); for each LLM-written instance of the final documents it sums the
   prompt tokens of all the calls that produced it (retries included) and prints the median and the 90th
   percentile (goal: median ≤ 1,500). Tokens are the server's tokenizer-free estimate (one per Han
   character, one per four other characters), which overstates what BPE tokenizers charge for Chinese.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

from corpus.stdsource import gold_documents
from injectors.base import Site
from injectors.context import InjectionContext
from injectors.llm.client import ChatRequest, LLMClient
from injectors.llm.config import LLMConfig
from injectors.llm.prompts import ANSWER_SCHEMA, PromptInput, build_prompt
from injectors.llm.rewriter import LLMRewriter
from injectors.planner import inject_document
from injectors.registry import llm_specs
from injectors.taxonomy import by_id
from parsers.model import Document
from tests.servers.chat_completions import Behaviour, ChatCompletionsServer

ROOT = Path(__file__).resolve().parents[1]


def sample_messages(document: Document, context: InjectionContext) -> tuple[dict[str, str], ...]:
    """A real NMS-01 prompt (template-less) for the throughput run."""
    position = next(i for i, s in enumerate(document.sections) if s.kind == "clause" and "应" in s.text)
    data = PromptInput(document, Site(position), None, context)
    prompt = build_prompt(llm_specs()["NMS-01"].prompt, data, by_id()["NMS-01"].name_zh)
    assert prompt is not None
    return prompt.messages


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _serve(latency: float, connection: Connection) -> None:
    """The scripted server in its own process, so that its threads do not share the client's GIL."""
    with ChatCompletionsServer(default=Behaviour("rewrite", latency=latency)) as server:
        connection.send(server.base_url)
        connection.recv()  # until the benchmark says stop
        connection.send(server.count())


@contextmanager
def server_process(
    latency: float, serve: Callable[[float, Connection], None] = _serve
) -> Iterator[tuple[str, Connection]]:
    """A test server in its own process (`serve(latency, connection)` sends its URL, then serves until told
    to stop), so that its threads do not compete with the client for the GIL."""
    ours, theirs = multiprocessing.Pipe()
    process = multiprocessing.get_context("spawn").Process(target=serve, args=(latency, theirs), daemon=True)
    process.start()
    try:
        yield ours.recv(), ours
    finally:
        ours.send("stop")
        process.join(timeout=10)


def throughput(messages: tuple[dict[str, str], ...], latency: float, levels: list[int]) -> None:
    print(f"## Throughput at {latency * 1000:.0f} ms latency (goal: ratio ≥ 0.8 at every level)")
    print(f"{'concurrency':>11} {'requests':>9} {'seconds':>8} {'req/s':>8} {'ideal':>7} {'ratio':>6}")
    with server_process(latency) as (base_url, _):
        for level in levels:
            count = max(32, 8 * level)
            config = LLMConfig(
                model="bench", base_url=base_url, api_key="bench", timeout=30, max_concurrency=level
            )
            with LLMClient(config) as client:
                client.complete(ChatRequest(messages, "warmup", -1, ANSWER_SCHEMA))  # connection, imports
                requests = [ChatRequest(messages, "bench", n, ANSWER_SCHEMA) for n in range(count)]
                started = time.perf_counter()
                answers = client.complete_many(requests)
                elapsed = time.perf_counter() - started
            failed = sum(1 for a in answers if isinstance(a, Exception))
            rate = count / elapsed
            ideal = level / latency
            note = f"  ({failed} failed)" if failed else ""
            print(f"{level:11d} {count:9d} {elapsed:8.2f} {rate:8.1f} {ideal:7.1f} {rate / ideal:6.2f}{note}")


def prompt_tokens(documents: list[Document], context: InjectionContext) -> None:
    print("\n## Prompt tokens per LLM-injected instance (12 corpus documents, seed 0; goal: median ≤ 1,500)")
    by_type: dict[str, list[int]] = defaultdict(list)
    with ChatCompletionsServer() as server:
        config = LLMConfig(
            model="bench", base_url=server.base_url, api_key="bench", timeout=30, max_concurrency=4
        )
        with LLMClient(config) as client:
            rewriter = LLMRewriter(client)
            started = time.perf_counter()
            instances = []
            for doc in documents:
                instances.extend(inject_document(doc, 0, context, rewriter=rewriter).instances)
            elapsed = time.perf_counter() - started
            tokens_by_key = {
                r.cache_key: r.prompt_tokens for r in rewriter.records if r.outcome == "accepted"
            }
            summary = rewriter.summary()
    llm = [i for i in instances if i.provenance.generator == "llm"]
    for i in llm:
        by_type[i.error_type].append(tokens_by_key[i.provenance.cache_key])
    every = [t for values in by_type.values() for t in values]
    print(
        f"{len(instances)} instances, {len(llm)} written by the LLM, {server.count()} requests, "
        f"{elapsed:.1f} s; outcomes {summary['outcomes']}"
    )
    print(f"{'type':8} {'n':>4} {'median':>7} {'p90':>7} {'max':>6}")
    for error_type in sorted(by_type):
        values = by_type[error_type]
        print(
            f"{error_type:8} {len(values):4d} {statistics.median(values):7.0f} "
            f"{percentile(values, 0.9):7.0f} {max(values):6d}"
        )
    median, p90 = statistics.median(every), percentile(every, 0.9)
    print(f"{'all':8} {len(every):4d} {median:7.0f} {p90:7.0f} {max(every):6d}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--levels", default="1,4,16,32")
    args = parser.parse_args()
    documents = gold_documents()
    context = InjectionContext.from_documents(documents)
    throughput(sample_messages(documents[0], context), args.latency, [int(x) for x in args.levels.split(",")])
    prompt_tokens(documents, context)


if __name__ == "__main__":
    main()
