"""References follow structural renumbering only, never the wrong number that is the error.

A chapter deleted, moved or an entry inserted renumbers the document consistently, and its references
follow; a heading given a wrong number (STR-04, TER-05: a modify edit's renames) is the error itself, so
the references to that clause stay as the author wrote them ("见5.2、5.3" never becomes "见5.2、5.2"), and
the audit explains the reference the wrong number leaves dangling by that instance. Written on a standard
written here.
"""

from __future__ import annotations

import random
from pathlib import Path

from injectors.base import Site
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement, apply_edits, followed_renames, replay
from injectors.instance import ErrorInstance
from injectors.joint import default_premise
from injectors.planner import Candidates, finalize
from injectors.registry import injectors
from parsers.model import Document
from parsers.text import parse_text
from validation.audit.integrity import check_document
from validation.audit.release import AuditDocument, AuditInstance

STANDARD = """GB/T 99981—2026
示例温控柜 通用技术条件
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出并归口。
1 范围
本文件规定了示例温控柜的技术要求、试验方法和检验规则。
本文件适用于实验室用示例温控柜的设计、制造和检验。
2 规范性引用文件
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
GB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温
3 术语和定义
下列术语和定义适用于本文件。
3.1
温控柜 temperature control cabinet
能在设定温度下保持柜内温度稳定的试验设备。
4 技术要求
4.1 外观
柜体表面应平整，无划痕和锈蚀。
4.2 温度偏差
温控柜的温度偏差按5.2测得，应不大于2 ℃。
4.3 噪声
温控柜运行时的噪声按5.3测得，应不大于60 dB(A)。
5 试验方法
5.1 外观检查
在自然光下目视检查，结果应符合4.1的规定。
5.2 温度偏差试验
按GB/T 2423.2—2008规定的条件运行温控柜，连续记录30 min。
5.3 噪声测量
在距柜体1 m处测量运行噪声。
6 检验规则
每台温控柜应按第5章逐项检验，检验项目见5.2、5.3，外观见5.1。
"""


def parse(text: str = STANDARD) -> Document:
    return parse_text(Path("renames.txt"), text.encode())


def position(document: Document, number: str) -> int:
    return next(i for i, s in enumerate(document.sections) if s.number == number)


def text_of(document: Document, number: str) -> str:
    found = [s.text for s in document.sections if s.number == number]
    assert found, number
    return found[-1]


def verified(document: Document, error_type: str, site: Site) -> ErrorInstance:
    """The type's own proposal at this site, verified as the planner does."""
    injector = injectors()[error_type]
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None
    instance = injector.verify(Baseline(document), proposal, 0).instance
    assert instance is not None
    return instance


def duplicate_number(document: Document) -> ErrorInstance:
    """STR-04: the last clause of chapter 5 numbered 5.2 again (a duplicate number, the error itself)."""
    instance = verified(document, "STR-04", Site(position(document, "5.3"), ("duplicate", (5, 2))))
    assert instance.edit.op == "modify" and instance.edit.renames == (("5.3", "5.2"),)
    return instance


def removal(document: Document) -> ErrorInstance:
    """STR-01: the normative-references chapter deleted, the later chapters renumbered."""
    at = position(document, "2")
    return verified(document, "STR-01", Site(at, "references"))


def audited(document: Document, instances: list[ErrorInstance]) -> AuditDocument:
    corrupted = apply_edits(document, [i.edit for i in instances]).document
    rows = tuple(
        AuditInstance(
            i.instance_id,
            document.doc_id,
            i.error_type,
            i.location,
            i.original_section,
            i.corrupted_section,
            i.edit,
        )
        for i in instances
    )
    return AuditDocument(document, corrupted, rows)


