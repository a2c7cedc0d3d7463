"""What every request passes before a route sees it: the `Host` header, the review token, a same-site
`Origin` on POSTs and the CSRF token of forms; and the cookies and security headers every answer carries.

Any presented token that matches will do (`?token=`, `Authorization: Bearer`, the cookie), so a stale
cookie beside a fresh link never locks an annotator out. The CSRF token is a random value in a
SameSite=Strict cookie that every form repeats.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable

from fastapi import Request
from fastapi.responses import PlainTextResponse, Response

from review.web.state import review_of

CSRF_COOKIE = "gbtbench_csrf"
TOKEN_COOKIE = "gbtbench_token"
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)


def token_given(request: Request, token: str) -> bool:
    """Whether any of the presented tokens is the right one."""
    presented = [
        request.query_params.get("token"),
        request.headers.get("authorization", "").removeprefix("Bearer ").strip(),
        request.cookies.get(TOKEN_COOKIE),
    ]
    expected = token.encode()
    return any(hmac.compare_digest(p.encode(), expected) for p in presented if p)


def _refusal(request: Request) -> Response | None:
    """The answer to a request that may not reach the routes, or None."""
    state = review_of(request)
    if not state.host_allowed(request.headers.get("host", "")):
        return PlainTextResponse("unexpected Host header: open the review app at the address it serves", 400)
    if state.token is not None and not token_given(request, state.token):
        return PlainTextResponse("a review token is required (open the link with ?token=…)", 401)
    if request.method == "POST":
        origin = request.headers.get("origin")
        if origin and origin != f"{request.url.scheme}://{request.url.netloc}":
            return PlainTextResponse("cross-site request refused", 403)
    return None


async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    """The app's one HTTP middleware."""
    refused = _refusal(request)
    if refused is not None:
        return refused
    response = await call_next(request)
    token = review_of(request).token
    if token is not None and request.cookies.get(TOKEN_COOKIE) != token:
        response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
    if not request.cookies.get(CSRF_COOKIE):
        response.set_cookie(CSRF_COOKIE, csrf_token(request), httponly=True, samesite="strict")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def csrf_token(request: Request) -> str:
    """The token this request's forms carry: the cookie's, or a new one the answer sets."""
    if not hasattr(request.state, "csrf"):
        request.state.csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
    return str(request.state.csrf)


async def checked_form(request: Request) -> dict[str, str] | None:
    """The POSTed form if its CSRF token matches the cookie, else None."""
    form = await request.form()
    sent, cookie = str(form.get("csrf", "")), request.cookies.get(CSRF_COOKIE, "")
    if not sent or not cookie or not hmac.compare_digest(sent.encode(), cookie.encode()):
        return None
    return {k: str(v) for k, v in form.items()}


def csrf_refused() -> Response:
    return PlainTextResponse("invalid or missing CSRF token: reload the page", 403)
