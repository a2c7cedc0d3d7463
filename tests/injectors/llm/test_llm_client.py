"""The LLM client on its own: concurrency bound, rate limits, Retry-After forms, key redaction, the cache."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

from injectors.llm.cache import CachedCompletion, LLMCache, cache_key
from injectors.llm.client import ChatRequest, LLMClient
from injectors.llm.config import LLMConfig, redact
from injectors.llm.pacing import estimate_tokens, retry_after
from tests.servers.chat_completions import Behaviour, ChatCompletionsServer, Rule

TARGET = "错误类型：NMS-01 要求被弱化\n<target>\n外壳应采用阻燃材料。\n</target>"


def request(n: int) -> ChatRequest:
    return ChatRequest(({"role": "user", "content": f"{TARGET}\n#{n}"},), "NMS-01@test", n)


def config(server: ChatCompletionsServer, **changes: object) -> LLMConfig:
    return LLMConfig(model="m", base_url=server.base_url, api_key="k", timeout=5, **changes)  # type: ignore[arg-type]


def test_concurrency_is_bounded_by_the_semaphore() -> None:
    with (
        ChatCompletionsServer(default=Behaviour(latency=0.1)) as server,
        LLMClient(config(server, max_concurrency=3)) as client,
    ):
        started = time.monotonic()
        answers = client.complete_many([request(n) for n in range(12)])
        elapsed = time.monotonic() - started
    assert all(not isinstance(a, Exception) for a in answers)
    assert server.max_in_flight == 3
    assert elapsed >= 0.38  # 4 waves of 0.1 s (an upper bound would not tell 3 at once from 1 at a time)


def test_sync_facade_serves_many_threads_on_one_loop() -> None:
    with (
        ChatCompletionsServer(default=Behaviour(latency=0.05)) as server,
        LLMClient(config(server, max_concurrency=2)) as client,
    ):
        results: list[str] = []
        threads = [
            threading.Thread(target=lambda n=n: results.append(client.complete(request(n)).content))
            for n in range(6)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(results) == 6 and server.max_in_flight <= 2


def test_requests_per_minute_limit() -> None:
    with ChatCompletionsServer() as server, LLMClient(config(server, rpm=600)) as client:  # 10 per second
        started = time.monotonic()
        client.complete_many([request(n) for n in range(15)])
        elapsed = time.monotonic() - started
    assert elapsed >= 0.45  # 10 at once, then 5 more at 10 per second


def test_tokens_per_minute_limit() -> None:
    """Requests whose estimated tokens exceed the bucket's one-second burst wait for the rest at the limit's
    rate. The bound holds whenever the answers come back: what the server reports as used is charged
    afterwards and can only add to the wait."""
    requests = [request(n) for n in range(4)]
    estimated = sum(estimate_tokens(m["content"]) for r in requests for m in r.messages)
    per_second = 80  # tpm=4800: a burst of at most 80 tokens
    assert estimated >= 1.3 * per_second
    with (
        ChatCompletionsServer() as server,
        LLMClient(config(server, tpm=per_second * 60)) as client,
    ):
        started = time.monotonic()
        client.complete_many(requests)
        elapsed = time.monotonic() - started
    assert elapsed >= 0.95 * (estimated - per_second) / per_second
    assert client.stats["prompt_tokens"] > 0


def test_retry_after_forms() -> None:
    assert retry_after({"retry-after": "2"}) == 2.0
    assert retry_after({"retry-after-ms": "250"}) == 0.25
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (retry_after({"retry-after": later}) or 0) <= 31
    assert retry_after({"retry-after": "soon"}) is None and retry_after({}) is None


def test_retry_after_pauses_the_whole_client() -> None:
    """A 429 makes every queued request wait, not only the refused one."""
    rules = [Rule(Behaviour("rate_limit", retry_after=0.3), requests=[0])]
    with (
        ChatCompletionsServer(rules) as server,
        LLMClient(config(server, max_concurrency=1, backoff_base=0.01)) as client,
    ):
        client.complete_many([request(n) for n in range(3)])
        times = [r.started for r in server.requests]
    assert times[1] - times[0] >= 0.28


def test_redact_removes_the_key_and_its_echoed_pieces() -> None:
    key = "sk-proj-ABCDEFGHIJKLMNOP1234"
    assert key not in redact(f"bad key {key}", key)
    assert "GHIJKLMNOP" not in redact("Incorrect API key provided: sk-proj-****GHIJKLMNOP1234", key)
    assert redact("nothing secret", key) == "nothing secret"


def test_cache_is_content_addressed_and_thread_safe(tmp_path: Path) -> None:
    messages = ({"role": "user", "content": "x"},)
    key = cache_key("m", "p@1", messages, {"temperature": 0.3}, 7)
    assert key == cache_key("m", "p@1", messages, {"temperature": 0.3}, 7)
    assert key != cache_key("m", "p@2", messages, {"temperature": 0.3}, 7)
    assert key != cache_key("m", "p@1", messages, {"temperature": 0.3}, 8)
    with LLMCache(tmp_path / "c.sqlite") as cache:

        def put(n: int) -> None:
            cache.put(
                f"k{n}", CachedCompletion(f"c{n}", n, n, ("timeout",)), model="m", prompt_id="p", request={}
            )

        threads = [threading.Thread(target=put, args=(n,)) for n in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(cache) == 20
        assert cache.get("k3") == CachedCompletion("c3", 3, 3, ("timeout",))
        assert cache.get("missing") is None