def test_a_duplicate_number_leaves_the_references_as_written() -> None:
    document = parse()
    instance = duplicate_number(document)
    corrupted = apply_edits(document, [instance.edit]).document
    assert [s.number for s in corrupted.sections if s.number.startswith("5.")] == ["5.1", "5.2", "5.2"]
    # the old bug: "见5.2、5.2" and "按5.2测得" for the noise test
    assert text_of(corrupted, "6") == "每台温控柜应按第5章逐项检验，检验项目见5.2、5.3，外观见5.1。"
    assert text_of(corrupted, "4.3") == "温控柜运行时的噪声按5.3测得，应不大于60 dB(A)。"
    assert followed_renames([instance.edit]) == ()
    # the renamed section's replay agrees with the whole document
    assert replay(instance.edit, instance.original_section) == instance.corrupted_section


def test_the_audit_explains_the_stale_reference_by_the_numbering_error() -> None:
    document = parse()
    instance = duplicate_number(document)
    _, broken, replayed = check_document(audited(document, [instance]))
    assert replayed
    assert {(b.section, b.target, b.status, b.instance_id) for b in broken} == {
        ("4.3", "5.3", "explained", instance.instance_id),
        ("6", "5.3", "explained", instance.instance_id),
    }


def test_a_deletion_renumbers_the_references_but_not_into_the_wrong_number() -> None:
    """Both together: chapter 2 deleted (5 becomes 4, references follow), 5.3 misnumbered 5.2 (they don't)."""
    document = parse()
    wrong, deleted = duplicate_number(document), removal(document)
    assert deleted.edit.op == "remove" and ("5", "4") in deleted.edit.renames
    applied = apply_edits(document, [wrong.edit, deleted.edit])
    corrupted = applied.document
    assert [s.number for s in corrupted.sections if s.number.startswith("4.")] == ["4.1", "4.2", "4.2"]
    assert text_of(corrupted, "5") == "每台温控柜应按第4章逐项检验，检验项目见4.2、4.3，外观见4.1。"
    assert text_of(corrupted, "3.3") == "温控柜运行时的噪声按4.3测得，应不大于60 dB(A)。"
    assert applied.followed == deleted.edit.renames
    # each instance's stored section, replayed with the other's renames, is what the document shows
    for instance, other, section in zip((wrong, deleted), (deleted, wrong), applied.sections, strict=True):
        expected = replay(
            instance.edit, instance.original_section, other.edit.renames, followed_renames([other.edit])
        )
        assert expected == section
    _, broken, replayed = check_document(audited(document, [wrong, deleted]))
    assert replayed
    assert [b for b in broken if b.status != "explained"] == []
    assert {b.target for b in broken} == {"4.3"}


def test_the_planner_assembles_both_with_the_same_rule() -> None:
    document = parse()
    instances = [duplicate_number(document), removal(document)]
    candidates = Candidates(document, Baseline(document), tuple(instances), {}, {})
    result = finalize(candidates, instances)
    assert len(result.instances) == 2  # the numbering error still holds beside the deletion
    assert "检验项目见4.2、4.3" in text_of(result.corrupted, "5")
    for instance in result.instances:
        others = [i.edit for i in result.instances if i is not instance]
        renames = [r for e in others for r in e.renames]
        assert replay(instance.edit, instance.original_section, renames, followed_renames(others)) == (
            instance.corrupted_section
        )


def test_text_an_instance_wrote_follows_only_structural_renames() -> None:
    """The joint premise reads an instance's written reference as the structural renumbering made it."""
    document = parse()
    target = position(document, "6")
    section = document.sections[target]
    start = section.text.index("，外观见5.1")
    edit = Edit("modify", target, (Replacement("text", start, "", "，噪声见5.3"),))
    written = AuditInstance("written", document.doc_id, "SCP-03", "5", section, None, edit)
    deleted = removal(document)
    wrong = duplicate_number(document)
    applied = apply_edits(document, [edit, deleted.edit, wrong.edit])
    now = applied.sections[0]
    assert now is not None and "噪声见4.3" in now.text
    assert default_premise(written, applied.document, now, applied.followed) is None
