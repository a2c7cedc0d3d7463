"""Tests of STR-02 要素顺序错误 (Element order wrong)."""

from __future__ import annotations

import random

from injectors.context import InjectionContext
from injectors.registry import injectors
from tests.injectors.types.str.str_documents import SAMPLE, locations, parse


def test_element_order_is_reported_at_the_element_that_comes_too_late() -> None:
    chapter2 = SAMPLE[SAMPLE.index("2 规范性引用文件") : SAMPLE.index("3 术语和定义")]
    swapped = SAMPLE.replace(chapter2, "").replace("4 技术要求", chapter2 + "4 技术要求")
    swapped = swapped.replace("2 规范性引用文件", "3 规范性引用文件").replace("3 术语和定义", "2 术语和定义")
    swapped = swapped.replace("\n3.1\n", "\n2.1\n")
    doc = parse(swapped)
    assert [s.number for s in doc.sections][:5] == ["前言", "1", "2", "2.1", "3"]
    assert locations(doc, "STR-02") == ["3"]
    annex_b = SAMPLE[SAMPLE.index("附录B（资料性）") : SAMPLE.index("参考文献")]
    late = parse(SAMPLE.replace(annex_b, "") + annex_b)
    assert [s.number for s in late.sections][-3:] == ["附录B", "B.1", "B.2"]
    assert locations(late, "STR-02") == ["附录B"]


def test_a_chapter_after_the_annexes_is_to_be_moved_before_the_first_annex() -> None:
    document = parse(SAMPLE)
    injector = injectors()["STR-02"]
    site = next(
        s
        for s in injector.sites(document, InjectionContext())
        if s.detail[0] == "after" and document.sections[s.target].kind == "clause"
    )
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert "第5章“试验方法”被置于附录B之后" in proposal.error
    assert proposal.fix == "将第5章“试验方法”移至附录A之前"
