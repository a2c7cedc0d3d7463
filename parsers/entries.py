"""Entries inside two special chapters: term entries of 术语和定义 and the list of 规范性引用文件."""

from __future__ import annotations

from dataclasses import dataclass

import regex

from parsers.model import Document, Section

# "GB/T 2828.1—2012", "GB 4208", "ISO 8601-1:2019", "JR/T 0184—2020", "T/CESA 1234—2022", "IEC 60529:2013"
REFERENCE_NUMBER = regex.compile(
    r"^(?P<number>(?:GB/[TZ]|GB|[A-Z]{1,4}/[TZ]|T/[A-Z]{2,12}|ISO/IEC|ISO|IEC|ITU-T|IEEE|[A-Z]{2,4})"
    r"\s*[A-Z]?\s*\d+(?:\.\d+)*(?:-(?!(?:19|20)\d{2}\b)\d+(?:\.\d+)*)*)"
    r"(?:\s*(?:[—–]|－|-{1,2}|:|：)\s*(?P<year>\d{4}))?"
    r"(?P<all>\s*[（(]所有部分[)）])?"
    r"[\s\u3000]*(?P<title>.*)$"
)
# Converted PDFs sometimes glue the whole list onto one line: split before each new standard number.
_GLUED = regex.compile(r"(?<=[\p{Han}）)])\s*(?=(?:GB/[TZ]|GB|[A-Z]{1,4}/[TZ]|T/[A-Z]{2,12}|ISO|IEC)\s*\d)")
_BIBLIOGRAPHY_MARK = regex.compile(r"^[\[［]\s*\d+\s*[\]］]\s*")
_HAN = regex.compile(r"\p{Han}")
_ENGLISH = regex.compile(r"^(?P<term>.*?[\p{Han}）)\]】0-9][^A-Za-z]*?)[\s\u3000]+(?P<english>[A-Za-z].*)$")


@dataclass(frozen=True)
class TermEntry:
    number: str
    term: str
    english: str
    definition: str


@dataclass(frozen=True)
class ReferenceEntry:
    number: str  # "GB/T 2828.1"
    year: str | None  # "2012", or None for an undated reference
    title: str
    all_parts: bool = False
    line: str = ""

    @property
    def citation(self) -> str:
        """How the reference is written: "GB/T 2828.1—2012", "ISO 8601-1:2019", "GB 4208"."""
        if self.year is None:
            return self.number
        sep = ":" if self.number.startswith(("ISO", "IEC")) else "—"
        return f"{self.number}{sep}{self.year}"


def split_term(title: str) -> tuple[str, str]:
    """ "温室 greenhouse" → ("温室", "greenhouse"); a title with no English equivalent keeps it empty."""
    m = _ENGLISH.match(title.strip())
    # an English equivalent holds no Han: "中性磷酸盐 pH标准液" is one term
    if not m or _HAN.search(m.group("english")):
        return title.strip(), ""
    return m.group("term").strip(), m.group("english").strip()


# Lines of a term entry that are not its definition: notes, examples, sources, and the entry's own heading
# echoed by an LLM extraction ("【3.15 自定义知识点 customized knowledge】").
_NOT_DEFINITION = regex.compile(
    r"^(注\s*\d*\s*[：:]|示例\s*\d*\s*[：:]?|[\[［]\s*来源|[\[［]\s*[A-Z]|【\s*\d+(\.\d+)+)"
)


def definition_line(text: str) -> tuple[int, str]:
    """The definition of a term entry: its first line that is not a note, example or source, with its
    offset in the text; (-1, "") when there is none."""
    offset = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and not _NOT_DEFINITION.match(stripped):
            return offset, line
        offset += len(line) + 1
    return -1, ""


def term_entries(document: Document) -> tuple[TermEntry, ...]:
    """The entries of the terms chapter (3.1, 3.2 …), in order."""
    out = []
    for s in document.sections:
        if s.kind == "terms" and s.level > 1 and s.title:
            term, english = split_term(s.title)
            out.append(TermEntry(s.number, term, english, definition_line(s.text)[1].strip()))
    return tuple(out)


def reference_entries(section: Section) -> tuple[ReferenceEntry, ...]:
    """The documents listed in a 规范性引用文件 or 参考文献 section (lead-in sentences are skipped)."""
    out = []
    lines = [part for raw in section.text.split("\n") for part in _GLUED.split(raw)]
    for raw in lines:
        line = _BIBLIOGRAPHY_MARK.sub("", raw.strip())
        m = REFERENCE_NUMBER.match(line)
        if not m:
            continue
        number = regex.sub(r"\s+", " ", m.group("number")).strip()
        number = regex.sub(r"(?<=[A-Z/])(?=\d)", " ", number, count=1)
        out.append(
            ReferenceEntry(
                number=number,
                year=m.group("year"),
                title=m.group("title").strip(),
                all_parts=bool(m.group("all")),
                line=line,
            )
        )
    return tuple(out)


def normative_references(document: Document) -> tuple[ReferenceEntry, ...]:
    section = next((s for s in document.sections if s.kind == "normative_references" and s.level == 1), None)
    return reference_entries(section) if section else ()
