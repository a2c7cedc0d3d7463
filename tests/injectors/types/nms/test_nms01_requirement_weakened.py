"""Tests of NMS-01 要求被弱化 (Requirement weakened)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nms.evidence import INSPECTION, LEAD_IN, RESTATED, requirement_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nms.nms_documents import attempts, evidence_standard, locker_document
from tests.injectors.types.nms.test_evidence import _line, position


def test_descriptions_quote_the_changed_words(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    doc = corpus_documents[0]
    instance = RequirementWeakened().inject(Baseline(doc), random.Random("1:x"), context).instance
    assert instance is not None
    (replacement,) = instance.edit.replacements
    assert (replacement.old, replacement.new) in (
        ("应", "宜"),
        ("应", "可"),
        ("应", "可以"),
        ("应能", "可"),
        ("应能", "可以"),
    )
    assert regex.search(f"弱化为(?:推荐|允许)“不?{replacement.new}", instance.description), (
        instance.description
    )


def test_a_document_without_modal_verbs_has_no_site() -> None:
    document = evidence_standard("柜门采用金属材料制作。")
    (attempt, *_) = attempts(document, RequirementWeakened())
    assert attempt.reason == "no_site"


def test_weakened_forms_vary() -> None:
    document = evidence_standard(
        "柜门应能在断电后由管理人员手动开启，开启力不应大于50 N，开启时间应在3 s内。"
    )
    context = InjectionContext.from_documents([document])
    baseline = Baseline(document)
    made = {
        (a.instance.edit.replacements[0].old, a.instance.edit.replacements[0].new)
        for a in (
            RequirementWeakened().inject(baseline, random.Random(s), context, seed=s) for s in range(40)
        )
        if a.instance is not None
    }
    assert len({new for _, new in made}) >= 3, made


def test_nms01_draws_the_weaker_word_before_the_clause() -> None:
    """a) takes only 宜 ("可符合" is no Chinese), b) and c) take 宜, 可 and 可以: drawn modal first, 宜 would
    come five times in nine; drawn form first, a third of the time."""
    doc = locker_document(
        """4 安装要求
4.1 柜体
a) 柜体的安装高度应符合表1的规定；
b) 柜体应采用膨胀螺栓固定在地面上；
c) 柜体应设置防撬报警装置。
5 检验规则
5.1 出厂检验
出厂检验项目为4.1，任一项不合格判该台产品不合格。
"""
    )
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RequirementWeakened()
    forms = Counter()
    for seed in range(60):
        attempt = injector.inject(baseline, random.Random(f"{seed}:w"), context, seed=seed)
        assert attempt.instance is not None
        forms[attempt.instance.provenance.form] += 1
    assert set(forms) == {"应→宜", "应→可", "应→可以"}
    assert forms["应→宜"] < 0.45 * 60, forms


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
