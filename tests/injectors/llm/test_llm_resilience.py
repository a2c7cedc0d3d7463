"""The LLM stage against dead, hanging and refusing endpoints, and a broken cache.

Real HTTP servers on 127.0.0.1 (tests/servers/chat_completions.py), the production client and rewriter.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from flows.cli.llm_ticker import llm_ticker, progress_line
from injectors.context import InjectionContext
from injectors.llm.cache import CachedCompletion, LLMCache
from injectors.llm.circuit import CircuitBreaker, Deadline
from injectors.llm.settings import supported_types
from parsers.model import Document
from tests.servers.chat_completions import Behaviour, ChatCompletionsServer, Rule
from tests.support.llm_run import SENTINEL, run
from tests.support.sample_standard import THIN

ROOT = Path(__file__).resolve().parents[3]
FIXED = datetime(2026, 12, 1, 9, 30, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.fixture(scope="module")
def battery(corpus_documents: list[Document]) -> Document:
    return next(d for d in corpus_documents if "battery-storage" in d.source)


def llm_fallbacks(result) -> list[str]:  # type: ignore[no-untyped-def]
    """Why the model's rewrite was not used, for each rule-template instance the model was asked about (a
    site where the type's prompt has no material, e.g. SCP-05 dropping a qualifier, never asks it)."""
    return [
        i.provenance.fallback_reason
        for i in result.instances
        if i.error_type in supported_types()
        and i.provenance.generator == "rule-template"
        and i.provenance.fallback_reason is not None
    ]


# --- circuit breaker, deadline, concurrency ------------------------------------------------------------


# run in a fresh interpreter: in a long-lived test worker, state an earlier test left behind changed which
# candidates this document kept (8 errors instead of its 11), which is not what this test is about
DEAD_ENDPOINT = """
import json, sys, time
from pathlib import Path

sys.path[:0] = ["."]
from tests.support.llm_run import run
from tests.servers.chat_completions import Behaviour, ChatCompletionsServer

from corpus.stdsource import gold_document
from injectors.context import InjectionContext
from injectors.llm.settings import supported_types

documents = [gold_document(p) for p in sorted(Path("corpus/sources").glob("*.std"))]
battery = next(d for d in documents if "battery-storage" in d.source)
started = time.perf_counter()
with ChatCompletionsServer(default=Behaviour(sys.argv[1], hang=30.0)) as server:
    result, rewriter = run(
        battery, InjectionContext.from_documents(documents), server, supported_types(),
        timeout=0.5, max_retries=4, breaker_failures=3, max_concurrency=4,
    )
    requests = server.count()
reasons = [
    i.provenance.fallback_reason
    for i in result.instances
    if i.error_type in supported_types()
    and i.provenance.generator == "rule-template"
    and i.provenance.fallback_reason is not None
]
print(json.dumps({
    "seconds": time.perf_counter() - started,
    "requests": requests,
    "down": str(rewriter.summary()["endpoint_down"]),
    "reasons": reasons,
    "instances": len(result.instances),
}))
"""


@pytest.mark.parametrize("kind", ["hang", "server_error"])
def test_a_dead_endpoint_opens_the_breaker_and_the_rest_falls_back(kind: str) -> None:
    """Before: 5 attempts × 60 s per call, one call after another (90 minutes for one document)."""
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", DEAD_ENDPOINT, kind], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert "3 consecutive transport failures" in found["down"]
    assert found["requests"] <= 3 + 4  # the threshold, plus what was already in flight when it opened
    assert found["seconds"] < 20
    reasons = found["reasons"]
    assert reasons and all(r.startswith("transport:") for r in reasons)
    assert any(r == "transport:endpoint_down" for r in reasons)
    assert found["instances"] >= 10  # the document still gets its errors, from rule templates


def test_the_stage_deadline_bounds_a_slow_endpoint(battery: Document, context: InjectionContext) -> None:
    started = time.perf_counter()
    with ChatCompletionsServer(default=Behaviour("rewrite", latency=0.5)) as server:
        result, rewriter = run(
            battery, context, server, supported_types(), deadline=1.5, max_concurrency=2, timeout=10.0
        )
    seconds = time.perf_counter() - started
    assert seconds < 10  # 1.5 s of calls, then rule templates (the in-flight ones are cut at the deadline)
    assert "deadline_passed" in rewriter.summary()
    assert "transport:deadline" in llm_fallbacks(result)
    assert any(i.provenance.generator == "llm" for i in result.instances)  # what came back in time ships


def test_inject_keeps_the_configured_number_of_calls_in_flight(
    battery: Document, context: InjectionContext
) -> None:
    with ChatCompletionsServer(default=Behaviour("rewrite", latency=0.3)) as server:
        parallel, _ = run(battery, context, server, supported_types(), max_concurrency=4)
        in_flight = server.max_in_flight
    with ChatCompletionsServer(default=Behaviour("rewrite", latency=0.05)) as server:
        sequential, _ = run(battery, context, server, supported_types(), max_concurrency=1)
        assert server.max_in_flight == 1
    assert in_flight >= 3  # was 1: the planner waited for each call before the next
    # the two servers are two endpoints, hence two sets of cache keys; everything else is the same
    endpoint_free = re.compile(r'"cache_key": "[0-9a-f]+"')
    assert endpoint_free.sub("", json.dumps(parallel.to_dict(), ensure_ascii=False)) == endpoint_free.sub(
        "", json.dumps(sequential.to_dict(), ensure_ascii=False)
    )


def test_a_plain_refusal_is_counted_as_refusal(battery: Document, context: InjectionContext) -> None:
    with ChatCompletionsServer(rules=[Rule(Behaviour("plain_refusal"))]) as server:
        _, rewriter = run(battery, context, server, ("NMS-01",))
    failures = rewriter.summary()["failures"]
    assert failures.get("refusal", 0) >= 1 and "json" not in failures  # type: ignore[union-attr]


