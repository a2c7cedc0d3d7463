"""NREF: the five injectors, on small documents written here and on the project's corpus.

The checkers of the normative-references list and of citations are tested in test_nref_checkers.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import regex

from injectors.base import Injector, Site
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.instance import ErrorInstance
from injectors.types.nref.analysis import analyse
from injectors.types.nref.nref01_cited_not_listed import NormativeReferenceUnlisted
from injectors.types.nref.nref02_listed_not_cited import UncitedReferenceListed
from injectors.types.nref.nref03_informative_listed_as_normative import InformativeReferenceListed
from injectors.types.nref.nref04_list_order_wrong import ReferenceListOutOfOrder
from injectors.types.nref.nref05_citation_form_error import CitationFormError
from parsers.model import Document
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    NREF,
    RAIN_BODY,
    RAIN_LIST,
    standard,
)

# --- the project's corpus --------------------------------------------------------------------------------


def test_clean_corpus_has_no_nref_violation(corpus_documents: list[Document]) -> None:
    reported = [(d.standard_id, v) for d in corpus_documents for v in lint(d) if v.error_type in NREF]
    assert reported == []


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


INJECTORS: list[type[Injector]] = [
    NormativeReferenceUnlisted,
    UncitedReferenceListed,
    InformativeReferenceListed,
    ReferenceListOutOfOrder,
    CitationFormError,
]


def _quoted(text: str) -> list[str]:
    return [part.split("”")[0] for part in text.split("“")[1:]]


def names_the_change(instance: ErrorInstance) -> bool:
    """The error part of the description quotes the changed words: text that is in the original section
    or in the corrupted one but not in both (for a swap: the two exchanged entries)."""
    assert instance.original_section is not None and instance.corrupted_section is not None
    quoted = _quoted(instance.description.split("；修改建议：")[0])
    if instance.error_type == "NREF-04":  # the two exchanged entries, then (across others) the list between
        swapped = [r.old for r in instance.edit.replacements]
        return len(quoted) >= 2 and all(any(entry.startswith(q) for entry in swapped) for q in quoted[:2])
    # the planner renumbers "第5章" and "“5.2”" when other errors renumber this document: quotations of the
    # text and clauses of other documents must not take that form
    assert not any(regex.search(r"第\d+(?:\.\d+)*[条章]|^[\dA-Z](?:\.\d+)*$", q) for q in quoted), quoted
    before, after = instance.original_section.text, instance.corrupted_section.text
    fragments = [f for q in quoted for f in q.split("…") if len(f) >= 4]
    return any((f in before) != (f in after) for f in fragments)


@pytest.mark.parametrize("injector_class", INJECTORS, ids=lambda c: c.error_type)
def test_injected_instances_on_the_corpus(
    injector_class: type[Injector], corpus_documents: list[Document], context: InjectionContext
) -> None:
    injector = injector_class()
    made = 0
    for doc in corpus_documents:
        if injector.error_type == "NREF-02" and not list(injector.sites(doc, context)):
            continue  # no reference of this document's field, series or subject in the corpus
        made += 1
        baseline = Baseline(doc)
        attempt = injector.inject(baseline, random.Random(f"0:{doc.doc_id}:x"), context)
        instance = attempt.instance
        assert instance is not None, (doc.standard_id, attempt.reason)
        assert (instance.dimension, instance.error_type) == ("NREF", injector.error_type)
        applied = apply_edits(doc, [instance.edit])
        assert instance.location == applied.locations[0]
        original = doc.sections[instance.edit.target]
        assert replay(instance.edit, original) == instance.corrupted_section == applied.sections[0]
        # the checker sees the new defect at the location, and the original is clean there
        after = {(v.location, v.error_type) for v in lint(applied.document)}
        before = {(v.location, v.error_type) for v in baseline.violations}
        assert (instance.location, injector.error_type) in after
        assert (instance.location, injector.error_type) not in before
        assert instance.description.startswith("错误：") and "；修改建议：" in instance.description
        assert names_the_change(instance), instance.description
    assert made >= len(corpus_documents) // 2


def test_nref01_removes_exactly_one_line(corpus_documents: list[Document], context: InjectionContext) -> None:
    doc = corpus_documents[0]
    instance = NormativeReferenceUnlisted().inject(Baseline(doc), random.Random(1), context).instance
    assert instance is not None and instance.original_section and instance.corrupted_section
    before = instance.original_section.text.split("\n")
    after = instance.corrupted_section.text.split("\n")
    assert len(after) == len(before) - 1 and set(after) < set(before)
    removed = instance.edit.replacements[0].old.strip("\n")
    assert f"“{removed}”" in instance.description


def test_nref02_adds_a_real_number_from_another_document(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    doc = next(d for d in corpus_documents if "greenhouse" in d.source)
    instance = UncitedReferenceListed().inject(Baseline(doc), random.Random(2), context).instance
    assert instance is not None
    added = instance.edit.replacements[0].new.strip("\n")
    others = [r.entry.line for r in context.references_for(doc)]
    assert any(added.split("　")[0] in line or added.split("　")[-1] in line for line in others)
    assert f"“{added}”" in instance.description


def _corpus_of(*documents: tuple[Document, str, str]) -> list[Document]:
    """Documents with the ICS and CCS of their field on the cover (and distinct ids)."""
    out = []
    for k, (doc, ics, ccs) in enumerate(documents):
        out.append(replace(doc, doc_id=f"doc{k}", cover=replace(doc.cover, ics=ics, ccs=ccs)))
    return out


def test_nref02_never_borrows_another_fields_reference() -> None:
    """A tea standard's "茶叶贮存" never enters the rain sensor's list; a part of a
    series the list already cites does, and so does a standard of the same field that speaks of what the
    document speaks of (half its title's words) — not one that only shares the field (a field such as
    ICS 35 holds energy metering and semantic libraries alike)."""
    body = (
        "4.1 低温\n用于自动气象站降水观测的传感器应按GB/T 2423.1—2008的规定进行低温试验，试验后应能正常工作。"
    )
    rain = standard(RAIN_LIST, body)
    tea = standard(
        "GB/T 30375—2013　茶叶贮存\nGB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温",
        RAIN_BODY,
    )
    weather = standard(
        "GB/T 33703—2017　自动气象站观测规范\nGB/T 17167—2006　用能单位能源计量器具配备和管理通则", RAIN_BODY
    )
    rain, tea, weather = _corpus_of(
        (rain, "07.060", "A 47"), (tea, "67.140.10", "X 55"), (weather, "07.060", "A 47")
    )
    context = InjectionContext.from_documents([rain, tea, weather])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(rain, context)}
    assert added == {"GB/T 2423.2", "GB/T 33703"}


def test_nref02_title_takes_the_lists_space_width() -> None:
    """A title borrowed with ideographic spaces is written with the ASCII spaces of a
    list that uses them (and the other way round)."""
    ascii_list = "GB/T 2423.1—2008 电工电子产品环境试验 第2部分：试验方法 试验A：低温"
    rain = standard(ascii_list, RAIN_BODY)
    other = standard("GB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温", RAIN_BODY)
    rain, other = _corpus_of((rain, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([rain, other])
    instance = UncitedReferenceListed().inject(Baseline(rain), random.Random(0), context).instance
    assert instance is not None
    line = instance.edit.replacements[0].new.strip("\n")
    assert line == "GB/T 2423.2—2008 电工电子产品环境试验 第2部分：试验方法 试验B：高温"
    assert "\u3000" not in line
    # nor a run of four spaces where the list writes one, and the other way round
    wide = standard("GB/T 2423.1—2008    电工电子产品环境试验    第2部分：试验方法    试验A：低温", RAIN_BODY)
    wide, other = _corpus_of((wide, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([wide, other])
    instance = UncitedReferenceListed().inject(Baseline(wide), random.Random(0), context).instance
    assert instance is not None
    line = instance.edit.replacements[0].new.strip("\n")
    assert line == "GB/T 2423.2—2008    电工电子产品环境试验    第2部分：试验方法    试验B：高温"
    # the spaces between the words of an English title say nothing about the list's Chinese titles
    mixed = standard(
        f"{RAIN_LIST}\nISO 9001:2015　Quality management systems — Requirements",
        RAIN_BODY + "\n4.2 质量\n质量管理应符合ISO 9001:2015的规定。",
    )
    other = standard("GB/T 2423.2—2008 电工电子产品环境试验 第2部分：试验方法 试验B：高温", RAIN_BODY)
    mixed, other = _corpus_of((mixed, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([mixed, other])
    instance = UncitedReferenceListed().inject(Baseline(mixed), random.Random(0), context).instance
    assert instance is not None
    assert (
        instance.edit.replacements[0]
        .new.strip("\n")
        .endswith("电工电子产品环境试验　第2部分：试验方法　试验B：高温")
    )


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


def test_no_site_where_the_list_already_breaks_the_rule() -> None:
    doc = standard(CLEAN_REFERENCES + "\nGB/T 13384　机电产品包装通用技术条件", CLEAN_BODY)
    assert list(UncitedReferenceListed().sites(doc, InjectionContext())) == []
    assert list(NormativeReferenceUnlisted().sites(doc, InjectionContext())) != []
    site: Site = next(iter(NormativeReferenceUnlisted().sites(doc, InjectionContext())))
    assert analyse(doc).items[site.detail].cited.ident in ("GB 4208", "GB/T 2423.1", "ISO 8601-1")
