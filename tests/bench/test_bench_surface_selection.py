"""`bench/surface_selection.py`: a type's surface AUC beside the same fit with its edits undone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bench.surface_selection import selection, without_edits
from parsers.model import Document
from tests.validation.test_audit import FRESH, appended, injected, standard, write
from validation.audit.release import load_release

# Two families of scopes: harbour machinery and hospital information systems, five documents each.
HARBOUR = ["门座起重机", "岸边集装箱起重机", "轮胎式龙门吊", "散货装船机", "港口斗轮堆取料机"]
HOSPITAL = ["门诊挂号系统", "电子病历系统", "检验信息系统", "医学影像归档系统", "住院护理信息系统"]


def _scoped(n: int, scope: str) -> Document:
    document = standard(n)
    sections = list(document.sections)
    sections[0] = replace(sections[0], text=scope)
    return replace(document, sections=tuple(sections))


def _harbour(k: int) -> Document:
    name = HARBOUR[k]
    return _scoped(
        k,
        f"本文件规定了港口码头{name}的结构、安全装置和验收要求。\n本文件适用于港口码头{name}的设计、制造和验收。",
    )


def _hospital(k: int) -> Document:
    name = HOSPITAL[k]
    return _scoped(
        10 + k,
        f"本文件规定了医疗机构{name}的数据项、接口和运行维护要求。\n本文件适用于医疗机构{name}的建设和运维。",
    )


def test_a_type_given_to_one_family_of_documents_is_told_apart_without_any_edit(tmp_path: Path) -> None:
    """Each harbour scope gets a sentence of words no document uses and no other instance repeats; the
    hospital scopes get nothing. The wording gives nothing away, yet the audit's fit tells the type apart,
    and it does as well with every edit undone: the figure is the choice of documents."""
    results = []
    for k in range(5):
        d = _harbour(k)
        results.append(injected(d, [("SCP-05", appended(d, "1", f"{FRESH[k][0]}{FRESH[k][1]}。"))]))
        results.append(injected(_hospital(k), []))
    found = selection(load_release(write(tmp_path / "r", results)), ["SCP-05"])["SCP-05"]
    assert found.positives == 5
    assert found.without_edits is not None and found.without_edits >= 0.7
    assert found.auc is not None and abs(found.auc - found.without_edits) <= 0.15


def test_a_stock_phrase_is_what_the_fit_finds_once_the_documents_are_mixed(tmp_path: Path) -> None:
    """The same phrase added to scopes of both families: the audit's figure is high, and with the edits
    undone nothing is left to tell the instances' documents from the others."""
    results = []
    for k in range(5):
        harbour, hospital = _harbour(k), _hospital(k)
        marked, plain = (harbour, hospital) if k % 2 else (hospital, harbour)
        results.append(injected(marked, [("SCP-05", appended(marked, "1", "但特殊用途的除外。"))]))
        results.append(injected(plain, []))
    release = load_release(write(tmp_path / "r", results))
    found = selection(release, ["SCP-05"])["SCP-05"]
    assert found.auc is not None and found.auc >= 0.9
    assert found.without_edits is not None and found.without_edits <= 0.6
    # undone means each instance's section is its own original, and the documents are untouched
    undone = without_edits(release)
    assert all(i.corrupted_section == i.original_section for i in undone.instances)
    assert len(undone.instances) == len(release.instances) and undone.documents is release.documents


def test_undoing_leaves_a_deletion_deleted_and_drops_an_insertion(tmp_path: Path) -> None:
    """A deleted section has no corrupted text for the audit to fit, with or without the edit; an inserted
    one has no original that could stand for it."""
    d = _harbour(0)
    release = load_release(write(tmp_path / "r", [injected(d, [("SCP-05", appended(d, "1", "晨雾。"))])]))
    (instance,) = release.instances
    deleted = replace(instance, instance_id="deleted", corrupted_section=None)
    inserted = replace(instance, instance_id="inserted", original_section=None)
    undone = without_edits(replace(release, instances=(instance, deleted, inserted)))
    assert [(i.instance_id, i.corrupted_section) for i in undone.instances] == [
        (instance.instance_id, instance.original_section),
        ("deleted", None),
    ]
