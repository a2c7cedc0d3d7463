"""The queue: the filtered list of items, a page of 100 at a time, with progress per type and agreement
beside it; dividing the queue among annotators; the figures as JSON."""

from __future__ import annotations

from collections import Counter

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from review.agreement import agreement
from review.queue import overlap_assignments
from review.web.guard import checked_form, csrf_refused
from review.web.pages import filters_of, query_string, render_page
from review.web.session import NAME, annotator, to_login
from review.web.state import review_of

PAGE_SIZE = 100
router = APIRouter()


@router.get("/queue", response_model=None)
def queue_page(request: Request, page: int = 1) -> Response:
    state = review_of(request)
    name = annotator(request, state.key)
    if name is None:
        return to_login(request)
    filters = filters_of(request)
    current = state.current()
    items = state.filtered(filters, name, current)
    pages = max(1, (len(items) + PAGE_SIZE - 1) // PAGE_SIZE)
    at = max(1, min(page, pages))
    return render_page(
        request,
        "queue.html",
        items=items[(at - 1) * PAGE_SIZE : at * PAGE_SIZE],
        count=len(items),
        page=at,
        pages=pages,
        filters=filters,
        qs=query_string(filters),
        mine={d.instance_id: d.decision for d in current if d.annotator == name},
        votes=Counter(d.instance_id for d in current),
        progress=state.progress(current, name),
        stats=agreement(current, state.queue.dimension_of()),
        annotators=sorted({d.annotator for d in current}),
        flag_codes=sorted({c for i in state.queue.items for c in i.flag_codes}),
        total=len(state.queue.items),
        decided=len({d.instance_id for d in current}),
    )


@router.post("/assign", response_model=None)
async def assign(request: Request) -> Response:
    form = await checked_form(request)
    if form is None:
        return csrf_refused()
    names = [n.strip() for n in form.get("annotators", "").split(",") if n.strip()]
    if not names or not all(NAME.match(n) for n in names):
        return PlainTextResponse("list annotator names separated by commas", 422)
    try:
        overlap = float(form.get("overlap", "0.3"))
    except ValueError:
        return PlainTextResponse("overlap must be a number between 0 and 1", 422)
    state = review_of(request)
    ids = [i.instance_id for i in state.queue.items]
    await run_in_threadpool(
        state.store.assign, state.queue.version, overlap_assignments(ids, names, overlap, seed=0)
    )
    return RedirectResponse("/queue?mine=1", 303)


@router.get("/api/stats")
def api_stats(request: Request) -> JSONResponse:
    return JSONResponse(review_of(request).stats())
