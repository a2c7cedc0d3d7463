"""Tests of NREF-04 引用文件排列顺序错误 (List order violated)."""

from __future__ import annotations

import random

from injectors.base import Proposal
from injectors.context import InjectionContext
from injectors.language.citations import Cited, find_cited
from injectors.types.nref.analysis import analyse
from injectors.types.nref.nref04_list_order_wrong import ReferenceListOutOfOrder, rule_key
from parsers.model import Document
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    FUTURE,
    FUTURE_BODY,
    GB2423,
    GB4208,
    ISO8601,
    LEAD_2009,
    found,
    standard,
    with_future,
)


def test_nref04_order() -> None:
    swapped = f"{GB2423}\n{GB4208}\n{ISO8601}"
    assert found(standard(swapped, CLEAN_BODY), "NREF-04") == []  # interleaved by number: accepted
    iso_first = f"{ISO8601}\n{GB4208}\n{GB2423}"
    assert found(standard(iso_first, CLEAN_BODY), "NREF-04") == [
        ("2", "规范性引用文件清单中“ISO 8601-1”排在“GB 4208”之前，国家标准应排在ISO、ISO/IEC或IEC标准之前")
    ]


def test_nref04_never_moves_or_quotes_a_reference_dated_after_the_document() -> None:
    def spanned(year: str) -> set[str]:
        # a second ISO entry: the two can be swapped without passing the dated entry
        iso = "ISO 9223:2012　Corrosivity of atmospheres\n"
        doc = with_future(year, iso)
        a = analyse(doc)
        pairs = [s.detail for s in ReferenceListOutOfOrder().sites(doc, InjectionContext())]
        assert pairs
        return {a.items[k].cited.ident for i, j in pairs for k in range(i, j + 1)}

    assert "GB/T 39871" in spanned("2019")
    assert "GB/T 39871" not in spanned("2031")


# an industry list in which the drafter put the HJ/T entries before the HJ ones (the rule puts HJ first):
# only the runs the list keeps in the rule's order may be swapped
HJ_LIST = (
    "GB/T 20001.10—2014　示例编写规则\n"
    "HJ/T 31—2001　示例采样器技术要求\n"
    "HJ/T 48—2003　示例在线监测仪\n"
    "HJ 610—2016　示例评价导则\n"
    "HJ 630—2011　示例质量管理"
)
HJ_BODY = (
    "4.1 编写\n说明书应按GB/T 20001.10—2014的规定编写。\n"
    "4.2 采样\n采样器应符合HJ/T 31—2001的规定。\n"
    "4.3 监测\n在线监测应符合HJ/T 48—2003的规定。\n"
    "4.4 评价\n评价应按HJ 610—2016的规定进行。\n"
    "4.5 质量\n质量管理应符合HJ 630—2011的规定。"
)


def proposals(document: Document) -> list[Proposal]:
    injector = ReferenceListOutOfOrder()
    out = []
    for site in injector.sites(document, InjectionContext()):
        proposal = injector.propose(document, site, random.Random(0), InjectionContext())
        assert proposal is not None
        out.append(proposal)
    return out


def test_nref04_swaps_only_within_a_run_in_the_rule_s_order() -> None:
    """HJ and HJ/T are two codes, HJ first: the order a description asks for is the rule's and the
    original list's, never HJ/T before HJ."""
    document = standard(HJ_LIST, HJ_BODY)
    assert found(document, "NREF-04") == []  # the checker accepts both conventions; the list is left as is
    a = analyse(document)
    pairs = [s.detail for s in ReferenceListOutOfOrder().sites(document, InjectionContext())]
    assert pairs
    for i, j in pairs:
        codes = {a.items[k].cited.code for k in range(i, j + 1)}
        assert not {"HJ", "HJ/T"} <= codes, (i, j)
    fixes = [p.fix for p in proposals(document)]
    assert "将“HJ 610—2016”移至“HJ 630—2011”之前" in fixes
    assert not any("HJ/T" in fix and "HJ 6" in fix for fix in fixes), fixes


def test_nref04_keys_each_code_as_printed() -> None:
    def cited(text: str) -> Cited:
        (c,) = find_cited(text)
        return c

    order = ["GB 4208", "GB/T 2423.1", "GB/Z 17625.6", "HJ 610", "HJ/T 31", "DB11/T 1000", "T/CSTM 00001"]
    order += ["ISO 9223", "ISO/IEC 17025", "IEC 60529"]
    keys = [rule_key(cited(c)) for c in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_nref04_tells_a_2009_document_the_2009_order() -> None:
    foreword = "本标准按照GB/T 1.1—2009给出的规则起草。"
    document = standard(CLEAN_REFERENCES, CLEAN_BODY, foreword=foreword, lead_in=LEAD_2009)
    told = proposals(document)
    assert told
    for proposal in told:
        assert "团体标准" not in proposal.error and "国际标准（ISO、ISO/IEC、IEC标准）" in proposal.error
    assert all("团体标准" in p.error for p in proposals(standard(CLEAN_REFERENCES, CLEAN_BODY)))


def test_nref04_on_a_2009_document_keeps_national_standards_in_number_order_too() -> None:
    """The 2009 edition may be read as ordering national standards by number alone: a swap there must
    break the order under both readings, within a run that keeps both."""
    references = f"{GB4208}\n{GB2423}\n{FUTURE.replace('2031', '2019')}\n{ISO8601}"
    body = CLEAN_BODY + "\n" + FUTURE_BODY.replace("2031", "2019")
    late = standard(references, body)
    early = standard(references, body, foreword="本标准按照GB/T 1.1—2009给出的规则起草。", lead_in=LEAD_2009)
    injector = ReferenceListOutOfOrder()
    assert (0, 2) in {s.detail for s in injector.sites(late, InjectionContext())}  # 2020: GB before GB/T
    # 2009: GB 4208 before GB/T 2423.1 is out of number order, so no swap reaches back to GB 4208
    pairs = {s.detail for s in injector.sites(early, InjectionContext())}
    assert pairs and all(i >= 1 for i, _ in pairs), pairs
