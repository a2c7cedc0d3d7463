"""Label Studio interoperability through its JSON formats (the package itself cannot share our venv).

Export: one task per queue item, `{"data": {...}}` with the evidence as task fields, plus the labelling
configuration (XML) whose control names the import understands. Import: Label Studio's "JSON" export of a
project, a list of tasks each with its `annotations` (`result` items from the controls, `completed_by`,
`created_at`), checked as the review app checks its form and written to the review database as ordinary
decisions (source "label-studio").
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from review.decision_form import form_decision  # the app's own check of its form
from review.queue import QueueItem, ReleaseQueue
from review.store import REJECT_REASONS, Decision, ReviewStore

SOURCE = "label-studio"


class LabelStudioError(Exception):
    """A Label Studio file that cannot be imported; the message names the file and the reason."""


def labelling_config() -> str:
    """The labelling interface: the two sections, the description, a decision, a reason, a fix.

    Label Studio reads each object tag's `value` as one task field (`$name`), so the heading and the
    document line are fields of their own (`export_tasks`); the fix's text areas start from the build's
    description, type and location, so that an annotator corrects them rather than retyping them.
    """
    reasons = "\n".join(
        f"      <Choice value={quoteattr(code)} hint={quoteattr(label)}/>"
        for code, label in REJECT_REASONS.items()
    )
    return f"""<View>
  <Header value="$heading"/>
  <Text name="doc" value="$document"/>
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
    <TextArea name="fix_description" toName="corrupted" value="$description"
      maxSubmissions="1" editable="true" placeholder="corrected description"/>
    <TextArea name="fix_error_type" toName="corrupted" value="$error_type"
      maxSubmissions="1" editable="true" placeholder="corrected type, e.g. NMS-02"/>
    <TextArea name="fix_location" toName="corrupted" value="$location"
      maxSubmissions="1" editable="true" placeholder="corrected location, e.g. 5.2"/>
  </View>
  <TextArea name="comment" toName="corrupted" maxSubmissions="1" placeholder="comment"/>
