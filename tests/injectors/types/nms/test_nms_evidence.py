"""NMS-01/NMS-02 only where the document makes the modal change detectable, and the description names why.

Fixtures are small standards written here: a plain clause (nothing in the document says how strong it must
be) gives no instance and the reason "no_evidence"; a clause the inspection rules list, a test method
checks, or that carries a limit value gives an instance whose description quotes that evidence.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.language.modals import modal_verbs
from injectors.language.quotes import quote_after
from injectors.planner import inject_document
from injectors.types.nms.evidence import (
    ALTERNATIVE,
    FALLBACK,
    INSPECTION,
    LIMIT,
    SAFETY,
    SIBLING,
    TEST_METHOD,
    recommendation_evidence,
    requirement_evidence,
)
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from parsers.model import Document
from parsers.text import parse_text
from validation.linter import lint_diff

SEEDS = range(6)


def standard(requirements: str, *, tests: str = "", inspection: str = "") -> Document:
    """A small 2020 standard: the given requirements in 4.1, optional test methods (5) and inspection (6)."""
    text = f"""GB/T 99903—2025
社区 快递 智能柜 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出。
1 范围
本文件规定了社区快递智能柜的技术要求。
本文件适用于社区内设置的快递智能柜。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
4.1 柜门开启
{requirements}
4.2 标志
柜体正面的标志内容由运营方确定。
5 试验方法
5.1 试验条件
试验在常温常湿的室内进行。
{tests}
6 检验规则
6.1 检验分类
智能柜的检验分为出厂检验和型式检验。
{inspection}
"""
    return parse_text(Path("evidence.txt"), text.encode())


def position(document: Document, number: str) -> int:
    return next(i for i, s in enumerate(document.sections) if s.number == number)


def instances(document: Document, injector: RequirementWeakened | RecommendationStrengthened) -> list:
    context = InjectionContext.from_documents([document])
    baseline = Baseline(document)
    return [injector.inject(baseline, random.Random(f"{seed}:e"), context, seed=seed) for seed in SEEDS]


PLAIN = "柜门应采用金属材料制作。取件后柜门宜自动锁闭。"


# --- a plain clause: nothing to detect the change by --------------------------------------------------
@pytest.mark.parametrize(
    "injector", [RequirementWeakened(), RecommendationStrengthened()], ids=lambda i: i.error_type
)
def test_a_plain_clause_gives_no_instance_and_the_reason(injector) -> None:
    document = standard(PLAIN)
    context = InjectionContext.from_documents([document])
    assert list(injector.sites(document, context)) == []
    for attempt in instances(document, injector):
        assert attempt.instance is None and attempt.reason == "no_evidence"


def test_the_planner_records_the_reason() -> None:
    plan = inject_document(
        standard(PLAIN), seed=1, context=InjectionContext.from_documents([standard(PLAIN)])
    )
    assert plan.skipped.get("NMS-01") == "no_evidence"
    assert plan.skipped.get("NMS-02") == "no_evidence"


def test_a_document_without_modal_verbs_has_no_site() -> None:
    document = standard("柜门采用金属材料制作。")
    (attempt, *_) = instances(document, RequirementWeakened())
    assert attempt.reason == "no_site"


# --- requirements the document makes detectable ---------------------------------------------------------
def test_clause_listed_by_the_inspection_rules() -> None:
    document = standard(
        PLAIN,
        inspection="6.2 出厂检验\n出厂检验项目为柜门开启和标志，任一项不合格判该台产品不合格。",
    )
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "应采用"))
    assert [e.kind for e in found] == [INSPECTION]
    assert found[0].where == "第6.2条" and "柜门开启" in found[0].words
    for attempt in instances(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None and instance.location == "4.1"
        assert "第6.2条把该条列为检验项目" in instance.description
        assert "“出厂检验项目为柜门开启和标志”" in instance.description


def test_clause_checked_by_a_test_method_by_number() -> None:
    document = standard(PLAIN, tests="5.2 开启试验\n按4.1的要求连续开启柜门100次，检查锁闭状态。")
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "应采用"))
    assert [(e.kind, e.where) for e in found] == [(TEST_METHOD, "第5.2条")]
    instance = instances(document, RequirementWeakened())[0].instance
    assert instance is not None and "第5.2条规定了检验该条的试验（“按4.1的要求连续开启柜门100次”）" in (
        instance.description
    )


def test_clause_carrying_a_limit_value() -> None:
    document = standard("柜门的开启力不应大于50 N。")
    (evidence,) = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "不应"))
    assert (evidence.kind, evidence.words) == (LIMIT, "50 N")
    for attempt in instances(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None
        assert "“不应大于50 N”弱化为推荐“不宜大于50 N”" in instance.description
        assert "限值“50 N”" in instance.description


def test_a_limit_of_the_next_provision_is_not_this_ones() -> None:
    """ "应重发该数据帧，重发次数不应超过3次": the limit belongs to 不应, not to 应."""
    document = standard("未收到应答时，柜机应重发开门指令，重发次数不应超过3次。")
    line_offset, line, modal = _line(document, "4.1", "应重发")
    assert [
        e.kind for e in requirement_evidence(document, position(document, "4.1"), line_offset, line, modal)
    ] == []


def test_clause_with_a_safety_purpose() -> None:
    document = standard("柜门应设置防夹装置，防止夹伤取件人员。")
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "应设置"))
    assert [(e.kind, e.words) for e in found] == [(SAFETY, "防止夹伤")]


def test_requirement_kept_by_list_siblings() -> None:
    document = standard(
        "柜门应符合下列要求：\na) 开启角度应不小于90°；\nb) 柜门应能自动锁闭；\nc) 柜门应有编号。"
    )
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "柜门应能"))
    # siblings with another actor or object (开启角度, 编号) keep their own strength: no evidence
    assert SIBLING not in [e.kind for e in found]


# --- recommendations the document makes detectable -----------------------------------------------------
def test_recommendation_with_an_alternative() -> None:
    document = standard("柜门可采用电磁锁，也可采用电机锁。")
    found = recommendation_evidence(
        document, position(document, "4.1"), *_line(document, "4.1", "可采用电磁锁")
    )
    assert (found[0].kind, found[0].words) == (ALTERNATIVE, "也可")
    for attempt in instances(document, RecommendationStrengthened()):
        instance = attempt.instance
        assert instance is not None
        (replacement,) = instance.edit.replacements
        assert (replacement.old, replacement.new) == ("可", "应")
        assert "应采用电磁锁，也可采用电机锁" in instance.corrupted_section.text
        assert "以“也可”给出其他做法" in instance.description


def test_recommendation_whose_exception_the_document_foresees() -> None:
    """ "……不宜小于500 mm。间隙无法满足时，应……": the next sentence says what to do when it is not met."""
    document = standard("柜体与墙面的间隙不宜小于50 mm。间隙无法满足时，应加装隔热板。")
    found = recommendation_evidence(document, position(document, "4.1"), *_line(document, "4.1", "不宜"))
    assert [(e.kind, e.words) for e in found] == [(FALLBACK, "无法满足时")]
    instance = instances(document, RecommendationStrengthened())[0].instance
    assert instance is not None and "“不应小于50 mm”" in instance.description
    assert "随后规定了“无法满足时”的做法" in instance.description


def test_recommendation_whose_other_way_the_document_foresees() -> None:
    """ "宜设置在…；设置在…时，应……": the clause says what applies when the other way is taken."""
    document = standard("控制主板宜安装在柜体顶部的设备舱中；安装在柜体底部时，应加装防潮隔板。")
    found = recommendation_evidence(document, position(document, "4.1"), *_line(document, "4.1", "宜安装"))
    assert [(e.kind, e.words) for e in found] == [(FALLBACK, "安装在柜体底部时")]
    same_way = standard("控制主板宜安装在柜体顶部。安装在柜体顶部时，应加装散热片。")
    line = _line(same_way, "4.1", "宜安装")
    assert FALLBACK not in [
        e.kind for e in recommendation_evidence(same_way, position(same_way, "4.1"), *line)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "格口的高度宜为300 mm，宽度宜为400 mm。",
        "主控单元可以通过有线网络上报状态，备用单元可以通过无线网络上报状态。",
        "取件信息宜采用短信通知，催领信息宜采用短信通知。",
        "柜门的检查应符合下列规定：\na) 管理员可以每日检查柜门；\nb) 运营方可以每周检查柜门。",
    ],
)
def test_a_sibling_with_another_actor_or_object_is_no_evidence(text: str) -> None:
    """Two subjects (or two objects) may legitimately carry different strengths: "高度应为…，宽度宜为…" and
    "主控单元应通过…，备用单元可以通过…" are plausible provisions, so the kept sibling shows nothing."""
    document = standard(text)
    assert all(a.instance is None for a in instances(document, RecommendationStrengthened()))


def test_a_sibling_is_evidence_only_for_the_same_actor_and_object() -> None:
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.evidence import same_provision

    def pair(a: str, b: str) -> bool:
        return same_provision(a, modal_verbs(a)[0], b, modal_verbs(b)[0])

    assert pair("a) 宜每日清洁柜门；", "b) 宜每日清洁柜门。")  # the list lead's actor, the same object
    assert pair("管理员宜清洁柜门；", "管理员宜清洁柜门。")
    assert not pair("管理员宜清洁柜门；", "运营方宜清洁柜门。")  # another actor
    assert not pair("a) 宜每日清洁柜门；", "b) 宜每日清洁格口。")  # another object


# --- word-aware edits ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "变更须经审批，审批后方可实施，实施时开启力不应大于50 N。",
        "系统应记录进入的人员，开启次数不应超过3次。",
        "柜门的尺寸应符合表1的规定，开启力不应大于50 N。",
    ],
)
def test_modal_edits_respect_words_and_grammar(text: str) -> None:
    document = standard(text)
    for injector in (RequirementWeakened(), RecommendationStrengthened()):
        for attempt in instances(document, injector):
            if attempt.instance is None:
                continue
            (replacement,) = attempt.instance.edit.replacements
            assert replacement.old in ("应", "应能", "宜", "可", "可以"), replacement
            corrupted = attempt.instance.corrupted_section.text
            assert "方尽量" not in corrupted and "方应" not in corrupted and "方宜" not in corrupted
            assert ("记录进入的人员" in text) == ("记录进入的人员" in corrupted)  # the verb 记录 stays
            assert "可符合" not in corrupted  # 应符合 → 可符合 is not Chinese
            corrupted_doc = apply_edits(document, [attempt.instance.edit]).document
            assert lint(corrupted_doc, ["NMS-03", "NMS-04"]) == lint(document, ["NMS-03", "NMS-04"])
            assert lint_diff(document, corrupted_doc, [injector.error_type])


def test_weakened_forms_vary() -> None:
    document = standard("柜门应能在断电后由管理人员手动开启，开启力不应大于50 N，开启时间应在3 s内。")
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


# --- quotes keep whole words and a number's unit (class 8) ------------------------------------------------
@pytest.mark.parametrize(
    ("text", "start", "end", "expected"),
    [
        ("响应时间不应大于100 ms，对人体部位应能全部检出。", 4, 6, "不应大于100 ms"),
        ("记录容量不应少于10 000条，断电后记录不应丢失。", 4, 6, "不应少于10 000条"),
        ("摊放环境温度宜为15 ℃～25 ℃，相对湿度宜为60%～80%。", 6, 7, "宜为15 ℃～25 ℃"),
        ("差温报警动作值宜为10 ℃/min。", 7, 8, "宜为10 ℃/min"),
    ],
)
def test_quotes_keep_the_unit(text: str, start: int, end: int, expected: str) -> None:
    assert quote_after(text, start, end, 6) == expected


def _line(document: Document, number: str, marker: str) -> tuple:
    """(line offset, line, modal) of the first modal verb within `marker` in a section."""
    text = document.sections[position(document, number)].text
    at = text.index(marker)
    offset = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[offset : end if end >= 0 else len(text)]
    modal = next(m for m in modal_verbs(line) if at - offset <= m.start < at - offset + len(marker))
    return offset, line, modal


def test_shi_yi_is_time_plus_the_modal_not_the_idiom() -> None:
    """ "安装时宜采用" is 时 + 宜 (a recommendation); only 不合时宜-like idioms hide the modal."""
    from injectors.language.modals import modal_verbs
    from injectors.language.words import words

    assert [m.word for m in modal_verbs("安装时宜采用不锈钢。")] == ["宜"]
    assert "宜" in words("超过时宜分舱设置报警控制器")
    assert modal_verbs("这种做法不合时宜。") == ()
