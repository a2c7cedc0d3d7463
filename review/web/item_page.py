"""The evidence: one item with its two sections side by side (the change highlighted), its neighbours, its
history and the decision form; and the corrupted document it sits in, anchored at its location."""

from __future__ import annotations

from collections import Counter

from fastapi import APIRouter, Request
from fastapi.responses import Response

from injectors.taxonomy import by_id
from review.queue import diff_segments
from review.web.pages import filters_of, missing, query_string, render_page
from review.web.session import annotator, to_login
from review.web.state import review_of

router = APIRouter()


def item_page(request: Request, instance_id: str, status: int = 200, error: str = "") -> Response:
    """The item's page; `error` (with its status) says why the decision just posted was not taken."""
    state = review_of(request)
    name = annotator(request, state.key)
    if name is None:
        return to_login(request)
    item = state.queue.by_id.get(instance_id)
    if item is None:
        return missing(request, "instance")
    filters = filters_of(request)
    ids = [i.instance_id for i in state.filtered(filters, name, state.current_if_needed(filters))]
    at = ids.index(instance_id) if instance_id in ids else -1
    left, right = diff_segments(item.original_text, item.corrupted_text)
    doc = state.queue.documents.get(item.doc_id)
    anchor = next((s.position for s in doc.sections if s.number == item.location), None) if doc else None
    history = state.store.history(state.queue.version, instance_id)
    return render_page(
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
        mine=next((d for d in reversed(history) if d.annotator == name), None),
        position=at + 1,
        count=len(ids),
        prev_id=ids[at - 1] if at > 0 else None,
        next_id=ids[at + 1] if 0 <= at < len(ids) - 1 else (ids[0] if at < 0 and ids else None),
        qs=query_string(filters),
        filters=filters,
        error=error,
        type_info=by_id().get(item.error_type),
    )


@router.get("/item/{instance_id}", response_model=None)
def show_item(request: Request, instance_id: str) -> Response:
    return item_page(request, instance_id)


@router.get("/doc/{doc_id}", response_model=None)
def document_page(request: Request, doc_id: str, at: str = "") -> Response:
    state = review_of(request)
    if annotator(request, state.key) is None:
        return to_login(request)
    doc = state.queue.documents.get(doc_id)
    if doc is None:
        return missing(request, "document")
    queued = Counter(i.location for i in state.queue.items if i.doc_id == doc_id)
    return render_page(request, "document.html", doc=doc, at=at, queued=queued)
