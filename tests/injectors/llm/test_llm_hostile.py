"""The LLM client against a hostile or unlucky endpoint: a trickling answer, a 503 asking for a long pause,
an answer that echoes the key, a refusing server followed by a good one, and a cache another process has
locked. Real HTTP servers on 127.0.0.1 (tests/servers/chat_completions.py), the production client, cache
and rewriter.
"""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from injectors.context import InjectionContext
from injectors.llm.cache import CachedCompletion, LLMCache, LLMCacheError
from injectors.llm.client import ChatRequest, LLMClient, LLMError
from injectors.llm.config import LLMConfig
from parsers.model import Document
from tests.servers.chat_completions import Behaviour, ChatCompletionsServer, Rule
from tests.support.llm_run import SENTINEL, run

REQUEST = ChatRequest(({"role": "user", "content": "你好"},), "probe-v1", 7)


def client(server: ChatCompletionsServer, cache: LLMCache | None = None, **settings: object) -> LLMClient:
    config = {"timeout": 10.0, "max_retries": 0, "backoff_base": 0.01, **settings}
    return LLMClient(
        LLMConfig(model="scripted-model", base_url=server.base_url, api_key=SENTINEL, **config),  # type: ignore[arg-type]
        cache,
    )


def timed(call, limit: float):  # type: ignore[no-untyped-def]
    """`call()` in a thread: (result or exception, seconds), or (None, limit) when it is still running."""
    box: list[object] = []

    def target() -> None:
        try:
            box.append(call())
        except BaseException as exc:
            box.append(exc)

    started = time.monotonic()
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(limit)
    return (box[0] if box else None), time.monotonic() - started


# --- a slow answer is bounded strictly --------------------------------------------------------------------


def test_a_trickling_answer_times_out_at_the_call_timeout() -> None:
    """One byte every 0.5 s: each read is quick, so a per-read timeout of 2 s never fires."""
    with (
        ChatCompletionsServer(default=Behaviour("trickle", trickle=0.5)) as server,
        client(server, timeout=2.0) as llm,
    ):
        outcome, seconds = timed(lambda: llm.complete(REQUEST), 20)
    assert isinstance(outcome, LLMError) and outcome.reason == "timeout", outcome
    assert seconds < 6


def test_the_deadline_bounds_a_trickling_answer_with_retries() -> None:
    with (
        ChatCompletionsServer(default=Behaviour("trickle", trickle=0.5)) as server,
        client(server, timeout=5.0, deadline=3.0, max_retries=5) as llm,
    ):
        outcome, seconds = timed(lambda: llm.complete(REQUEST), 30)
    assert isinstance(outcome, LLMError) and outcome.reason in ("timeout", "deadline"), outcome
    assert seconds < 6


def test_a_503_retry_after_is_capped_like_a_429() -> None:
    rules = [Rule(Behaviour("unavailable", retry_after=1000), times=1)]
    with (
        ChatCompletionsServer(rules=rules) as server,
        client(server, max_retries=1, max_retry_after=1.0, deadline=None) as llm,
    ):
        outcome, seconds = timed(lambda: llm.complete(REQUEST), 15)
        assert server.count() == 2
    assert not isinstance(outcome, BaseException) and outcome is not None, outcome
    assert seconds < 5


# --- an echoed key is masked, and caches are private ------------------------------------------------------


def test_an_echoed_key_is_masked_in_the_answer_and_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with (
        ChatCompletionsServer(default=Behaviour("echo_key"), api_key=SENTINEL) as server,
        client(server, LLMCache(path)) as llm,
    ):
        answer = llm.complete(REQUEST)
    assert SENTINEL not in answer.content and "***" in answer.content
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT * FROM completions").fetchall()
    assert rows and not any(SENTINEL[6:20] in json.dumps(row) for row in rows)
    for part in tmp_path.iterdir():
        assert stat.S_IMODE(part.stat().st_mode) == 0o600, part


