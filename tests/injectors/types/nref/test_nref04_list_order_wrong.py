"""Tests of NREF-04 引用文件排列顺序错误 (List order violated)."""

from __future__ import annotations

from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    GB2423,
    GB4208,
    ISO8601,
    found,
    standard,
)


def test_nref04_order() -> None:
    swapped = f"{GB2423}\n{GB4208}\n{ISO8601}"
    assert found(standard(swapped, CLEAN_BODY), "NREF-04") == []  # interleaved by number: accepted
    iso_first = f"{ISO8601}\n{GB4208}\n{GB2423}"
    assert found(standard(iso_first, CLEAN_BODY), "NREF-04") == [
        ("2", "规范性引用文件清单中“ISO 8601-1”排在“GB 4208”之前，国家标准应排在ISO、ISO/IEC或IEC标准之前")
    ]
