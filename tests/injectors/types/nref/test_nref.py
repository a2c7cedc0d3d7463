"""The NREF dimension as a whole: tests of all its types at once, where no one type module is the subject."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.base import Injector
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.registry import injectors
from injectors.types.nref.nref01_cited_not_listed import NormativeReferenceUnlisted
from injectors.types.nref.nref02_listed_not_cited import UncitedReferenceListed
from injectors.types.nref.nref03_informative_listed_as_normative import InformativeReferenceListed
from injectors.types.nref.nref04_list_order_wrong import ReferenceListOutOfOrder
from injectors.types.nref.nref05_citation_form_error import CitationFormError
from parsers import parse_file
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nref import nref_documents
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    NREF,
    found,
    names_the_change,
    standard,
)
from tests.injectors.types.scp.scp_documents import POST_SCOPE, charger_standard


def test_clean_corpus_has_no_nref_violation(corpus_documents: list[Document]) -> None:
    reported = [(d.standard_id, v) for d in corpus_documents for v in lint(d) if v.error_type in NREF]
    assert reported == []


INJECTORS: list[type[Injector]] = [
    NormativeReferenceUnlisted,
    UncitedReferenceListed,
    InformativeReferenceListed,
    ReferenceListOutOfOrder,
    CitationFormError,
]


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


def test_clean_small_document_has_no_nref_violation() -> None:
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY)
    assert [v for v in lint(doc) if v.error_type in NREF] == []


def test_hj_structure_does_not_crash() -> None:
    text = """HJ 9901—2017
示例 污染源 数据采集仪 技术要求
前言
本标准由示例司提出。
1 适用范围
本标准规定了数据采集仪的技术要求。
2 引用标准
本标准引用下列文件中的条款。凡不注日期的文件，以其有效版本为准。
GB 3096-2008 示例环境质量标准
HJ 524-2009 示例污染物名称代码
3 术语和定义
3.1
数据采集仪 data acquisition instrument
采集监测数据的装置。
4 技术要求
4.1 编码
污染物编码应符合HJ 524-2009的规定，噪声监测项目按GB 3096-2008的规定选取。
4.2 通信
通信应可靠。
"""
    doc = parse_text(Path("hj.txt"), text.encode())
    assert [(v.location, v.error_type) for v in lint(doc) if v.error_type in NREF] == [
        ("2", "NREF-05"),
        ("2", "NREF-05"),
        ("4.1", "NREF-05"),
        ("4.1", "NREF-05"),
    ]


def test_real_findings_are_the_known_ones(real_corpus: Path) -> None:
    """Defects present in the published texts (see `bench/types.py --dimension NREF` for the full table)."""
    jrt = parse_file(real_corpus / "JRT_0184-2020.pdf")
    assert found(jrt, "NREF-01") == [("2", "“GB/T 32915”在第8.6条中被规范性引用，但未列入规范性引用文件清单")]
    assert [v for v in lint(jrt) if v.error_type in NREF and v.error_type != "NREF-01"] == []
    md = parse_file(real_corpus / "GBT_22240-2020.md")
    assert [v for v in lint(md) if v.error_type in NREF] == []


def test_nref_skip_reasons_name_the_list_state() -> None:
    context = InjectionContext()
    listed = "GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温"
    clean = nref_documents.standard(listed, "传感器应按GB/T 2423.1—2008进行低温试验。")
    uncited = nref_documents.standard(listed, "传感器应进行低温试验。")
    assert injectors()["NREF-02"].no_site_reason(uncited, context) == "already_in_original"
    assert injectors()["NREF-03"].no_site_reason(clean, context) == "no_informative_citation"
    assert injectors()["NREF-04"].no_site_reason(clean, context) == "one_entry"
    no_list = charger_standard(POST_SCOPE)
    assert injectors()["NREF-01"].no_site_reason(no_list, context) == "no_reference_list"
    assert injectors()["SCP-04"].no_site_reason(no_list, context) in ("no_untreated_aspect", "no_scope_list")
