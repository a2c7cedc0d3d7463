"""What the DOCX and PDF renderings of a `.std` source share: paragraph roles, heading texts, TOC entries.

Both renderers print the same document, so the decisions a parser has to undo (how a heading is printed,
which paragraphs are notes, what the 目次 lists, how a term entry is split) are made once, here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from corpus.stdsource import SourceDocument, SourceSection

IDEOGRAPHIC_SPACE = "\u3000"
NEW_PAGE_HEADINGS = ("前言", "引言", "参考文献", "索引")


class Role(Enum):
    """What a paragraph is, which decides its indent and size on the page."""

    BODY = "body"
    NOTE = "note"  # 注： / 注1：
    EXAMPLE = "example"  # 示例： / 示例1：
    LIST = "list"  # —— / a) / 1)
    CAPTION = "caption"  # 表1　名称 directly above a table
    SOURCE = "source"  # [来源：…] under a term entry
    REFERENCE = "reference"  # an entry of the normative references list or the bibliography


_NOTE = re.compile(r"注\d*：")
_EXAMPLE = re.compile(r"示例\d*：")
_LIST = re.compile(r"——|[a-z]\)|\d+\)")
_CAPTION = re.compile(r"表(?:[A-Z]\.)?\d+")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def paragraph_role(section: SourceSection, index: int) -> Role:
    """The role of `section.blocks[index]` (a paragraph), decided from its opening characters."""
    text = section.blocks[index]
    assert isinstance(text, str)
    nxt = section.blocks[index + 1] if index + 1 < len(section.blocks) else None
    if _CAPTION.match(text) and nxt is not None and not isinstance(nxt, str):
        return Role.CAPTION
    if _NOTE.match(text):
        return Role.NOTE
    if _EXAMPLE.match(text):
        return Role.EXAMPLE
    if _LIST.match(text):
        return Role.LIST
    if text.startswith("[来源："):
        return Role.SOURCE
    if section.kind == "bibliography" or (section.kind == "normative_references" and index > 0):
        return Role.REFERENCE
    return Role.BODY


def is_term_entry(section: SourceSection) -> bool:
    """A term entry (3.1 温室 greenhouse): a titled sub-clause of the terms chapter."""
    return section.kind == "terms" and section.level >= 2 and bool(section.title)


def term_display(title: str) -> str:
    """`温室 greenhouse` → `温室　greenhouse`: the space after the last CJK character becomes U+3000."""
    last = None
    for m in _CJK.finditer(title):
        last = m
    if last is None:
        return title
    at = title.find(" ", last.end())
    if at != last.end():
        return title
    return title[:at] + IDEOGRAPHIC_SPACE + title[at + 1 :]


def display_title(section: SourceSection) -> str:
    """The title as printed (term entries get the ideographic space between term and English)."""
    return term_display(section.title) if is_term_entry(section) else section.title


def annex_marker_line(section: SourceSection) -> str:
    return f"（{section.annex_marker}）"


def literal_heading(section: SourceSection, sep: str = IDEOGRAPHIC_SPACE) -> str:
    """One-line heading with its number: `5.1　总体要求`, `附录A（规范性）　数据字典`, `前言`."""
    if section.is_annex:
        return f"{section.number}{annex_marker_line(section)}{sep}{section.title}"
    if not section.number[:1].isascii():
        return section.number
    if not section.title:
        return section.number
    return f"{section.number}{sep}{display_title(section)}"


@dataclass(frozen=True)
class TocEntry:
    """One line of the 目次: the section it points to, its text and its indent level (1 or 2)."""

    number: str
    text: str
    level: int


def toc_entries(doc: SourceDocument) -> tuple[TocEntry, ...]:
    """前言, 引言, chapters, titled level-2 clauses (not term entries), annexes, 参考文献, 索引."""
    entries: list[TocEntry] = []
    for s in doc.sections:
        if s.level == 1:
            entries.append(TocEntry(s.number, literal_heading(s), 1))
        elif s.level == 2 and s.title and not is_term_entry(s):
            entries.append(TocEntry(s.number, literal_heading(s), 2))
    return tuple(entries)


def issuing_body_line(standard_id: str) -> str:
    """The big line of the cover, from the standard's code (国家标准, 行业标准, 团体标准)."""
    code = standard_id.split(" ")[0]
    if code.startswith("T/"):
        return "团体标准"
    if code in ("GB", "GB/T", "GB/Z"):
        return "中华人民共和国国家标准"
    industries = {"JR": "金融", "JT": "交通", "HJ": "国家环境保护", "YY": "医药", "TB": "铁道", "NY": "农业"}
    base = code.split("/")[0]
    if base in industries:
        return f"中华人民共和国{industries[base]}行业标准"
    return "中华人民共和国行业标准"


def issuer_lines(issuer: str) -> list[str]:
    """Issuers one per line, the last one followed by 发布, as on a printed cover."""
    lines = issuer.split()
    lines[-1] = f"{lines[-1]}{IDEOGRAPHIC_SPACE}发布"
    return lines
