"""The review web app: a server-rendered queue where annotators accept, reject or fix instances.

FastAPI with Jinja2 templates (autoescaped: every document string is HTML-escaped) and a little plain
JavaScript for keyboard shortcuts. `create_app` assembles the parts in review/web/, one concern each:
the guard every request passes (Host, token, Origin, CSRF; web/guard.py, web/hosts.py), who is deciding
(a signed cookie; web/session.py, web/signin.py), the queue (web/queue_page.py), an item and its document
(web/item_page.py), taking a decision (web/decide.py) and the two static files (web/static.py). Ids in
URLs are looked up in dictionaries; no request value ever reaches the file system. The database is used
from worker threads, never on the event loop, and a database locked past its busy timeout is a clear 503
that says the decision was not saved.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import UTC, datetime
from pathlib import Path

from fastapi import FastAPI

from review.queue import ReleaseQueue
from review.store import ReviewStore, ReviewStoreError
from review.web import decide, item_page, queue_page, signin, static
from review.web.guard import guard
from review.web.hosts import ANY_HOST, bound_hosts, host_check
from review.web.pages import store_unavailable
from review.web.session import session_key
from review.web.state import ReviewApp

__all__ = ["ANY_HOST", "ReviewApp", "bound_hosts", "create_app"]


def _utc_now() -> datetime:
    return datetime.now(UTC)


def create_app(
    release_dir: Path,
    db_path: Path,
    *,
    token: str | None = None,
    clock: Callable[[], datetime] = _utc_now,
    hosts: Collection[str] | None = None,
    busy_timeout: float = 5.0,
) -> FastAPI:
    """The app over one release; decisions go to `db_path` (raises ReleaseReadError, ReviewStoreError).

    `hosts`: the `Host` headers accepted (`bound_hosts` of the address served); by default loopback names.
    `busy_timeout`: how long a decision waits for another process's lock on the database."""
    store = ReviewStore(db_path, clock=clock, timeout=busy_timeout)
    app = FastAPI(title="gbtbench review", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.review = ReviewApp(
        queue=ReleaseQueue(release_dir),
        store=store,
        token=token or None,
        key=session_key(Path(db_path)),
        host_allowed=host_check(hosts),
    )
    app.add_exception_handler(ReviewStoreError, store_unavailable)
    app.middleware("http")(guard)
    for part in (signin, queue_page, item_page, decide, static):
        app.include_router(part.router)
    return app
