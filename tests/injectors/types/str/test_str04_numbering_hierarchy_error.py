"""Tests of STR-04 编号或层次错误 (Numbering / hierarchy error)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from injectors.base import Proposal, Site
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.final_descriptions import renumbered
from injectors.instance import describe
from injectors.registry import injectors
from parsers.model import Document, Section
from tests.injectors.types.str.str_documents import SAMPLE, edited, found, locations, parse


@pytest.mark.parametrize(
    ("pairs", "location", "words"),
    [
        ((("4.3 控温精度", "4.4 控温精度"),), "4.4", "缺少“4.3”"),
        ((("5.2 控温精度试验", "5.1 控温精度试验"),), "5.1", "重复"),
        ((("5.2 控温精度试验", "4.4 控温精度试验"),), "4.4", "层次错误"),
        ((("4 技术要求\n", "4 技术要求\n本章规定了恒温箱的技术要求。\n"),), "4", "悬置段"),
        ((("A.2 步骤", "A.1.1 步骤"),), "A.1.1", "只有一个子条"),
        ((("5.2 控温精度试验", "5.1.1.1 控温精度试验"),), "5.1.1.1", "缺少上一层次“5.1.1”"),
        (
            (("5 试验方法", "6 试验方法"), ("5.1 外观", "6.1 外观"), ("5.2 控温", "6.2 控温")),
            "6",
            "缺少第5章",
        ),
    ],
)
def test_numbering_and_hierarchy(pairs: tuple[tuple[str, str], ...], location: str, words: str) -> None:
    doc = edited(*pairs)
    violations = [v for v in found(doc, "STR-04") if v.location == location]
    assert violations and any(words in v.message for v in violations), found(doc, "STR-04")


def test_terms_lead_in_and_clause_depth() -> None:
    doc = parse(SAMPLE)
    terms = doc.section("3")
    assert terms is not None and terms.text  # the lead-in above the entries is not a 悬置段
    assert locations(doc, "STR-04") == []
    deep = list(doc.sections)
    at = next(i for i, s in enumerate(deep) if s.number == "4.3")
    numbers = ["4.3.1", "4.3.1.1", "4.3.1.1.1", "4.3.1.1.1.1", "4.3.1.1.1.1.1"]
    for k, number in enumerate(numbers):
        deep.insert(at + 1 + k, Section(number, "细分", "", number.count(".") + 1, "clause"))
    deep[at] = replace(deep[at], text="")
    too_deep = replace(doc, sections=tuple(deep))
    messages = {v.location: v.message for v in found(too_deep, "STR-04")}
    assert "五个层次" in messages["4.3.1.1.1.1.1"]
    assert "4.3.1.1.1.1" not in messages or "五个层次" not in messages["4.3.1.1.1.1"]


# chapter 5 with a clause of two sub-clauses, the last clause of its chapter
TWO_SUB_CLAUSES = (
    "5.2 控温精度试验\n按附录A进行，记录格式参见附录B。\n",
    "5.2 控温精度试验\n5.2.1 试验步骤\n按附录A进行。\n5.2.2 结果记录\n记录格式参见附录B。\n",
)


def injected(document: Document, form: str) -> tuple[Proposal, Document, str]:
    """The STR-04 edit of one form on a document: the proposal, the corrupted document, its location."""
    injector = injectors()["STR-04"]
    site = next(s for s in injector.sites(document, InjectionContext()) if s.detail[0] == form)
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == form
    applied = apply_edits(document, [proposal.edit])
    verdict = injector.verify(Baseline(document), proposal, 0)
    assert verdict.instance is not None, verdict.failure
    return proposal, applied.document, applied.locations[0]


def test_the_last_chapter_numbered_one_too_high_is_the_only_numbering_error() -> None:
    proposal, corrupted, location = injected(parse(SAMPLE), "chapter")
    assert location == "6"
    assert [s.number for s in corrupted.sections if s.number.startswith("6")] == ["6", "6.1", "6.2"]
    assert [(v.location, "缺少第5章" in v.message) for v in found(corrupted, "STR-04")] == [("6", True)]
    assert proposal.error == "章编号不连续：第4章之后为第6章“试验方法”，缺少第5章"


def test_a_chapter_the_document_refers_into_keeps_its_number() -> None:
    referred = edited(
        ("在自然光下目视检查。", "在自然光下目视检查，结果按5.2处理。"), ("4.1 外观\n", "4.1 外观\n见5.2。\n")
    )
    injector = injectors()["STR-04"]
    assert "chapter" not in {s.detail[0] for s in injector.sites(referred, InjectionContext())}


def test_a_sub_clause_lifted_to_the_level_above_leaves_its_sibling_alone() -> None:
    document = edited(TWO_SUB_CLAUSES)
    assert locations(document, "STR-04") == []
    proposal, corrupted, location = injected(document, "lone")
    assert location == "5.2.1"
    assert [s.number for s in corrupted.sections if s.number.startswith("5")] == [
        "5",
        "5.1",
        "5.2",
        "5.2.1",
        "5.3",
    ]
    assert [v.location for v in found(corrupted, "STR-04")] == ["5.2.1"]
    assert "“结果记录”被编为上一层次的“5.3”" in proposal.error
    assert proposal.fix.startswith("将“5.3 结果记录”改回“5.2.2”")
    # a sub-clause the document refers to, or a parent with a sibling after it, offers no such site
    referred = edited(TWO_SUB_CLAUSES, ("在自然光下目视检查。", "在自然光下目视检查，记录按5.2.2。"))
    later = edited(TWO_SUB_CLAUSES, ("记录格式参见附录B。\n", "记录格式参见附录B。\n5.3 判定\n合格判定。\n"))
    for document in (referred, later):
        injector = injectors()["STR-04"]
        assert "lone" not in {s.detail[0] for s in injector.sites(document, InjectionContext())}


def test_every_numbering_form_is_offered(corpus_documents: list[Document], context: InjectionContext) -> None:
    injector = injectors()["STR-04"]
    modes = {site.detail[0] for doc in corpus_documents for site in injector.sites(doc, context)}
    assert modes == set(injector.forms) == {"gap", "duplicate", "parent", "hanging", "chapter", "lone"}
    # one site of each form per document: the one last chapter is drawn about as often as a gap
    for doc in corpus_documents:
        per_form = Counter(site.detail[0] for site in injector.sites(doc, context))
        assert max(per_form.values()) == 1, (doc.source, per_form)


def test_the_hanging_paragraph_fix_follows_another_error_s_renumbering() -> None:
    """An earlier chapter deleted by another error: the suggested new sub-clause is numbered as the
    final document numbers the parent's sub-clauses."""
    document = parse(SAMPLE)
    injector = injectors()["STR-04"]
    site = next(s for s in injector.sites(document, InjectionContext()) if s.detail[0] == "hanging")
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None
    chapter = document.sections[site.target].number.split(".")[0]
    moved = str(int(chapter) - 1)
    description = describe(proposal.error, proposal.fix, "GB/T 1.1—2020 7.2～7.4")
    told = renumbered(description, [(chapter, moved)], document)
    assert f"第{moved}." in told and f"“{chapter}." not in told and f"第{chapter}." not in told, told


