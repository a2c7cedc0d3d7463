"""Tests of injectors.types.nms.evidence: what in a document makes an NMS-01 or NMS-02 change detectable,
and the reason given where nothing does."""

from __future__ import annotations

import random

import pytest

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.modals import modal_verbs
from injectors.planner import inject_document
from injectors.types.nms.evidence import (
    ALTERNATIVE,
    DEFAULT,
    FALLBACK,
    INSPECTION,
    LIMIT,
    RESTATED,
    SAFETY,
    SIBLING,
    TEST_METHOD,
    recommendation_evidence,
    requirement_evidence,
)
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from parsers.model import Document
from tests.injectors.types.nms.nms_documents import access_document, attempts, evidence_standard, standard


def test_two_different_recommendations_in_one_sentence_are_no_evidence() -> None:
    """ "宜使用…，分类宜采用…" is an ordinary sentence: strengthening one of them would read as plausible;
    so is "长度宜为…，宽度宜为…": two subjects may carry two strengths."""
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.evidence import recommendation_evidence

    def evidence(line: str) -> list[str]:
        doc = standard(line)
        position = next(i for i, s in enumerate(doc.sections) if line in s.text)
        offset = doc.sections[position].text.index(line)
        return [e.where for e in recommendation_evidence(doc, position, offset, line, modal_verbs(line)[1])]

    assert evidence("知识结构宜使用树状层次化结构，知识的分类宜采用按生命周期分类。") == []
    assert evidence("箱体长度宜为600 mm，宽度宜为400 mm。") == []


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


def evidence_at(doc: Document, number: str, word: str) -> list:
    position = next(i for i, s in enumerate(doc.sections) if s.number == number)
    section = doc.sections[position]
    offset = 0
    for line in section.text.split("\n"):
        for modal in modal_verbs(line):
            if modal.word == word:
                return recommendation_evidence(doc, position, offset, line, modal)
        offset += len(line) + 1
    raise AssertionError(f"no {word} in {number}")


def strengthened_attempts(doc: Document) -> list:
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RecommendationStrengthened()
    return [injector.inject(baseline, random.Random(f"{seed}:r"), context, seed=seed) for seed in range(6)]


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


DEFAULTS = """4 技术要求
4.1 通信参数
——超时时间根据具体的通信方式可自定义；
——重试间隔根据具体的通信方式可自定义。
4.2 缺省参数
缺省超时时间及重试间隔见表1。
"""


def test_a_setting_with_a_default_is_evidence() -> None:
    """The default must name the setting's own actor: 缺省超时 for 超时时间, nothing for 重试间隔."""
    doc = access_document(DEFAULTS)
    found = evidence_at(doc, "4.1", "可")
    assert [(e.kind, e.where) for e in found] == [(DEFAULT, "第4.2条")]
    assert found[0].words.startswith("缺省")
    for attempt in strengthened_attempts(doc):
        instance = attempt.instance
        assert instance is not None
        assert "“应自定义”" in instance.description and "既有缺省值" in instance.description


def test_a_setting_without_a_default_is_no_evidence() -> None:
    doc = access_document(DEFAULTS.replace("缺省超时时间及重试间隔见表1。", "参数的取值见表1。"))
    assert evidence_at(doc, "4.1", "可") == []


def test_an_exception_is_no_sibling() -> None:
    """The weakened "均应由使用单位管理员完成" has no parallel in "除应由供应商执行的步骤外"."""
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.evidence import sentence_siblings

    line = "网关的配置，除应由供应商执行的步骤外，其余步骤均应由使用单位管理员完成。"
    modal = modal_verbs(line)[-1]
    assert sentence_siblings(line, modal) == []


def position(document: Document, number: str) -> int:
    return next(i for i, s in enumerate(document.sections) if s.number == number)


PLAIN = "柜门应采用金属材料制作。取件后柜门宜自动锁闭。"


@pytest.mark.parametrize(
    "injector", [RequirementWeakened(), RecommendationStrengthened()], ids=lambda i: i.error_type
)
def test_a_plain_clause_gives_no_instance_and_the_reason(injector) -> None:
    document = evidence_standard(PLAIN)
    context = InjectionContext.from_documents([document])
    assert list(injector.sites(document, context)) == []
    for attempt in attempts(document, injector):
        assert attempt.instance is None and attempt.reason == "no_evidence"


def test_the_planner_records_the_reason() -> None:
    plan = inject_document(
        evidence_standard(PLAIN), seed=1, context=InjectionContext.from_documents([evidence_standard(PLAIN)])
    )
    assert plan.skipped.get("NMS-01") == "no_evidence"
    assert plan.skipped.get("NMS-02") == "no_evidence"


def test_clause_listed_by_the_inspection_rules() -> None:
    document = evidence_standard(
        PLAIN,
        inspection="6.2 出厂检验\n出厂检验项目为柜门开启和标志，任一项不合格判该台产品不合格。",
    )
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "应采用"))
    assert [e.kind for e in found] == [INSPECTION]
    assert found[0].where == "第6.2条" and "柜门开启" in found[0].words
    for attempt in attempts(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None and instance.location == "4.1"
        assert "第6.2条把该条列为检验项目" in instance.description
        assert "“出厂检验项目为柜门开启和标志”" in instance.description


def test_clause_checked_by_a_test_method_by_number() -> None:
    document = evidence_standard(PLAIN, tests="5.2 开启试验\n按4.1的要求连续开启柜门100次，检查锁闭状态。")
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "应采用"))
    assert [(e.kind, e.where) for e in found] == [(TEST_METHOD, "第5.2条")]
    instance = attempts(document, RequirementWeakened())[0].instance
    assert instance is not None and "第5.2条规定了检验该条的试验（“按4.1的要求连续开启柜门100次”）" in (
        instance.description
    )


