"""Tests of TER-04 定义缺陷 (Definition defect)."""

from __future__ import annotations

import random

import pytest

from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.registry import injectors
from injectors.types.ter.editing import provision_point
from injectors.types.ter.ter04_definition_defect import TERM_FIRST, TERM_LAST
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import TERMS, document, violations


def test_every_ter04_variant_is_detected(corpus_documents: list[Document], context: InjectionContext) -> None:
    injector = injectors()["TER-04"]
    doc = corpus_documents[0]
    site = next(s for s in injector.sites(doc, context) if provision_point(s.detail[0].definition))
    seen: set[str] = set()
    for seed in range(40):
        proposal = injector.propose(doc, site, random.Random(seed), context)
        assert proposal is not None
        (r,) = proposal.edit.replacements
        seen.add(r.new)
        applied = apply_edits(doc, [proposal.edit])
        assert (applied.locations[0], "TER-04") in {
            (v.location, v.error_type) for v in lint(applied.document)
        }
    term = doc.sections[site.target].title.split(" ")[0]
    first = {f.format(term) for f in TERM_FIRST}
    last = {f.format(term) for f in TERM_LAST}
    assert seen <= {"是指", "指", "是", "应", "宜"} | first | last
    assert {"是指", "指", "是", "应", "宜"} <= seen
    # the term is written in several ways, not one stock phrase
    assert len(seen & first) >= 2 and len(seen & last) >= 2


@pytest.mark.parametrize(
    "definition, reported",
    [
        ("是指相邻两次标定之间的时间间隔。", True),
        ("指相邻两次标定之间的时间间隔。", True),
        ("是相邻两次标定之间的时间间隔。", True),
        ("相邻两次标定之间应间隔的时间。", True),
        ("相邻两次标定之间的时间间隔，称为标定周期。", True),
        ("标定周期是相邻两次标定之间的时间间隔。", True),
        ("指令发出后相邻两次标定之间的时间间隔。", False),  # 指令 is a word, not 指
        ("是否标定均计入的相邻两次标定之间的时间间隔。", False),
        ("相邻两次响应标定之间的时间间隔。", False),  # 响应 is not 应
        ("适宜标定的相邻两次之间的时间间隔。", False),  # 适宜 is not 宜
        ("可自动触发的相邻两次标定之间的时间间隔。", False),  # 可 describes a capability
        ("用于标定周期计算方法的时间间隔。", False),  # part of a longer noun (标定周期计算方法)
    ],
)
def test_definition_defects(definition: str, reported: bool) -> None:
    terms = TERMS.replace("相邻两次标定之间的时间间隔。", definition)
    found = violations(document(terms=terms), "TER-04")
    assert bool(found) == reported, found
    if reported:
        assert found[0][0] == "3.2"


def test_notes_and_sources_are_not_part_of_the_definition() -> None:
    terms = TERMS + "\n注：标定周期应按使用频次确定。\n[来源：GB/T 191—2008，3.2，有修改]"
    assert violations(document(terms=terms), "TER-04") == []


def sampler_forms(definition: str) -> set[str]:
    """The forms TER-04 takes, over 60 draws, on 采样单元 given `definition`."""
    terms = TERMS.replace("从被测介质中抽取并输送试样的部件组合。", definition)
    doc = document(terms=terms)
    injector = injectors()["TER-04"]
    site = next(s for s in injector.sites(doc, InjectionContext()) if s.detail[0].term == "采样单元")
    out = set()
    for seed in range(60):
        proposal = injector.propose(doc, site, random.Random(seed), InjectionContext())
        assert proposal is not None
        out.add(proposal.form)
    return out


def test_no_second_name_after_a_definition_that_already_names_a_short_form() -> None:
    last = {f.format("{术语}") for f in TERM_LAST}
    assert sampler_forms("从被测介质中抽取并输送试样的部件组合。") & last
    assert not sampler_forms("从被测介质中抽取并输送试样的部件组合，本文件简称采样头。") & last


def test_no_site_on_a_definition_that_already_opens_like_an_opener() -> None:
    """ "指导入采样单元的介质": the word cutter reads 指导, a reader reads the opener 指 already there;
    adding 是指 would write "是指指导入……"."""
    terms = TERMS.replace("从被测介质中抽取并输送试样的部件组合。", "指导入采样单元并输送至分析部件的介质。")
    sites = injectors()["TER-04"].sites(document(terms=terms), InjectionContext())
    assert [s.detail[0].term for s in sites] == ["标定周期"]


def test_no_shi_yi_zhong_before_a_definition_with_its_own_measure_word() -> None:
    """ "语境是一种一个名称所……" doubles the measure word (seen on a real standard): a definition that
    opens with 一个/一种/若干… takes the other term-first forms, never "{术语}是一种"."""

    assert "{术语}是一种" in sampler_forms("从被测介质中抽取并输送试样的部件组合。")
    measured = sampler_forms("一组从被测介质中抽取并输送试样的部件。")
    assert "{术语}是一种" not in measured and measured & {"{术语}是", "{术语}即为"}
