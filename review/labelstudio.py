"""Label Studio interoperability through its JSON formats (the package itself cannot share our venv).

Export: one task per queue item, `{"data": {...}}` with the evidence as task fields, plus the labelling
configuration (XML) whose control names the import understands. Import: Label Studio's "JSON" export of a
project, a list of tasks each with its `annotations` (`result` items from the controls, `completed_by`,
`created_at`), written to the review database as ordinary decisions (source "label-studio").
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from review.queue import ReleaseQueue
from review.store import REJECT_REASONS, Decision, ReviewStore

SOURCE = "label-studio"


class LabelStudioError(Exception):
    """A Label Studio file that cannot be imported; the message names the file and the reason."""


def labelling_config() -> str:
    """The labelling interface: the two sections, the description, a decision, a reason, a fix."""
    reasons = "\n".join(
        f"      <Choice value={quoteattr(code)} hint={quoteattr(label)}/>"
        for code, label in REJECT_REASONS.items()
    )
    return f"""<View>
  <Header value="$error_type · $dimension · $location · $reason"/>
  <Text name="doc" value="$standard_id $title"/>
  <Header value="Original" size="5"/>
  <Text name="original" value="$original_text"/>
  <Header value="Corrupted" size="5"/>
  <Text name="corrupted" value="$corrupted_text"/>
  <Header value="Description" size="5"/>
  <Text name="description" value="$description"/>
  <Choices name="decision" toName="corrupted" choice="single" required="true" showInline="true">
    <Choice value="accept" hotkey="a"/>
    <Choice value="reject" hotkey="r"/>
    <Choice value="fix" hotkey="f"/>
  </Choices>
  <View visibleWhen="choice-selected" whenTagName="decision" whenChoiceValue="reject">
    <Choices name="reject_reason" toName="corrupted" choice="single">
{reasons}
    </Choices>
  </View>
  <View visibleWhen="choice-selected" whenTagName="decision" whenChoiceValue="fix">
    <TextArea name="fix_description" toName="corrupted"
      maxSubmissions="1" editable="true" placeholder="corrected description"/>
    <TextArea name="fix_error_type" toName="corrupted"
      maxSubmissions="1" placeholder="corrected type, e.g. NMS-02"/>
    <TextArea name="fix_location" toName="corrupted"
      maxSubmissions="1" placeholder="corrected location, e.g. 5.2"/>
  </View>
  <TextArea name="comment" toName="corrupted" maxSubmissions="1" placeholder="comment"/>
</View>
"""


def export_tasks(queue: ReleaseQueue) -> list[dict[str, Any]]:
    """One Label Studio task per queue item; `release` and `instance_id` bring the answer back home."""
    tasks = []
    for item in queue.items:
        doc = queue.documents.get(item.doc_id)
        tasks.append(
            {
                "data": {
                    "release": queue.version,
                    "instance_id": item.instance_id,
                    "doc_id": item.doc_id,
                    "standard_id": doc.standard_id if doc else "",
                    "title": doc.title if doc else "",
                    "error_type": item.error_type,
                    "dimension": item.dimension,
                    "location": item.location,
                    "reason": item.reason,
                    "flags": ", ".join(f"{c}: {m}" if m else c for c, m in item.flags),
                    "description": item.description,
                    "original_text": item.original_text or "",
                    "corrupted_text": item.corrupted_text or "",
                }
            }
        )
    return tasks


@dataclass(frozen=True)
class Exported:
    tasks: Path
    config: Path
    count: int


def write_export(queue: ReleaseQueue, out_dir: Path) -> Exported:
    """`tasks.json` (import it into a project) and `labelling_config.xml` (paste it as the interface)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tasks = export_tasks(queue)
    tasks_path = out_dir / f"label-studio-tasks-{queue.version}.json"
    config_path = out_dir / "label-studio-config.xml"
    tasks_path.write_text(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    config_path.write_text(labelling_config(), encoding="utf-8")
    return Exported(tasks_path, config_path, len(tasks))


def _values(results: Iterable[dict[str, Any]]) -> dict[str, str]:
    """from_name → the chosen value or text of each control of one annotation."""
    out: dict[str, str] = {}
    for result in results:
        value = result.get("value") or {}
        name = str(result.get("from_name", ""))
        if value.get("choices"):
            out[name] = str(value["choices"][0])
        elif value.get("text"):
            text = value["text"]
            out[name] = str(text[0] if isinstance(text, list) else text).strip()
    return out


def _annotator(completed_by: Any) -> str:
    """Label Studio writes a user id, or (with user details) an object with an email."""
    if isinstance(completed_by, dict):
        name = completed_by.get("email") or completed_by.get("username") or completed_by.get("id")
        return str(name)
    return f"label-studio-user-{completed_by}"


def _time(value: Any) -> str:
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def read_export(path: Path) -> list[Decision]:
    """The completed (not cancelled) annotations of a Label Studio JSON export as decisions."""
    path = Path(path)
    try:
        tasks = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LabelStudioError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise LabelStudioError(f"{path}: not JSON ({exc})") from None
    except RecursionError:
        raise LabelStudioError(f"{path}: nested too deeply to be a Label Studio export") from None
    if not isinstance(tasks, list):
        raise LabelStudioError(f"{path}: not a Label Studio JSON export (expected a list of tasks)")
    decisions = []
    for n, task in enumerate(tasks):
        data = task.get("data") if isinstance(task, dict) else None
        if not isinstance(data, dict) or not data.get("instance_id") or not data.get("release"):
            raise LabelStudioError(
                f"{path}: task {n} has no data.release / data.instance_id (not our export)"
            )
        for annotation in task.get("annotations") or []:
            if annotation.get("was_cancelled"):
                continue
            values = _values(annotation.get("result") or [])
            kind = values.get("decision")
            if kind is None:
                continue  # skipped without a decision
            try:
                decisions.append(
                    Decision(
                        release=str(data["release"]),
                        instance_id=str(data["instance_id"]),
                        annotator=_annotator(annotation.get("completed_by")),
                        decision=kind,
                        reason=values.get("reject_reason", "other") if kind == "reject" else "",
                        comment=values.get("comment", ""),
                        fix_description=values.get("fix_description") if kind == "fix" else None,
                        fix_error_type=values.get("fix_error_type") if kind == "fix" else None,
                        fix_location=values.get("fix_location") if kind == "fix" else None,
                        decided_at=_time(annotation.get("updated_at") or annotation.get("created_at")),
                        source=SOURCE,
                    )
                )
            except ValueError as exc:
                raise LabelStudioError(f"{path}: task {n}: {exc}") from None
    return sorted(decisions, key=lambda d: d.decided_at)


def import_export(path: Path, store: ReviewStore) -> int:
    """Append the export's decisions to the store; importing the same file twice adds nothing new."""
    known = {
        (d.release, d.instance_id, d.annotator, d.decided_at, d.decision)
        for d in store.history()
        if d.source == SOURCE
    }
    added = 0
    for d in read_export(path):
        if (d.release, d.instance_id, d.annotator, d.decided_at, d.decision) in known:
            continue
        store.record(d)
        added += 1
    return added
