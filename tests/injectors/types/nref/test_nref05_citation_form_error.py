"""Tests of NREF-05 引用形式错误 (Citation form error)."""

from __future__ import annotations

import random
from collections import Counter

import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.citations import Cited
from injectors.registry import injectors
from injectors.types.nref.nref05_citation_form_error import CitationFormError
from parsers.model import Document
from tests.injectors.types.nref import nref_documents
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    LEAD_2009,
    found,
    names_the_change,
    standard,
    with_future,
)
from tests.injectors.types.scp.scp_documents import alone_instances


def test_nref05_every_form_verifies(corpus_documents: list[Document], context: InjectionContext) -> None:
    """Each of the citation-form edits passes the base class verification somewhere in the corpus."""
    injector = CitationFormError()
    verified: dict[str, str] = {}
    for doc in corpus_documents:
        baseline = Baseline(doc)
        for site in injector.sites(doc, context):
            kind = site.detail[0]
            if kind in verified:
                continue
            proposal = injector.propose(doc, site, random.Random(0), context)
            assert proposal is not None
            instance, failure = injector._verified(baseline, proposal, 0)
            assert instance is not None, (doc.standard_id, kind, failure)
            assert names_the_change(instance), instance.description
            verified[kind] = instance.description
    assert set(verified) == set(injector.forms)
    assert set(verified) == {"dash", "year", "specific", "undate", "lead-in", "title-marks"}
    assert "GB/T 1.1—2009的表述" in verified["lead-in"]


def test_a_marked_title_in_the_list_is_found_and_a_plain_one_is_not() -> None:
    clean = standard(CLEAN_REFERENCES, CLEAN_BODY)
    assert found(clean, "NREF-05") == []
    marked = standard(CLEAN_REFERENCES.replace("环境试验　低温", "《环境试验　低温》"), CLEAN_BODY)
    (violation,) = found(marked, "NREF-05")
    assert violation[0] == "2" and "《环境试验　低温》" in violation[1], violation


def test_the_edit_marks_one_chinese_title_and_names_the_fix() -> None:
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY)
    context = InjectionContext.from_documents([doc])
    injector = CitationFormError()
    sites = [s for s in injector.sites(doc, context) if s.detail[0] == "title-marks"]
    # the ISO entry's English title is left alone: 《》 belong to Chinese titles
    assert sorted(s.detail[1].cited.ident for s in sites) == ["GB 4208", "GB/T 2423.1"]
    for site in sites:
        proposal = injector.propose(doc, site, random.Random(0), context)
        assert proposal is not None
        instance, failure = injector._verified(Baseline(doc), proposal, 0)
        assert instance is not None, failure
        assert instance.provenance.form == "title-marks" and instance.location == "2"
        title = site.detail[1].title
        corrupted = instance.corrupted_section
        assert corrupted is not None
        assert f"《{title}》" in corrupted.text and corrupted.text.count("《") == 1
        assert f"写为“{site.detail[1].cited.ident}" in instance.description, instance.description
        assert "依据：GB/T 1.1—2020 8.6" in instance.description, instance.description


def test_no_site_on_a_title_already_marked() -> None:
    doc = standard(CLEAN_REFERENCES.replace("环境试验　低温", "《环境试验　低温》"), CLEAN_BODY)
    sites = [s for s in CitationFormError().sites(doc, InjectionContext()) if s.detail[0] == "title-marks"]
    assert sites == []


def test_nref05_hyphen_colon_and_undated_clause() -> None:
    references = CLEAN_REFERENCES.replace("GB 4208—2017", "GB 4208-2017")
    body = CLEAN_BODY.replace("GB/T 2423.1—2008中试验Ab", "GB/T 2423.1:2008中试验Ab") + (
        "\n4.4 雨量\n雨量示值误差应符合GB 4208中第6章的规定。"
    )
    doc = standard(references, body)
    assert found(doc, "NREF-05") == [
        ("2", "“GB 4208-2017”年号前应使用一字线“—”（GB 4208—2017）"),
        ("4.2", "“GB/T 2423.1:2008”年号前应使用一字线“—”（GB/T 2423.1—2008）"),
        ("4.4", "引用了不注日期文件“GB 4208”中的具体内容“第6章”，引用具体章条、图表时应注日期"),
    ]


