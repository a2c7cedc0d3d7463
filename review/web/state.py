"""The state behind the routes: one release's queue, the decision store, the templates and the settings
the guard checks; the queue's filters, progress and agreement figures are computed here from them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from injectors.taxonomy import DIMENSIONS, by_id, types
from review.agreement import agreement
from review.queue import QueueItem, ReleaseQueue
from review.store import DECISIONS, REJECT_REASONS, Decision, ReviewStore

PACKAGE = Path(__file__).resolve().parent.parent  # review/: its templates/ and static/
STATUSES = ("todo", "done", "accept", "reject", "fix")


def _templates() -> Environment:
    """Autoescaped templates: every document string reaches the page HTML-escaped."""
    env = Environment(loader=FileSystemLoader(PACKAGE / "templates"), autoescape=select_autoescape(["html"]))
    env.globals.update(
        taxonomy=types(), dimensions=DIMENSIONS, reasons=REJECT_REASONS, types=by_id(), statuses=STATUSES
    )
    return env


@dataclass(frozen=True)
class ReviewApp:
    """One release's queue and the decision store, with what the guard needs to check each request."""

    queue: ReleaseQueue
    store: ReviewStore
    token: str | None
    key: bytes  # signs annotator names
    host_allowed: Callable[[str], bool]
    env: Environment = field(default_factory=_templates)

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


def review_of(request: Request) -> ReviewApp:
    """The state of the app serving this request."""
    state: ReviewApp = request.app.state.review
    return state
