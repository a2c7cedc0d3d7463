"""Turn the logical lines of any format into a Document: front matter, 目次, headings, sections, kinds.

Every format reader ends here, so a standard parses to the same sections whether it came as PDF, DOCX,
Markdown or text. Headings are accepted only when the numbering around them agrees (a line "10 个字节"
inside clause 5.2 is text, not chapter 10), but tolerantly enough that a draft with a numbering error
(5.2 followed by 5.4) still parses, so the linter can report it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import regex

from parsers.cover import _TOC_ENTRY, _drafting_rules, _id_from_filename, read_cover
from parsers.errors import EmptyFileError, NotAStandardError
from parsers.lines import Line
from parsers.model import Document, Provenance, Section, Table, doc_id_for
from parsers.numbering import (
    TOC_TITLE,
    UNNUMBERED,
    Heading,
    annex_letter,
    compact,
    looks_like_title,
    normalize_title,
    parse_heading,
    parse_marker,
)
from parsers.widths import normalize_lines

_CHAPTER_KINDS: tuple[tuple[str, str], ...] = (
    ("规范性引用文件", "normative_references"),
    ("引用标准", "normative_references"),
    ("引用文件", "normative_references"),
    ("术语和定义", "terms"),
    ("术语与定义", "terms"),
    ("术语、定义", "terms"),
    ("符号", "symbols"),
    ("缩略语", "symbols"),
    ("代号", "symbols"),
)


def chapter_kind(title: str) -> str:
    key = compact(title)
    if key in ("范围", "适用范围"):
        return "scope"
    if key in ("术语", "定义"):
        return "terms"
    for prefix, kind in _CHAPTER_KINDS:
        if key.startswith(prefix):
            return kind
    return "clause"


@dataclass
class _Open:
    """A section being collected."""

    heading: Heading
    kind: str
    provenance: Provenance
    body: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)  # each placed at the body line of its first row


@dataclass
class _Numbering:
    """What has been numbered so far, to judge whether a candidate continues the sequence."""

    path: list[str] = field(default_factory=list)  # e.g. ["5", "5.2", "5.2.1"] or ["附录A", "A.1"]
    chapters: int = 0
    annex: str = ""  # letter of the current annex
    seen_unnumbered: set[str] = field(default_factory=set)

    def expected(self) -> set[str]:
        """Strict successors: next sibling, first child, or the next of any ancestor."""
        if not self.path or self.path[-1] in UNNUMBERED:
            if self.annex:
                return {f"{self.annex}.1"}
            return {"1"} if self.chapters == 0 else {str(self.chapters + 1)}
        out: set[str] = set()
        for number in self.path:
            if number.startswith("附录"):
                continue
            out.add(_bump(number))
        last = self.path[-1]
        out.add(f"{self.annex}.1" if last.startswith("附录") else f"{last}.1")
        return out

    def near(self, number: str) -> bool:
        """Lenient successors for drafts with numbering errors: small jumps, repeats, wrong parents."""
        letter = annex_letter(number)
        if letter != (self.annex or None):
            return False
        parts = number.split(".") if letter is None else number.split(".")[1:]
        if letter is None:
            chapter = int(parts[0])
            if not (self.chapters - 1 <= chapter <= self.chapters + 2) or len(parts) > 6:
                return False
            if len(parts) == 1 and chapter <= self.chapters:
                return False  # chapters do not go backwards; a repeated chapter number is a table row
            if len(parts) == 1:
                return True
        return all(p.isdigit() and 1 <= int(p) <= 60 for p in parts)

    def rewind(self, number: str) -> None:
        """Start numbering again just before `number`."""
        letter = annex_letter(number)
        if letter is None:
            self.chapters = int(number.split(".")[0]) - 1
            self.annex = ""
        self.path = []

    def accept(self, number: str) -> None:
        if number in UNNUMBERED:
            self.seen_unnumbered.add(number)
            self.path = [number]
            return
        if number.startswith("附录"):
            self.annex = number[-1]
            self.path = [number]
            return
        if annex_letter(number) is None:
            self.chapters = max(self.chapters, int(number.split(".")[0]))
        depth = number.count(".") + 1
        prefix = [p for p in self.path if p.count(".") + 1 < depth and not p.startswith("附录")]
        head = [p for p in self.path if p.startswith("附录")]
        self.path = [*head, *prefix, number]


def _bump(number: str) -> str:
    head, _, last = number.rpartition(".")
    return f"{head}.{int(last) + 1}" if head else str(int(last) + 1)


class _Assembler:
    def __init__(self, lines: Sequence[Line], *, number_styled: bool = False) -> None:
        self.lines = [ln for ln in lines if ln.text.strip()]
        self.number_styled = number_styled
        self.numbering = _Numbering()
        self.sections: list[_Open] = []
        self.chapter_kind = "clause"

    # --- front matter -------------------------------------------------------------------------
    def body_start(self) -> int:
        """Index of the first element heading after the cover and the 目次."""
        start = self._first_element(0)
        run = start
        while run < len(self.lines) and parse_heading(self.lines[run].text) is not None:
            run += 1
        first = compact(self.lines[start].text) if start < len(self.lines) else ""
        if run - start >= 4 and any(compact(ln.text) == first for ln in self.lines[run:]):
            return self._first_element(run)  # that run was a 目次 without page numbers
        return start

    def _first_element(self, begin: int) -> int:
        in_toc = False
        for i in range(begin, len(self.lines)):
            text = self.lines[i].text.strip()
            if compact(text) in (TOC_TITLE, "目录"):
                in_toc = True
                continue
            if in_toc and _TOC_ENTRY.match(text):
                continue
            heading = parse_heading(text)
            if heading is None:
                continue
            if heading.number in UNNUMBERED or (heading.number == "1" and heading.title):
                return i
        return len(self.lines)

    # --- headings -----------------------------------------------------------------------------
    def candidate(self, i: int) -> Heading | None:
        line = self.lines[i]
        if line.table_row:
            return None
        heading = parse_heading(line.text)
        if heading is None:
            return self.styled_heading(line)
        n = self.numbering
        if heading.number in UNNUMBERED:
            if heading.number not in n.seen_unnumbered:
                return heading
            earlier = next(s for s in reversed(self.sections) if s.heading.number == heading.number)
            return heading if not earlier.body else None
        if heading.is_annex:
            letter = heading.number[-1]
            if n.chapters == 0 or (n.annex and letter <= n.annex):
                return None
            if heading.annex_marker or not heading.title:
                return heading
            return (
                heading
                if looks_like_title(heading.title) and n.annex < letter <= _next_letter(n.annex)
                else None
            )
        if heading.title and self._listed_before(heading):
            n.rewind(heading.number)  # the earlier headings were a 目次 without page numbers
            return heading
        strict = heading.number in n.expected()
        if line.heading_level is None and regex.search(r"\t| {3,}|\u3000{2,}", line.text.strip()):
            return None  # columns of a table printed as text, e.g. "6    数据类型    元数据的…"
        if heading.spaced_number:
            return heading if strict and heading.title else None
        if strict:
            return heading
        titled = bool(heading.title) and not heading.rest
        lenient = titled or line.heading_level is not None
        return heading if lenient and n.near(heading.number) else None

    def _listed_before(self, heading: Heading) -> bool:
        """The same heading was already seen with nothing under it: that was a listing, this is the body."""
        return any(
            o.heading.number == heading.number and o.heading.title == heading.title and not o.body
            for o in self.sections
        )

    def styled_heading(self, line: Line) -> Heading | None:
        """A Word heading style with no number in the text: number it as Word would print it."""
        level = line.heading_level
        title = normalize_title(line.text)
        if not self.number_styled or level is None or not self.sections or not looks_like_title(title):
            return None
        n = self.numbering
        if level == 1 and not n.annex:
            return Heading(str(n.chapters + 1), title, 1)
        if level == 2 and n.annex:
            parent: str | None = n.annex
        else:
            parent = _deepest(n.path, depth=level - 1, prefix="")
        if parent is None:
            return None
        last = _deepest(n.path, depth=level, prefix=parent + ".")
        return Heading(_bump(last) if last else f"{parent}.1", title, level)

    def complete(self, i: int, heading: Heading) -> tuple[Heading, int]:
        """Pull a title or annex marker from the following lines; returns the heading and lines used."""
        used = 1
        if heading.rest and self.chapter_kind == "terms" and heading.level > 1 and _term_line(heading.rest):
            # "3.1 温室环境监测系统 greenhouse environment monitoring system": a long term is still a title
            heading = Heading(heading.number, normalize_title(heading.rest), heading.level)
        nxt = self._peek(i + used)
        if (
            heading.is_annex
            and not heading.annex_marker
            and nxt is not None
            and (marker := parse_marker(nxt))
        ):
            heading = Heading(heading.number, heading.title, heading.level, marker)
            used += 1
            nxt = self._peek(i + used)
        if heading.title or heading.rest or nxt is None or parse_heading(nxt) is not None:
            return heading, used
        in_terms = self.chapter_kind == "terms" and heading.level > 1
        short = (
            looks_like_title(nxt) and len(nxt) <= 30 and not regex.match(r"^(注|示例|——|[a-z]\)|\d\))", nxt)
        )
        if in_terms or heading.is_annex or short:
            return Heading(
                heading.number, normalize_title(nxt), heading.level, heading.annex_marker
            ), used + 1
        return heading, used

    def _peek(self, i: int) -> str | None:
        if i >= len(self.lines) or self.lines[i].table_row:
            return None
        return self.lines[i].text.strip()

    # --- sections -----------------------------------------------------------------------------
    def kind_for(self, heading: Heading) -> str:
        if heading.number in UNNUMBERED:
            return UNNUMBERED[heading.number]
        if annex_letter(heading.number):
            return "annex"
        if heading.level == 1:
            self.chapter_kind = chapter_kind(heading.title)
        return self.chapter_kind

    def run(self) -> list[_Open]:
        i = self.body_start()
        while i < len(self.lines):
            heading = self.candidate(i)
            if heading is None:
                if self.sections:
                    body = self.sections[-1]
                    if (table := self.lines[i].table) is not None:
                        body.tables.append(replace(table, line=len(body.body)))
                    body.body.append(self.lines[i].text.strip())
                i += 1
                continue
            line = self.lines[i]
            heading, used = self.complete(i, heading)
            if heading.number in UNNUMBERED or heading.is_annex or heading.level == 1:
                self.chapter_kind = "clause"
            self.numbering.accept(heading.number)
            section = _Open(heading, self.kind_for(heading), Provenance(line.page, line.offset))
            if heading.rest:
                section.body.append(heading.rest)
            self.sections.append(section)
            i += used
        return self.sections


def _term_line(text: str) -> bool:
    """A term with its English equivalent: no sentence punctuation, however long."""
    return len(text) <= 120 and not regex.search(r"[。；！？]", text) and text[-1] not in "。；：:，,、"


def _deepest(path: Sequence[str], *, depth: int, prefix: str) -> str | None:
    """The latest number on the path with this many components and this prefix."""
    return next((p for p in reversed(path) if p.count(".") == depth - 1 and p.startswith(prefix)), None)


def _next_letter(letter: str) -> str:
    return chr(ord(letter) + 1) if letter else "A"


def _dedupe(sections: list[Section]) -> list[Section]:
    """Drop what some text exports repeat: a heading-only listing (a 目次 without page numbers) whose
    headings come again later with their bodies, and exact repeats of a whole section."""
    later: dict[tuple[str, str], int] = {}
    for i, s in enumerate(sections):
        later[(s.number, s.title)] = i
    seen: set[tuple[str, str, str]] = set()
    out = []
    for i, s in enumerate(sections):
        key = (s.number, s.title, compact(s.text))
        if key in seen or (not s.text and later[(s.number, s.title)] > i):
            continue
        seen.add(key)
        out.append(s)
    return out


def assemble(lines: Sequence[Line], *, path: Path, fmt: str, data: bytes) -> Document:
    """The one place where lines become a Document; raises NotAStandardError when no structure is found."""
    if not any(ln.text.strip() for ln in lines):
        raise EmptyFileError(path, "no text: the file holds nothing to parse")
    lines = normalize_lines(lines)
    assembler = _Assembler(lines, number_styled=fmt == "docx")
    start = assembler.body_start()
    front = assembler.lines[:start]
    toc = next((i for i, ln in enumerate(front) if compact(ln.text) in (TOC_TITLE, "目录")), start)
    standard_id, title, cover = read_cover(assembler.lines[:toc])
    opened = assembler.run()
    sections = [
        Section(
            number=o.heading.number,
            title=o.heading.title,
            text="\n".join(o.body),
            level=o.heading.level,
            kind=o.kind,
            annex_marker=o.heading.annex_marker,
            provenance=o.provenance,
            tables=tuple(o.tables),
        )
        for o in opened
    ]
    sections = _strip_repeated_title(_dedupe(sections), title)
    chapters = [s for s in sections if s.level == 1 and s.number[:1].isdigit()]
    if not any(s.kind == "scope" for s in sections) and len(chapters) < 2:
        raise NotAStandardError(
            path, "no recognisable standard structure: no 范围 chapter and no numbered chapters"
        )
    return Document(
        doc_id=doc_id_for(data),
        source=str(path),
        format=fmt,
        standard_id=standard_id or _id_from_filename(path),
        title=title,
        drafting_rules=_drafting_rules(sections),
        sections=tuple(sections),
        cover=cover,
    )


def _strip_repeated_title(sections: list[Section], title: str) -> list[Section]:
    """Standards print their title again above chapter 1; it is not part of the preceding element."""
    if not title:
        return sections
    key = compact(title)
    out = []
    for s in sections:
        lines = s.text.split("\n") if s.text else []
        if s.kind in ("foreword", "introduction") and lines and compact(lines[-1]) == key:
            s = replace(s, text="\n".join(lines[:-1]))
        out.append(s)
    return out
