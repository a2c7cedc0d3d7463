"""From visual lines to logical lines: running heads and page numbers dropped, wrapped lines joined the
CJK way, headings and list items kept on lines of their own.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from parsers.lines import Line
from parsers.model import Table
from parsers.numbering import Heading, parse_heading
from parsers.pdf.layout import EDGE_ZONE, _Page, _Visual
from parsers.pdf.patterns import (
    _DIGITS,
    _LATIN_END,
    _LATIN_START,
    _LIST_START,
    _MAY_BE_HEADING,
    _NOT_LONE_PUNCTUATION,
    _PAGE_NUMBER,
    _REFERENCE,
    _REFERENCE_CHAPTERS,
    _SENTENCE_END,
    _SPACE,
    _TOC_LINE,
    _WORDY,
)


def _drop_running_heads(pages: list[_Page]) -> None:
    """Remove page numbers and the lines repeated at the top or the bottom of many pages.

    The first page keeps its top lines: on a cover they are the standard id the assembler reads, and
    whatever precedes the first element heading is dropped by the assembler anyway.
    """
    edges = [_edge_lines(page) for page in pages]
    counts: Counter[tuple[str, bool]] = Counter()
    for found in edges:
        counts.update({(_head_key(line.text), at_top) for line, at_top, _ in found})
    textual = sum(1 for p in pages if p.lines)
    threshold = max(2, round(0.25 * textual))
    for page, found in zip(pages, edges, strict=True):
        drop: set[int] = set()
        for line, at_top, outermost in found:
            numberish = outermost and _PAGE_NUMBER.match(line.text) is not None
            repeated = counts[(_head_key(line.text), at_top)] >= threshold
            if numberish or (repeated and not (page.number == 1 and at_top)):
                drop.add(id(line))
        if drop:
            page.lines = [ln for ln in page.lines if id(ln) not in drop]


def _edge_lines(page: _Page) -> list[tuple[_Visual, bool, bool]]:
    """Up to two lines at the very top and two at the very bottom of a page, outside tables.

    Each comes with whether it is at the top, and whether it is the outermost line on its side (only
    those can be a page number: a clause number alone on the first body line is not one).
    """
    measured = [ln for ln in page.lines if ln.measured and ln.cells is None]
    if not measured:
        return []
    zone = EDGE_ZONE * page.height
    top_edge = page.bottom + page.height - zone
    bottom_edge = page.bottom + zone
    by_height = sorted(measured, key=lambda ln: -ln.top)
    tops = [ln for ln in by_height[:2] if ln.bottom >= top_edge]
    bottoms = [ln for ln in by_height[max(len(tops), len(by_height) - 2) :] if ln.top <= bottom_edge]
    return [(ln, True, ln is by_height[0]) for ln in tops] + [
        (ln, False, ln is by_height[-1]) for ln in bottoms
    ]


def _head_key(text: str) -> str:
    """What a running head is compared by: digits folded only when words remain ("GB/T #—#", not "#.#")."""
    compact_text = _SPACE.sub("", text)
    folded = _DIGITS.sub("#", compact_text)
    return folded if len(_WORDY.findall(folded)) >= 3 else compact_text


@dataclass
class _Margins:
    """The text column of odd and even pages (mirrored margins are common in print PDFs)."""

    left: dict[int, float]
    right: dict[int, float]

    @classmethod
    def of(cls, pages: Sequence[_Page]) -> _Margins:
        """Left: the leftmost common line start; right: where nine in ten long lines end (or before).

        Odd and even pages are measured apart only when each has enough lines to judge by.
        """
        long_lines = {
            parity: [
                ln
                for p in pages
                if p.number % 2 == parity
                for ln in p.lines
                if ln.measured and ln.cells is None and ln.x1 - ln.x0 >= 0.4 * p.width
            ]
            for parity in (0, 1)
        }
        both = long_lines[0] + long_lines[1]
        left: dict[int, float] = {}
        right: dict[int, float] = {}
        for parity in (0, 1):
            lines = long_lines[parity] if len(long_lines[parity]) >= 30 else both
            if not lines:
                continue
            starts = Counter(round(ln.x0) for ln in lines)
            floor = max(2, len(lines) // 20)
            left[parity] = float(min([x for x, c in starts.items() if c >= floor] or starts))
            ends = sorted(ln.x1 for ln in lines)
            right[parity] = ends[int(0.9 * (len(ends) - 1))]
        return cls(left, right)


@dataclass
class _Paragraph:
    """A logical line being built from visual lines."""

    parts: list[_Visual]
    marker: bool  # starts with a list, note or reference marker: continuation lines may hang
    table: bool = False

    @property
    def first(self) -> _Visual:
        return self.parts[0]

    @property
    def last(self) -> _Visual:
        return self.parts[-1]


def _join(pages: Sequence[_Page]) -> list[Line]:
    """Join visual lines into logical lines; merge the visual lines of one table row."""
    margins = _Margins.of(pages)
    out: list[Line] = []
    current: _Paragraph | None = None
    last_table: Table | None = None
    in_references = False
    for page in pages:
        for line in page.lines:
            if current is not None:
                if _belongs(current, line, margins, in_references):
                    current.parts.append(line)
                    continue
                out.append(_emit(current))
            if line.cells is None and (heading := _heading(line.text)) is not None:
                title = _SPACE.sub("", heading.title)
                if heading.number == "参考文献" or title.startswith(_REFERENCE_CHAPTERS):
                    in_references = True
                elif heading.title and not _REFERENCE.match(line.text):
                    in_references = False
            if line.table is not None:
                if _continues_table(line.table, last_table, out, line.page):
                    line.table = replace(line.table, continued=True)
                last_table = line.table
            marker = _starts_marker(line.text, in_references)
            current = _Paragraph([line], marker, table=line.cells is not None)
    if current is not None:
        out.append(_emit(current))
    return out


def _belongs(par: _Paragraph, line: _Visual, margins: _Margins, in_references: bool) -> bool:
    """Text lines join their paragraph; a table row is whole already (the reader read it from the ruling)."""
    if line.cells is not None or par.table:
        return False
    return _continues(par, line, margins, in_references)


def _continues_table(table: Table, last: Table | None, out: list[Line], page: int) -> bool:
    """An uncaptioned table at the top of a page continues the table of as many columns that ended the
    previous one (a captioned table says so itself)."""
    if table.caption or last is None or last.columns != table.columns:
        return False
    return bool(out) and out[-1].table_row and out[-1].page == page - 1


def _heading(text: str) -> Heading | None:
    """`parse_heading`, skipped for the many lines that cannot start a heading (it is the costly part)."""
    return parse_heading(text) if _MAY_BE_HEADING.match(text) else None


def _starts_marker(text: str, in_references: bool) -> bool:
    return bool(_LIST_START.match(text) or (in_references and _REFERENCE.match(text)))


def _continues(par: _Paragraph, line: _Visual, margins: _Margins, in_references: bool) -> bool:
    """Whether `line` is a wrapped continuation of the paragraph (the CJK typesetting rules, inverted)."""
    prev = par.last
    if not (prev.measured and line.measured):
        return False
    if line.page != prev.page and line.page != prev.page + 1:
        return False
    if _punctuation_only(line.text):
        return True
    if _TOC_LINE.search(prev.text) or _PAGE_NUMBER.match(line.text):
        return False
    if line.page != prev.page and len(par.parts) == 1 and _PAGE_NUMBER.match(prev.text):
        return False  # a page number left at the foot of a page never runs on into the next page's text
    if _LIST_START.match(line.text) or (in_references and _REFERENCE.match(line.text)):
        return False
    if abs(line.size - prev.end_size) > 0.2 * max(prev.end_size, 1.0):
        return False
    if line.page == prev.page and (line.top > prev.top + 1 or prev.bottom - line.top > 1.5 * prev.size):
        return False
    parity = line.page % 2
    right = margins.right.get(parity, prev.x1)
    left = margins.left.get(parity, line.x0)
    slack = 0.6 * prev.size
    if right - prev.x1 > line.token_width + slack:
        return False  # the first word of this line would have fitted on the previous one
    if not _indent_continues(par, line, left):
        return False
    heading = _heading(line.text)
    if heading is not None and (heading.number in ("前言", "引言", "参考文献", "索引") or heading.is_annex):
        return False
    # a heading after the full-width last line of a paragraph
    return heading is None or not _SENTENCE_END.search(prev.text)


def _punctuation_only(text: str) -> bool:
    """ "。" or "）。" wrapped onto a line of its own (but not a dash that opens a list item)."""
    return len(text) <= 3 and all(
        unicodedata.category(ch)[0] in "PS" and ch not in _NOT_LONE_PUNCTUATION for ch in text
    )


def _indent_continues(par: _Paragraph, line: _Visual, left: float) -> bool:
    """Continuation lines return to the margin, keep a block indent, or hang under a marker."""
    tol = 0.5 * line.size
    if line.x0 <= left + tol:
        return True
    prev = par.last
    if len(par.parts) > 1 and abs(line.x0 - prev.x0) <= tol:
        return True
    # a first line indented on its own opens a new paragraph, unless it opens a list item or a note
    return par.marker and par.first.x0 - tol <= line.x0 <= par.first.x0 + 6 * line.size


def _emit(par: _Paragraph) -> Line:
    """The logical line: wrapped text glued back, or a table row as the table renders it."""
    first = par.first
    if par.table:
        return Line(first.text, page=first.page, offset=first.offset, table_row=True, table=first.table)
    return Line(_glue_all([p.text for p in par.parts]), page=first.page, offset=first.offset)


def _glue_all(parts: Sequence[str]) -> str:
    """Glue wrapped lines in one pass: each joint looks only at the two lines it joins (linear time)."""
    if not parts:
        return ""
    pieces = [parts[0]]
    for prev, part in itertools.pairwise(parts):
        if _latin_joint(prev, part):
            pieces.append(" ")
        pieces.append(part)
    return "".join(pieces)


def _latin_joint(a: str, b: str) -> bool:
    """A space only between two Latin words (not after a hyphen): the CJK way of joining lines."""
    return (
        bool(a) and _LATIN_END.match(a[-1]) is not None and _LATIN_START.match(b) is not None and a[-1] != "-"
    )