# chapter 5 with three clauses, the last of them with three sub-clauses of its own
THREE_SUB_CLAUSES = (
    "5.2 控温精度试验\n按附录A进行，记录格式参见附录B。\n",
    "5.2 控温精度试验\n按附录A进行。\n5.3 结果处理\n5.3.1 记录\n记录格式参见附录B。\n"
    "5.3.2 计算\n取三次测量的平均值。\n5.3.3 判定\n平均值在设定温度±0.5 ℃以内为合格。\n",
)


@pytest.mark.parametrize(
    ("form", "new", "error", "fix"),
    [
        (
            "gap",
            (5, 4),
            "第5章下的条编号不连续：“5.2”之后为“5.4”（其下各条随之编为“5.4.1”～“5.4.3”），缺少“5.3”",
            "将“5.4”及其下各条“5.4.1”～“5.4.3”依次改为“5.3”“5.3.1”～“5.3.3”",
        ),
        (
            "parent",
            (4, 4),
            "条“4.4”（其下各条随之编为“4.4.1”～“4.4.3”）位于第5章之下，编号与其所属上一层次不符"
            "（接续了第4章的编号）",
            "将“4.4”及其下各条“4.4.1”～“4.4.3”依次改为“5.3”“5.3.1”～“5.3.3”",
        ),
    ],
    ids=["gap", "parent"],
)
def test_a_renamed_clause_s_fix_renumbers_its_sub_clauses_too(
    form: str, new: tuple[int, ...], error: str, fix: str
) -> None:
    """The rename carries 5.3.1～5.3.3 along: a fix that names only the clause would leave them under
    the wrong number. Another error's renumbering of the chapter is followed by every number named."""
    document = edited(THREE_SUB_CLAUSES)
    assert locations(document, "STR-04") == []
    at = next(i for i, s in enumerate(document.sections) if s.number == "5.3")
    site = Site(at, (form, new))
    injector = injectors()["STR-04"]
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert (proposal.error, proposal.fix) == (error, fix)
    assert injector.verify(Baseline(document), proposal, 0).instance is not None
    corrupted = apply_edits(document, [proposal.edit]).document
    named = [n for n in ("5.4.1", "5.4.2", "5.4.3", "4.4.1", "4.4.2", "4.4.3") if corrupted.section(n)]
    assert len(named) == 3  # the sub-clauses did move with their clause
    told = renumbered(
        describe(proposal.error, proposal.fix, "GB/T 1.1—2020 7.2～7.4"), [("5", "6")], document
    )
    if form == "gap":
        assert "依次改为“6.3”“6.3.1”～“6.3.3”" in told and "“6.4.1”～“6.4.3”" in told, told


def test_the_last_chapter_s_fix_names_its_clauses() -> None:
    proposal, _, _ = injected(parse(SAMPLE), "chapter")
    assert proposal.fix == "将第6章及其下各条“6.1”“6.2”依次改为第5章及“5.1”“5.2”"
