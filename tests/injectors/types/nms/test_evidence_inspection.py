"""Tests of injectors.types.nms.evidence_inspection: the inspection rules or a test method naming a clause."""

from __future__ import annotations

from injectors.types.nms.evidence import INSPECTION, TEST_METHOD
from injectors.types.nms.evidence_finding import requirement_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from tests.injectors.types.nms.nms_documents import (
    PLAIN,
    attempts,
    clause_line,
    evidence_standard,
    locker,
    position,
)


def test_clause_listed_by_the_inspection_rules() -> None:
    document = evidence_standard(
        PLAIN,
        inspection="6.2 出厂检验\n出厂检验项目为柜门开启和标志，任一项不合格判该台产品不合格。",
    )
    found = requirement_evidence(document, position(document, "4.1"), *clause_line(document, "4.1", "应采用"))
    assert [e.kind for e in found] == [INSPECTION]
    assert found[0].where == "第6.2条" and "柜门开启" in found[0].words
    for attempt in attempts(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None and instance.location == "4.1"
        assert "第6.2条把该条列为检验项目" in instance.description
        assert "“出厂检验项目为柜门开启和标志”" in instance.description


def test_clause_checked_by_a_test_method_by_number() -> None:
    document = evidence_standard(PLAIN, tests="5.2 开启试验\n按4.1的要求连续开启柜门100次，检查锁闭状态。")
    found = requirement_evidence(document, position(document, "4.1"), *clause_line(document, "4.1", "应采用"))
    assert [(e.kind, e.where) for e in found] == [(TEST_METHOD, "第5.2条")]
    instance = attempts(document, RequirementWeakened())[0].instance
    assert instance is not None and "第5.2条规定了检验该条的试验（“按4.1的要求连续开启柜门100次”）" in (
        instance.description
    )


STRUCTURE = "4.1 结构\n4.1.1\n柜体结构应牢固。\n4.1.2\n柜门上的文字和标志应采用中文书写。"


def test_a_test_that_takes_the_sub_chapter_as_its_conditions_is_no_evidence() -> None:
    document = locker(STRUCTURE, tests="5.2 开门时间\n在4.1的试验条件下连续开启柜门10次，记录每次开门时间。")
    found = requirement_evidence(
        document, position(document, "4.1.2"), *clause_line(document, "4.1.2", "应采用")
    )
    assert found == []


def test_a_test_of_the_sub_chapter_is_no_evidence_for_each_of_its_clauses() -> None:
    document = locker(STRUCTURE, tests="5.2 结构检查\n按4.1的要求检查柜体结构。")
    found = requirement_evidence(
        document, position(document, "4.1.2"), *clause_line(document, "4.1.2", "应采用")
    )
    assert found == []


def test_the_inspection_rules_naming_the_sub_chapter_make_its_clauses_pass_fail_items() -> None:
    document = locker(STRUCTURE, inspection="6.2 出厂检验\n出厂检验项目为4.1，任一项不合格判该台产品不合格。")
    found = requirement_evidence(
        document, position(document, "4.1.2"), *clause_line(document, "4.1.2", "应采用")
    )
    assert [(e.kind, e.where) for e in found] == [(INSPECTION, "第6.2条")]