def test_breaker_and_deadline_on_their_own() -> None:
    breaker = CircuitBreaker(threshold=2)
    assert not breaker.failure("timeout")
    breaker.success()  # a success in between resets the count
    assert not breaker.failure("timeout") and breaker.failure("connection") and breaker.open
    assert breaker.reason == "endpoint down: 2 consecutive transport failures (last: connection)"
    now = [100.0]
    deadline = Deadline(5.0, lambda: now[0])
    assert deadline.remaining() == 5.0  # the clock starts at the first question
    now[0] = 103.0
    assert deadline.remaining() == 2.0 and not deadline.expired
    now[0] = 106.0
    assert deadline.expired and Deadline(None, lambda: 0.0).remaining() is None


def test_progress_is_visible_while_waiting() -> None:
    lines: list[str] = []
    summary = {
        "counts": {"calls": 3, "cache_hits": 1, "requests": 4},
        "failures": {"timeout": 2},
        "endpoint_down": "endpoint down: 5 consecutive transport failures (last: timeout)",
    }
    with llm_ticker(lambda: summary, lines.append, every=0.05):
        time.sleep(0.3)
    assert len(lines) >= 2
    assert (
        lines[0].startswith("LLM: ") and "3 calls, 1 cache hits, 4 requests, 2 transport failures" in lines[0]
    )
    assert "falling back to rule templates" in progress_line(summary, 1.0)


# --- the cache heals itself ------------------------------------------------------------------------------


def fill(path: Path, rows: int = 300) -> None:
    with LLMCache(path) as cache:
        for n in range(rows):
            cache.put(
                f"key{n}",
                CachedCompletion("答" * 200 + str(n), 10, 20, ("timeout",)),
                model="m",
                prompt_id="p",
                request={"n": n},
            )
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{path}{suffix}").exists() or suffix  # checkpointed on close


def damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "header":
        data[:16] = b"not a database!!"
    elif how == "truncated":
        del data[len(data) // 3 :]
    elif how == "page":
        data[4096 * 2 : 4096 * 6] = b"\xa5" * (4096 * 4)  # interior pages of the table's b-tree
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["header", "truncated", "page"])
def test_a_corrupt_cache_is_moved_aside_and_replaced(tmp_path: Path, how: str) -> None:
    path = tmp_path / "llm-cache.sqlite"
    fill(path)
    damage(path, how)
    warnings: list[str] = []
    with LLMCache(path, clock=lambda: FIXED, warn=warnings.append) as cache:
        assert cache.get("key1") is None
        cache.put("fresh", CachedCompletion("新", 1, 1), model="m", prompt_id="p", request={})
        assert cache.get("fresh") == CachedCompletion("新", 1, 1)
        assert len(cache) == 1
    aside = tmp_path / "llm-cache.sqlite.corrupt-20261201T093000Z"
    assert aside.exists() and len(warnings) == 1
    assert "moved it to llm-cache.sqlite.corrupt-20261201T093000Z" in warnings[0]
    with LLMCache(path, warn=warnings.append) as again:  # the fresh file is a good cache
        assert again.get("fresh") is not None and len(warnings) == 1


def test_a_bad_row_is_dropped_and_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    fill(path, rows=3)
    db = sqlite3.connect(path)
    db.execute("UPDATE completions SET retried = '{not json' WHERE key = 'key1'")
    db.commit()
    db.close()
    warnings: list[str] = []
    with LLMCache(path, warn=warnings.append) as cache:
        assert cache.get("key1") is None  # a miss: the answer will be asked for again
        assert cache.get("key2") is not None and len(cache) == 2
        cache.put("key1", CachedCompletion("重写", 1, 2), model="m", prompt_id="p", request={})
        assert cache.get("key1") == CachedCompletion("重写", 1, 2)
    assert len(warnings) == 1 and "dropped an unreadable row" in warnings[0]


def test_inject_with_a_garbled_cache_goes_on_with_a_warning(tmp_path: Path) -> None:
    standard = ROOT / "corpus" / "docx"
    first = sorted(standard.glob("*.docx"))[0]
    empty = tmp_path / "no-corpus"
    empty.mkdir()
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))  # a garbled header page
    with ChatCompletionsServer() as server:
        env = {
            **os.environ,
            "GBTBENCH_LLM_BASE_URL": server.base_url,
            "GBTBENCH_LLM_MODEL": "scripted-model",
            "GBTBENCH_LLM_API_KEY": SENTINEL,
        }
        args = [sys.executable, "-m", "flows.cli", "inject", str(first), "--corpus", str(empty), "--json"]
        args += ["--llm", "openai", "--llm-types", "NMS-01,TER-04", "--llm-cache", str(cache)]
        done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "is unreadable" in done.stderr
    assert list(tmp_path.glob("cache.sqlite.corrupt-*"))
    assert json.loads(done.stdout)["instances"]
    assert SENTINEL not in done.stdout + done.stderr


def test_inject_says_when_a_document_is_too_thin(tmp_path: Path) -> None:
    path = tmp_path / "thin.txt"
    path.write_text(THIN, encoding="utf-8")
    empty = tmp_path / "none"
    empty.mkdir()
    args = [sys.executable, "-m", "flows.cli", "inject", str(path), "--corpus", str(empty)]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, check=False)
    as_json = subprocess.run([*args, "--json"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == as_json.returncode == 1
    assert f"ERROR: {path}: only " in done.stderr and "(at least 10 asked)" in done.stderr
    assert "(at least 10 asked)" in as_json.stderr and json.loads(as_json.stdout)["instances"] is not None
