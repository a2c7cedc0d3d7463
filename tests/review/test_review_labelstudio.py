"""Label Studio: the export is what Label Studio's own parser accepts, and the import of its answers is
checked as the review app checks a decision, idempotent, and refuses a file of another shape whole."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from label_studio_sdk.label_interface import LabelInterface
from typer.testing import CliRunner

from flows.cli import app as cli
from injectors.taxonomy import by_id
from review.labelstudio import LabelStudioError, export_tasks, labelling_config, read_annotations
from review.queue import ReleaseQueue
from review.store import ReviewStore
from tests.support.release_data import injected
from tests.support.review_release import write_review_release

runner = CliRunner()


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """A release of its own per test: the review database lives next to it."""
    return write_review_release(tmp_path / "outputs", results=injected(2))


@contextmanager
def working_folder(path: Path) -> Iterator[None]:
    path.mkdir(parents=True, exist_ok=True)
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def annotation(by: Any, controls: dict[str, str], at: str | None = "2026-01-02T10:00:00.000000Z") -> dict:
    """One completed annotation as Label Studio exports it: a `choices` result per choice control, a
    `textarea` result per text area."""
    result = [
        {
            "id": f"r-{name}",
            "from_name": name,
            "to_name": "corrupted",
            "type": "choices" if name in ("decision", "reject_reason") else "textarea",
            "value": {"choices": [value]} if name in ("decision", "reject_reason") else {"text": [value]},
        }
        for name, value in controls.items()
    ]
    found = {"id": abs(hash((str(by), at, tuple(controls.items())))), "completed_by": by, "result": result}
    found |= {"was_cancelled": False, "lead_time": 3.5}
    if at is not None:
        found |= {"created_at": at, "updated_at": at}
    return found


def export_file(path: Path, tasks: list[dict], answers: dict[int, list[dict]]) -> Path:
    """Label Studio's JSON export of a project made from `tasks` once annotated."""
    exported = [
        {"id": n + 1, "data": task["data"], "annotations": answers.get(n, []), "predictions": []}
        for n, task in enumerate(tasks)
    ]
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    return path


def rows(db: Path) -> int:
    with ReviewStore(db) as store:
        return store.count()


def test_label_studio_parses_the_config_and_every_task(release: Path) -> None:
    interface = LabelInterface(labelling_config())
    interface.validate()  # schema, unique names, every toName exists
    tasks = export_tasks(ReleaseQueue(release))
    for tag in interface.objects:  # Label Studio reads a value as one task field: "$a $b" names "a $b"
        assert tag.value_is_variable, f"{tag.name}: {tag.value!r} is not one task field"
    assert tasks and all(interface.validate_task(task) for task in tasks)
    # the heading and the fix's text areas start from task fields too
    config = labelling_config()
    for field in re.findall(r'value="\$(\w+)"', config):
        assert all(isinstance(task["data"].get(field), str) for task in tasks), field
    assert all(task["data"]["heading"] and task["data"]["document"] for task in tasks)
    prefilled = {c.name: c.attr.get("value") for c in interface.controls if c.tag == "TextArea"}
    assert prefilled["fix_description"] == "$description"
    first = tasks[0]["data"]
    assert first["document"].startswith(first["standard_id"]) and first["title"] in first["document"]
    # the answers the import tests write are answers Label Studio itself would accept
    for controls in (
        {"decision": "accept"},
        {"decision": "reject", "reject_reason": "collateral", "comment": "破坏了别处"},
        {"decision": "fix", "fix_description": "错误：新说明", "fix_location": "5.2"},
    ):
        assert interface.validate_annotation(annotation(7, controls))
    assert not interface.validate_annotation(annotation(7, {"decision": "maybe"}))