</View>
"""


def export_tasks(queue: ReleaseQueue) -> list[dict[str, Any]]:
    """One Label Studio task per queue item; `release` and `instance_id` bring the answer back home."""
    tasks = []
    for item in queue.items:
        doc = queue.documents.get(item.doc_id)
        standard_id, title = (doc.standard_id, doc.title) if doc else ("", "")
        tasks.append(
            {
                "data": {
                    "release": queue.version,
                    "instance_id": item.instance_id,
                    "doc_id": item.doc_id,
                    "heading": " · ".join([item.error_type, item.dimension, item.location, item.reason]),
                    "document": " ".join(part for part in (standard_id, title) if part) or item.doc_id,
                    "standard_id": standard_id,
                    "title": title,
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


MAX_BYTES = 256 * 1024 * 1024  # far above any project's export; past it, a file is not one


@dataclass(frozen=True)
class Annotation:
    """One completed annotation of an export, as the controls left it."""

    task: int  # position in the file
    release: str
    instance_id: str
    annotator: str
    values: Mapping[str, str]  # control name → the chosen value or text
    decided_at: str  # "" when the annotation carries no readable time


@dataclass(frozen=True)
class ImportResult:
    added: int  # new rows in the database
    known: int  # decisions the database (or the file, earlier) already had
    refused: tuple[str, ...]  # one line per annotation not imported, with the reason


def _shape(path: Path, where: str, what: str) -> LabelStudioError:
    return LabelStudioError(f"{path}: {where}: {what} (not a Label Studio JSON export of our tasks)")


def _text(path: Path, where: str, value: Any) -> str:
    """A string the database can hold (no lone surrogates), or the file is refused."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise _shape(path, where, f"expected text, found {type(value).__name__}")
    text = str(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _shape(path, where, "text that is not valid Unicode (a lone surrogate)") from None
    return text


def _values(path: Path, where: str, results: Any) -> dict[str, str]:
    """from_name → the chosen value or text of each control of one annotation."""
    if not isinstance(results, list):
        raise _shape(path, where, "`result` is not a list")
    out: dict[str, str] = {}
    for n, result in enumerate(results):
        here = f"{where}, result {n}"
        if not isinstance(result, dict) or not isinstance(result.get("value"), dict):
            raise _shape(path, here, "not an object with a `value` object")
        name, value = _text(path, here, result.get("from_name", "")), result["value"]
        chosen = value.get("choices", value.get("text"))
        if chosen is None:
            continue  # a control this import does not read (a region, a rating)
        if isinstance(chosen, list):
            if not chosen:
                continue
            chosen = chosen[0]
        out[name] = _text(path, here, chosen).strip()
    return out


def _annotator(path: Path, where: str, completed_by: Any) -> str:
    """Label Studio writes a user id, or (with user details) an object with an email."""
    if isinstance(completed_by, dict):
        name = completed_by.get("email") or completed_by.get("username") or completed_by.get("id")
        return _text(path, where + ", completed_by", name)
    return f"label-studio-user-{_text(path, where + ', completed_by', completed_by)}"


def _time(value: Any) -> str:
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _load(path: Path) -> Any:
    """The file's JSON, or one line saying why there is none."""
    try:
        if not path.is_file():
            raise LabelStudioError(f"{path}: not a regular file")
        if path.stat().st_size > MAX_BYTES:
            raise LabelStudioError(f"{path}: larger than {MAX_BYTES >> 20} MB: not a Label Studio export")
        return json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise LabelStudioError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except RecursionError:
        raise LabelStudioError(f"{path}: not JSON this import reads (nested too deeply)") from None
    except ValueError as exc:
        raise LabelStudioError(f"{path}: not JSON ({exc})") from None


def read_annotations(path: Path) -> list[Annotation]:
    """The completed (not cancelled) annotations of a Label Studio JSON export; a file of another shape is
    refused whole (LabelStudioError), before anything is imported."""
    path = Path(path)
    tasks = _load(path)
    if not isinstance(tasks, list):
        raise LabelStudioError(f"{path}: not a Label Studio JSON export (expected a list of tasks)")
    found = []
    for n, task in enumerate(tasks):
        data = task.get("data") if isinstance(task, dict) else None
        if not isinstance(data, dict) or not data.get("instance_id") or not data.get("release"):
            raise LabelStudioError(
                f"{path}: task {n} has no data.release / data.instance_id (not our export)"
            )
        release, instance = (
            _text(path, f"task {n}", data["release"]),
            _text(path, f"task {n}", data["instance_id"]),
        )
        annotations = task.get("annotations") or []
        if not isinstance(annotations, list):
            raise _shape(path, f"task {n}", "`annotations` is not a list")
        for k, annotation in enumerate(annotations):
            where = f"task {n}, annotation {k}"
            if not isinstance(annotation, dict):
                raise _shape(path, where, "not an object")
            if annotation.get("was_cancelled"):
                continue
            values = _values(path, where, annotation.get("result") or [])
            found.append(
                Annotation(
                    task=n,
                    release=release,
                    instance_id=instance,
                    annotator=_annotator(path, where, annotation.get("completed_by")),
                    values=values,
                    decided_at=_time(annotation.get("updated_at") or annotation.get("created_at")),
                )
            )
    return found


def _decision(queue: ReleaseQueue, items: Mapping[str, QueueItem], a: Annotation) -> Decision:
    """The annotation as a decision, checked as the review app checks its form (ValueError: why not)."""
    if a.release != queue.version:
        raise ValueError(f"a decision on {a.release}, not on {queue.version}: import it with that release")
    item = items.get(a.instance_id)
    if item is None:
        raise ValueError(f"{a.instance_id} is not an instance of {queue.version}'s review queue")
    kind = a.values.get("decision")
    if kind is None:
        raise ValueError("no decision chosen")
    if not a.decided_at:
        raise ValueError("no readable created_at / updated_at (the time orders decisions)")
    form = {
        "decision": kind,
        "reason": a.values.get("reject_reason", "other"),  # the interface does not insist on a reason
        "comment": a.values.get("comment", ""),
        "description": a.values.get("fix_description") or item.description,
        "error_type": a.values.get("fix_error_type", ""),
        "location": a.values.get("fix_location", ""),
    }
    checked = form_decision(queue, item, a.annotator, form)
    return replace(checked, decided_at=a.decided_at, source=SOURCE)


def _identity(d: Decision) -> tuple[Any, ...]:
    """What makes two decisions the same one: everything but the row id."""
    return (
        d.release,
        d.instance_id,
        d.annotator,
        d.decided_at,
        d.decision,
        d.reason,
        d.comment,
        d.fix_description,
        d.fix_error_type,
        d.fix_location,
    )


def import_annotations(
    path: Path, annotations: Sequence[Annotation], queue: ReleaseQueue, store: ReviewStore
) -> ImportResult:
    """Add the annotations (`read_annotations(path)`) on `queue`'s release to the store, in one transaction;
    those already there (or earlier in the file) are not added again, and each annotation that is not a
    valid decision on this release is listed with the reason instead."""
    items = {i.instance_id: i for i in queue.items}
    known = {_identity(d) for d in store.history(queue.version) if d.source == SOURCE}
    new: list[Decision] = []
    refused: list[str] = []
    repeated = 0
    for a in annotations:
        try:
            decision = _decision(queue, items, a)
        except ValueError as exc:
            refused.append(f"{path}: task {a.task} ({a.instance_id}, {a.annotator}): {exc}")
            continue
        if _identity(decision) in known:
            repeated += 1
            continue
        known.add(_identity(decision))
        new.append(decision)
    store.record_all(sorted(new, key=lambda d: d.decided_at))
    return ImportResult(len(new), repeated, tuple(refused))
