"""Tests of TER-02 定义的术语未使用 (Defined term never used)."""

from __future__ import annotations

import random
from dataclasses import replace

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.registry import injectors
from injectors.types.ter.editing import at_home, vocabulary
from injectors.types.ter.ter02_defined_term_unused import placements
from tests.injectors.types.ter.ter_documents import (
    BODY,
    TERMS,
    device_and_sister,
    document,
    violations,
)


def test_ter02_entry_is_of_the_documents_world_and_goes_anywhere(ter_injectors: dict) -> None:
    """The added entry comes from a document of the same narrow field and is
    made of the document's own words, and it is not always the last entry; the entries after it are
    renumbered one down, consecutively. (The project corpus has no two documents of one narrow field:
    there TER-02 renames an entry instead.)"""
    body = BODY.replace(
        "标定周期不应超过30 d。", "标定周期不应超过30 d。采样单元的流量应稳定，试样不应被污染。"
    )
    doc = document(body=body)
    doc = replace(doc, cover=replace(doc.cover, ics="13.040.40", ccs="Z 15"))
    sister = document(terms="3.1 采样流量 sampling flow rate\n单位时间内流经采样单元的试样体积。")
    sister = replace(sister, doc_id="sister", cover=replace(sister.cover, ics="13.040.40", ccs="Z 15"))
    context = InjectionContext.from_documents([doc, sister])
    vocab = vocabulary(doc)
    positions = set()
    injector = ter_injectors["TER-02"]
    borrowed = [s for s in injector.sites(doc, context) if not hasattr(s.detail, "new")]
    assert borrowed
    for seed in range(8):
        proposal = injector.propose(doc, borrowed[0], random.Random(seed), context)
        assert proposal is not None and proposal.edit.op == "insert"
        instance = proposal
        new = replay(proposal.edit, None)
        term = new.title.split(" ", 1)[0]
        assert term == "采样流量" and term not in "".join(s.text + s.title for s in doc.sections)
        source = next(t for t in context.terms_for(doc) if t.entry.term == term)
        assert at_home(doc, source, vocab) is not None
        applied = apply_edits(doc, [instance.edit])
        entries = [s.number for s in applied.document.sections if s.kind == "terms" and s.level == 2]
        assert entries == [f"3.{k}" for k in range(1, len(entries) + 1)]
        positions.add(entries.index(new.number))
    assert len(positions) >= 3  # several places, not always the end


def test_ter02_skips_a_document_with_no_term_of_its_world(ter_injectors: dict) -> None:
    """A corpus of one sampling-device standard and one tea standard: the tea standard's entries are
    another field's and share no words with the device standard, so TER-02 has no site there."""
    device = document()
    tea = document(
        terms="3.1 摊青叶 spread leaves\n经摊放散失部分水分、叶质变软的茶树鲜叶。",
        body="4 要求\n4.1 摊放\n摊青叶应薄摊于竹匾中。",
    )
    tea = replace(tea, doc_id="tea", cover=replace(tea.cover, ics="67.140.10", ccs="X 55"))
    device = replace(device, cover=replace(device.cover, ics="17.020", ccs="N 10"))
    context = InjectionContext.from_documents([device, tea])
    borrowed = [
        s.detail.term for s in ter_injectors["TER-02"].sites(device, context) if hasattr(s.detail, "term")
    ]
    assert borrowed == []  # only its own entries, renamed (see below)
    assert list(ter_injectors["TER-01"].sites(device, context)) == [] or all(
        "摊青叶" not in getattr(o, "term", "")
        for site in ter_injectors["TER-01"].sites(device, context)
        for o in site.detail
    )


def test_ter02_renames_an_entry_to_a_form_the_text_never_uses(ter_injectors: dict) -> None:
    """TER-02 from the document's own material: the entry "标定周期" written "标定间隔" while the body
    keeps "标定周期"; the checker sees the defined term unused, at the entry."""
    doc = document()
    sites = [s for s in ter_injectors["TER-02"].sites(doc, InjectionContext()) if hasattr(s.detail, "new")]
    assert [(s.detail.entry.term, s.detail.new) for s in sites] == [("标定周期", "标定间隔")]
    instance = ter_injectors["TER-02"].inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None and instance.location == "3.2"
    assert instance.corrupted_section.title.startswith("标定间隔") and "“标定周期”" in instance.description


