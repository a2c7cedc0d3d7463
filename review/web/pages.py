"""What every page is made of: its template with the CSRF token, the annotator and the release; the
queue filters carried in its URL; and what the browser is told when the database cannot be used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from review.store import ReviewStoreError
from review.web.guard import csrf_token
from review.web.session import annotator
from review.web.state import review_of

FILTERS = ("type", "dimension", "flag", "status", "annotator", "mine")


def render_page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    state = review_of(request)
    return state.render(
        name,
        status,
        csrf=csrf_token(request),
        annotator=annotator(request, state.key),
        release=state.queue.version,
        **context,
    )


def missing(request: Request, what: str) -> HTMLResponse:
    return render_page(request, "missing.html", 404, what=what)


def filters_of(request: Request) -> dict[str, str]:
    """The queue filters in the URL (each cut to 40 characters), which the item pages carry along."""
    return {k: request.query_params.get(k, "")[:40] for k in FILTERS if request.query_params.get(k)}


def query_string(filters: Mapping[str, str]) -> str:
    return ("?" + urlencode(filters)) if filters else ""


def store_problem(request: Request, exc: ReviewStoreError) -> str:
    """The store's message without the database's path: the server's file system is not shown to the
    browser (the command line and the logs name the file)."""
    return str(exc).removeprefix(f"{review_of(request).store.path}: ")


async def store_unavailable(request: Request, exc: Exception) -> Response:
    """A database that cannot be used (locked past its busy timeout, corrupt): nothing was changed."""
    assert isinstance(exc, ReviewStoreError)
    return PlainTextResponse(
        f"{store_problem(request, exc)}: nothing was changed; reload the page to try again", 503
    )