def test_export_edit_import_round_trip_into_the_database_next_to_the_versions(
    release: Path, tmp_path: Path
) -> None:
    with working_folder(tmp_path / "elsewhere"):  # the default database does not follow the working folder
        exported = runner.invoke(cli, ["review-export", str(release), "--format", "label-studio"])
        assert exported.exit_code == 0, exported.output
        tasks = json.loads((release.parent / "label-studio-tasks-v0.1.0.json").read_text(encoding="utf-8"))
        queue = ReleaseQueue(release)
        assert [t["data"]["instance_id"] for t in tasks] == [i.instance_id for i in queue.items]
        other_type = next(
            t.id for t in by_id().values() if t.id != tasks[3]["data"]["error_type"] and t.id != "?"
        )
        path = export_file(
            tmp_path / "project-1.json",
            tasks,
            {
                0: [annotation(7, {"decision": "accept"})],
                1: [
                    annotation(
                        {"id": 8, "email": "bob@example.org"},
                        {"decision": "reject", "reject_reason": "collateral", "comment": "破坏了别处"},
                    ),
                    {**annotation(7, {}), "was_cancelled": True},
                ],
                2: [annotation(7, {"decision": "fix", "fix_description": "错误：新说明"})],
                3: [annotation(7, {"decision": "fix", "fix_error_type": other_type})],
            },
        )
        result = runner.invoke(cli, ["review-import", str(release), str(path)])
        assert result.exit_code == 0, result.output
        db = release.parent / "reviews.sqlite"
        assert f"4 decisions imported into {db}" in result.stderr
        assert not (tmp_path / "elsewhere" / "outputs").exists()
        stats = runner.invoke(cli, ["review-stats", str(release), "--json"])  # its default: the same file
        assert json.loads(stats.stdout)["decided_items"] == 4
    with ReviewStore(db) as store:
        got = {d.instance_id: d for d in store.current("v0.1.0")}
    ids = [t["data"]["instance_id"] for t in tasks]
    assert got[ids[0]].decision == "accept" and got[ids[0]].annotator == "label-studio-user-7"
    assert (got[ids[1]].decision, got[ids[1]].reason, got[ids[1]].annotator) == (
        "reject",
        "collateral",
        "bob@example.org",
    )
    assert got[ids[1]].comment == "破坏了别处" and got[ids[1]].source == "label-studio"
    assert got[ids[2]].fix_description == "错误：新说明" and got[ids[2]].fix_error_type is None
    assert got[ids[3]].fix_error_type == other_type and got[ids[3]].fix_description is None
    again = runner.invoke(cli, ["review-import", str(release), str(path)])
    assert again.exit_code == 0 and "0 decisions imported" in again.stderr  # importing twice adds nothing
    assert rows(db) == 4


def test_fixes_are_checked_as_the_review_app_checks_them(release: Path, tmp_path: Path) -> None:
    tasks = export_tasks(ReleaseQueue(release))
    good = {"decision": "fix", "fix_description": "错误：人工修订的说明。"}
    path = export_file(
        tmp_path / "project.json",
        tasks,
        {
            0: [annotation("a", {"decision": "fix", "fix_error_type": "NOT-A-TYPE"})],
            1: [annotation("a", {"decision": "fix", "fix_location": "99.99"})],
            2: [annotation("a", {"decision": "fix", "fix_description": tasks[2]["data"]["description"]})],
            3: [annotation("a", {"decision": "reject", "reject_reason": "not-a-reason"})],
            4: [annotation("a", {"decision": "maybe"})],
            5: [annotation("a", good)],
        },
    )
    db = tmp_path / "reviews.sqlite"
    result = runner.invoke(cli, ["review-import", str(release), str(path), "--db", str(db)])
    assert result.exit_code == 1
    refused = [line for line in result.stderr.splitlines() if line.startswith("ERROR: ")]
    assert len(refused) == 5 and all(str(path) in line for line in refused)
    for n, reason in enumerate(
        [
            "NOT-A-TYPE is not an error type of the taxonomy",
            "the corrupted document has no section 99.99",
            "nothing was changed",
            "choose a reason for the rejection",
            "unknown decision",
        ]
    ):
        assert f"task {n} " in refused[n] and reason in refused[n]
    assert "1 decisions imported" in result.stderr and "5 not imported" in result.stderr
    with ReviewStore(db) as store:
        [only] = store.history()
    assert only.instance_id == tasks[5]["data"]["instance_id"]


