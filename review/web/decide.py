"""Taking a decision: the posted form is checked (CSRF, the signed-in annotator, the taxonomy and the
document for a fix), stored off the event loop, and the annotator moves on to the next item of the same
filtered queue, or is told plainly that the decision was not saved."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from review.decision_form import form_decision
from review.store import ReviewStoreError
from review.web.guard import checked_form, csrf_refused
from review.web.item_page import item_page
from review.web.pages import filters_of, missing, query_string, store_problem
from review.web.session import annotator, to_login
from review.web.state import review_of

router = APIRouter()


@router.post("/item/{instance_id}", response_model=None)
async def decide(request: Request, instance_id: str) -> Response:
    form = await checked_form(request)
    if form is None:
        return csrf_refused()
    state = review_of(request)
    name = annotator(request, state.key)
    if name is None:
        return to_login(request)
    item = state.queue.by_id.get(instance_id)
    if item is None:
        return missing(request, "instance")
    try:
        decision = form_decision(state.queue, item, name, form)
    except ValueError as exc:  # the page shown again reads the history: in a worker thread as well
        return await run_in_threadpool(item_page, request, instance_id, 422, str(exc))
    try:  # in a worker thread: a wait for the database's lock must not hold up the event loop
        await run_in_threadpool(state.store.record, decision)
    except ReviewStoreError as exc:
        message = f"Your decision was NOT saved: {store_problem(request, exc)}. Submit it again in a moment."
        return await run_in_threadpool(item_page, request, instance_id, 503, message)
    filters = filters_of(request)
    following = await run_in_threadpool(_following, request, instance_id, name, filters)
    target = instance_id if form.get("stay") or not following else following[0]
    return RedirectResponse(f"/item/{target}{query_string(filters)}", 303)


def _following(request: Request, instance_id: str, name: str, filters: dict[str, str]) -> list[str]:
    """The items after this one in the annotator's filtered queue (all of it when this one left it); the
    filters may read the decisions and the assignments, so this runs in a worker thread."""
    state = review_of(request)
    ids = [i.instance_id for i in state.filtered(filters, name, state.current_if_needed(filters))]
    return ids[ids.index(instance_id) + 1 :] if instance_id in ids else ids
