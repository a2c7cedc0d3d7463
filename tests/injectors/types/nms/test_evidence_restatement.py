"""Tests of injectors.types.nms.evidence_restatement: the same provision stated again elsewhere, before a
requirement or after a recommendation, under the same headings but for a grade."""

from __future__ import annotations

from injectors.types.nms.evidence import RESTATED
from injectors.types.nms.evidence_finding import requirement_evidence
from tests.injectors.types.nms.nms_documents import (
    access_document,
    clause_line,
    evidence_at,
    locker,
    position,
    strengthened_attempts,
)

GRADED = """4 第一级安全要求
4.1 线缆保护
门禁控制线缆宜采用阻燃护套。
5 第二级安全要求
5.1 线缆保护
a) 应将门禁控制线缆敷设在隐蔽处；门禁控制线缆可敷设在金属线槽或穿管保护中。
5.2 供电
控制器宜由不同的供电回路供电。
6 第三级安全要求
6.1 线缆保护
a) 应将门禁控制线缆敷设在隐蔽处；门禁控制线缆可敷设在金属线槽或穿管保护中；
6.2 供电
控制器宜由不同的供电回路供电，并配备后备电源。
"""


def test_a_provision_restated_at_a_higher_grade_is_evidence() -> None:
    """Required at grade two while grade three still only permits it: the document contradicts itself."""
    doc = access_document(GRADED)
    found = evidence_at(doc, "5.1", "可")
    assert [(e.kind, e.where) for e in found] == [(RESTATED, "第6.1条")]
    assert "可敷设在金属线槽或穿管保护中" in found[0].words
    for attempt in strengthened_attempts(doc):
        instance = attempt.instance
        assert instance is not None and instance.location == "5.1"
        assert "第6.1条对同一事项的相同规定" in instance.description
        assert "“门禁控制线缆可敷设在金属线槽或穿管保护中”" in instance.description


def test_the_highest_statement_and_a_different_sentence_are_no_evidence() -> None:
    """A higher grade may require what a lower one permits (6.1 is last); 6.2 adds a backup supply, so
    5.2 and 6.2 are two provisions; 4.1 is said once."""
    doc = access_document(GRADED)
    assert evidence_at(doc, "6.1", "可") == []
    assert evidence_at(doc, "5.2", "宜") == []
    assert evidence_at(doc, "4.1", "宜") == []


def test_the_same_sentence_for_two_subjects_is_no_evidence() -> None:
    """Under "主入口" and "次入口" the same sentence binds two subjects, which may carry two strengths."""
    doc = access_document(
        """4 主入口
4.1 一般规定
当通行人数较少时，可以按照设定的时段开放通道。
5 次入口
5.1 一般规定
当通行人数较少时，可以按照设定的时段开放通道。
"""
    )
    assert evidence_at(doc, "4.1", "可以") == []
    assert all(a.instance is None for a in strengthened_attempts(doc))


GRADES = (
    "4.1 第一级要求\n4.1.1 开门记录\n智能柜应记录每次开门的时间和柜门编号。\n"
    "4.2 第二级要求\n4.2.1 开门记录\n智能柜应记录每次开门的时间和柜门编号。"
)


def test_the_same_provision_at_a_lower_grade_is_evidence_and_not_the_other_way_round() -> None:
    document = locker(GRADES)
    found = requirement_evidence(
        document, position(document, "4.2.1"), *clause_line(document, "4.2.1", "应记录")
    )
    assert [(e.kind, e.where) for e in found] == [(RESTATED, "第4.1.1条")]
    assert "智能柜应记录每次开门的时间和柜门编号" in found[0].words
    earlier = requirement_evidence(
        document, position(document, "4.1.1"), *clause_line(document, "4.1.1", "应记录")
    )
    assert earlier == []