def test_ter02_never_renumbers_an_entry_the_text_refers_to(ter_injectors: dict) -> None:
    terms = TERMS + "\n3.3 采样流量 sampling flow rate\n单位时间内流经采样单元的试样体积（见3.1）。"
    doc = document(terms=terms, body=BODY + "\n采样流量按3.3的规定计算。")
    options = placements(doc)
    assert [p.number for p in options] == ["3.4"]  # 3.3 is referred to, and moving 3.1 or 3.2 moves it
    free = placements(document())
    assert sorted(p.number for p in free) == ["3.1", "3.2", "3.3"]
    first = next(p for p in free if p.number == "3.1")
    assert first.renames == (("3.1", "3.2"), ("3.2", "3.3"))


def test_ter02_renames_an_entry_built_on_another_defined_term(ter_injectors: dict) -> None:
    """An entry whose term rests on another defined one ("标定数据元素" on "标定数据") may be renamed: the
    new form "标定数据要素" names no other concept, and the body never writes it."""
    terms = (
        "3.1 标定数据 calibration data\n标定时记录的全部读数。\n"
        "3.2 标定数据元素 calibration data element\n标定数据中不可再分的一项读数。"
    )
    body = BODY.replace("标定周期不应超过30 d", "每个标定数据元素应标明标定数据的采集时刻")
    doc = document(terms=terms, body=body)
    sites = [s for s in ter_injectors["TER-02"].sites(doc, InjectionContext()) if hasattr(s.detail, "new")]
    assert ("标定数据元素", "标定数据要素") in [(s.detail.entry.term, s.detail.new) for s in sites]


def test_unused_term_is_reported_at_its_entry() -> None:
    doc = document(body=BODY.replace("标定周期不应超过30 d", "标定间隔不应超过30 d"))
    assert [loc for loc, _ in violations(doc, "TER-02")] == ["3.2"]
    assert "标定周期" in violations(doc, "TER-02")[0][1]


def test_term_used_in_another_form_or_place_is_not_reported() -> None:
    assert violations(document(), "TER-02") == []
    # used only in another entry's definition
    terms = TERMS.replace("从被测介质中抽取", "按标定周期校准、从被测介质中抽取")
    body = BODY.replace("标定周期不应超过30 d", "每月标定一次")
    assert violations(document(terms=terms, body=body), "TER-02") == []
    # used through its alternative spelling "A/B" or its abbreviation from 缩略语
    slash = TERMS.replace("3.2 标定周期 calibration interval", "3.2 标定/校准周期 calibration interval")
    assert violations(document(terms=slash, body=BODY.replace("标定周期", "校准周期")), "TER-02") == []
    abbreviated = BODY.replace("标定周期不应", "CI不应") + "\n5 缩略语\nCI：标定周期（Calibration Interval）"
    doc = document(body=abbreviated)
    assert ("3.2", "TER-02") not in {(v.location, v.error_type) for v in lint(doc, ["TER-02"])}


def test_ter02_borrows_only_from_the_same_narrow_field_and_only_term_like_entries() -> None:
    """Class 1: a sister standard of the same ICS subgroup lends "采样流量" (its words are the device
    standard's own), not "自检项" (shared only through a one-character word) nor "标志信息" (a general
    compound); a standard of the same ICS group but another subgroup lends nothing."""
    ter02 = injectors()["TER-02"]
    device, context = device_and_sister("13.040.40", "Z 15")
    borrowed = [s.detail.term for s in ter02.sites(device, context) if hasattr(s.detail, "definition")]
    assert borrowed == ["采样流量"]
    source = next(t for t in context.terms_for(device) if t.entry.term == "采样流量")
    assert at_home(device, source, vocabulary(device)) is not None
    instance = None
    for seed in range(6):
        instance = ter02.inject(Baseline(device), random.Random(seed), context).instance
        if instance is not None and instance.edit.op == "insert":
            break
    assert instance is not None and instance.edit.op == "insert"
    assert "采样流量" in instance.description
    device, broad = device_and_sister("13.040.20", "")  # the same ICS group 13 only
    assert [s for s in ter02.sites(device, broad) if hasattr(s.detail, "definition")] == []
