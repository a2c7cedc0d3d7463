"""Tests of injectors.types.scp.editing: the scope's untreated aspects and its applicability qualifiers."""

from __future__ import annotations

from injectors.types.scp.editing import applicability_qualifiers, uncovered_aspects
from parsers.model import Document


def test_scope_04_only_promises_what_no_chapter_treats(corpus_documents: list[Document]) -> None:
    for document in corpus_documents:
        body = "".join(s.title + s.text for s in document.sections if s.kind in ("clause", "annex"))
        for aspect in uncovered_aspects(document):
            assert not any(k in body for k in aspect.keywords)


def test_scope_05_drops_a_qualifier_before_the_head_noun() -> None:
    found = applicability_qualifiers("本文件适用于额定电压不大于1 kV的户内开关柜的设计、制造和验收。")
    assert [q for _, q in found] == ["额定电压不大于1 kV的"]
    assert applicability_qualifiers("本文件适用于以茶树鲜叶为原料加工绿茶的生产活动。") == []
