"""Tests of injectors.final_descriptions: a description holds on the document as all its errors leave it."""

from __future__ import annotations

from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement, apply_edits
from injectors.final_descriptions import finalized, misattributed, renumbered, retitled
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


def test_a_chapter_named_by_its_title_takes_the_title_another_error_gave_it() -> None:
    """Another error renamed 1 范围 to 适用范围: "第1章“范围”" becomes "第1章“适用范围”" when the
    description is rendered on the final document; rendered as it was, it is a stale description."""
    doc = access_document(THREE_GRADES)
    at = next(n for n, s in enumerate(doc.sections) if s.number == "1")
    final = apply_edits(doc, [Edit("modify", at, (Replacement("title", 0, "范围", "适用范围"),))]).document
    description = (
        "错误：第1章“范围”列出了“门禁日志”，但正文没有任何章条涉及门禁日志；修改建议：删除；"
        "依据：GB/T 1.1—2020 8.5"
    )
    assert retitled(description, doc, final).startswith("错误：第1章“适用范围”列出了“门禁日志”")
    assert retitled(description, doc, doc) == description
    reason = misattributed(description, final, "1")
    assert reason is not None and "now titled “适用范围”" in reason
    assert misattributed(retitled(description, doc, final), final, "1") is None
    # a quote after 第N章 that was never the chapter's title is left as it is
    other = "错误：第4章“读卡器连接线缆”一词；修改建议：无；依据：GB/T 1.1—2020 8.5"
    assert retitled(other, doc, final) == other


def test_a_deleted_chapter_keeps_its_title_in_its_own_description() -> None:
    """STR-01 deletes chapter 1 范围: chapter 2 now holds number 1, and its fix "恢复第1章“范围”" still
    means the deleted chapter, not the "规范性引用文件" now numbered 1."""
    doc = access_document(THREE_GRADES)
    config = PlanConfig(min_errors=1, max_errors=18, types=("STR-01",))
    found = candidate_instances(doc, 0, InjectionContext.from_documents([doc]), config).instances
    scope = next(i for i in found if i.provenance.form == "范围")
    applied = apply_edits(doc, [scope.edit])
    assert applied.document.section("1") is not None
    assert applied.document.section("1").title == "规范性引用文件"
    (described,), _ = finalized(doc, [scope], applied)
    assert "恢复第1章“范围”" in described.description, described.description


def test_the_places_a_description_lists_follow_the_renumbering() -> None:
    """ "正文多处（8.3、8.4、8.5等）" after another error deleted a chapter: the listed places take their new
    numbers, as "第8.3条" does; a value in brackets is no list of places."""
    renames = (("8.3", "7.3"), ("8.4", "7.4"), ("8.5", "7.5"), ("6.2", "5.2"))
    listed = "错误：正文多处（8.3、8.4、8.5等）使用了术语；另见第8.3条，正文（如6.2）使用了缩略语“CAN”"
    assert renumbered(listed, renames) == (
        "错误：正文多处（7.3、7.4、7.5等）使用了术语；另见第7.3条，正文（如5.2）使用了缩略语“CAN”"
    )
    value = "错误：限值（8.3 mm）被改写"
    assert renumbered(value, renames) == value
