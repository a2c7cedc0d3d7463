"""Tests of injectors.types.scp.requirements: body requirements whose subject is the scope's object or the
head noun of a "非X" qualifier, and sentences that apply the document itself to it."""

from __future__ import annotations

from injectors.types.scp.requirements import (
    ScopedRequirement,
    applying_sentences,
    head_end,
    negated_requirements,
    requirement_sentences,
    scoped_requirements,
)
from parsers.model import Section

TEXT = (
    "共享工具柜应采用耐腐蚀材料制作。\n"
    "门锁宜具有远程开启功能。\n"
    "对于定为第三级的等级保护对象，应每半年组织一次安全核查。"
)


def test_requirement_sentences_are_the_shall_sentences_of_plain_prose() -> None:
    section = Section("4.1", "柜体", TEXT, 2, "clause")
    assert [(at, subject) for at, subject, _ in requirement_sentences(section)] == [
        (0, "共享工具柜"),
        (30, "对于定为第三级的等级保护对象，"),
    ]  # not the 宜 of a recommendation


def test_scoped_and_negated_requirements_find_where_an_object_can_join() -> None:
    section = Section("4.1", "柜体", TEXT, 2, "clause")
    assert scoped_requirements(section, ("社区共享工具柜",)) == (
        ScopedRequirement(0, "共享工具柜", "共享工具柜", "共享工具柜应采用耐腐蚀材料制作。"),
    )
    (negated,) = negated_requirements(section, "对象")
    assert negated.head == "对象" and negated.start == 30
    assert head_end("对于定为第三级的等级保护对象，", "对象") == 14
    assert head_end("对象管理制度", "对象") is None  # the head is followed by more of a noun


GUIDE_TEXT = (
    "初步定为第二级的社区信息系统，其运营单位依据本文件组织专家评审。\n"
    "社区信息系统的运营单位组织专家评审。\n"
    "注：初步定为第一级的社区信息系统，其运营单位可依据本文件自行确定等级。\n"
    "对于定为第三级的社区信息系统，应按本文件每半年组织一次核查。"
)


def test_applying_sentences_apply_the_document_itself_without_a_shall() -> None:
    section = Section("4.4", "定级流程", GUIDE_TEXT, 2, "clause")
    assert [(at, subject) for at, subject, _ in applying_sentences(section)] == [
        (0, "初步定为第二级的社区信息系统，其运营单位"),
    ]  # not a sentence that names no document, nor a note, nor a 应 sentence (a requirement already)


def test_a_negated_head_joins_a_sentence_that_applies_the_document() -> None:
    section = Section("4.4", "定级流程", GUIDE_TEXT, 2, "clause")
    found = negated_requirements(section, "社区信息系统")
    assert [(r.start, r.applies) for r in found] == [(GUIDE_TEXT.index("对于"), False), (0, True)]
    assert head_end(found[1].subject, "社区信息系统") == len("初步定为第二级的社区信息系统")
