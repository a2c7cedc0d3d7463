"""Whether a parsed document's structure can be trusted before errors are injected into it.

An error injected into a broken parse is a broken benchmark item: its location names a section that
swallowed the real one, or a "heading" that is a line of noise. So every parsed document gets a report of
what its structure looks like, and a document with a finding that only a broken parse (or a document
drafted under other rules) explains is refused, with the reason, before injection. What the report finds
fatal is deliberately narrow: a draft with an ordinary drafting error (a clause numbered 5.4 after 5.2, a
long table-filled annex) still passes, because reporting such errors is what the benchmark is about.

Fatal findings:

- `ghost_headings`: two or more headings with neither text nor a subclause, before the last section;
- `swallowed_headings`: a section many times longer than the median that holds, as lines of its text,
  headings of the document's own outline (chapters, annexes, 参考文献) that never became sections;
- `heading_not_text`: a heading made of an encoded token (base64, hex), or, in most headings, titles cut
  to one character (a recognised text layer that lost its characters);
- `chapter_sequence`: chapters that do not run 1, 2, 3 … or annexes that do not run A, B, C …;
- `several_standards`: a second standard's cover (its id alone on a line, then its 前言, 目次 or 1 范围)
  inside the text: one file holding several standards, or several parts of one;
- `engineering_code`: drafted under the rules for engineering construction codes (1 总则, clauses numbered
  1.0.1), whose layout the error types and their clause references do not describe.

A long section with no heading inside is reported (`long_section`) but not fatal: long annexes of tables
are common in real standards.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import regex

from parsers.cover import STANDARD_ID
from parsers.errors import BrokenStructureError
from parsers.model import Document, Section
from parsers.numbering import UNNUMBERED, compact, parse_heading

# empty headings from which a document is refused (one alone may be a clause that holds only a figure)
GHOST_MIN = 2
# a section this many times the median section and at least this long is reported as long
LONG_FACTOR = 20
LONG_MIN_CHARS = 3000
# headings cut to one character: fatal from this many, when they are this share of the titled headings
FRAGMENT_MIN = 5
FRAGMENT_SHARE = 0.3
# clauses numbered like 1.0.1 from which a document reads as an engineering construction code
ENGINEERING_CLAUSES = 3

# a chapter heading lost in a section's text: at most this many chapters after the last one parsed
MAX_LOST_CHAPTERS = 10

_COLUMNS = regex.compile(r"\t| {3,}|\u3000{2,}")  # columns of a table printed as text
_HAN = regex.compile(r"\p{Han}")
_ENCODED = regex.compile(r"[A-Za-z0-9+/=_\-]{16,}")
_ENGINEERING_NUMBER = regex.compile(r"^[1-9]\d?\.0\.[1-9]\d?(?=\s|$|\p{Han})")
_GENERAL_PROVISIONS = regex.compile(r"^\s*1[\s\u3000]*总[\s\u3000]*则\s*$")
_SECOND_COVER_ELEMENTS = ("前言", "目次", "1范围")
_ENTRY_KINDS = ("terms", "symbols")
_SCOPE_OPENING = regex.compile(r"^本(?:部分|文件|标准|规范|指导性技术文件)")
# every check a report can hold, each described in docs/parse-gate.md
CHECKS = (
    "ghost_headings",
    "swallowed_headings",
    "long_section",
    "heading_not_text",
    "chapter_sequence",
    "several_standards",
    "engineering_code",
)
# lines after a second standard's id within which its 前言, 目次 or 1 范围 shows a cover
COVER_LINES = 40
SHORT_LINE = 40
SHOWN = 4  # examples named in a finding's message


@dataclass(frozen=True)
class Finding:
    check: str
    message: str
    fatal: bool
    locations: tuple[str, ...] = ()


@dataclass(frozen=True)
class StructureReport:
    """What the structure of one parsed document looks like, and whether errors may be injected into it."""

    sections: int
    median_chars: float
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not any(f.fatal for f in self.findings)

    @property
    def reason(self) -> str:
        """Why the document is refused (empty when it passed)."""
        return "; ".join(f.message for f in self.findings if f.fatal)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "sections": self.sections,
            "median_chars": self.median_chars,
            "findings": [asdict(f) for f in self.findings],
        }


def check_structure(document: Document) -> StructureReport:
    sections = document.sections
    median = float(statistics.median(len(s.text) for s in sections)) if sections else 0.0
    engineering = list(_engineering_code(sections))
    if engineering:  # its numbering breaks every other rule here by design: that is the one reason
        return StructureReport(len(sections), median, tuple(engineering))
    findings = [
        *_ghost_headings(sections),
        *_long_sections(sections, median),
        *_headings_not_text(sections),
        *_sequence(sections),
        *_several_standards(document),
    ]
    return StructureReport(len(sections), median, tuple(findings))


def gate(document: Document) -> StructureReport:
    """The report of a document that may be injected; BrokenStructureError (naming the file) otherwise."""
    report = check_structure(document)
    if not report.passed:
        raise BrokenStructureError(document.source, f"structure check failed: {report.reason}")
    return report


def _shown(items: Sequence[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def _has_children(sections: Sequence[Section], i: int) -> bool:
    nxt = sections[i + 1] if i + 1 < len(sections) else None
    if nxt is None:
        return False
    number = sections[i].number
    prefix = number[-1] + "." if number.startswith("附录") else number + "."
    return nxt.number.startswith(prefix)


def _ghost_headings(sections: Sequence[Section]) -> Iterator[Finding]:
    ghosts = [
        s.heading
        for i, s in enumerate(sections[:-1])
        if s.number not in UNNUMBERED
        and not s.text.strip()
        and not _has_children(sections, i)
        and not (s.title and s.kind in _ENTRY_KINDS)  # "4.1 CA 证书认证机构": an entry all on its heading
    ]
    if ghosts:
        yield Finding(
            "ghost_headings",
            f"{len(ghosts)} empty heading(s) mid-document with no text and no subclause: {_shown(ghosts)}",
            len(ghosts) >= GHOST_MIN,
            tuple(ghosts),
        )


def _outline_lines(section: Section, known: set[str], chapters: int) -> list[str]:
    """Lines of a section's text that read as headings of the document's outline but are not sections."""
    found = []
    for line in section.text.split("\n"):
        if " | " in line or _COLUMNS.search(line):
            continue  # a table row, with or without its rules
        heading = parse_heading(line)
        if heading is None or heading.rest or heading.number in known:
            continue
        element = heading.number in UNNUMBERED and heading.number != "索引"
        annex = heading.is_annex and bool(heading.title or heading.annex_marker)
        chapter = (
            heading.level == 1
            and heading.number.isdigit()
            and int(heading.number) <= chapters + MAX_LOST_CHAPTERS
            and bool(_HAN.search(heading.title))
        )
        if element or annex or chapter:
            found.append(
                heading.number if heading.number == heading.title else f"{heading.number} {heading.title}"
            )
    return found


def _long_sections(sections: Sequence[Section], median: float) -> Iterator[Finding]:
    known = {s.number for s in sections}
    chapters = sum(1 for s in sections if s.level == 1 and s.number.isdigit())
    for s in sections:
        size = len(s.text)
        if size < LONG_MIN_CHARS or size < LONG_FACTOR * max(median, 1.0):
            continue
        times = f"{size} characters, {size / max(median, 1.0):.0f}× the median section"
        inside = _outline_lines(s, known, chapters)
        if inside:
            yield Finding(
                "swallowed_headings",
                f"section {s.heading} ({times}) swallowed headings that never became sections: "
                f"{_shown(inside)}",
                True,
                (s.number,),
            )
        else:
            yield Finding("long_section", f"section {s.heading} is long ({times})", False, (s.number,))


def _encoded(title: str) -> bool:
    """A token no drafter writes in a title: long, unspaced, and mixing digits with letters."""
    for m in _ENCODED.finditer(title):
        token = m.group()
        if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
            return True
    return False


def _headings_not_text(sections: Sequence[Section]) -> Iterator[Finding]:
    encoded = [s.number for s in sections if _encoded(s.title)]
    if encoded:
        yield Finding(
            "heading_not_text",
            f"heading(s) made of an encoded token, not words: {_shown(encoded)}",
            True,
            tuple(encoded),
        )
    titled = [
        s for s in sections if s.title and s.number not in UNNUMBERED and not s.number.startswith("附录")
    ]
    cut = [s.heading for s in titled if len(compact(s.title)) == 1]
    if len(cut) >= FRAGMENT_MIN and len(cut) >= FRAGMENT_SHARE * len(titled):
        yield Finding(
            "heading_not_text",
            f"{len(cut)} of {len(titled)} headings cut to one character ({_shown(cut)}): "
            "the text layer lost most of its characters",
            True,
            tuple(cut),
        )


def _sequence(sections: Sequence[Section]) -> Iterator[Finding]:
    chapters = [int(s.number) for s in sections if s.level == 1 and s.number.isdigit()]
    if chapters and chapters != list(range(1, len(chapters) + 1)):
        missing = sorted(set(range(1, max(chapters) + 1)) - set(chapters))
        where = [_lost_chapter(sections, n) for n in missing[:SHOWN]]
        yield Finding(
            "chapter_sequence",
            f"chapters run {_run(str(c) for c in chapters)}, not 1, 2, 3 …"
            + (f" ({'; '.join(where)})" if where else ""),
            True,
            tuple(str(c) for c in chapters),
        )
    letters = [s.number[-1] for s in sections if s.kind == "annex" and s.number.startswith("附录")]
    expected = [chr(ord("A") + i) for i in range(len(letters))]
    if letters and letters != expected:
        yield Finding(
            "chapter_sequence",
            f"annexes run {_run(letters)}, not A, B, C …",
            True,
            tuple(f"附录{x}" for x in letters),
        )


def _lost_chapter(sections: Sequence[Section], number: int) -> str:
    """Where a missing chapter's heading went: a line of another section's text, or nowhere."""
    for s in sections:
        for line in s.text.split("\n"):
            if line[:3].strip()[:1].isdigit() and " | " not in line and not _COLUMNS.search(line):
                heading = parse_heading(line)
                if heading is not None and heading.number == str(number) and heading.title:
                    return f"the heading {number} {heading.title} is a line of {s.heading}"
    return f"no chapter {number} in the text"


def _run(items: Iterator[str] | Sequence[str]) -> str:
    listed = list(items)
    return ", ".join(listed) if len(listed) <= 12 else ", ".join([*listed[:12], "…"])


def _several_standards(document: Document) -> Iterator[Finding]:
    own = compact(document.standard_id)
    for s in document.sections:
        # only short lines outside tables can be an id, 前言 or 1 范围: the others are not compacted
        lines = [
            compact(line) if len(line) <= SHORT_LINE and " | " not in line else ""
            for line in s.text.split("\n")
        ]
        second = _second_cover(lines, own) or _second_opening(lines)
        if second:
            yield Finding(
                "several_standards",
                f"more than one standard in one file: {second} are text of {s.heading}; give each standard "
                "(or part) a file of its own",
                True,
                (s.number,),
            )
            return


def _second_cover(lines: Sequence[str], own: str) -> str:
    """Another standard's id alone on a line, then its 前言, 目次 or 1 范围."""
    for i, key in enumerate(lines):
        m = STANDARD_ID.fullmatch(key) if 6 <= len(key) <= 40 else None
        if m is None or compact(f"{m.group(1)}—{m.group(2)}") == own:
            continue
        after = lines[i + 1 : i + 1 + COVER_LINES]
        element = next((e for e in _SECOND_COVER_ELEMENTS if e in after), None)
        if element is not None:
            return f"the cover of {key} and its {element}"
    return ""


def _second_opening(lines: Sequence[str]) -> str:
    """A 前言 or 目次, then a chapter 1 范围 whose first sentence opens a scope: the start of another
    document whose cover was dropped (its id can go with the running heads it looks like)."""
    front = next((i for i, key in enumerate(lines) if key in ("前言", "目次")), None)
    if front is None:
        return ""
    for i in range(front + 1, len(lines) - 1):
        if lines[i] == "1范围" and _SCOPE_OPENING.match(lines[i + 1]):
            return f"a second {lines[front]} and a second 1 范围"
    return ""


def _engineering_code(sections: Sequence[Section]) -> Iterator[Finding]:
    lines = [f"{s.number} {s.title}" for s in sections]
    for s in sections:
        lines.extend(s.text.split("\n"))
    numbered = [line for line in lines if _ENGINEERING_NUMBER.match(line.strip())]
    provisions = any(_GENERAL_PROVISIONS.match(line) for line in lines)
    if provisions and len(numbered) >= ENGINEERING_CLAUSES:
        yield Finding(
            "engineering_code",
            "drafted under the rules for engineering construction codes (1 总则, clauses numbered like "
            "1.0.1), not GB/T 1.1: the error types and the clauses they cite do not apply to its layout",
            True,
        )
