"""The review web app: a server-rendered queue where annotators accept, reject or fix instances.

FastAPI with Jinja2 templates (autoescaped: every document string is HTML-escaped) and a little plain
JavaScript for keyboard shortcuts. POSTs carry a CSRF token that must match a SameSite=Strict cookie, and a
cross-origin `Origin` is refused. With a token configured (required off loopback) every request must
present it once (`?token=`, then a cookie, or `Authorization: Bearer`; any one that matches will do, so a
stale cookie never locks anyone out). The annotator's name is a signed cookie (a page on another port of
the same host can set cookies here, but cannot sign them), and the `Host` header must name the address the
app is bound to, or a loopback name when no address is given (a DNS-rebinding page names its own). Ids in
URLs are looked up in dictionaries; no request value ever reaches the file system. The database is used
from worker threads, never on the event loop, and a database locked past its busy timeout is a clear 503
that says the decision was not saved.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool

from injectors.taxonomy import DIMENSIONS, by_id, types
from review.agreement import agreement
from review.queue import QueueItem, ReleaseQueue, diff_segments, overlap_assignments
from review.store import DECISIONS, REJECT_REASONS, Decision, ReviewStore, ReviewStoreError

HERE = Path(__file__).resolve().parent
STATIC = {  # the only files the app serves, by fixed name
    "app.js": ("app.js", "text/javascript; charset=utf-8"),
    "app.css": ("app.css", "text/css; charset=utf-8"),
}
ANNOTATOR_COOKIE = "gbtbench_annotator"
CSRF_COOKIE = "gbtbench_csrf"
TOKEN_COOKIE = "gbtbench_token"
_NAME = re.compile(r"^[\w .@-]{1,40}$")
FILTERS = ("type", "dimension", "flag", "status", "annotator", "mine")
STATUSES = ("todo", "done", "accept", "reject", "fix")


def _utc_now() -> datetime:
    return datetime.now(UTC)


def session_key(db_path: Path) -> bytes:
    """The key that signs annotator names: kept beside the database (owner-only), so every server process
    on that database accepts the same sessions and a restart keeps them."""
    path = Path(f"{db_path}.session-key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


def sign(key: bytes, name: str) -> str:
    mac = hmac.new(key, name.encode(), hashlib.sha256).digest()
    return f"{name}|{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def signed_name(key: bytes, value: str) -> str | None:
    """The name in a signed cookie value, or None when it is unsigned or signed with another key."""
    name, _, _ = value.rpartition("|")
    if not name or not hmac.compare_digest(sign(key, name).encode(), value.encode()):
        return None
    return name


ANY_HOST = "*"  # in `hosts`: every Host header (a wildcard bind, guarded by its token)
LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]"})


def bound_hosts(host: str, port: int) -> frozenset[str]:
    """The `Host` headers a browser sends to an app bound to host:port; ANY_HOST for a wildcard bind,
    which needs a token anyway."""
    if host in ("0.0.0.0", "::", ""):
        return frozenset({ANY_HOST})
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= LOOPBACK
    elif ":" in host:
        names = {f"[{host}]"}
    return frozenset({*names, *(f"{n}:{port}" for n in names)})


def host_check(hosts: Collection[str] | None) -> Callable[[str], bool]:
    """Whether a `Host` header may be served: one of `hosts` (ANY_HOST: all), or, when none are given, a
    loopback name on any port (a DNS-rebinding page names its own host, never one of these)."""
    if hosts is None:
        return lambda header: _host_name(header.lower()) in LOOPBACK
    allowed = frozenset(h.lower() for h in hosts)
    if ANY_HOST in allowed:
        return lambda header: True
    return lambda header: header.lower() in allowed


def _host_name(header: str) -> str:
    """The name part of a Host header: `[::1]:8765` → `[::1]`, `localhost:80` → `localhost`."""
    if header.startswith("["):
        name, bracket, rest = header.partition("]")
        return name + bracket if not rest or rest.startswith(":") else ""
    return header.partition(":")[0]


class ReviewApp:
    """The state behind the routes: one release's queue and the decision store."""

    def __init__(self, queue: ReleaseQueue, store: ReviewStore, token: str | None) -> None:
        self.queue = queue
        self.store = store
        self.token = token
        self.env = Environment(
            loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"])
        )
        self.env.globals.update(
            taxonomy=types(), dimensions=DIMENSIONS, reasons=REJECT_REASONS, types=by_id(), statuses=STATUSES
        )

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(self.env.get_template(name).render(**context), status_code=status)

    def current(self) -> list[Decision]:
        return self.store.current(self.queue.version)

    def current_if_needed(self, filters: Mapping[str, str]) -> list[Decision]:
        """The current decisions when a filter looks at them (status, annotator), else none: cheaper pages."""
        return self.current() if filters.get("status") or filters.get("annotator") else []

    def filtered(
        self, filters: Mapping[str, str], annotator: str, current: list[Decision]
    ) -> list[QueueItem]:
        mine = {d.instance_id: d.decision for d in current if d.annotator == annotator}
        by_someone = {d.instance_id for d in current}
        decided_by = {d.instance_id for d in current if d.annotator == filters.get("annotator")}
        assigned = self.store.assigned(self.queue.version, annotator) if filters.get("mine") else set()
        status = filters.get("status", "")
        out = []
        for item in self.queue.items:
            if filters.get("type") and item.error_type != filters["type"]:
                continue
            if filters.get("dimension") and item.dimension != filters["dimension"]:
                continue
            if filters.get("flag") and filters["flag"] not in (*item.flag_codes, item.reason):
                continue
            if filters.get("annotator") and item.instance_id not in decided_by:
                continue
            if filters.get("mine") and item.instance_id not in assigned:
                continue
            mine_now = mine.get(item.instance_id)
            if status == "todo" and mine_now is not None:
                continue
            if status == "done" and item.instance_id not in by_someone:
                continue
            if status in DECISIONS and mine_now != status:
                continue
            out.append(item)
        return out

    def progress(self, current: list[Decision], annotator: str) -> list[dict[str, Any]]:
        """Per type: queued, decided by anyone, decided by me."""
        total = Counter(i.error_type for i in self.queue.items)
        anyone = {d.instance_id for d in current}
        mine = {d.instance_id for d in current if d.annotator == annotator}
        done = Counter(i.error_type for i in self.queue.items if i.instance_id in anyone)
        done_mine = Counter(i.error_type for i in self.queue.items if i.instance_id in mine)
        return [
            {"type": t, "total": n, "done": done[t], "mine": done_mine[t]} for t, n in sorted(total.items())
        ]

    def stats(self) -> dict[str, Any]:
        current = self.current()
        return {
            "release": self.queue.version,
            "queue": len(self.queue.items),
            "decided": len({d.instance_id for d in current}),
            "agreement": agreement(current, self.queue.dimension_of()),
        }


