"""Tests of NREF-03 资料性文件列为规范性引用 (Informative document listed as normative)."""

from __future__ import annotations

from injectors.context import InjectionContext
from injectors.types.nref.nref03_informative_listed_as_normative import InformativeReferenceListed
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    found,
    standard,
)


def test_nref03_informative_only_or_in_bibliography() -> None:
    references = CLEAN_REFERENCES.replace("ISO 8601", "GB/T 50345—2012　屋面工程技术规范\nISO 8601")
    assert found(standard(references, CLEAN_BODY), "NREF-03") == [
        ("2", "“GB/T 50345”在正文中仅被资料性提及（注、示例、见/参见），不应列入规范性引用文件")
    ]
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY, bibliography="[1] GB 4208—2017　外壳防护等级（IP代码）")
    assert found(doc, "NREF-03") == [("2", "“GB 4208”既列入规范性引用文件，又列入参考文献")]


def test_nref03_not_when_also_cited_normatively() -> None:
    body = CLEAN_BODY + "\n注：试验箱的要求见GB 4208—2017。"
    assert found(standard(CLEAN_REFERENCES, body), "NREF-03") == []


def test_nref03_never_lists_a_bibliography_entry_dated_after_the_document() -> None:
    def offered(year: str) -> list[str]:
        bibliography = f"[1] GB/T 39871—{year}　屋面　排水槽\n[2] GB/T 50345—2012　屋面工程技术规范"
        doc = standard(CLEAN_REFERENCES, CLEAN_BODY, bibliography=bibliography)
        return [s.detail.cited.ident for s in InformativeReferenceListed().sites(doc, InjectionContext())]

    assert "GB/T 39871" in offered("2019")
    assert "GB/T 39871" not in offered("2031") and offered("2031")
