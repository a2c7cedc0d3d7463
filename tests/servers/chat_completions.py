"""A real chat-completions server on 127.0.0.1 whose every answer follows a script, for tests and benchmarks.

It speaks the non-streaming OpenAI protocol (POST /v1/chat/completions, `usage` in every answer, 400 for a
response_format it is told not to support) and answers each request by the first matching `Rule`: a
correct rewrite computed from the prompt it received (the rule template's example applied to the target
text, or its own edit for NMS-01/02, TER-04, NMS-05 and SCP-01), or one of the failures a real endpoint or
model produces — latency, 429 with Retry-After, 500, a hang past the client's timeout, malformed JSON,
a refusal, a leaked heading, an edit outside the target section, a 401 that echoes the key.
Token counts are estimated without a tokenizer: one per Han character, one per four other characters.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KINDS = (
    "rewrite",  # a correct rewrite: the template's example applied, else the server's own edit
    "own",  # the server's own edit even when an example is given (a rewrite that differs from the template)
    "rate_limit",  # 429 with Retry-After
    "server_error",  # 500
    "hang",  # no answer until `hang` seconds have passed (past the client's timeout)
    "malformed",  # 200 whose message content is broken JSON
    "malformed_body",  # 200 whose HTTP body is not JSON at all
    "refusal",  # a JSON answer whose text is an apology
    "plain_refusal",  # an apology in plain text, no JSON at all (as models refuse in practice)
    "leaked_heading",  # a correct rewrite prefixed with "【5.2 标题】"
    "outside_target",  # the context section (scope) edited and returned instead of the target alone
    "unchanged",  # the target returned as it was
    "unauthorized",  # 401 quoting the key it received, as some vendors do
    "trickle",  # a correct answer sent one byte every `trickle` seconds (each read is quick, the whole slow)
    "unavailable",  # 503 with Retry-After
    "echo_key",  # a 200 whose answer quotes the key it received
)


@dataclass(frozen=True)
class Behaviour:
    kind: str = "rewrite"
    latency: float = 0.0  # seconds before answering (any kind)
    retry_after: float = 1.0  # for rate_limit
    hang: float = 3.0  # for hang: how long the connection is held (bounded)
    trickle: float = 2.0  # for trickle: seconds between two bytes of the body

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown behaviour {self.kind!r}: expected one of {', '.join(KINDS)}")


@dataclass
class Rule:
    """Applies to requests matching every given condition, `times` times (None: always)."""

    behaviour: Behaviour
    error_type: str | None = None
    retry: bool | None = None  # True: only feedback rounds (the prompt holds a previous answer)
    requests: Iterable[int] | None = None  # 0-based request indices
    times: int | None = None
    # once for each distinct prompt: every site's first request, however many sites a type offers
    once_per_prompt: bool = False
    used: int = 0
    seen: set[str] = field(default_factory=set)

    def matches(self, index: int, error_type: str, retry: bool, prompt: str = "") -> bool:
        return (
            (self.times is None or self.used < self.times)
            and not (self.once_per_prompt and prompt in self.seen)
            and (self.error_type is None or self.error_type == error_type)
            and (self.retry is None or self.retry == retry)
            and (self.requests is None or index in set(self.requests))
        )


@dataclass(frozen=True)
class RecordedRequest:
    index: int
    started: float  # time.monotonic() when the request arrived
    error_type: str
    retry: bool
    kind: str
    response_format: str | None
    seed: int | None
    authorized: bool  # the bearer token was the expected key (the token itself is never kept)
    prompt_tokens: int


def estimate_tokens(text: str) -> int:
    han = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
    return han + (len(text) - han + 3) // 4


def _between(text: str, tag: str) -> str | None:
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.S)
    return m.group(1) if m else None


_COMPOUND_BEFORE = set("响相反适供对回感呼效答照顺报策因内")
_COMPOUND_AFTER = set("用答急力收付届聘邀征激酬验景声运试援战召诉")


def own_rewrite(error_type: str, text: str) -> tuple[str, str, str] | None:
    """(new text, original span, rewritten span) of the server's own edit for a few types."""
    if error_type == "NMS-01":
        for i, c in enumerate(text):
            if (
                c == "应"
                and text[i - 1 : i] not in _COMPOUND_BEFORE
                and text[i + 1 : i + 2] not in _COMPOUND_AFTER
                and text[i + 1 : i + 2] not in ("当", "该")
            ):
                return (
                    text[:i] + "宜" + text[i + 1 :],
                    text[max(0, i - 4) : i + 3],
                    f"{text[max(0, i - 4) : i]}宜{text[i + 1 : i + 3]}",
                )
    if error_type == "NMS-02":
        for i, c in enumerate(text):
            if c == "宜" and text[i - 1 : i] not in ("适", "便", "事", "相"):
                return (
                    text[:i] + "应" + text[i + 1 :],
                    text[max(0, i - 4) : i + 3],
                    f"{text[max(0, i - 4) : i]}应{text[i + 1 : i + 3]}",
                )
    if error_type == "TER-04":
        line = text.split("\n", 1)[0]
        if line and not line.startswith(("注", "示例", "[")):
            return "是指" + text, line[:6], "是指" + line[:6]
    if error_type == "TER-02" and text.endswith("。"):
        return text[:-1] + "的总称。", text[-6:], text[-6:-1] + "的总称。"
    if error_type == "NMS-05":
        for line in text.split("\n"):
            if re.match(r"^\s*(注|示例)", line) and line.endswith("。"):
                changed = line[:-1] + "，使用时应予核对。"
                return text.replace(line, changed, 1), line, changed
    if error_type in ("SCP-01", "NMS-05"):
        sentence = "使用本文件时，各相关单位应建立相应的管理制度。"
        return text + "\n" + sentence, "", sentence
    return None


