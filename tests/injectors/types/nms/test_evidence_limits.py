"""Tests of injectors.types.nms.evidence_limits: a limit value or a safety purpose in a
requirement's own words."""

from __future__ import annotations

from injectors.types.nms.evidence import LIMIT, SAFETY
from injectors.types.nms.evidence_finding import requirement_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from tests.injectors.types.nms.nms_documents import attempts, clause_line, evidence_standard, position


def test_clause_carrying_a_limit_value() -> None:
    document = evidence_standard("柜门的开启力不应大于50 N。")
    (evidence,) = requirement_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "不应")
    )
    assert (evidence.kind, evidence.words) == (LIMIT, "50 N")
    for attempt in attempts(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None
        assert "“不应大于50 N”弱化为推荐“不宜大于50 N”" in instance.description
        assert "限值“50 N”" in instance.description


def test_a_limit_of_the_next_provision_is_not_this_ones() -> None:
    """ "应重发该数据帧，重发次数不应超过3次": the limit belongs to 不应, not to 应."""
    document = evidence_standard("未收到应答时，柜机应重发开门指令，重发次数不应超过3次。")
    line_offset, line, modal = clause_line(document, "4.1", "应重发")
    assert [
        e.kind for e in requirement_evidence(document, position(document, "4.1"), line_offset, line, modal)
    ] == []


def test_clause_with_a_safety_purpose() -> None:
    document = evidence_standard("柜门应设置防夹装置，防止夹伤取件人员。")
    found = requirement_evidence(document, position(document, "4.1"), *clause_line(document, "4.1", "应设置"))
    assert [(e.kind, e.words) for e in found] == [(SAFETY, "防止夹伤")]
