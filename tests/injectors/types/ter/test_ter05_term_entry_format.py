"""Tests of TER-05 术语条目或引导语格式错误 (Term-entry or lead-in format error)."""

from __future__ import annotations

import random

import pytest

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.registry import injectors
from injectors.types.ter.ter05_term_entry_format import NONE_FORMS, OLD_FORMS
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import (
    BODY,
    FLOW_BODY,
    FLOW_TERMS,
    FOREWORD_2009,
    TER_TYPES,
    document,
    violations,
)


def test_every_ter05_variant_is_detected_where_it_applies(
    corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    """Each kind of TER-05 site (numbering, English, each lead-in form) yields an edit the checker sees."""
    injector = ter_injectors["TER-05"]
    doc = next(
        d for d in corpus_documents if "library-digital" in d.source
    )  # a "GB/T x界定的以及下列" lead-in
    before = {(v.location, v.error_type) for v in lint(doc)}
    kinds: set[str] = set()
    for site in injector.sites(doc, context):
        proposal = injector.propose(doc, site, random.Random(0), context)
        assert proposal is not None
        applied = apply_edits(doc, [proposal.edit])
        assert (applied.locations[0], "TER-05") in {
            (v.location, v.error_type) for v in lint(applied.document)
        }
        assert (applied.locations[0], "TER-05") not in before
        kinds.add(site.detail.kind)
    assert kinds == {"english", "gap", "duplicate", "none", "only-ref", "generation"}


def test_ter05_a_terms_chapter_without_its_lead_in(ter_injectors: dict) -> None:
    """Drafters often go straight to the entries: the lead-in "下列术语和定义适用于本文件。" is missing.
    The checker reports it at chapter 3 only when entries follow; the injector removes a plain lead-in."""
    assert [v.location for v in lint(document(lead_in=""), ["TER-05"])] == ["3"]
    empty = document(lead_in="", terms="")
    assert [v for v in lint(empty, ["TER-05"]) if v.location == "3"] == []
    doc = document()
    injector = ter_injectors["TER-05"]
    missing = [
        s for s in injector.sites(doc, InjectionContext()) if getattr(s.detail, "kind", "") == "missing"
    ]
    assert len(missing) == 1
    proposal = injector.propose(doc, missing[0], random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "missing"
    instance, failure = injector._verified(Baseline(doc), proposal, 0)
    assert instance is not None, failure
    assert instance.location == "3" and "下列术语和定义适用于本文件" not in instance.corrupted_section.text
    assert "补充引导语“下列术语和定义适用于本文件。”" in instance.description


def test_ter05_offers_one_english_site_per_document(ter_injectors: dict) -> None:
    """The English form is one form among eight: one entry of a document (the middle one), not three, so
    that it does not outweigh each lead-in form."""
    terms = "\n".join(
        f"3.{k} {term} {english}\n{definition}"
        for k, (term, english, definition) in enumerate(
            (
                ("采样单元", "sampling unit", "从被测介质中抽取并输送试样的部件组合。"),
                ("标定周期", "calibration interval", "相邻两次标定之间的时间间隔。"),
                ("零点漂移", "zero drift", "无输入时输出值随时间的缓慢变化。"),
                ("量程漂移", "span drift", "满量程输入时输出值随时间的缓慢变化。"),
            ),
            start=1,
        )
    )
    body = BODY.replace("标定周期不应超过30 d", "标定周期不应超过30 d，零点漂移和量程漂移不应超过1%")
    sites = ter_injectors["TER-05"].sites(document(terms=terms, body=body), InjectionContext())
    english = [s for s in sites if getattr(s.detail, "kind", "") == "english"]
    assert [s.detail.entry.term for s in english] == ["零点漂移"]


def test_entry_number_gap_and_duplicate() -> None:
    assert violations(document(terms=FLOW_TERMS, body=FLOW_BODY), "TER-05") == []
    gap = FLOW_TERMS.replace("3.3 试样流量", "3.4 试样流量")
    assert [loc for loc, _ in violations(document(terms=gap, body=FLOW_BODY), "TER-05")] == ["3.4"]
    duplicate = FLOW_TERMS.replace("3.3 试样流量", "3.2 试样流量")
    found = violations(document(terms=duplicate, body=FLOW_BODY), "TER-05")
    assert [loc for loc, _ in found] == ["3.2"] and "重复" in found[0][1]


def test_missing_english_equivalent() -> None:
    missing = FLOW_TERMS.replace("试样流量 sample flow", "试样流量")
    found = violations(document(terms=missing, body=FLOW_BODY), "TER-05")
    assert found == [("3.3", "第3.3条术语“试样流量”缺少英文对应词")]
    # a document that gives no English equivalents at all is consistent
    none = (
        FLOW_TERMS.replace(" sampling unit", "")
        .replace(" calibration interval", "")
        .replace(" sample flow", "")
    )
    assert violations(document(terms=none, body=FLOW_BODY), "TER-05") == []


@pytest.mark.parametrize(
    "lead_in, reported",
    [
        ("下列术语和定义适用于本文件。", False),
        ("GB/T 191—2008界定的以及下列术语和定义适用于本文件。", False),
        ("本文件没有需要界定的术语和定义。", True),
        ("GB/T 191—2008界定的术语和定义适用于本文件。", True),  # no 以及下列, yet entries follow
        ("GB/T 2423.1—2008界定的以及下列术语和定义适用于本文件。", False),  # unlisted: NREF-01's, not TER-05
        ("下列术语和定义适用于本标准。", True),  # 本标准 in a GB/T 1.1—2020 document
    ],
)
def test_lead_in_contradicting_the_entries(lead_in: str, reported: bool) -> None:
    found = violations(document(lead_in=lead_in), "TER-05")
    assert bool(found) == reported, found
    if reported:
        assert found[0][0] == "3"


def test_2009_documents_and_industry_variants() -> None:
    doc = document(lead_in="下列术语和定义适用于本标准。", foreword=FOREWORD_2009)
    assert doc.drafting_rules == "GB/T 1.1—2009"
    assert violations(doc, "TER-05") == []
    hj = document(scope_title="适用范围", references_title="引用标准", foreword="本标准规定了示例内容。")
    assert [s.kind for s in hj.sections[1:4]] == ["scope", "normative_references", "terms"]
    assert lint(hj, TER_TYPES) == []


@pytest.mark.parametrize("form", NONE_FORMS)
def test_every_no_terms_lead_in_contradicts_the_entries(form: str) -> None:
    """TER-05 writes the "no terms" lead-in in several forms; the checker knows each of them."""
    assert [loc for loc, _ in violations(document(), "TER-05")] == []
    doc = document(lead_in=f"本文件{form}。")
    assert [loc for loc, _ in violations(doc, "TER-05")] == ["3"]


@pytest.mark.parametrize("form", OLD_FORMS)
def test_an_old_templates_lead_in_is_reported(form: str) -> None:
    """ "本标准采用下列定义。" and its kin come from old templates: none is a lead-in the rules prescribe."""
    doc = document(lead_in=form.format(this="本文件"))
    assert [loc for loc, _ in violations(doc, "TER-05")] == ["3"]
    # the prescribed lead-ins are not reported
    assert violations(document(lead_in="GB/T 191界定的以及下列术语和定义适用于本文件。"), "TER-05") == []


def test_a_numbering_fix_moves_later_entries_only_where_there_are_some() -> None:
    """Renumbering the last entry leaves none after it: its fix says nothing of later entries; one in the
    middle moved the later ones too, and its fix moves them back."""
    doc = document(terms=FLOW_TERMS, body=FLOW_BODY)
    injector = injectors()["TER-05"]
    fixes = {}
    for site in injector.sites(doc, InjectionContext()):
        change = site.detail
        if getattr(change, "kind", "") in ("gap", "duplicate"):
            proposal = injector.propose(doc, site, random.Random(0), InjectionContext())
            assert proposal is not None
            fixes[(change.kind, doc.sections[site.target].number)] = proposal.fix
    assert fixes[("gap", "3.3")] == "将“3.4”改为“3.3”", fixes
    assert fixes[("duplicate", "3.3")] == "将第二个“3.2”改为“3.3”", fixes
    assert fixes[("gap", "3.2")].endswith("，其后条目编号依次前移"), fixes
    assert fixes[("duplicate", "3.2")].endswith("，其后条目编号依次后移"), fixes
