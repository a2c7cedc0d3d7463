"""A chat-completions client for any OpenAI-compatible endpoint: our own retries, limits, cache, counters.

Why our own machinery around the `openai` package: its defaults (600 s timeout, 2 silent retries) suit an
interactive app, not a batch build. Here every request has an explicit timeout; retries (timeouts, 429 with
Retry-After honoured, 5xx, dropped connections) use exponential backoff with jitter and are counted;
concurrency is bounded by a semaphore and, optionally, by requests-per-minute and tokens-per-minute
buckets; every call is content-addressed in the SQLite cache so that a rebuild makes no request at all.

The API key is never printed: `LLMConfig` masks it in its repr, and every error message that leaves this
module passes through `redact`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from injectors.llm.cache import CachedCompletion, LLMCache, cache_key
from injectors.llm.circuit import CircuitBreaker, Deadline
from injectors.llm.config import LLMConfig, redact
from injectors.llm.pacing import TokenBucket, estimate_tokens, retry_after

log = logging.getLogger(__name__)


# How the `auto` mode steps down when a server refuses a response_format.
_DOWNGRADE = {"json_schema": "json_object", "json_object": "none"}


# Failures that say the endpoint itself is unwell (they count towards the circuit breaker); a 429 does not.
TRANSPORT_FAILURES = frozenset({"timeout", "connection", "server_error"})


def endpoint(config: LLMConfig) -> str:
    """The server a configuration talks to, as it enters cache keys."""
    return (config.base_url or "https://api.openai.com/v1").rstrip("/")


# The longest answer kept: far above what any prompt of ours asks for (a review answer is read up to a quarter
# of it), and small enough that a server sending hundreds of megabytes costs neither memory nor cache
MAX_ANSWER_CHARS = 1 << 20


class LLMError(RuntimeError):
    """A call that failed for good (after retries); `reason` is a short code counted per build."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"LLM request failed ({reason}): {message}")
        self.reason = reason