def test_nref05_a_citation_of_another_edition_than_the_list_gives() -> None:
    """Reported where the text cites it; a part of the listed document, an undated citation and an
    informative one (a note) are no such error."""
    body = CLEAN_BODY.replace("按GB/T 2423.1—2008中试验Ab", "按GB/T 2423.1—2001中试验Ab") + (
        "\n4.4 高温\n按GB/T 2423.2—2008的规定进行。\n4.5 外壳\n外壳应符合GB 4208的规定。"
        "\n注：旧版见GB 4208—2008。"
    )
    assert found(standard(CLEAN_REFERENCES, body), "NREF-05") == [
        ("4.2", "“GB/T 2423.1—2001”与规范性引用文件清单所列“GB/T 2423.1—2008”的年号不一致")
    ]


def test_nref05_the_year_form_is_injected_and_told_from_the_list() -> None:
    document = standard(CLEAN_REFERENCES, CLEAN_BODY)
    injector = CitationFormError()
    sites = [s for s in injector.sites(document, InjectionContext()) if s.detail[0] == "year"]
    assert {document.sections[s.target].number for s in sites} == {"4.1", "4.2"}
    site = next(s for s in sites if document.sections[s.target].number == "4.2")
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "year"
    year = regex.search(r"“GB/T 2423\.1—(\d{4})”", proposal.error)
    assert year is not None and 2000 <= int(year.group(1)) <= 2005
    assert proposal.error.endswith("而规范性引用文件清单列出的是“GB/T 2423.1—2008”，同一文件的年号前后不一致")
    assert proposal.fix.endswith("改为“GB/T 2423.1—2008”，与清单所列版本一致")
    assert injector.verify(Baseline(document), proposal, 0).instance is not None


def test_nref05_guards() -> None:
    body = CLEAN_BODY + "\n4.4 雨量\n显示屏防护应符合GB 4208中IP54的要求，接口应符合GB 4208的规定。"
    assert found(standard(CLEAN_REFERENCES, body), "NREF-05") == []


def test_nref05_lead_in_of_the_wrong_edition() -> None:
    assert found(standard(CLEAN_REFERENCES, CLEAN_BODY, lead_in=LEAD_2009), "NREF-05") == [
        ("2", "按GB/T 1.1—2020起草的文件在规范性引用文件中使用了GB/T 1.1—2009的引导语")
    ]
    old = standard(
        CLEAN_REFERENCES, CLEAN_BODY, lead_in=LEAD_2009, foreword="本标准按照GB/T 1.1—2009给出的规则起草。"
    )
    assert found(old, "NREF-05") == []


def test_nref05_takes_the_hyphen_no_more_often_than_its_other_forms() -> None:
    """Every dated citation is a hyphen site: five of them beside one undated normative citation gave the
    hyphen to nearly every instance; each form offers a few sites, spread through the document."""
    listed = "\n".join(
        (
            "GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温",
            "GB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温",
            "GB/T 4208　外壳防护等级（IP代码）",
        )
    )
    body = (
        "传感器应按GB/T 2423.1—2008进行低温试验。传感器应按GB/T 2423.2—2008进行高温试验。\n"
        "低温试验的持续时间见GB/T 2423.1—2008。高温试验的持续时间见GB/T 2423.2—2008。\n"
        "外壳防护等级应符合GB 4208的规定。"
    ).replace("GB 4208", "GB/T 4208")
    document = nref_documents.standard(listed, body)
    injector = injectors()["NREF-05"]
    sites = list(injector.sites(document, InjectionContext()))
    kinds = Counter(s.detail[0] for s in sites)
    # the hyphen is one form among several: never most of the sites
    assert kinds["specific"] >= 1 and kinds["year"] >= 1 and kinds["dash"] <= sum(kinds.values()) / 2, kinds
    forms = Counter(i.provenance.form for i in alone_instances("NREF-05", document, seeds=30))
    assert forms["dash"] <= 0.6 * sum(forms.values()) and len(forms) >= 2, forms


def test_nref05_never_edits_a_reference_dated_after_the_document() -> None:
    def touched(year: str) -> set[str]:
        doc = with_future(year)
        sites = list(CitationFormError().sites(doc, InjectionContext()))
        cited = [
            d if isinstance(d, Cited) else getattr(d, "cited", None) for _, d in (s.detail for s in sites)
        ]
        return {c.ident for c in cited if c is not None}

    assert "GB/T 39871" in touched("2019")
    assert "GB/T 39871" not in touched("2031") and touched("2031")
