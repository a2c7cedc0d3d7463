"""Checkers of the structure dimension (STR): mandatory elements, their order and titles, numbering, annexes.

The rules follow GB/T 1.1—2020 (table 3, clauses 7 and 8) and accept what the 2009 generation allowed:
规范性引用文件 and 术语和定义 were optional elements in GB/T 1.1—2009, so their absence is only reported
for 2020 documents (or, for the references chapter, when the body cites documents normatively). HJ
environmental standards keep their own titles (适用范围, 引用标准), and engineering codes (GB 50xxx, with
总则 and 本规范用词说明) follow a different structure altogether and are not checked here.

The helpers at the top (numbers as keys, element ranks, modal-verb and annex-mention classification)
are shared with the STR injectors.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from injectors.language.patterns import NOTE_LINE
from parsers.model import Document, Section

_ENGINEERING_ID = regex.compile(r"^GB(?:/T)?\s*5\d{4}\b")


def document_family(document: Document) -> str:
    """ "hj" (environmental standards with their own titles), "engineering" (GB 50xxx codes) or "gbt"."""
    standard_id = document.standard_id.replace(" ", "")
    if standard_id.startswith("HJ"):
        return "hj"
    first = next((s for s in document.sections if s.number == "1"), None)
    if (
        _ENGINEERING_ID.match(document.standard_id)
        or (first is not None and first.title == "总则")
        or any("本规范用词说明" in (s.title + s.text[:200]) for s in document.sections)
    ):
        return "engineering"
    return "gbt"


ELEMENT_RANK = {
    "foreword": 0,
    "introduction": 1,
    "scope": 2,
    "normative_references": 3,
    "terms": 4,
    "symbols": 5,
    "clause": 5,
    "annex": 6,
    "bibliography": 7,
    "index": 8,
}


def elements(document: Document) -> list[tuple[int, Section]]:
    """The top-level elements in document order: 前言, 引言, chapters, annexes, 参考文献, 索引."""
    return [
        (i, s)
        for i, s in enumerate(document.sections)
        if s.kind in ELEMENT_RANK and "." not in s.number and s.number[:1] not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ]


SENTENCE = regex.compile(r"[^。；！？|\n]+")


NORMATIVE_LEAD = regex.compile(r"(按照?|依据|根据|符合|满足|遵照|遵循|执行|采用)\s*$")


def sentences(text: str) -> Iterator[tuple[str, bool]]:
    """(sentence, in a 注 or 示例) for every sentence of a section's text."""
    for line in text.split("\n"):
        note = bool(NOTE_LINE.match(line))
        for m in SENTENCE.finditer(line):
            yield m.group(0), note


def structure_checkable(document: Document) -> bool:
    return document_family(document) != "engineering"


# Lines that belong to the document's pages, not to the element they were extracted with: the end rule
# under the last element, the back cover's publisher lines, a running header (the standard's number
# alone on a line) and a page number.
_PAGE_FURNITURE = regex.compile(
    r"^\s*(?:[_＿—–\-─━]{6,}|.*(?:版权专有|侵权必究|出版社出版|书号|开本|印张).*|[—\-]\s*\d{1,3}\s*[—\-]|[IVX]{1,4})\s*$",
    regex.MULTILINE,
)


def page_furniture(document: Document, positions: range) -> str:
    """The first line in these sections that belongs to the pages rather than to the text ("" if none):
    moving such a section would carry the end rule, back cover or a running header along with it."""
    for p in positions:
        text = document.sections[p].text
        m = _PAGE_FURNITURE.search(text)
        if m:
            return m.group().strip()
        if document.standard_id and any(
            line.strip() == document.standard_id.strip() for line in text.split("\n")
        ):
            return document.standard_id
    return ""
