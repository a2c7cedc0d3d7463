"""Tests of NREF-04 引用文件排列顺序错误 (List order violated)."""

from __future__ import annotations

from injectors.context import InjectionContext
from injectors.types.nref.analysis import analyse
from injectors.types.nref.nref04_list_order_wrong import ReferenceListOutOfOrder
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    GB2423,
    GB4208,
    ISO8601,
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
