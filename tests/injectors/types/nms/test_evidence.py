"""Tests of injectors.types.nms.evidence: how a description names each kind of evidence."""

from __future__ import annotations

import pytest

from injectors.types.nms.evidence import (
    ALTERNATIVE,
    COMMENTARY,
    DECLARED,
    DEFAULT,
    FALLBACK,
    HEDGE,
    INSPECTION,
    LEAD_IN,
    LIMIT,
    PRESUPPOSED,
    RESTATED,
    SAFETY,
    SIBLING,
    TEST_METHOD,
    Evidence,
    named,
)

KINDS = [
    INSPECTION,
    TEST_METHOD,
    LIMIT,
    SAFETY,
    SIBLING,
    ALTERNATIVE,
    HEDGE,
    FALLBACK,
    PRESUPPOSED,
    RESTATED,
    DEFAULT,
    COMMENTARY,
    LEAD_IN,
    DECLARED,
]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_quotes_the_documents_words(kind: str) -> None:
    assert "“开启力不大于50 N”" in named(Evidence(kind, "开启力不大于50 N", "第6.2条"), "推荐")


def test_the_kinds_found_elsewhere_say_where() -> None:
    for kind in (INSPECTION, TEST_METHOD, RESTATED, DEFAULT, LEAD_IN, COMMENTARY, DECLARED):
        assert named(Evidence(kind, "开启力不大于50 N", "第6.2条"), "推荐").startswith("第6.2条")


def test_a_sibling_is_named_by_where_it_stands() -> None:
    sentence = named(Evidence(SIBLING, "宽度宜为400 mm", "同一句"), "推荐")
    listed = named(Evidence(SIBLING, "宽度宜为400 mm", "同一列项"), "推荐")
    assert sentence == "同一句中并列的“宽度宜为400 mm”仍为推荐，该项却被单独改变"
    assert listed == "同一列项中的“宽度宜为400 mm”仍为推荐，与之并列的该项却被单独改变"


def test_a_declaration_is_named_by_its_mark_or_by_its_sentence() -> None:
    """A table row is cited by the mark in its column; a sentence by its words. Which way the clause was
    changed follows the strength it keeps."""
    row = Evidence(DECLARED, "抓拍图片编号", "表1“是否必填”栏", "否")
    assert named(row, "允许") == (
        "表1“是否必填”栏将“抓拍图片编号”标为“否”，该项本可不提供，强化为要求后与表中的标注矛盾"
    )
    sentence = Evidence(DECLARED, "卡片序列号为必填项", "第4.2条")
    assert named(sentence, "要求") == "第4.2条称“卡片序列号为必填项”，该项必须提供，弱化后与之矛盾"