def test_import_is_idempotent_and_checked_against_the_release(release: Path, tmp_path: Path) -> None:
    tasks = export_tasks(ReleaseQueue(release))
    stranger = {"data": {**tasks[1]["data"], "instance_id": "0000000000000000"}}
    later = {"data": {**tasks[2]["data"], "release": "v9.9.9"}}
    twice = annotation("a", {"decision": "accept"})
    path = export_file(
        tmp_path / "project.json",
        [*tasks[:1], stranger, later],
        {
            0: [twice, twice, annotation("b", {"decision": "accept"}, at=None)],
            1: [annotation("a", {"decision": "accept"})],
            2: [annotation("a", {"decision": "accept"})],
        },
    )
    db = tmp_path / "reviews.sqlite"
    said = []
    for _ in range(2):
        result = runner.invoke(cli, ["review-import", str(release), str(path), "--db", str(db)])
        assert result.exit_code == 1
        assert rows(db) == 1, "a repeated annotation is one decision; one without a time is not imported"
        said.append(result.stderr.splitlines()[-1])
    assert "1 decisions imported" in said[0] and "(1 already there); 3 not imported" in said[0]
    assert "0 decisions imported" in said[1] and "(2 already there); 3 not imported" in said[1]
    assert "no readable created_at" in result.stderr
    assert "0000000000000000 is not an instance of v0.1.0's review queue" in result.stderr
    assert "a decision on v9.9.9, not on v0.1.0" in result.stderr


def _after_a_valid_task(*tail: Any) -> Callable[[dict], bytes]:
    """A file whose first task is a valid, annotated one (nothing of it may be written), then `tail`, each
    a function of a valid task's data."""

    def made(data: dict) -> bytes:
        valid = {"id": 1, "data": data, "annotations": [annotation("a", {"decision": "accept"})]}
        return json.dumps([valid, *(t(data) for t in tail)]).encode()

    return made


def _task(annotations: Any) -> Callable[[dict], dict]:
    return lambda data: {"data": data, "annotations": annotations}


def _result(*results: Any) -> Callable[[dict], dict]:
    return _task([{"result": list(results)}])


HOSTILE: dict[str, Callable[[dict], bytes]] = {
    "not-json": lambda _: b"{not json",
    "not-utf8": lambda _: b'[{"data": "\xff\xfe"}]',
    "an-object": lambda _: b'{"tasks": []}',
    "numbers": lambda _: b"[1, 2, 3]",
    "data-not-an-object": lambda _: b'[{"data": 5}]',
    "no-instance-id": lambda _: b'[{"data": {"release": "v0.1.0"}, "annotations": []}]',
    "annotations-a-number": _after_a_valid_task(_task(5)),
    "annotation-a-number": _after_a_valid_task(_task([5])),
    "result-a-string": _after_a_valid_task(_task([{"result": "x"}])),
    "value-a-number": _after_a_valid_task(_result({"from_name": "decision", "value": 3})),
    "choice-an-object": _after_a_valid_task(
        _result({"from_name": "decision", "value": {"choices": [{"a": 1}]}})
    ),
    "lone-surrogate": _after_a_valid_task(_result({"from_name": "comment", "value": {"text": ["\ud800"]}})),
    "deep-nesting": lambda _: b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_one_line_and_imports_nothing(name: str, release: Path, tmp_path: Path) -> None:
    tasks = export_tasks(ReleaseQueue(release))
    path = tmp_path / f"{name}.json"
    path.write_bytes(HOSTILE[name](tasks[0]["data"]))
    db = tmp_path / "reviews.sqlite"
    result = runner.invoke(cli, ["review-import", str(release), str(path), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ERROR: {path}: "), result.stderr
    assert not db.exists(), "nothing written, not even an empty database"


def test_a_folder_or_a_missing_file_is_refused(release: Path, tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / "missing.json"):
        with pytest.raises(LabelStudioError, match=re.escape(str(path))):
            read_annotations(path)
