"""Tests of injectors.types.nms.evidence_lead_in: a lead-in binding every item of its list
as a requirement."""

from __future__ import annotations

from injectors.types.nms.evidence import LEAD_IN
from injectors.types.nms.evidence_finding import requirement_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from tests.injectors.types.nms.nms_documents import attempts, clause_line, locker, position


def test_a_lead_in_binding_every_item_is_evidence_for_each_of_them() -> None:
    """The lead-in binds the items' actor to each item as a requirement: in a list of the same clause, or
    closing the parent of numbered sub-clauses; "一般应符合下列规定" leaves room for exceptions."""
    items = "4.1 柜门\n柜门应符合下列要求：\na) 柜门应采用金属材料制作；\nb) 柜门应能在断电时手动开启。"
    document = locker(items)
    found = requirement_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "柜门应能")
    )
    assert [(e.kind, e.words, e.where) for e in found] == [(LEAD_IN, "柜门应符合下列要求", "本条")]
    hedged = locker(items.replace("柜门应符合", "柜门一般应符合"))
    assert (
        requirement_evidence(hedged, position(hedged, "4.1"), *clause_line(hedged, "4.1", "柜门应能")) == []
    )
    clauses = "4.1 结构\n柜体结构必须满足以下各项要求。\n4.1.1\n柜体应采用钢板焊接。\n"
    clauses += "4.1.2\n柜门上的标志应采用中文。"
    document = locker(clauses)
    found = requirement_evidence(
        document, position(document, "4.1.2"), *clause_line(document, "4.1.2", "应采用")
    )
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
        requirement_evidence(document, position(document, "4.1"), *clause_line(document, "4.1", "柜门应能"))
        == []
    )
    mixed = "4.1 柜门\n柜门应符合下列要求：\na) 柜门宜采用金属材料制作；\nb) 柜门应能在断电时手动开启。"
    document = locker(mixed)
    assert (
        requirement_evidence(document, position(document, "4.1"), *clause_line(document, "4.1", "柜门应能"))
        == []
    )