def rewrite_for(prompt: str, own: bool) -> tuple[str, str, str] | None:
    """A correct answer for the prompt: (rewritten text, original span, rewritten span)."""
    target = _between(prompt, "target")
    if target is None:
        return None
    m = re.search(r"错误类型：(\S+)", prompt)
    error_type = m.group(1) if m else ""
    example_original = _between(prompt, "example_original")
    example_rewritten = _between(prompt, "example_rewritten")
    if (
        not own
        and example_original is not None
        and example_rewritten is not None
        and example_original in target
    ):
        return target.replace(example_original, example_rewritten, 1), example_original, example_rewritten
    return own_rewrite(error_type, target)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read records, not logs
        return

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout): nothing to do
            self.close_connection = True

    def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), headers)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw)
            messages = body["messages"]
        except (json.JSONDecodeError, KeyError, TypeError):
            self._json(
                400,
                {
                    "error": {
                        "message": "request body is not a chat completion",
                        "type": "invalid_request_error",
                    }
                },
            )
            return
        self.server.owner.handle(self, body, messages)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # 32 clients connecting at once must not overflow the listen backlog
    owner: ChatCompletionsServer


@dataclass
class ChatCompletionsServer:
    """Context manager: `with ChatCompletionsServer(rules) as server: server.base_url …`."""

    rules: list[Rule] = field(default_factory=list)
    default: Behaviour = field(default_factory=Behaviour)
    api_key: str | None = None  # when set, other bearer tokens get 401
    json_schema: bool = True  # False: answer 400 to response_format json_schema (an older vLLM, say)
    model: str = "scripted-model"
    models: tuple[str, ...] | None = None  # when set, any other model gets OpenAI's 404

    def __post_init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- lifetime --------------------------------------------------------------------------------------
    def __enter__(self) -> ChatCompletionsServer:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    @property
    def base_url(self) -> str:
        assert self._server is not None, "use the server as a context manager"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def count(self, kind: str | None = None) -> int:
        with self._lock:
            return sum(1 for r in self.requests if kind is None or r.kind == kind)

    # --- answering -------------------------------------------------------------------------------------
    def _choose(self, index: int, error_type: str, retry: bool, prompt: str = "") -> Behaviour:
        for rule in self.rules:
            if rule.matches(index, error_type, retry, prompt):
                rule.used += 1
                rule.seen.add(prompt)
                return rule.behaviour
        return self.default

    def handle(self, handler: _Handler, body: dict[str, Any], messages: list[dict[str, Any]]) -> None:
        first_user = next((str(m.get("content", "")) for m in messages if m.get("role") == "user"), "")
        m = re.search(r"错误类型：(\S+)", first_user)
        error_type = m.group(1) if m else ""
        retry = any(m.get("role") == "assistant" for m in messages)
        auth = handler.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ").strip()
        format_type = (body.get("response_format") or {}).get("type")
        prompt_tokens = sum(estimate_tokens(str(m.get("content", ""))) for m in messages)
        with self._lock:
            index = len(self.requests)
            behaviour = self._choose(index, error_type, retry, first_user)
            self.requests.append(
                RecordedRequest(
                    index,
                    time.monotonic(),
                    error_type,
                    retry,
                    behaviour.kind,
                    format_type,
                    body.get("seed"),
                    self.api_key is None or token == self.api_key,
                    prompt_tokens,
                )
            )
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            self._answer(handler, body, behaviour, first_user, prompt_tokens, token)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _wait(self, seconds: float) -> None:
        deadline = time.monotonic() + min(seconds, 30.0)  # bounded, and cut short when the server stops
        while time.monotonic() < deadline and not self._stopping.is_set():
            time.sleep(min(0.02, max(0.0, deadline - time.monotonic())))

    def _answer(
        self,
        handler: _Handler,
        body: dict[str, Any],
        behaviour: Behaviour,
        prompt: str,
        prompt_tokens: int,
        token: str,
    ) -> None:
        if behaviour.latency:
            self._wait(behaviour.latency)
        kind = behaviour.kind
        if (self.api_key is not None and token != self.api_key) or kind == "unauthorized":
            message = (
                f"Incorrect API key provided: {token}. You can find your API key in your account settings."
            )
            handler._json(
                401,
                {"error": {"message": message, "type": "invalid_request_error", "code": "invalid_api_key"}},
            )
            return
        if self.models is not None and body.get("model") not in self.models:
            message = f"The model `{body.get('model')}` does not exist or you do not have access to it."
            handler._json(
                404,
                {"error": {"message": message, "type": "invalid_request_error", "code": "model_not_found"}},
            )
            return
        format_type = (body.get("response_format") or {}).get("type")
        if format_type == "json_schema" and not self.json_schema:
            handler._json(
                400,
                {
                    "error": {
                        "message": "response_format json_schema is not supported",
                        "type": "invalid_request_error",
                        "param": "response_format",
                    }
                },
            )
            return
        if kind == "rate_limit":
            handler._json(
                429,
                {"error": {"message": "Rate limit reached, retry later", "type": "rate_limit_exceeded"}},
                {"Retry-After": f"{behaviour.retry_after:g}"},
            )
            return
        if kind == "server_error":
            handler._json(500, {"error": {"message": "internal error", "type": "server_error"}})
            return
        if kind == "unavailable":
            handler._json(
                503,
                {"error": {"message": "overloaded", "type": "server_error"}},
                {"Retry-After": f"{behaviour.retry_after:g}"},
            )
            return
        if kind == "hang":
            self._wait(behaviour.hang)
        if kind == "malformed_body":
            handler._send(200, b"<html>upstream proxy error</html>")
            return
        content = f"Your key is {token}; nothing else to say." if kind == "echo_key" else ""
        content = content or self._content(kind, prompt)
        completion = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", self.model),
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": estimate_tokens(content),
                "total_tokens": prompt_tokens + estimate_tokens(content),
            },
        }
        if kind == "trickle":
            self._trickle(handler, json.dumps(completion).encode(), behaviour.trickle)
            return
        handler._json(200, completion)

    def _trickle(self, handler: _Handler, body: bytes, every: float) -> None:
        """Headers at once, then the body a byte at a time (until the client leaves or the server stops)."""
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            for byte in body:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                self._wait(every)
                if self._stopping.is_set():
                    return
        except OSError:
            return  # the client gave up: what the test wants

    def _content(self, kind: str, prompt: str) -> str:
        target = _between(prompt, "target") or ""
        heading = (re.search(r"目标章条：(.*)", prompt) or re.match("(.*)", "")).group(1)
        found = rewrite_for(prompt, own=kind == "own")
        if found is None:
            text, original, rewritten = target, "", ""
        else:
            text, original, rewritten = found
        description = f"将“{original or '（插入）'}”改为“{rewritten}”，引入了一处起草错误"
        if kind == "malformed":
            return '{"rewritten_text": "' + text[:12]
        if kind == "plain_refusal":
            return "抱歉，我无法协助完成这个请求。"
        if kind == "refusal":
            sorry = "抱歉，我不能帮助完成这个请求。"
            return json.dumps(
                {
                    "rewritten_text": sorry,
                    "changed_span": {"original": "", "rewritten": sorry},
                    "description": "抱歉，我无法协助。",
                },
                ensure_ascii=False,
            )
        if kind == "leaked_heading":
            text = f"【{heading}】{text}"
        if kind == "unchanged":
            text, original, rewritten = target, "", ""
        if kind == "outside_target":
            scope = _between(prompt, "scope")
            if scope:
                first = re.split(r"(?<=。)", scope)[0]
                changed = first.replace("。", "，相关单位应遵照执行。", 1)
                text, original, rewritten = scope.replace(first, changed, 1), first, changed
            else:
                extra = "其他设备应符合相关规定。"
                text, original, rewritten = f"{text}\n9.9 其他要求\n{extra}", "", extra
        return json.dumps(
            {
                "rewritten_text": text,
                "changed_span": {"original": original, "rewritten": rewritten},
                "description": description,
            },
            ensure_ascii=False,
        )
