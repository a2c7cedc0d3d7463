"""Tests of injectors.types.str.analysis: which documents the structure checks apply to."""

from __future__ import annotations

from injectors.checking import lint
from tests.injectors.types.str.str_documents import FOREWORD, STR_TYPES, edited


def test_engineering_codes_are_not_checked_for_this_structure() -> None:
    doc = edited(("GB/T 99990—2025", "GB 50999—2025"), (FOREWORD, ""), ("1 范围", "1 总则"))
    assert [v for v in lint(doc, STR_TYPES)] == []
