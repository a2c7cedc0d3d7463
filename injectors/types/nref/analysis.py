"""Checkers of the normative-references dimension (NREF): the chapter 2 list and the citations in the body.

The module also holds what the NREF injectors share with the checkers: the grammar of a standard number
as written ("GB/T 2423.1—2008", "GB 4208", "ISO 8601-1:2019", "JT/T 808-2019"), the entries of the list
with their exact spans, every citation in the body with its role (normative, informative or neutral), and
the order key of GB/T 1.1—2020 8.4. Checkers aim at precision: a citation counts as normative only when a
requirement or instruction (应符合…的规定, 按…, 依据…, …界定的术语) carries it, and as informative only in
a foreword, introduction, 注, 示例, [来源：…] line or after 见/参见.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import regex

from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.citations import Cited, find_cited, parse_number, unwrap_citations
from injectors.language.patterns import NOTE_LINE
from injectors.language.words import words
from parsers.model import Document, Section
from parsers.numbering import annex_letter

_MARK = regex.compile(r"^[\[［]\s*\d+\s*[\]］]\s*")


_MARK_BEFORE = regex.compile(r"[\[［]\s*\d+\s*[\]］][ \t\u3000]*$")  # "…模型[2] GB/T 22080": glued 参考文献


@dataclass(frozen=True)
class ListItem:
    """One entry of a 规范性引用文件 or 参考文献 section; start/end are offsets in `section.text`."""

    start: int
    end: int
    cited: Cited  # offsets relative to the section text
    title: str
    line_start: bool  # the entry begins its line (False: glued after another entry by a PDF conversion)
    gap: str  # what separates the number from the title ("　", " ")

    def text(self, section: Section) -> str:
        return section.text[self.start : self.end]


@lru_cache(maxsize=4096)  # every candidate's lint reads the same list (keyed by the section's content)
def list_items(section: Section) -> tuple[ListItem, ...]:
    """The entries of a reference list, lead-in sentences and unnumbered lines (laws …) left out."""
    items: list[ListItem] = []
    offset = 0
    for line in section.text.split("\n"):
        starts: list[tuple[int, Cited]] = []
        marker = _MARK.match(line)
        head = marker.end() if marker else 0
        for c in find_cited(line):
            before = line[: c.start]
            at_line_start = c.start == head and not line[:head].strip("[]［］0123456789 \t\u3000")
            glued = c.start > 0 and regex.match(r"[\p{Han}）)。]", before[-1:] or " ")
            titled = regex.match(r"[ \t\u3000]+\S", line[c.end :]) is not None
            marked = c.start > head and _MARK_BEFORE.search(before) is not None
            if (at_line_start or marked or (glued and titled)) and not (
                starts and starts[-1][1].end > c.start
            ):
                starts.append((c.start, c))
        for k, (start, c) in enumerate(starts):
            end = starts[k + 1][0] if k + 1 < len(starts) else len(line)
            if k + 1 < len(starts) and (m := _MARK_BEFORE.search(line, start, end)):
                end = m.start()
            while end > start and line[end - 1] in " \t\u3000":
                end -= 1
            rest = line[c.end : end]
            title = rest.strip(" \t\u3000")
            gap = rest[: len(rest) - len(rest.lstrip(" \t\u3000"))]
            items.append(
                ListItem(start + offset, end + offset, _shifted(c, offset), title, start == head, gap)
            )
        offset += len(line) + 1
    return tuple(items)


def reference_list(document: Document) -> int | None:
    """Position of the 规范性引用文件 chapter (HJ: 引用标准), or None."""
    return next(
        (i for i, s in enumerate(document.sections) if s.kind == "normative_references" and s.level == 1),
        None,
    )


# Words that make a citation after them in the same sentence normative: an instruction (按, 依据 …) or
# a requirement or recommendation (应, 宜 as jieba's own tokens, so 响应, 应用, 相应, 适宜 never count).
# fmt: off
NORMATIVE_WORDS = frozenset((
    "应", "不应", "应能", "应当", "应该", "宜", "不宜", "必须", "按", "按照", "依据", "依照", "根据", "遵照",
    "遵循", "遵守", "符合", "满足", "执行", "采用", "引用", "达到", "应符合", "应按", "应满足", "应采用",
))


# fmt: on
_INFORMATIVE_BEFORE = regex.compile(r"(?:参见|见)[\s（(]*$")


_NEUTRAL_BEFORE = regex.compile(r"(?:参照|参考|参阅)[\s（(]*$")


_NORMATIVE_AFTER = regex.compile(
    r"^\s*(?:标准)?\s*(?:规定|要求|界定|定义的|给出的)"
    r"|^\s*(?:标准)?\s*(?:中的|中|的)[^，,。；;|]{0,14}?(?:规定|要求|界定|定义的|给出的)"
)


_SEGMENT = regex.compile(r"[。；;！？!?]| \| ")


_JOINER = regex.compile(r"^\s*(?:[、，,和及与或]|以及)\s*$")


SPECIFIC = regex.compile(
    r"^\s*(?:(?:中的|中)\s*(?P<a>\d+(?:\.\d+)+|第\s*\d+\s*[章条]|[表图]\s*[A-Z]?\.?\s*\d+(?:\.\d+)?|附录\s*[A-Z])"
    r"|(?:的)?\s*(?P<b>第\s*\d+\s*[章条]|[表图]\s*[A-Z]?\.?\s*\d+(?:\.\d+)?|附录\s*[A-Z](?![A-Za-z])))"
)


@dataclass(frozen=True)
class Use:
    """One citation in the body: where it is, what it cites and whether it is normative."""

    target: int  # section position
    cited: Cited  # offsets into the section's text
    role: str  # normative | informative | neutral
    specific: str = ""  # the clause, table or figure cited right after it ("第5章", "4.2", "表3")
    specific_end: int = 0  # where the words citing it end ("中第5章" included)


@lru_cache(maxsize=LINE_CACHE)
def _words(text: str) -> tuple[str, ...]:
    return words(text, hmm=True)


def _annex_markers(document: Document) -> dict[str, str]:
    return {s.number[-1]: s.annex_marker for s in document.sections if s.kind == "annex" and s.level == 1}


def _place(section: Section, markers: dict[str, str]) -> str:
    """The role a citation gets from where it is, before its sentence is read."""
    if section.kind in ("foreword", "introduction", "bibliography", "index"):
        return "informative"
    if section.kind == "terms" and section.level > 1:
        return "neutral"
    letter = annex_letter(section.number)
    if letter is not None:
        marker = markers.get(letter, "")
        return "normative" if "规范" in marker else "neutral"
    return "normative"


def _segments(line: str) -> Iterator[tuple[int, str]]:
    start = 0
    for m in _SEGMENT.finditer(line):
        yield start, line[start : m.start()]
        start = m.end()
    yield start, line[start:]


def _group_role(segment: str, first: Cited, last: Cited, place: str) -> str:
    """Normative when a requirement or instruction carries the citation; informative after 见/参见."""
    before = segment[: first.start]
    if _INFORMATIVE_BEFORE.search(before):
        return "informative"
    if place != "normative":
        return place
    if _NEUTRAL_BEFORE.search(before):
        return "neutral"
    if any(w in NORMATIVE_WORDS for w in _words(before)):
        return "normative"
    if _NORMATIVE_AFTER.match(segment[last.end :]):
        return "normative"
    return "neutral"


def _in_source(line: str, at: int) -> bool:
    """Inside an unclosed "[来源：…]" or "[GB/T …，定义 2.3]" bracket."""
    before = line[:at]
    opened = max(before.rfind("["), before.rfind("［"))
    return opened >= 0 and opened > max(before.rfind("]"), before.rfind("］"))


@lru_cache(maxsize=1 << 14)
def _section_uses(target: int, text: str, place: str) -> tuple[Use, ...]:
    """The citations of one section: every candidate's lint reads the document's other sections again."""
    uses: list[Use] = []
    offset = 0
    for line in unwrap_citations(text).split("\n"):
        uses.extend(_line_uses(target, line, offset, place))
        offset += len(line) + 1
    return tuple(uses)


def _line_uses(target: int, line: str, offset: int, place: str) -> Iterator[Use]:
    """The citations of one line, at their place in the section (the line's reading is memoised by text)."""
    for use in _line_uses_read(line, place):
        end = use.specific_end + offset if use.specific_end else 0
        yield Use(target, _shifted(use.cited, offset), use.role, use.specific, end)


@lru_cache(maxsize=LINE_CACHE)
def _line_uses_read(line: str, place: str) -> tuple[Use, ...]:
    """How one line cites, at offset 0 of section 0: the same line is read for every candidate's lint."""
    return tuple(_line_uses_at(0, line, 0, place))


def _line_uses_at(target: int, line: str, offset: int, place: str) -> Iterator[Use]:
    note = NOTE_LINE.match(line) is not None
    for seg_start, segment in _segments(line):
        groups: list[list[Cited]] = []
        for c in find_cited(segment):
            if groups and _JOINER.match(segment[groups[-1][-1].end : c.start]):
                groups[-1].append(c)
            else:
                groups.append([c])
        for group in groups:
            role = "informative" if note else _group_role(segment, group[0], group[-1], place)
            for c in group:
                this = "informative" if _in_source(line, seg_start + c.start) else role
                m = SPECIFIC.match(segment[c.end :])
                specific = regex.sub(r"\s+", "", m.group("a") or m.group("b")) if m else ""
                shifted = _shifted(c, offset + seg_start)
                yield Use(target, shifted, this, specific, shifted.end + m.end() if m else 0)


def _shifted(c: Cited, by: int) -> Cited:
    """The same citation `by` characters further on (built directly: `replace` is slow in this hot path)."""
    return Cited(
        c.code,
        c.number,
        c.year,
        c.sep,
        c.all_parts,
        c.start + by,
        c.end + by,
        c.number_end + by,
        None if c.sep_start is None else c.sep_start + by,
        None if c.year_end is None else c.year_end + by,
    )


@dataclass(frozen=True)
class Analysis:
    """What the NREF checkers and injectors read from one document, computed once."""

    list_target: int | None
    items: tuple[ListItem, ...]
    bibliography: tuple[tuple[int, ListItem], ...]  # (section position, entry)
    uses: tuple[Use, ...]  # citations outside the list and the bibliography, in document order
    own: Cited | None  # the document's own number

    def references(self) -> list[Use]:
        """Citations of other documents (not of this one, not of the drafting rules GB/T 1.1)."""
        return [u for u in self.uses if not excluded(u.cited, self.own)]

    def uses_of(self, cited: Cited) -> list[Use]:
        return [u for u in self.references() if u.cited.same_document(cited)]

    def listed(self, cited: Cited) -> ListItem | None:
        return next((i for i in self.items if i.cited.same_document(cited)), None)

    def impossible(self, cited: Cited) -> bool:
        """Dated after the document that cites it ("GB/T 98765—2028" in a list of 2025): no such edition
        can exist, so no instance may edit, move or quote it (a text that carries another benchmark's
        planted errors holds such numbers)."""
        year, own = (cited.year or "")[:4], (self.own.year or "")[:4] if self.own is not None else ""
        return year.isdigit() and own.isdigit() and int(year) > int(own)

    def in_bibliography(self, cited: Cited) -> bool:
        return any(entry.cited.same_document(cited) for _, entry in self.bibliography)

    def mentioned(self, cited: Cited) -> bool:
        """Anywhere at all: list, bibliography or body."""
        return (cited.family, cited.parts) in self._mentioned_index or any(
            (cited.family, cited.parts[:k]) in self._mentioned_whole for k in range(len(cited.parts))
        )

    @cached_property
    def _mentioned_whole(self) -> frozenset[tuple[str, tuple[int, ...]]]:
        """Every document the list, the bibliography and the body mention (`same_document` is a prefix
        relation of the number parts: one index answers the corpus's tens of thousands of lookups)."""
        cited = [i.cited for i in self.items] + [e.cited for _, e in self.bibliography]
        cited += [u.cited for u in self.references()]
        return frozenset((c.family, c.parts) for c in cited)

    @cached_property
    def _mentioned_index(self) -> frozenset[tuple[str, tuple[int, ...]]]:
        """Every prefix of a mentioned number, itself included."""
        return frozenset((f, parts[:k]) for f, parts in self._mentioned_whole for k in range(len(parts) + 1))


def excluded(cited: Cited, own: Cited | None) -> bool:
    """The document's own number and the drafting rules (GB/T 1.1) are not references."""
    if own is not None and cited.family == own.family and cited.parts == own.parts:
        return True
    return cited.family == "GB" and cited.parts[:1] == (1,) and len(cited.parts) == 2


@lru_cache(maxsize=64)
def analyse(document: Document) -> Analysis:
    own = parse_number(document.standard_id) if document.standard_id else None
    target = reference_list(document)
    items = list_items(document.sections[target]) if target is not None else ()
    markers = _annex_markers(document)
    bibliography: list[tuple[int, ListItem]] = []
    uses: list[Use] = []
    for i, section in enumerate(document.sections):
        if i == target:
            continue
        if section.kind == "bibliography":
            bibliography.extend((i, entry) for entry in list_items(section))
            continue
        uses.extend(_section_uses(i, section.text, _place(section, markers)))
    return Analysis(target, tuple(items), tuple(bibliography), tuple(uses), own)


def _subrank(cited: Cited) -> int:
    if cited.category == 4:
        return 1 if cited.code.startswith("ISO/IEC") else (2 if cited.code.startswith("IEC") else 0)
    return {"": 0, "T": 1, "Z": 2}.get(cited.code.partition("/")[2][:1], 0) if cited.category < 2 else 0


def _strict_key(cited: Cited) -> tuple:
    """GB before GB/T before GB/Z (and ISO before ISO/IEC before IEC), then the number."""
    return (cited.family, _subrank(cited), cited.parts)


def _number_key(cited: Cited) -> tuple:
    """GB and GB/T interleaved by number, as many real documents order them."""
    return (cited.family, cited.parts)


def _bad_pairs(items: Sequence[Cited], key: Callable[[Cited], tuple]) -> list[int]:
    return [k for k in range(len(items) - 1) if key(items[k]) > key(items[k + 1])]


def order_problem(entries: Sequence[Cited]) -> tuple[int, int] | None:
    """The first adjacent pair (k, k+1) that breaks the order, or None when the list is in order.

    Both orders found in real lists are accepted within a category: by code then number, and by number
    with GB and GB/T interleaved. Other documents (category 5) may come in any order at the end.
    """
    for k in range(len(entries) - 1):
        if entries[k].category > entries[k + 1].category:
            return k, k + 1
    start = 0
    while start < len(entries):
        end = start
        while end + 1 < len(entries) and entries[end + 1].category == entries[start].category:
            end += 1
        block = entries[start : end + 1]
        if entries[start].category < 5:
            strict, loose = _bad_pairs(block, _strict_key), _bad_pairs(block, _number_key)
            if strict and loose:
                bad = loose if len(loose) <= len(strict) else strict
                return start + bad[0], start + bad[0] + 1
        start = end + 1
    return None


def place_name(number: str) -> str:
    """How a reviewer names a section: 第5章, 第5.2条, 附录A, A.3, 前言."""
    if number[:1].isdigit():
        return f"第{number}章" if "." not in number else f"第{number}条"
    return number
