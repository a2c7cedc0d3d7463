"""A decision from the fields of the review form, checked as the web app checks it; Label Studio's import
fills the same fields, so both reach the database through this one check."""

from __future__ import annotations

from collections.abc import Mapping

from injectors.taxonomy import by_id
from review.queue import QueueItem, ReleaseQueue
from review.store import REJECT_REASONS, Decision


def form_decision(queue: ReleaseQueue, item: QueueItem, annotator: str, form: Mapping[str, str]) -> Decision:
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
