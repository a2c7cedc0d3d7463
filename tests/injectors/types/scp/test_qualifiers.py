"""Tests of injectors.types.scp.qualifiers: whether the document shows a dropped applicability qualifier's
restriction lost, and what still bounds the object once it is dropped."""

from __future__ import annotations

from injectors.types.scp.analysis import scope_chapter, statement_sentences
from injectors.types.scp.editing import applicability_qualifiers
from injectors.types.scp.qualifiers import qualifier_evidence, still_bounded
from parsers.model import Document
from tests.injectors.types.scp.scp_documents import (
    WIDE_SCOPE,
    WIDE_TITLE,
    YARD_BODY,
    added_text,
    alone_instances,
    charger_standard,
    dropped_qualifiers,
    standard,
)


def _qualifier_cases(document: Document) -> list[tuple[str, str | None, str | None]]:
    found = scope_chapter(document)
    assert found is not None
    section = found[1]
    return [
        (q, qualifier_evidence(document, section, st.text, q), still_bounded(document, section, st.text, q))
        for st in statement_sentences(section.text)
        for _, q in applicability_qualifiers(st.text)
    ]


def test_scp05_drops_no_qualifier_that_the_title_still_states() -> None:
    """The title still bounds the subject to 住宅小区: without the qualifier the scope is terser, not
    wider."""
    document = charger_standard(WIDE_SCOPE, title=WIDE_TITLE)
    assert ("住宅小区内设置的", None, None) in _qualifier_cases(document)
    assert not [i for i in alone_instances("SCP-05", document) if i.provenance.form == "删去限定语"]


def test_scp05_refuses_a_qualifier_that_a_defined_term_still_says() -> None:
    terms = (
        "下列术语和定义适用于本文件。\n3.1\n交流充电桩管理终端 terminal\n"
        "设置在住宅小区内，管理交流充电桩的终端设备。"
    )
    document = charger_standard(WIDE_SCOPE, title=WIDE_TITLE, terms=terms)
    assert [b for _, _, b in _qualifier_cases(document)] == ["术语“交流充电桩管理终端”"]
    assert not [i for i in alone_instances("SCP-05", document) if not added_text(i)]


def test_scp05_refuses_a_qualifier_that_the_scopes_exclusion_or_short_name_still_says() -> None:
    excluded = charger_standard(WIDE_SCOPE + "\n本文件不适用于住宅小区以外设置的充电设施。", title=WIDE_TITLE)
    assert any(b and b.startswith("排除陈述") for _, _, b in _qualifier_cases(excluded))
    assert not [i for i in alone_instances("SCP-05", excluded) if i.provenance.form == "删去限定语"]
    short = charger_standard(
        "本文件规定了住宅小区交流充电桩管理终端（以下简称管理终端）的功能要求。\n"
        "本文件适用于住宅小区内设置的管理终端的设计和验收。"
    )
    assert any(b == "简称“管理终端”" for _, _, b in _qualifier_cases(short))


def test_scp05_drops_no_qualifier_that_another_scope_sentence_still_states() -> None:
    """ "本文件规定了住宅小区共享工具柜的……" still bounds the subject once "住宅小区内设置的" is dropped from
    the applicability sentence (the body naming 住宅小区 too does not make the scope wider)."""
    scope = "本文件规定了住宅小区共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的共享工具柜。"
    document = standard(scope, YARD_BODY, title="社区 共享工具柜 技术要求")
    assert _qualifier_cases(document) == [("住宅小区内设置的", None, None)]
    assert not dropped_qualifiers(document)
