"""Tests of NREF-01 规范性引用未列出 (Cited normatively but not listed)."""

from __future__ import annotations

import random

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nref.analysis import analyse
from injectors.types.nref.nref01_cited_not_listed import NormativeReferenceUnlisted
from parsers.model import Document
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    found,
    standard,
    with_future,
)


def test_nref01_removes_exactly_one_line(corpus_documents: list[Document], context: InjectionContext) -> None:
    doc = corpus_documents[0]
    instance = NormativeReferenceUnlisted().inject(Baseline(doc), random.Random(1), context).instance
    assert instance is not None and instance.original_section and instance.corrupted_section
    before = instance.original_section.text.split("\n")
    after = instance.corrupted_section.text.split("\n")
    assert len(after) == len(before) - 1 and set(after) < set(before)
    removed = instance.edit.replacements[0].old.strip("\n")
    assert f"“{removed}”" in instance.description


def test_nref01_normative_citation_missing_from_list() -> None:
    body = CLEAN_BODY + "\n4.4 雨量\n雨量测量误差应符合GB/T 21978.2的规定。"
    assert found(standard(CLEAN_REFERENCES, body), "NREF-01") == [
        ("2", "“GB/T 21978.2”在第4.4条中被规范性引用，但未列入规范性引用文件清单")
    ]


def test_nref01_ignores_informative_and_neutral_mentions() -> None:
    body = (
        CLEAN_BODY + "\n4.4 布置\n传感器的按钮布置与GB/T 7777的产品相同。\n"
        "示例：按GB/T 6666进行的试验记录。\n引线颜色见GB/T 5555。"
    )
    assert found(standard(CLEAN_REFERENCES, body), "NREF-01") == []


def test_nref01_a_requirement_sentence_makes_a_citation_normative() -> None:
    required = CLEAN_BODY + "\n4.4 输出\n输出报文的格式应与GB/T 3333一致。"
    assert found(standard(CLEAN_REFERENCES, required), "NREF-01") == [
        ("2", "“GB/T 3333”在第4.4条中被规范性引用，但未列入规范性引用文件清单")
    ]
    # 应 inside 响应 or 相应 is no modal verb
    mention = CLEAN_BODY + "\n4.4 输出\n报警响应时间与GB/T 3333的相应产品相当。"
    assert found(standard(CLEAN_REFERENCES, mention), "NREF-01") == []


def test_nref01_terms_lead_in_is_normative() -> None:
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY, terms="GB/T 4444界定的以及下列术语和定义适用于本文件。")
    assert found(doc, "NREF-01") == [("2", "“GB/T 4444”在第3章中被规范性引用，但未列入规范性引用文件清单")]


def test_nref01_never_takes_out_a_reference_dated_after_the_document() -> None:
    def removable(doc: Document) -> list[str]:
        injector = NormativeReferenceUnlisted()
        a = analyse(doc)
        return [a.items[s.detail].cited.ident for s in injector.sites(doc, InjectionContext())]

    assert "GB/T 39871" in removable(with_future("2019"))
    assert "GB/T 39871" not in removable(with_future()) and removable(with_future())
