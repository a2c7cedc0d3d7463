"""Tests of injectors.types.nms.evidence_declared: a table or a sentence of the document marking the clause's
object optional or mandatory."""

from __future__ import annotations

import pytest

from injectors.types.nms.evidence import DECLARED
from injectors.types.nms.evidence_finding import recommendation_evidence, requirement_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from parsers.model import Document
from tests.injectors.types.nms.nms_documents import (
    access_document,
    attempts,
    clause_line,
    position,
    strengthened_attempts,
)

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

    offset, line, modal = clause_line(doc, number, marker)
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
