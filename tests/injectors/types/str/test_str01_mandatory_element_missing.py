"""Tests of STR-01 必备要素缺失 (Mandatory element missing)."""

from __future__ import annotations

import random

import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.registry import injectors
from injectors.types.str.str01_mandatory_element_missing import (
    MandatoryElementRemoved,
    drafting_sentence,
    missing_mandatory_element,
)
from tests.injectors.test_edition import KETTLE, _parsed
from tests.injectors.types.str.str_documents import (
    BY_CHAPTER,
    FOREWORD,
    FOREWORD_2009,
    SAMPLE,
    UNCITED_2009,
    edited,
    found,
    locations,
    parse,
)


def chapter(number: str, text: str = SAMPLE) -> str:
    """The text of one chapter of a sample, heading included."""
    start = text.index(f"\n{number} ") + 1
    end = text.index(f"\n{int(number) + 1} ", start) + 1
    return text[start:end]


def without_chapter(number: str, text: str = SAMPLE) -> str:
    """The sample without one chapter, later chapters (and their clauses) renumbered as a drafter would."""
    text = text.replace(chapter(number, text), "")
    return regex.sub(
        r"(?m)^(\d+)(?=[ .\n])", lambda m: str(int(m.group(1)) - (int(m.group(1)) > int(number))), text
    )


def test_missing_foreword_and_terms_chapter_are_reported_where_they_belong() -> None:
    doc = edited((FOREWORD, "本文件由示例标准化技术委员会提出并归口。\n"))
    assert "前言" in locations(doc, "STR-01")
    no_terms = parse(without_chapter("3"))
    assert [s.number for s in no_terms.sections][:5] == ["前言", "1", "2", "3", "3.1"]
    assert locations(no_terms, "STR-01") == ["3"]
    assert "术语和定义" in found(no_terms, "STR-01")[0].message


def test_2009_documents_may_lack_terms_and_references_unless_they_cite() -> None:
    old = SAMPLE.replace(FOREWORD, FOREWORD_2009)
    no_terms = parse(without_chapter("3", old))
    assert no_terms.drafting_rules == "GB/T 1.1—2009"
    assert locations(no_terms, "STR-01") == []
    citing = parse(without_chapter("2", old))
    assert [s.number for s in citing.sections][:4] == ["前言", "1", "2", "2.1"]
    assert locations(citing, "STR-01") == ["2"]
    quiet = parse(without_chapter("2", old.replace("应符合GB/T 2423.1—2008的规定", "应满足低温试验的要求")))
    assert locations(quiet, "STR-01") == []