def test_clause_carrying_a_limit_value() -> None:
    document = evidence_standard("柜门的开启力不应大于50 N。")
    (evidence,) = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "不应"))
    assert (evidence.kind, evidence.words) == (LIMIT, "50 N")
    for attempt in attempts(document, RequirementWeakened()):
        instance = attempt.instance
        assert instance is not None
        assert "“不应大于50 N”弱化为推荐“不宜大于50 N”" in instance.description
        assert "限值“50 N”" in instance.description


def test_a_limit_of_the_next_provision_is_not_this_ones() -> None:
    """ "应重发该数据帧，重发次数不应超过3次": the limit belongs to 不应, not to 应."""
    document = evidence_standard("未收到应答时，柜机应重发开门指令，重发次数不应超过3次。")
    line_offset, line, modal = _line(document, "4.1", "应重发")
    assert [
        e.kind for e in requirement_evidence(document, position(document, "4.1"), line_offset, line, modal)
    ] == []


def test_clause_with_a_safety_purpose() -> None:
    document = evidence_standard("柜门应设置防夹装置，防止夹伤取件人员。")
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "应设置"))
    assert [(e.kind, e.words) for e in found] == [(SAFETY, "防止夹伤")]


def test_requirement_kept_by_list_siblings() -> None:
    document = evidence_standard(
        "柜门应符合下列要求：\na) 开启角度应不小于90°；\nb) 柜门应能自动锁闭；\nc) 柜门应有编号。"
    )
    found = requirement_evidence(document, position(document, "4.1"), *_line(document, "4.1", "柜门应能"))
    # siblings with another actor or object (开启角度, 编号) keep their own strength: no evidence
    assert SIBLING not in [e.kind for e in found]


def test_recommendation_with_an_alternative() -> None:
    document = evidence_standard("柜门可采用电磁锁，也可采用电机锁。")
    found = recommendation_evidence(
        document, position(document, "4.1"), *_line(document, "4.1", "可采用电磁锁")
    )
    assert (found[0].kind, found[0].words) == (ALTERNATIVE, "也可")
    for attempt in attempts(document, RecommendationStrengthened()):
        instance = attempt.instance
        assert instance is not None
        (replacement,) = instance.edit.replacements
        assert (replacement.old, replacement.new) == ("可", "应")
        assert "应采用电磁锁，也可采用电机锁" in instance.corrupted_section.text
        assert "以“也可”给出其他做法" in instance.description


def test_recommendation_whose_exception_the_document_foresees() -> None:
    """ "……不宜小于500 mm。间隙无法满足时，应……": the next sentence says what to do when it is not met."""
    document = evidence_standard("柜体与墙面的间隙不宜小于50 mm。间隙无法满足时，应加装隔热板。")
    found = recommendation_evidence(document, position(document, "4.1"), *_line(document, "4.1", "不宜"))
    assert [(e.kind, e.words) for e in found] == [(FALLBACK, "无法满足时")]
    instance = attempts(document, RecommendationStrengthened())[0].instance
    assert instance is not None and "“不应小于50 mm”" in instance.description
    assert "随后规定了“无法满足时”的做法" in instance.description


def test_recommendation_whose_other_way_the_document_foresees() -> None:
    """ "宜设置在…；设置在…时，应……": the clause says what applies when the other way is taken."""
    document = evidence_standard("控制主板宜安装在柜体顶部的设备舱中；安装在柜体底部时，应加装防潮隔板。")
    found = recommendation_evidence(document, position(document, "4.1"), *_line(document, "4.1", "宜安装"))
    assert [(e.kind, e.words) for e in found] == [(FALLBACK, "安装在柜体底部时")]
    same_way = evidence_standard("控制主板宜安装在柜体顶部。安装在柜体顶部时，应加装散热片。")
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
    document = evidence_standard(text)
    assert all(a.instance is None for a in attempts(document, RecommendationStrengthened()))


def test_a_sibling_is_evidence_only_for_the_same_actor_and_object() -> None:
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.evidence import same_provision

    def pair(a: str, b: str) -> bool:
        return same_provision(a, modal_verbs(a)[0], b, modal_verbs(b)[0])

    assert pair("a) 宜每日清洁柜门；", "b) 宜每日清洁柜门。")  # the list lead's actor, the same object
    assert pair("管理员宜清洁柜门；", "管理员宜清洁柜门。")
    assert not pair("管理员宜清洁柜门；", "运营方宜清洁柜门。")  # another actor
    assert not pair("a) 宜每日清洁柜门；", "b) 宜每日清洁格口。")  # another object


def _line(document: Document, number: str, marker: str) -> tuple:
    """(line offset, line, modal) of the first modal verb within `marker` in a section."""
    text = document.sections[position(document, number)].text
    at = text.index(marker)
    offset = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[offset : end if end >= 0 else len(text)]
    modal = next(m for m in modal_verbs(line) if at - offset <= m.start < at - offset + len(marker))
    return offset, line, modal