def test_a_runaway_answer_is_a_failed_call_and_never_cached(tmp_path: Path) -> None:
    """A server that answers megabytes (a model looping, a hostile endpoint) costs one failed call: the
    answer is dropped, not kept in the cache for every later run to read."""
    from injectors.llm.client import MAX_ANSWER_CHARS
    from tests.servers.review import ReviewServer

    path = tmp_path / "cache.sqlite"
    with ReviewServer(lambda prompt: "[x " * (MAX_ANSWER_CHARS // 3 + 10)) as server:
        config = LLMConfig(model="m", base_url=server.base_url, api_key="k", timeout=30.0, max_retries=0)
        with LLMClient(config, LLMCache(path)) as llm:
            with pytest.raises(LLMError, match="too_large"):
                llm.complete(REQUEST)
            assert llm.stats.to_dict()["failures"] == {"too_large": 1}
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM completions").fetchone()[0] == 0


def test_an_existing_cache_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    LLMCache(path).close()
    path.chmod(0o644)
    LLMCache(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# --- failed answers are not reused; the endpoint is part of the key ---------------------------------------


def test_refusals_are_asked_again_and_another_endpoint_is_another_cache(
    tmp_path: Path, corpus_documents: list[Document]
) -> None:
    battery = next(d for d in corpus_documents if "battery-storage" in d.source)
    context = InjectionContext.from_documents(corpus_documents)
    cache = tmp_path / "cache.sqlite"
    with ChatCompletionsServer(default=Behaviour("refusal")) as refusing:
        run(battery, context, refusing, ("NMS-01",), cache)
        asked = refusing.count()
        assert asked >= 1
        assert len(LLMCache(cache)) == 0  # every answer failed its constraints: none is kept
        run(battery, context, refusing, ("NMS-01",), cache)
        assert refusing.count() == 2 * asked  # asked again, not answered from the refusals
    with ChatCompletionsServer() as good:
        result, _ = run(battery, context, good, ("NMS-01",), cache)
        assert good.count() >= 1
    assert any(i.provenance.generator == "llm" for i in result.instances)
    with ChatCompletionsServer() as other:  # same model name, another server: its own answers
        run(battery, context, other, ("NMS-01",), cache)
        assert other.count() >= 1


def test_the_endpoint_enters_the_key_but_no_row(tmp_path: Path) -> None:
    with ChatCompletionsServer() as a, ChatCompletionsServer() as b:
        key_a = client(a).key(REQUEST)
        key_b = client(b).key(REQUEST)
        assert key_a != key_b
        path = tmp_path / "cache.sqlite"
        with client(a, LLMCache(path)) as llm:
            llm.complete(REQUEST)
        assert a.base_url.encode() not in path.read_bytes()


# --- a locked cache is not corrupt -------------------------------------------------------------------------

HOLD_LOCK = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT INTO completions VALUES ('held', 'm', 'p', '{}', 'x', 1, 1, '[]')")
print("locked", flush=True)
time.sleep(60)
"""


def test_a_locked_cache_is_reported_not_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with LLMCache(path) as cache:
        cache.put("kept", CachedCompletion("paid for", 3, 4), model="m", prompt_id="p", request={})
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        with pytest.raises(LLMCacheError, match="is locked by another process \\(waited 1 s\\)"):
            LLMCache(path, busy_timeout=1.0)
        assert time.monotonic() - started < 10
    finally:
        holder.kill()
        holder.wait()
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name) == []
    with LLMCache(path) as cache:
        assert cache.get("kept") == CachedCompletion("paid for", 3, 4)


HOLD_WRITE_LOCK = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
"""


def test_a_cache_locked_mid_run_is_waited_for_once_then_bypassed(tmp_path: Path) -> None:
    """Another process takes the write lock while this one runs: one wait of the busy timeout, a warning,
    then the calls go without the cache for a while instead of each waiting again."""
    path = tmp_path / "cache.sqlite"
    now = [0.0]
    warnings: list[str] = []
    cache = LLMCache(path, busy_timeout=1.0, monotonic=lambda: now[0], warn=warnings.append)
    cache.put("kept", CachedCompletion("paid for", 3, 4), model="m", prompt_id="p", request={})
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_WRITE_LOCK, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        cache.put("new", CachedCompletion("x", 1, 1), model="m", prompt_id="p", request={})
        assert 0.8 < time.monotonic() - started < 5  # waited the busy timeout, then went without
        assert len(warnings) == 1 and "is locked by another process" in warnings[0]
        started = time.monotonic()
        for _ in range(20):
            assert cache.get("kept") is None  # bypassed: no second wait
            cache.put("new", CachedCompletion("x", 1, 1), model="m", prompt_id="p", request={})
        assert time.monotonic() - started < 0.5
    finally:
        holder.kill()
        holder.wait()
    now[0] += 60  # the bypass is over
    assert cache.get("kept") == CachedCompletion("paid for", 3, 4)
    assert cache.get("new") is None and len(cache) == 1
    assert not [p for p in tmp_path.iterdir() if "corrupt" in p.name]
    cache.close()
