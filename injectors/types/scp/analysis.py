"""Checkers of the scope dimension (SCP): provisions inside 范围 and a broken scope formula, with the lexical
helpers (sentences, provision finder, scope phrases) that the scope injectors share.

GB/T 1.1—2020: the Scope (范围) is statements only — "本文件规定了/确立了/给出了……" and "本文件适用于……"
(2009 documents say 本标准, multi-part ones 本部分). The checkers are written for standard authors too, so
they report only what a reviewer would certainly flag: compounds such as 响应/相应/可靠/适宜 are not modal
verbs, a modal verb reported as content ("规定了……应具备的功能") is not a provision, and applicability
phrasing ("也可参照使用") is a statement about the document.
"""

from __future__ import annotations

import regex

from injectors.edition import edition
from injectors.error_type import EDITION_2009
from injectors.language.sentences import Sentence, sentences
from parsers.model import Document, Section

# How a document names itself in its scope, by generation and kind.
SELF_REFERENCE = regex.compile(r"本(?:指导性技术文件|技术规范|文件|标准|部分|规范|规程|指南|导则)")


# "本文件适用于……" (also 仅适用于, 适用范围为……); "不适用于" is the exclusion, not the boundary.
APPLICABILITY = regex.compile(r"(?<!不)(?<!不仅)适用(?:于|(?:范围|对象)(?:为|是|包括))")


EXCLUSION = regex.compile(r"不适用于")


def scope_chapter(document: Document) -> tuple[int, Section] | None:
    """The scope chapter to edit: the first with text (LLM extractions may keep an empty 目次 copy)."""
    chapters = [(i, s) for i, s in enumerate(document.sections) if s.kind == "scope" and s.level == 1]
    with_text = [(i, s) for i, s in chapters if s.text.strip()]
    return with_text[0] if with_text else None


def self_reference(document: Document) -> str:
    """How the document names itself: the word its scope uses, else 本标准 (2009) or 本文件 (2020)."""
    found = scope_chapter(document)
    if found:
        m = SELF_REFERENCE.search(found[1].text)
        if m:
            return m.group(0)
    return "本标准" if edition(document) == EDITION_2009 else "本文件"


def statement_sentences(text: str) -> list[Sentence]:
    """The sentences of a scope text that are not notes."""
    return [s for s in sentences(text) if not s.is_note]
