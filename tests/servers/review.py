"""A real chat-completions server on 127.0.0.1 that answers review prompts with scripted reviews.

`answer(prompt) -> str` decides the message content (a JSON review, prose, `null`, garbage); requests listed
in `fail` get a 500 first. It speaks the non-streaming OpenAI protocol with `usage` in every answer and
records how many requests it served, so tests can see what a resumed run asked again.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ReviewServer:
    def __init__(
        self, answer: Callable[[str], str], *, latency: float = 0.0, fail_first: int = 0, port: int = 0
    ) -> None:
        self.answer = answer
        self.port = port  # 0: any free port; a resumed run's server takes the same one (the same endpoint)
        self.latency = latency
        self.fail_first = fail_first  # the first N requests get a 500 (retried by the client)
        self.requests = 0
        self.prompts: list[str] = []
        self.authorizations: list[str] = []  # the Authorization headers received (tests check the key)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ReviewServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                del format, args

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with owner._lock:
                    owner.authorizations.append(self.headers.get("authorization", ""))
                owner.handle(self, body)

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]  # the one taken, for a server that must come back on it
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    def handle(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        with self._lock:
            index = self.requests
            self.requests += 1
        prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        if self.latency:
            time.sleep(self.latency)
        if index < self.fail_first:
            self._send(handler, 500, {"error": {"message": "scripted failure", "type": "server_error"}})
            return
        with self._lock:
            self.prompts.append(prompt)
        content = self.answer(prompt)
        self._send(
            handler,
            200,
            {
                "id": f"chatcmpl-{index}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", ""),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": len(prompt),
                    "completion_tokens": len(content),
                    "total_tokens": len(prompt) + len(content),
                },
            },
        )

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, data: dict[str, Any]) -> None:
        raw = json.dumps(data, ensure_ascii=False).encode("utf-8")
        try:
            handler.send_response(status)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(raw)))
            handler.end_headers()
            handler.wfile.write(raw)
        except (BrokenPipeError, ConnectionResetError):  # the client was killed mid-answer
            pass