def _filters(request: Request) -> dict[str, str]:
    return {k: request.query_params.get(k, "")[:40] for k in FILTERS if request.query_params.get(k)}


def _qs(filters: Mapping[str, str]) -> str:
    return ("?" + urlencode(filters)) if filters else ""


def _safe_next(value: str) -> str:
    """Only a path on this site (no scheme, no host, no //) may be a redirect target."""
    parts = urlsplit(value)
    if not value.startswith("/") or value.startswith("//") or parts.scheme or parts.netloc or "\\" in value:
        return "/queue"
    return value


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
    state = ReviewApp(ReleaseQueue(release_dir), store, token or None)
    key = session_key(Path(db_path))
    host_allowed = host_check(hosts)
    app = FastAPI(title="gbtbench review", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.review = state

    @app.exception_handler(ReviewStoreError)
    async def busy(request: Request, exc: ReviewStoreError) -> Response:
        return PlainTextResponse(f"{exc}: nothing was changed; reload the page to try again", 503)

    def _token_given(request: Request) -> bool:
        """Whether any of the presented tokens is the right one (a stale cookie beside a fresh ?token=
        must not lock the annotator out)."""
        assert state.token is not None
        presented = [
            request.query_params.get("token"),
            request.headers.get("authorization", "").removeprefix("Bearer ").strip(),
            request.cookies.get(TOKEN_COOKIE),
        ]
        expected = state.token.encode()
        return any(hmac.compare_digest(p.encode(), expected) for p in presented if p)

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Any]) -> Response:
        if not host_allowed(request.headers.get("host", "")):
            return PlainTextResponse(
                "unexpected Host header: open the review app at the address it serves", 400
            )
        if state.token is not None and not _token_given(request):
            return PlainTextResponse("a review token is required (open the link with ?token=…)", 401)
        if request.method == "POST":
            origin = request.headers.get("origin")
            if origin and origin != f"{request.url.scheme}://{request.url.netloc}":
                return PlainTextResponse("cross-site request refused", 403)
        response: Response = await call_next(request)
        if state.token is not None and request.cookies.get(TOKEN_COOKIE) != state.token:
            response.set_cookie(TOKEN_COOKIE, state.token, httponly=True, samesite="strict")
        if not request.cookies.get(CSRF_COOKIE):
            response.set_cookie(CSRF_COOKIE, _csrf(request), httponly=True, samesite="strict")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
            "frame-ancestors 'none'; base-uri 'none'"
        )
        response.headers["Referrer-Policy"] = "same-origin"
        return response

    def _csrf(request: Request) -> str:
        if not hasattr(request.state, "csrf"):
            request.state.csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        return str(request.state.csrf)

    async def _form(request: Request) -> dict[str, str] | None:
        """The POSTed form if its CSRF token matches the cookie, else None."""
        form = await request.form()
        sent, cookie = str(form.get("csrf", "")), request.cookies.get(CSRF_COOKIE, "")
        if not sent or not cookie or not hmac.compare_digest(sent.encode(), cookie.encode()):
            return None
        return {k: str(v) for k, v in form.items()}

    def _annotator(request: Request) -> str | None:
        name = signed_name(key, request.cookies.get(ANNOTATOR_COOKIE, ""))
        return name if name is not None and _NAME.match(name) else None

    def _login(request: Request) -> RedirectResponse:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse("/login?" + urlencode({"next": target}), 303)

    def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return state.render(
            name,
            status,
            csrf=_csrf(request),
            annotator=_annotator(request),
            release=state.queue.version,
            **context,
        )

    @app.get("/", response_model=None)
    def root() -> RedirectResponse:
        return RedirectResponse("/queue", 303)

    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request, next: str = "/queue") -> HTMLResponse:
        return _page(request, "login.html", next=_safe_next(next), error="")

    @app.post("/login", response_model=None)
    async def login(request: Request) -> Response:
        form = await _form(request)
        if form is None:
            return PlainTextResponse("invalid or missing CSRF token: reload the page", 403)
        name = form.get("name", "").strip()
        if not _NAME.match(name):
            return _page(
                request,
                "login.html",
                422,
                next=_safe_next(form.get("next", "/queue")),
                error="Use 1–40 letters, digits, spaces, dots, @ or hyphens.",
            )
        response = RedirectResponse(_safe_next(form.get("next", "/queue")), 303)
        response.set_cookie(
            ANNOTATOR_COOKIE, sign(key, name), httponly=True, samesite="strict", max_age=30 * 86400
        )
        return response

    @app.post("/logout", response_model=None)
    async def logout(request: Request) -> Response:
        if await _form(request) is None:
            return PlainTextResponse("invalid or missing CSRF token: reload the page", 403)
        response = RedirectResponse("/login", 303)
        response.delete_cookie(ANNOTATOR_COOKIE)
        return response

    @app.get("/queue", response_model=None)
    def queue_page(request: Request, page: int = 1) -> Response:
        annotator = _annotator(request)
        if annotator is None:
            return _login(request)
        filters = _filters(request)
        current = state.current()
        items = state.filtered(filters, annotator, current)
        size = 100
        pages = max(1, (len(items) + size - 1) // size)
        page = max(1, min(page, pages))
        mine = {d.instance_id: d.decision for d in current if d.annotator == annotator}
        votes: dict[str, int] = Counter(d.instance_id for d in current)
        return _page(
            request,
            "queue.html",
            items=items[(page - 1) * size : page * size],
            count=len(items),
            page=page,
            pages=pages,
            filters=filters,
            qs=_qs(filters),
            mine=mine,
            votes=votes,
            progress=state.progress(current, annotator),
            stats=agreement(current, state.queue.dimension_of()),
            annotators=sorted({d.annotator for d in current}),
            flag_codes=sorted({c for i in state.queue.items for c in i.flag_codes}),
            total=len(state.queue.items),
            decided=len({d.instance_id for d in current}),
        )

    def _item_page(request: Request, instance_id: str, status: int = 200, error: str = "") -> Response:
        annotator = _annotator(request)
        if annotator is None:
            return _login(request)
        item = state.queue.by_id.get(instance_id)
        if item is None:
            return _page(request, "missing.html", 404, what="instance")
        filters = _filters(request)
        items = state.filtered(filters, annotator, state.current_if_needed(filters))
        ids = [i.instance_id for i in items]
        at = ids.index(instance_id) if instance_id in ids else -1
        prev_id = ids[at - 1] if at > 0 else None
        next_id = ids[at + 1] if 0 <= at < len(ids) - 1 else (ids[0] if at < 0 and ids else None)
        left, right = diff_segments(item.original_text, item.corrupted_text)
        doc = state.queue.documents.get(item.doc_id)
        anchor = next((s.position for s in doc.sections if s.number == item.location), None) if doc else None
        history = state.store.history(state.queue.version, instance_id)
        mine = next((d for d in reversed(history) if d.annotator == annotator), None)
        return _page(
            request,
            "item.html",
            status,
            item=item,
            doc=doc,
            anchor=anchor,
            left=left,
            right=right,
            neighbours=state.queue.neighbours(item),
            history=history,
            mine=mine,
            position=at + 1,
            count=len(ids),
            prev_id=prev_id,
            next_id=next_id,
            qs=_qs(filters),
            filters=filters,
            error=error,
            type_info=by_id().get(item.error_type),
        )

    @app.get("/item/{instance_id}", response_model=None)
    def item_page(request: Request, instance_id: str) -> Response:
        return _item_page(request, instance_id)

    @app.post("/item/{instance_id}", response_model=None)
    async def decide(request: Request, instance_id: str) -> Response:
        form = await _form(request)
        if form is None:
            return PlainTextResponse("invalid or missing CSRF token: reload the page", 403)
        annotator = _annotator(request)
        if annotator is None:
            return _login(request)
        item = state.queue.by_id.get(instance_id)
        if item is None:
            return _page(request, "missing.html", 404, what="instance")
        try:
            decision = _decision(state.queue, item, annotator, form)
        except ValueError as exc:
            return _item_page(request, instance_id, 422, error=str(exc))
        try:  # in a worker thread: a wait for the database's lock must not hold up the event loop
            await run_in_threadpool(state.store.record, decision)
        except ReviewStoreError as exc:
            message = f"Your decision was NOT saved: {exc}. Submit it again in a moment."
            return await run_in_threadpool(_item_page, request, instance_id, 503, message)
        filters = _filters(request)
        current = await run_in_threadpool(state.current_if_needed, filters)
        ids = [i.instance_id for i in state.filtered(filters, annotator, current)]
        following = ids[ids.index(instance_id) + 1 :] if instance_id in ids else ids
        target = instance_id if form.get("stay") or not following else following[0]
        return RedirectResponse(f"/item/{target}{_qs(filters)}", 303)

    @app.get("/doc/{doc_id}", response_model=None)
    def document_page(request: Request, doc_id: str, at: str = "") -> Response:
        if _annotator(request) is None:
            return _login(request)
        doc = state.queue.documents.get(doc_id)
        if doc is None:
            return _page(request, "missing.html", 404, what="document")
        queued = Counter(i.location for i in state.queue.items if i.doc_id == doc_id)
        return _page(request, "document.html", doc=doc, at=at, queued=queued)

    @app.post("/assign", response_model=None)
    async def assign(request: Request) -> Response:
        form = await _form(request)
        if form is None:
            return PlainTextResponse("invalid or missing CSRF token: reload the page", 403)
        names = [n.strip() for n in form.get("annotators", "").split(",") if n.strip()]
        if not names or not all(_NAME.match(n) for n in names):
            return PlainTextResponse("list annotator names separated by commas", 422)
        try:
            overlap = float(form.get("overlap", "0.3"))
        except ValueError:
            return PlainTextResponse("overlap must be a number between 0 and 1", 422)
        ids = [i.instance_id for i in state.queue.items]
        await run_in_threadpool(
            state.store.assign, state.queue.version, overlap_assignments(ids, names, overlap, seed=0)
        )
        return RedirectResponse("/queue?mine=1", 303)

    @app.get("/api/stats")
    def api_stats() -> JSONResponse:
        return JSONResponse(state.stats())

    @app.get("/static/{name}", response_model=None)
    def static(name: str) -> Response:
        entry = STATIC.get(name)
        if entry is None:
            return PlainTextResponse("not found", 404)
        filename, media = entry
        return Response((HERE / "static" / filename).read_bytes(), media_type=media)

    return app


def _decision(queue: ReleaseQueue, item: QueueItem, annotator: str, form: Mapping[str, str]) -> Decision:
    """A Decision from the form; a fix is checked against the taxonomy and the corrupted document."""
    kind = form.get("decision", "")
    comment = form.get("comment", "").strip()[:2000]
    if kind == "accept":
        return Decision(
            release=queue.version,
            instance_id=item.instance_id,
            annotator=annotator,
            decision="accept",
            comment=comment,
        )
    if kind == "reject":
        reason = form.get("reason", "")
        if reason not in REJECT_REASONS:
            raise ValueError("choose a reason for the rejection")
        return Decision(
            release=queue.version,
            instance_id=item.instance_id,
            annotator=annotator,
            decision="reject",
            reason=reason,
            comment=comment,
        )
    if kind != "fix":
        raise ValueError("unknown decision: accept, reject or fix")
    description = form.get("description", "").strip()
    error_type = form.get("error_type", "").strip() or item.error_type
    known = by_id()
    dimension = form.get("dimension", "").strip() or known.get(error_type, known[item.error_type]).dimension
    location = form.get("location", "").strip() or item.location
    if not description:
        raise ValueError("a fixed description cannot be empty")
    if len(description) > 2000:
        raise ValueError("the description is longer than 2000 characters")
    if error_type not in known:
        raise ValueError(f"{error_type} is not an error type of the taxonomy")
    if known[error_type].dimension != dimension:
        raise ValueError(
            f"{error_type} belongs to dimension {known[error_type].dimension}, not {dimension}: "
            "change the type to one of that dimension"
        )
    if not queue.has_location(item.doc_id, location):
        raise ValueError(f"the corrupted document has no section {location}")
    changed = description != item.description or error_type != item.error_type or location != item.location
    if not changed:
        raise ValueError("nothing was changed: accept the instance instead")
    return Decision(
        release=queue.version,
        instance_id=item.instance_id,
        annotator=annotator,
        decision="fix",
        comment=comment,
        fix_description=description if description != item.description else None,
        fix_error_type=error_type if error_type != item.error_type else None,
        fix_location=location if location != item.location else None,
    )
