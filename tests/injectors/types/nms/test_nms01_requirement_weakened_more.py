"""NMS-01's evidence shows that the weakened clause itself was a requirement: the same actor bound to the
same object at the requirement grade (the same provision stated earlier, a list sibling with the same
actor and object, a lead-in binding it with every item of its list), the inspection rules naming it or its
sub-chapter, a test of the clause itself. A sibling with another subject or object is none ("a) 柜门应…；
b) 显示屏宜…" is a plausible list), nor is a test that takes the clause's sub-chapter as its conditions
("在4.1的试验条件下")."""

from __future__ import annotations

from pathlib import Path

from injectors.types.nms.evidence import INSPECTION, LEAD_IN, RESTATED, requirement_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nms.nms_documents import attempts
from tests.injectors.types.nms.test_evidence import _line, position


def locker(clauses: str, tests: str = "", inspection: str = "") -> Document:
    """A made-up parcel locker standard: `clauses` under chapter 4, test methods (5), inspection (6)."""
    text = f"""GB/T 99907—2025
社区 快递 智能柜 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了社区快递智能柜的技术要求。
本文件适用于社区内设置的快递智能柜。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
{clauses}
5 试验方法
5.1 试验条件
试验在常温常湿的室内进行。
{tests}
6 检验规则
6.1 检验分类
智能柜的检验分为出厂检验和型式检验。
{inspection}
"""
    return parse_text(Path("locker.txt"), text.encode())


STRUCTURE = "4.1 结构\n4.1.1\n柜体结构应牢固。\n4.1.2\n柜门上的文字和标志应采用中文书写。"


def test_a_test_that_takes_the_sub_chapter_as_its_conditions_is_no_evidence() -> None:
    document = locker(STRUCTURE, tests="5.2 开门时间\n在4.1的试验条件下连续开启柜门10次，记录每次开门时间。")
    found = requirement_evidence(document, position(document, "4.1.2"), *_line(document, "4.1.2", "应采用"))
    assert found == []


def test_a_test_of_the_sub_chapter_is_no_evidence_for_each_of_its_clauses() -> None:
    document = locker(STRUCTURE, tests="5.2 结构检查\n按4.1的要求检查柜体结构。")
    found = requirement_evidence(document, position(document, "4.1.2"), *_line(document, "4.1.2", "应采用"))
    assert found == []


def test_the_inspection_rules_naming_the_sub_chapter_make_its_clauses_pass_fail_items() -> None:
    document = locker(STRUCTURE, inspection="6.2 出厂检验\n出厂检验项目为4.1，任一项不合格判该台产品不合格。")
    found = requirement_evidence(document, position(document, "4.1.2"), *_line(document, "4.1.2", "应采用"))
    assert [(e.kind, e.where) for e in found] == [(INSPECTION, "第6.2条")]


def test_a_sibling_with_another_subject_or_object_is_no_evidence() -> None:
    document = locker(
        "4.1 柜门\n柜门和显示屏的材料与功能如下：\na) 柜门应采用金属材料制作；\nb) 显示屏应具有背光功能。"
    )
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "显示屏应"))
    assert found == []
    line = "柜门应采用金属材料制作，显示屏应具有背光功能。"
    document = locker(f"4.1 柜门\n{line}")
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "显示屏应"))
    assert found == []


GRADES = (
    "4.1 第一级要求\n4.1.1 开门记录\n智能柜应记录每次开门的时间和柜门编号。\n"
    "4.2 第二级要求\n4.2.1 开门记录\n智能柜应记录每次开门的时间和柜门编号。"
)


def test_the_same_provision_at_a_lower_grade_is_evidence_and_not_the_other_way_round() -> None:
    document = locker(GRADES)
    found = requirement_evidence(document, position(document, "4.2.1"), *_line(document, "4.2.1", "应记录"))
    assert [(e.kind, e.where) for e in found] == [(RESTATED, "第4.1.1条")]
    assert "智能柜应记录每次开门的时间和柜门编号" in found[0].words
    earlier = requirement_evidence(document, position(document, "4.1.1"), *_line(document, "4.1.1", "应记录"))
    assert earlier == []


def test_a_lead_in_binding_every_item_is_evidence_for_each_of_them() -> None:
    """The lead-in binds the items' actor to each item as a requirement: in a list of the same clause, or
    closing the parent of numbered sub-clauses; "一般应符合下列规定" leaves room for exceptions."""
    items = "4.1 柜门\n柜门应符合下列要求：\na) 柜门应采用金属材料制作；\nb) 柜门应能在断电时手动开启。"
    document = locker(items)
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "柜门应能"))
    assert [(e.kind, e.words, e.where) for e in found] == [(LEAD_IN, "柜门应符合下列要求", "本条")]
    hedged = locker(items.replace("柜门应符合", "柜门一般应符合"))
    assert requirement_evidence(hedged, position(hedged, "4.1"), *_line(hedged, "4.1", "柜门应能")) == []
    clauses = "4.1 结构\n柜体结构必须满足以下各项要求。\n4.1.1\n柜体应采用钢板焊接。\n"
    clauses += "4.1.2\n柜门上的标志应采用中文。"
    document = locker(clauses)
    found = requirement_evidence(document, position(document, "4.1.2"), *_line(document, "4.1.2", "应采用"))
    assert [(e.kind, e.where) for e in found] == [(LEAD_IN, "第4.1条")]
    for attempt in attempts(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None
        if instance.location == "4.1.2":
            assert "第4.1条以“柜体结构必须满足以下各项要求”引出所列各项" in instance.description


def test_no_lead_in_evidence_where_provisions_may_permit_or_another_item_recommends() -> None:
    """ "应符合下列规定" may introduce permissions too; an item already recommending (宜) shows the lead-in
    is not meant for every item."""
    items = "4.1 柜门\n柜门应符合下列规定：\na) 柜门应采用金属材料制作；\nb) 柜门应能在断电时手动开启。"
    document = locker(items)
    assert (
        requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "柜门应能")) == []
    )
    mixed = "4.1 柜门\n柜门应符合下列要求：\na) 柜门宜采用金属材料制作；\nb) 柜门应能在断电时手动开启。"
    document = locker(mixed)
    assert (
        requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "柜门应能")) == []
    )
