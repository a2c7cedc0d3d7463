"""Tests of injectors.final_descriptions: a description holds on the document as all its errors leave it."""

from __future__ import annotations

from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.final_descriptions import misattributed
from injectors.joint import kept_together
from injectors.planner import PlanConfig, candidate_instances
from tests.injectors.types.nms.nms_documents import access_document

# the same permission at three grades: each grade's clause is evidence for the grade below it
THREE_GRADES = """4 第一级安全要求
4.1 线缆保护
a) 应将读卡器连接线缆敷设在隐蔽处；读卡器连接线缆可敷设在金属线槽或穿管保护中。
5 第二级安全要求
5.1 线缆保护
a) 应将读卡器连接线缆敷设在隐蔽处；读卡器连接线缆可敷设在金属线槽或穿管保护中；
6 第三级安全要求
6.1 线缆保护
a) 应将读卡器连接线缆敷设在隐蔽处；读卡器连接线缆可敷设在金属线槽或穿管保护中；
"""

ONLY_NMS02 = PlanConfig(min_errors=1, max_errors=18, types=("NMS-02",))


def test_a_quote_placed_in_a_clause_another_error_changed_no_longer_holds() -> None:
    """4.1 and 5.1 strengthened together: 4.1's description still quotes 5.1's permission, which 5.1 no
    longer grants (the words stand in 6.1, so the document as a whole still says them); 5.1's, quoting
    6.1, holds."""
    doc = access_document(THREE_GRADES)
    found = candidate_instances(doc, 0, InjectionContext.from_documents([doc]), ONLY_NMS02)
    by_location = {i.location: i for i in found.instances}
    assert sorted(by_location) == ["4.1", "5.1"]
    lower, upper = by_location["4.1"], by_location["5.1"]
    assert "第5.1条" in lower.description and "第6.1条" in upper.description
    final = apply_edits(doc, [lower.edit, upper.edit]).document
    reason = misattributed(lower.description, final, "4.1")
    assert reason is not None and "from 5.1" in reason, reason
    assert misattributed(upper.description, final, "5.1") is None
    assert misattributed(lower.description, apply_edits(doc, [lower.edit]).document, "4.1") is None
    # the planner's joint re-check keeps one of the two
    assert kept_together(doc, [lower, upper]) == [upper]


def test_a_quote_from_a_chapter_stands_anywhere_in_that_chapter() -> None:
    """ "第6章…“…”" names a chapter: the quote may stand in any of its clauses; a quote not placed in a
    section by the words just before it is not this check's concern."""
    doc = access_document(THREE_GRADES)
    assert misattributed("错误：第6章的规定“读卡器连接线缆可敷设在金属线槽”仍为允许", doc, "4.1") is None
    assert misattributed("错误：第6章的规定“读卡器连接线缆应敷设在金属线槽”仍为允许", doc, "4.1") is not None
    assert misattributed("错误：此处写作“读卡器连接线缆应敷设在金属线槽”", doc, "4.1") is None