def test_a_deleted_scope_is_restored_under_the_title_the_document_uses() -> None:
    hj = edited(("GB/T 99990—2025", "HJ 9999—2025"), ("1 范围", "1 适用范围"), *UNCITED_2009)
    injector = injectors()["STR-01"]
    site = next(s for s in injector.sites(hj, InjectionContext()) if s.detail == "scope")
    proposal = injector.propose(hj, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert proposal.error.startswith("文件缺少必备要素“1 适用范围”")
    assert proposal.fix.startswith("恢复第1章“适用范围”")


def test_a_deleted_foreword_is_restored_with_the_sentence_of_the_documents_edition() -> None:
    injector = injectors()["STR-01"]
    for foreword, said in (
        (FOREWORD, "“本文件按照GB/T 1.1—2020"),
        (FOREWORD_2009, "“本标准按照GB/T 1.1—2009给出的规则起草。”"),
        ("前言\n本文件由示例标准化技术委员会提出。\n", "起草所依据的规则以及"),  # no edition named
    ):
        document = edited((FOREWORD, foreword))
        site = next(s for s in injector.sites(document, InjectionContext()) if s.detail == "foreword")
        proposal = injector.propose(document, site, random.Random(0), InjectionContext())
        assert proposal is not None
        assert said in proposal.fix, proposal.fix


def test_a_restored_foreword_names_the_document_as_its_scope_does() -> None:
    """A 2009 guidance document says 本指导性技术文件 throughout: its foreword sentence does too."""
    injector = injectors()["STR-01"]
    guidance = edited(
        (FOREWORD, FOREWORD_2009.replace("本标准", "本指导性技术文件")),
        ("本文件规定了示例恒温箱", "本指导性技术文件给出了示例恒温箱"),
    )
    site = next(s for s in injector.sites(guidance, InjectionContext()) if s.detail == "foreword")
    proposal = injector.propose(guidance, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert "“本指导性技术文件按照GB/T 1.1—2009给出的规则起草。”" in proposal.fix, proposal.fix


def test_a_chapter_that_only_says_it_has_nothing_to_list_is_the_chapter_deleted() -> None:
    """The terms chapter holds no entry, only its statement: it is the chapter a drafter drops, and the
    fix restores the statement (not a list)."""
    empty_terms = "3 术语和定义\n本文件没有需要界定的术语和定义。\n"
    document = edited((chapter("3"), empty_terms))
    injector = injectors()["STR-01"]
    sites = list(injector.sites(document, InjectionContext()))
    assert [s.detail for s in sites] == ["foreword", "terms", "scope"]  # chapter 2 gives way to it
    proposal = injector.propose(document, sites[1], random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "术语和定义"
    assert "连同" not in proposal.error  # no entries went with it
    restored = "恢复第3章“术语和定义”（写明“本文件没有需要界定的术语和定义。”）"
    assert proposal.fix.startswith(restored), proposal.fix
    applied = apply_edits(document, [proposal.edit])
    assert locations(applied.document, "STR-01") == ["3"]
    assert [s.detail for s in injector.sites(edited(), InjectionContext())] == [
        "foreword",
        "references",
        "terms",
        "scope",
    ]  # with entries in both chapters, both are sites
    empty_references = "2 规范性引用文件\n本文件没有规范性引用文件。\n"
    quiet = edited(
        (chapter("2"), empty_references), ("低温性能应符合GB/T 2423.1—2008的规定", "低温性能应稳定")
    )
    site = next(s for s in injector.sites(quiet, InjectionContext()) if s.detail == "references")
    proposal = injector.propose(quiet, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert "本文件没有规范性引用文件。" in proposal.fix, proposal.fix


def test_the_scope_is_deleted_beside_chapters_2_and_3_under_either_edition() -> None:
    """范围 is mandatory in both editions: a site where chapters 2 and 3 are sites too, and the instance
    cites the clause of the document's own edition; later chapters move up, so 1 is the missing scope."""
    injector = injectors()["STR-01"]
    in_use = ("箱体表面应平整", "恒温箱表面应平整")  # the defined term stays in use without the scope
    for document, clause in (
        (edited(in_use), "GB/T 1.1—2020 6.2"),
        (edited(in_use, (FOREWORD, FOREWORD_2009)), "GB/T 1.1—2009 5.1"),
    ):
        sites = list(injector.sites(document, InjectionContext()))
        assert {s.detail for s in sites} >= {"foreword", "references", "scope"}
        scope = next(s for s in sites if s.detail == "scope")
        proposal = injector.propose(document, scope, random.Random(0), InjectionContext())
        assert proposal is not None and proposal.form == "范围"
        assert proposal.edit.renames[:2] == (("2", "1"), ("3", "2"))
        verdict = injector.verify(Baseline(document), proposal, 0)
        assert verdict.instance is not None, verdict.failure
        assert verdict.instance.location == "1"
        assert verdict.instance.description.startswith("错误：文件缺少必备要素“1 范围”：该章被整体删除")
        assert verdict.instance.description.endswith(f"依据：{clause}"), verdict.instance.description
        corrupted = apply_edits(document, [proposal.edit]).document
        assert next(s.title for s in corrupted.sections if s.number == "1") == "规范性引用文件"
        assert locations(corrupted, "STR-01") == ["1"]


def test_a_deleted_reference_chapter_cites_what_its_edition_requires() -> None:
    """The 2009 rules list 规范性引用文件 as optional: a 2009 document needs it because its body cites a
    document normatively, which the description says, citing the 2009 clause on the list (6.2.3), not the
    table of elements (5.1); a 2020 document's chapter is mandatory outright (6.2)."""
    injector = injectors()["STR-01"]
    for document, reason, clause in (
        (edited(), "", "GB/T 1.1—2020 6.2"),
        (edited((FOREWORD, FOREWORD_2009)), "（正文规范性引用了文件，须列出其清单）", "GB/T 1.1—2009 6.2.3"),
    ):
        site = next(s for s in injector.sites(document, InjectionContext()) if s.detail == "references")
        proposal = injector.propose(document, site, random.Random(0), InjectionContext())
        assert proposal is not None and proposal.form == "规范性引用文件"
        assert proposal.error.startswith(f"文件缺少必备要素“2 规范性引用文件”{reason}：该章被整体删除")
        verdict = injector.verify(Baseline(document), proposal, 0)
        assert verdict.instance is not None, verdict.failure
        assert verdict.instance.description.endswith(f"依据：{clause}"), verdict.instance.description


def test_an_undeclared_document_is_held_to_the_edition_its_writing_follows() -> None:
    """Written the 2009 way, it may lack chapter 3 (no STR-01 deletes it, the checker does not ask for it);
    written the 2020 way, chapter 3 is mandatory; a restored foreword names no drafting rules the document
    never stated."""
    document = _parsed(KETTLE)
    context = InjectionContext.from_documents([document])
    details = {site.detail for site in MandatoryElementRemoved().sites(document, context)}
    assert "terms" not in details and "foreword" in details
    without_terms = _parsed(regex.sub(r"3 术语和定义\n.*?(?=4 要求)", "", KETTLE, flags=regex.S))
    assert [v.location for v in missing_mandatory_element(without_terms)] == []
    assert drafting_sentence(document) == ""
    # written the 2020 way (本文件, "（资料性）"), the same undeclared document must keep its chapter 3
    modern = KETTLE.replace("（资料性附录）", "（资料性）").replace("本标准", "本文件")
    assert "terms" in {site.detail for site in MandatoryElementRemoved().sites(_parsed(modern), context)}
    modern_without = regex.sub(r"3 术语和定义\n.*?(?=4 要求)", "", modern, flags=regex.S)
    assert [v.location for v in missing_mandatory_element(_parsed(modern_without))] == ["3"]


def test_no_chapter_is_deleted_where_a_later_chapter_numbers_its_tables_by_chapter() -> None:
    """Deleting chapter 3 renumbers chapter 5 to 4, and its "表5-1" would stay behind: only the 前言 (which
    renumbers nothing) is still proposed."""
    document = parse(BY_CHAPTER)
    context = InjectionContext.from_documents([document])
    injector = MandatoryElementRemoved()
    proposed = {
        site.detail
        for site in injector.sites(document, context)
        if injector.propose(document, site, random.Random(0), context) is not None
    }
    assert proposed == {"foreword"}
    plain = parse(SAMPLE)
    assert {"foreword", "terms"} <= {
        site.detail
        for site in injector.sites(plain, context)
        if injector.propose(plain, site, random.Random(0), context) is not None
    }
