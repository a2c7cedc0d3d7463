"""Tests of STR-03 要素标题不规范 (Non-standard element title)."""

from __future__ import annotations

from injectors.checking import lint
from tests.injectors.types.str.str_documents import STR_TYPES, edited, found, locations


def test_hj_variants_are_accepted_only_in_hj_documents() -> None:
    pairs = (("1 范围", "1 适用范围"), ("2 规范性引用文件", "2 引用标准"))
    hj = edited(("GB/T 99990—2025", "HJ 9999—2025"), *pairs)
    assert hj.standard_id == "HJ 9999—2025"
    assert [v for v in lint(hj, STR_TYPES)] == []
    gbt = edited(*pairs)
    assert locations(gbt, "STR-03") == ["1", "2"]
    assert locations(gbt, "STR-01") == []


def test_element_titles() -> None:
    doc = edited(("前言\n", "序言\n"), ("3 术语和定义", "3 定义"))
    assert locations(doc, "STR-03") == ["序言", "3"]
    assert "应为“术语和定义”" in found(doc, "STR-03")[1].message
    combined = edited(("3 术语和定义", "3 术语、定义和缩略语"))
    assert locations(combined, "STR-03") == []
