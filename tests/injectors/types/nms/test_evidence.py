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


# --- what the document declares optional or mandatory ------------------------------------------------------
RECORDS = """4 通行记录
4.1 记录内容
控制器上传的通行记录由表1所列字段组成。
控制器可附加抓拍图片编号，用于事后核查。
控制器应上传卡片序列号，用于身份追溯。
表1 通行记录字段
字段 | 数据类型 | 是否必填 | 说明
卡片序列号 | STRING | 是 | 读卡器读出的序列号
通行时间 | DATETIME | 是 | 精确到秒
抓拍图片编号 | STRING | 否 | 无抓拍时不填
4.2 告警
控制器宜上报门磁告警信息。
注：门磁告警信息为可选项，未装门磁的门不上报。
"""


def _declared(doc: Document, number: str, marker: str) -> list:
    from injectors.types.nms.evidence import DECLARED

    offset, line, modal = _line(doc, number, marker)
    finder = requirement_evidence if modal.word in ("应", "不应") else recommendation_evidence
    return [e for e in finder(doc, position(doc, number), offset, line, modal) if e.kind == DECLARED]


def test_a_table_that_marks_the_object_optional_is_evidence_for_a_permission() -> None:
    """表1 says 抓拍图片编号 need not be filled in: "控制器应附加抓拍图片编号" would contradict it."""
    doc = access_document(RECORDS)
    found = _declared(doc, "4.1", "可附加")
    assert [(e.words, e.where, e.mark) for e in found] == [("抓拍图片编号", "表1“是否必填”栏", "否")]
    for attempt in strengthened_attempts(doc):
        instance = attempt.instance
        assert instance is not None
        if instance.location == "4.1":
            assert "强化为要求“应附加抓拍图片”" in instance.description
            assert "表1“是否必填”栏将“抓拍图片编号”标为“否”" in instance.description


def test_a_table_that_marks_the_object_mandatory_is_evidence_for_a_requirement() -> None:
    """表1 says 卡片序列号 must be filled in: "控制器可上传卡片序列号" would contradict it."""
    doc = access_document(RECORDS)
    found = _declared(doc, "4.1", "应上传")
    assert [(e.words, e.mark) for e in found] == [("卡片序列号", "是")]
    weakened = [a.instance for a in attempts(doc, RequirementWeakened())]
    assert weakened and all(i is not None and i.location == "4.1" for i in weakened)
    assert all("表1“是否必填”栏将“卡片序列号”标为“是”，该项必须提供" in i.description for i in weakened)


def test_a_sentence_that_calls_the_object_optional_is_evidence() -> None:
    doc = access_document(RECORDS)
    found = _declared(doc, "4.2", "宜上报")
    assert [(e.words, e.where) for e in found] == [("门磁告警信息为可选项", "第4.2条")]


def test_an_m_o_column_is_read_only_under_a_necessity_header() -> None:
    """约束 M/O marks what must be given; the same letters in a code column are codes."""
    marked = """4 报文
4.1 报文内容
终端可携带扩展参数集，供平台按需解析。
表1 报文元素
元素名称 | 约束 | 说明
报文编号 | M | 报文的序号
扩展参数集 | O | 厂商自定义
"""
    coded = """4 报文
4.1 报文内容
终端可携带扩展参数集，供平台按需解析。
表1 元素来源
元素名称 | 来源代码 | 说明
报文编号 | M | 由主站生成
扩展参数集 | O | 由厂商生成
"""
    assert [(e.words, e.mark) for e in _declared(access_document(marked), "4.1", "可携带")] == [
        ("扩展参数集", "O")
    ]
    assert _declared(access_document(coded), "4.1", "可携带") == []


@pytest.mark.parametrize(
    "clause, rows",
    [
        # a row for another field: 抓拍图片 is not 抓拍图片编号, nor is 图片编号长度
        ("控制器可附加抓拍图片编号，用于事后核查。", "抓拍图片 | 否\n图片编号长度 | 否"),
        # the object's name is only part of a longer one: 系统抓拍图片编号 is another field
        ("控制器可附加系统抓拍图片编号，用于事后核查。", "抓拍图片编号 | 否"),
        # options after the verb: which one the table means is not said
        ("控制器可附加抓拍图片编号或视频片段编号。", "抓拍图片编号 | 否"),
        # the document marks the name both ways
        ("控制器可附加抓拍图片编号，用于事后核查。", "抓拍图片编号 | 否\n抓拍图片编号 | 是"),
    ],
)
def test_a_row_that_does_not_name_the_object_alone_is_no_evidence(clause: str, rows: str) -> None:
    doc = access_document(f"4 通行记录\n4.1 记录内容\n{clause}\n表1 通行记录字段\n字段 | 是否必填\n{rows}\n")
    assert _declared(doc, "4.1", "可附加") == []
    assert all(a.instance is None for a in strengthened_attempts(doc))


def test_table_cells_and_value_lists_are_never_edited() -> None:
    """The 可 of a table cell ("可选", "可附加") and of a value list ("必选/可选") is no provision: with
    the object marked optional, only the body clause is strengthened."""
    doc = access_document(
        """4 通行记录
4.1 记录内容
控制器可附加抓拍图片编号，用于事后核查。
“是否必填”一栏的取值为必选/可选。
表1 通行记录字段
字段 | 是否必填 | 说明
抓拍图片编号 | 可选 | 控制器可附加抓拍图片编号
"""
    )
    edited = [a.instance for a in strengthened_attempts(doc)]
    assert edited and all(i is not None for i in edited)
    for instance in edited:
        (replacement,) = instance.edit.replacements
        line = doc.sections[position(doc, "4.1")].text[replacement.start :].split("\n")[0]
        assert line.startswith("可附加抓拍图片编号") and replacement.new == "应"


def test_a_list_of_values_is_no_declaration() -> None:
    """ "为必选/可选项" gives the values a field may take, not a mark on it."""
    doc = access_document(
        "4 报文\n4.1 报文内容\n终端应上传扩展参数集。\n扩展参数集为必选/可选项，由报文类型确定。\n"
    )
    assert _declared(doc, "4.1", "应上传") == []
    doc = access_document("4 报文\n4.1 报文内容\n终端应上传扩展参数集。\n扩展参数集为必选项。\n")
    assert [e.words for e in _declared(doc, "4.1", "应上传")] == ["扩展参数集为必选项"]


def test_a_table_and_a_sentence_that_disagree_are_no_evidence() -> None:
    doc = access_document(
        "4 通行记录\n4.1 记录内容\n控制器可附加抓拍图片编号，用于事后核查。\n"
        "表1 通行记录字段\n字段 | 是否必填\n抓拍图片编号 | 否\n"
        "4.2 核查\n核查记录中，抓拍图片编号为必填项。\n"
    )
    assert _declared(doc, "4.1", "可附加") == []