class LLMStats:
    """Per-build counters, shared by the client and the rewriter; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()  # by reason: transport codes and constraint codes

    def add(self, name: str, n: int = 1) -> None:
        with self._lock:
            self.counts[name] += n

    def fail(self, reason: str, n: int = 1) -> None:
        with self._lock:
            self.failures[reason] += n

    def __getitem__(self, name: str) -> int:
        with self._lock:
            return self.counts[name]

    def to_dict(self) -> dict[str, Any]:
        with self._lock:
            return {
                "counts": dict(sorted(self.counts.items())),
                "failures": dict(sorted(self.failures.items())),
            }


@dataclass(frozen=True)
class ChatRequest:
    """One logical call: what the cache key is made of (plus the model and the parameters)."""

    messages: tuple[dict[str, str], ...]
    prompt_id: str  # versioned: a new prompt text gets a new id, hence new cache keys
    seed: int
    json_schema: dict[str, Any] | None = None  # the answer's schema when the server supports json_schema
    schema_name: str = "answer"


@dataclass(frozen=True)
class ChatResponse:
    content: str
    prompt_tokens: int
    completion_tokens: int
    cache_key: str
    cached: bool
    retried: tuple[str, ...] = ()  # transport failures before this answer, e.g. ("rate_limited",)


class AsyncChatClient:
    """The async client: cache, limits, retries and counters around AsyncOpenAI (which never retries)."""

    def __init__(
        self,
        config: LLMConfig,
        cache: LLMCache | None = None,
        stats: LLMStats | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from openai import AsyncOpenAI

        self.config = config
        self.cache = cache
        self.stats = stats if stats is not None else LLMStats()
        self._client = AsyncOpenAI(
            api_key=config.api_key or "EMPTY",  # local servers (vLLM, Ollama) accept any key
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=0,
        )
        self._semaphore = asyncio.Semaphore(config.max_concurrency)
        self._rpm = TokenBucket(config.rpm) if config.rpm else None
        self._tpm = TokenBucket(config.tpm) if config.tpm else None
        self._format = "json_schema" if config.response_format == "auto" else config.response_format
        self._cooldown_until = 0.0  # a 429's Retry-After pauses every request, not only the one refused
        self._jitter = random.Random(0)  # timing only: answers never depend on it
        self.breaker = CircuitBreaker(config.breaker_failures)
        self.deadline = Deadline(config.deadline, clock)

    def _guard(self) -> float:
        """The seconds a request may take now; LLMError when the endpoint is down or time is up."""
        if self.breaker.open:
            self.stats.fail("endpoint_down")
            raise LLMError("endpoint_down", self.breaker.reason or "endpoint down")
        left = self.deadline.remaining()
        if left is not None and left <= 0:
            self.stats.fail("deadline")
            raise LLMError("deadline", f"the LLM stage's deadline of {self.config.deadline:g} s has passed")
        return self.config.timeout if left is None else min(self.config.timeout, left)

    def params(self, request: ChatRequest) -> dict[str, Any]:
        """The parameters that, with the model, messages and seed, determine an answer (the cache key)."""
        return {
            "temperature": self.config.temperature,
            "max_tokens": self.config.max_tokens,
            "response_format": self.config.response_format,
            "schema": request.json_schema,
        }

    def key(self, request: ChatRequest) -> str:
        """The cache key; the endpoint is part of it (hashed, never stored): the same model name on
        another server is another model, and its answers are not this one's."""
        return cache_key(
            self.config.model,
            request.prompt_id,
            request.messages,
            self.params(request),
            request.seed,
            endpoint=endpoint(self.config),
        )

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """The answer from the cache, or from the server (with retries); LLMError when it cannot be had."""
        key = self.key(request)
        self.stats.add("calls")
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.stats.add("cache_hits")
                self.stats.add("cached_prompt_tokens", hit.prompt_tokens)
                self.stats.add("cached_completion_tokens", hit.completion_tokens)
                return ChatResponse(
                    hit.content, hit.prompt_tokens, hit.completion_tokens, key, True, hit.retried
                )
            self.stats.add("cache_misses")
        self._guard()
        content, prompt_tokens, completion_tokens, retried = await self._request(request)
        if len(content) > MAX_ANSWER_CHARS:  # never cached: a runaway answer would fill the cache, not a run
            self.stats.fail("too_large")
            raise LLMError(
                "too_large", f"an answer of {len(content):,} characters (over {MAX_ANSWER_CHARS:,})"
            )
        if self.cache is not None:
            self.cache.put(
                key,
                CachedCompletion(content, prompt_tokens, completion_tokens, retried),
                model=self.config.model,
                prompt_id=request.prompt_id,
                request={
                    "messages": list(request.messages),
                    "params": self.params(request),
                    "seed": request.seed,
                },
            )
        return ChatResponse(content, prompt_tokens, completion_tokens, key, False, retried)

    def _response_format(self, request: ChatRequest) -> dict[str, Any] | None:
        if self._format == "json_schema" and request.json_schema is not None:
            return {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "schema": request.json_schema, "strict": True},
            }
        if self._format in ("json_schema", "json_object"):
            return {"type": "json_object"}
        return None

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with equal jitter: half the step fixed, half random."""
        step = min(self.config.backoff_max, self.config.backoff_base * 2**attempt)
        return step / 2 + self._jitter.uniform(0, step / 2)

    async def _admit(self, estimate: int) -> None:
        """Wait out a server's Retry-After (it pauses everyone) and the RPM / TPM buckets, never past the
        deadline (the guard that follows then ends the call)."""
        for _ in range(100):  # bounded: a new 429 while waiting extends the pause at most this often
            wait = self._cooldown_until - time.monotonic()
            left = self.deadline.remaining()
            if left is not None:
                wait = min(wait, left)
            if wait <= 0:
                break
            await asyncio.sleep(wait)
        if self._rpm is not None:
            await self._rpm.acquire(1)
        if self._tpm is not None:
            await self._tpm.acquire(estimate)

    async def _request(self, request: ChatRequest) -> tuple[str, int, int, tuple[str, ...]]:
        import openai

        estimate = sum(estimate_tokens(m["content"]) for m in request.messages)
        retried: list[str] = []
        attempt = 0
        for _ in range(self.config.max_retries + len(_DOWNGRADE) + 1):  # bounded: retries plus downgrades
            body = self._body(request)
            try:
                async with self._semaphore:
                    await self._admit(estimate)
                    timeout = self._guard()  # checked after the wait: the breaker may have opened meanwhile
                    self.stats.add("requests")
                    # the whole answer within `timeout`: the library's timeout bounds each read, so a
                    # server trickling a byte at a time would otherwise never time out
                    completion = await asyncio.wait_for(self._post(body, timeout), timeout)
                result = self._read(completion, estimate, retried)
                self.breaker.success()
                return result
            except (openai.OpenAIError, TimeoutError, ValueError, TypeError) as exc:
                failed = self._failure(exc)
            if failed is None:  # the response format was downgraded: ask again at once
                continue
            wait = self._retry_wait(*failed, attempt, retried)
            attempt += 1
            await asyncio.sleep(wait)
        raise LLMError("gave_up", f"no answer after {attempt + 1} attempts")

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        config = self.config
        body: dict[str, Any] = {
            "model": config.model,
            "messages": list(request.messages),
            "temperature": config.temperature,
            "max_tokens": config.max_tokens,
            "seed": request.seed,
        }
        response_format = self._response_format(request)
        if response_format is not None:
            body["response_format"] = response_format
        return body

    def _failure(self, exc: Exception) -> tuple[str, float | None] | None:
        """A failed request's reason and the delay the server asked for, when another try may succeed; None
        when the server refused the response format and a simpler one is tried next; an LLMError raised
        when no retry can help (a bad request, the key refused, another client error)."""
        import openai

        config = self.config
        if isinstance(exc, (openai.APITimeoutError, TimeoutError)):
            return "timeout", None
        if isinstance(exc, openai.APIConnectionError):
            return "connection", None
        if isinstance(exc, openai.RateLimitError):
            delay = retry_after(exc.response.headers)
            if delay is not None:
                delay = min(delay, config.max_retry_after)
                self._cooldown_until = max(self._cooldown_until, time.monotonic() + delay)
            return "rate_limited", delay
        if isinstance(exc, openai.BadRequestError):
            downgrade = _DOWNGRADE.get(self._format)
            if config.response_format == "auto" and downgrade and "response_format" in str(exc):
                log.info("server refused response_format %s; using %s", self._format, downgrade)
                self._format = downgrade
                self.stats.add("response_format_downgrades")
                return None
            raise self._fatal("bad_request", exc) from None
        if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
            raise self._fatal("auth", exc) from None
        if isinstance(exc, openai.APIStatusError):
            if exc.status_code < 500 and exc.status_code not in (408, 409):  # those two are transient
                raise self._fatal(f"http_{exc.status_code}", exc) from None
            delay = retry_after(exc.response.headers)
            if delay is not None:  # capped like a 429's: a 503 asking for 1000 s must not park the run
                delay = min(delay, config.max_retry_after)
            return ("server_error" if exc.status_code >= 500 else f"http_{exc.status_code}"), delay
        if isinstance(exc, (openai.APIResponseValidationError, ValueError, TypeError)):
            return "bad_response", None
        raise self._fatal("client_error", exc) from None

    def _fatal(self, reason: str, exc: Exception) -> LLMError:
        self.stats.fail(reason)
        return LLMError(reason, redact(str(exc), self.config.api_key))

    def _retry_wait(self, reason: str, delay: float | None, attempt: int, retried: list[str]) -> float:
        """How long to wait before the next try after a transient failure; an LLMError when the breaker
        opened or the retries are spent."""
        self.stats.fail(reason)
        retried.append(reason)
        if reason in TRANSPORT_FAILURES and self.breaker.failure(reason):
            log.warning("LLM %s; the remaining calls fall back to rules", self.breaker.reason)
        if self.breaker.open:
            raise LLMError("endpoint_down", self.breaker.reason or "endpoint down")
        if attempt >= self.config.max_retries:
            raise LLMError(reason, f"gave up after {attempt + 1} attempts ({', '.join(retried)})")
        wait = max(delay or 0.0, self._backoff(attempt))
        left = self.deadline.remaining()
        if left is not None:
            wait = min(wait, left)  # the next round's guard then ends the call at the deadline
        self.stats.add("retries")
        log.info("LLM request %s; retry %d in %.2f s", reason, attempt + 1, wait)
        return wait

    async def _post(self, body: dict[str, Any], timeout: float) -> Any:
        """POST /chat/completions through the library's client (auth, errors, typed response) with a plain
        JSON body: `chat.completions.create` would re-walk every message and the JSON schema through its
        parameter transformer, which costs more CPU than the rest of a request."""
        from openai.types.chat import ChatCompletion

        return await self._client.post(
            "/chat/completions",
            cast_to=ChatCompletion,
            body=body,
            options={"timeout": timeout, "security": {"bearer_auth": True}},
        )

    def _read(
        self, completion: Any, estimate: int, retried: list[str]
    ) -> tuple[str, int, int, tuple[str, ...]]:
        """Content and token counts of a completion (estimated when the server reports no usage)."""
        if not getattr(completion, "choices", None):
            raise ValueError("completion without choices")
        message = completion.choices[0].message
        content = (
            message.content if message.content is not None else (getattr(message, "refusal", None) or "")
        )
        # a server may echo the key in an answer: masked before the answer is cached or written anywhere
        content = redact(content, self.config.api_key)
        usage = getattr(completion, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0) or estimate
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0) or estimate_tokens(content)
        self.stats.add("prompt_tokens", prompt_tokens)
        self.stats.add("completion_tokens", completion_tokens)
        if self._tpm is not None:
            self._tpm.take(completion_tokens + max(0, prompt_tokens - estimate))
        return content, prompt_tokens, completion_tokens, tuple(retried)

    async def aclose(self) -> None:
        await self._client.close()


class LLMClient:
    """The synchronous facade: a private event loop on its own thread, callable from many threads at once.

    The planner is synchronous; builds run documents on a thread pool. All their calls meet on one loop,
    so the semaphore and the rate buckets bound the whole build, not each thread.
    """

    def __init__(
        self, config: LLMConfig, cache: LLMCache | None = None, stats: LLMStats | None = None
    ) -> None:
        self.config = config
        self.cache = cache
        self.stats = stats if stats is not None else LLMStats()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="gbtbench-llm", daemon=True)
        self._thread.start()
        self._async = self._run(self._make())
        self.breaker = self._async.breaker  # shared by every thread's calls: one endpoint, one verdict
        self.deadline = self._async.deadline
        self._closed = False

    async def _make(self) -> AsyncChatClient:
        return AsyncChatClient(self.config, self.cache, self.stats)

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def key(self, request: ChatRequest) -> str:
        return self._async.key(request)

    def forget(self, key: str) -> None:
        """Drop a cached answer that failed its constraints: the next run asks again."""
        if self.cache is not None:
            self.cache.forget(key)

    def complete(self, request: ChatRequest) -> ChatResponse:
        return self._run(self._async.complete(request))

    def complete_many(self, requests: Sequence[ChatRequest]) -> list[ChatResponse | LLMError]:
        """Many calls at once (bounded by the semaphore); a failed call gives its LLMError in its place."""

        async def gather() -> list[ChatResponse | LLMError]:
            results = await asyncio.gather(
                *(self._async.complete(r) for r in requests), return_exceptions=True
            )
            out: list[ChatResponse | LLMError] = []
            for r in results:
                if isinstance(r, BaseException) and not isinstance(r, LLMError):
                    raise r
                out.append(r)
            return out

        return self._run(gather())

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._run(self._async.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
