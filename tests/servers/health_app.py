"""The smallest ASGI app the Prefect server's watchdog can run in its place: `/api/health` answers 200.

The watchdog (servers/prefect_server.py) starts whatever app it is given under uvicorn and stops it when
the session that owns it ends. Its own test starts a second server beside the session's; the real Prefect
app costs about twenty seconds of CPU to start (imports, database migrations) and is started by every
session anyway (conftest.prefect_api), so that test runs the watchdog around this app instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def _app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    found = scope["path"] == "/api/health"
    body = b"true" if found else b"not found"
    headers = [(b"content-type", b"application/json" if found else b"text/plain")]
    await send({"type": "http.response.start", "status": 200 if found else 404, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def create_app() -> Callable[[dict[str, Any], Receive, Send], Awaitable[None]]:
    """uvicorn's `--factory` entry point, as Prefect's `create_app`."""
    return _app
