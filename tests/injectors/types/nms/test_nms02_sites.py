"""NMS-02 sites the document itself reveals beyond the clause's own sentence: the same provision stated
again at another grade, and a setting the document gives a default for; and the look-alikes that are not."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.modals import modal_verbs
from injectors.types.nms.evidence import DEFAULT, RESTATED, recommendation_evidence
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from parsers.model import Document
from parsers.text import parse_text

FRONT = """GB/T 99904—2025
楼宇 门禁 系统 安全要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了楼宇门禁系统的安全要求。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
"""


def document(body: str) -> Document:
    return parse_text(Path("nms02.txt"), (FRONT + body).encode())


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


def instances(doc: Document) -> list:
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RecommendationStrengthened()
    return [injector.inject(baseline, random.Random(f"{seed}:r"), context, seed=seed) for seed in range(6)]


def test_a_provision_restated_at_a_higher_grade_is_evidence() -> None:
    """Required at grade two while grade three still only permits it: the document contradicts itself."""
    doc = document(GRADED)
    found = evidence_at(doc, "5.1", "可")
    assert [(e.kind, e.where) for e in found] == [(RESTATED, "第6.1条")]
    assert "可敷设在金属线槽或穿管保护中" in found[0].words
    for attempt in instances(doc):
        instance = attempt.instance
        assert instance is not None and instance.location == "5.1"
        assert "第6.1条对同一事项的相同规定" in instance.description
        assert "“门禁控制线缆可敷设在金属线槽或穿管保护中”" in instance.description


def test_the_highest_statement_and_a_different_sentence_are_no_evidence() -> None:
    """A higher grade may require what a lower one permits (6.1 is last); 6.2 adds a backup supply, so
    5.2 and 6.2 are two provisions; 4.1 is said once."""
    doc = document(GRADED)
    assert evidence_at(doc, "6.1", "可") == []
    assert evidence_at(doc, "5.2", "宜") == []
    assert evidence_at(doc, "4.1", "宜") == []


def test_the_same_sentence_for_two_subjects_is_no_evidence() -> None:
    """Under "主入口" and "次入口" the same sentence binds two subjects, which may carry two strengths."""
    doc = document(
        """4 主入口
4.1 一般规定
当通行人数较少时，可以按照设定的时段开放通道。
5 次入口
5.1 一般规定
当通行人数较少时，可以按照设定的时段开放通道。
"""
    )
    assert evidence_at(doc, "4.1", "可以") == []
    assert all(a.instance is None for a in instances(doc))


DEFAULTS = """4 技术要求
4.1 通信参数
——超时时间根据具体的通信方式可自定义；
——重试间隔根据具体的通信方式可自定义。
4.2 缺省参数
缺省超时时间及重试间隔见表1。
"""


def test_a_setting_with_a_default_is_evidence() -> None:
    """The default must name the setting's own actor: 缺省超时 for 超时时间, nothing for 重试间隔."""
    doc = document(DEFAULTS)
    found = evidence_at(doc, "4.1", "可")
    assert [(e.kind, e.where) for e in found] == [(DEFAULT, "第4.2条")]
    assert found[0].words.startswith("缺省")
    for attempt in instances(doc):
        instance = attempt.instance
        assert instance is not None
        assert "“应自定义”" in instance.description and "既有缺省值" in instance.description


def test_a_setting_without_a_default_is_no_evidence() -> None:
    doc = document(DEFAULTS.replace("缺省超时时间及重试间隔见表1。", "参数的取值见表1。"))
    assert evidence_at(doc, "4.1", "可") == []


def test_what_can_happen_is_no_permission() -> None:
    """ "使记录可以在同一平台查询", "读数可以有正负值" say what can happen; 最多可 bounds a number."""
    doc = document(
        """4 技术要求
4.1 记录
应对各门禁点的记录进行汇总，使记录可以在同一平台查询，也可以导出。
4.2 读数
温度读数可以有正负值，也可以取整。
4.3 数量
每个控制器最多可接入8个读卡器，也可接入4个。
"""
    )
    context = InjectionContext.from_documents([doc])
    assert list(RecommendationStrengthened().sites(doc, context)) == []


def test_a_remark_in_brackets_is_no_provision() -> None:
    """ "缺省参数定义（可扩充）见表1": blurred to "（最好扩充）" or strengthened, it is no clause at all."""
    from injectors.types.nms.editing import fixed_value

    line = "缺省参数定义（可扩充）见表1。"
    assert fixed_value(line, line.index("可"))
    assert not fixed_value("参数可扩充，扩充的参数见表1。", 2)


def test_use_is_no_purpose() -> None:
    """使 of 使用 makes no purpose clause: "重复使用的读卡器的校准周期不宜超过12个月，超过时应……" stays
    a site."""
    doc = document(
        """4 技术要求
4.1 校准
重复使用的读卡器的校准周期不宜超过12个月，超过时应在下次使用前重新校准。
"""
    )
    context = InjectionContext.from_documents([doc])
    assert len(list(RecommendationStrengthened().sites(doc, context))) == 1
