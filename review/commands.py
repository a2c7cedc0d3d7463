"""What the `review*` commands do, as plain functions the CLI wraps (and tests call)."""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from typing import Any

from review.agreement import agreement
from review.decisions import REVIEWS_NAME
from review.queue import ReleaseQueue, resolve_release
from review.store import ReviewStore

TOKEN_ENV = "GBTBENCH_REVIEW_TOKEN"


class ReviewCommandError(Exception):
    """A review command cannot run; one line for the user."""


def default_db(release_dir: Path) -> Path:
    """reviews.sqlite next to the versions, where `gbtbench build` looks for it."""
    return resolve_release(release_dir).parent / REVIEWS_NAME


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Anyone who can reach a non-loopback address could decide: such a bind needs a token."""
    if not is_loopback(host) and not token:
        raise ReviewCommandError(
            f"refusing to listen on {host} without a token: set {TOKEN_ENV} (annotators open the link "
            "with ?token=…), or bind to 127.0.0.1"
        )


def stats(release_dir: Path, db: Path) -> dict[str, Any]:
    """Decision counts and agreement for one release."""
    queue = ReleaseQueue(release_dir)
    with ReviewStore(db) as store:
        current = store.current(queue.version)
        history = len(store.history(queue.version))
    counts: dict[str, int] = {"accept": 0, "reject": 0, "fix": 0}
    for d in current:
        counts[d.decision] += 1
    return {
        "release": queue.version,
        "queue": len(queue.items),
        "decided_items": len({d.instance_id for d in current}),
        "decisions_current": counts,
        "decisions_history": history,
        "agreement": agreement(current, queue.dimension_of()),
    }


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def stats_text(report: dict[str, Any]) -> str:
    a = report["agreement"]
    c = report["decisions_current"]
    lines = [
        f"release {report['release']}: {report['decided_items']} of {report['queue']} queued items decided "
        f"({c['accept']} accept, {c['reject']} reject, {c['fix']} fix current; "
        f"{report['decisions_history']} decisions in the history)",
        f"annotators: {', '.join(a['annotators']) or 'none'}",
        f"overall: {a['overall']['items']} items decided by two or more; Cohen's kappa "
        f"{_num(a['overall']['kappa'])}, Krippendorff's alpha {_num(a['overall']['alpha'])}",
    ]
    for pair in a["overall"]["pairs"]:
        lines.append(
            f"  {' / '.join(pair['annotators'])}: {pair['items']} items, kappa {_num(pair['kappa'])}"
        )
    for dim, f in a["by_dimension"].items():
        lines.append(f"  {dim}: {f['items']} items, kappa {_num(f['kappa'])}, alpha {_num(f['alpha'])}")
    return "\n".join(lines)


def stats_json(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2)
