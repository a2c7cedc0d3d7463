"""Tests of injectors.types.scp.analysis: which chapter is the scope, how the document names itself, and
which of the scope's sentences are statements."""

from __future__ import annotations

from dataclasses import replace

from injectors.types.scp.analysis import scope_chapter, self_reference, statement_sentences
from parsers.model import Section
from tests.injectors.types.scp.scp_documents import scope_standard


def test_the_scope_chapter_is_the_first_with_text() -> None:
    """An LLM extraction may keep an empty copy of 范围 from the 目次: the chapter with text is the one."""
    document = scope_standard("本文件规定了工具柜的技术要求。\n本文件适用于工具柜。")
    chapter = scope_chapter(document)
    assert chapter is not None
    position, section = chapter
    assert section.text.startswith("本文件规定了工具柜")
    empty_copy = Section("1", "范围", "", 1, "scope")
    sections = (*document.sections[:position], empty_copy, *document.sections[position:])
    found = scope_chapter(replace(document, sections=sections))
    assert found is not None and found[0] == position + 1 and found[1].text == section.text
    without = tuple(s for s in document.sections if s.kind != "scope")
    assert scope_chapter(replace(document, sections=without)) is None


def test_the_document_names_itself_as_its_scope_does() -> None:
    assert self_reference(scope_standard("本部分规定了工具柜的技术要求。\n本部分适用于工具柜。")) == "本部分"
    older = scope_standard("工具柜的技术要求。", generation=2009)
    assert self_reference(older) == "本标准"  # the scope names nothing: the edition's word
    assert self_reference(scope_standard("工具柜的技术要求。")) == "本文件"


def test_a_note_of_the_scope_is_no_statement() -> None:
    text = "本文件规定了工具柜的技术要求。\n注：工具柜包括壁挂式和落地式。\n本文件适用于工具柜。"
    assert [s.text for s in statement_sentences(text)] == [
        "本文件规定了工具柜的技术要求。",
        "本文件适用于工具柜。",
    ]
