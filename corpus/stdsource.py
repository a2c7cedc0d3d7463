"""The gold reader of the corpus's `.std` source format (corpus/README.md): what every parser must reproduce.

The reader is deliberately plain and strict: it applies the format's rules and nothing else, and any line
it cannot place exactly raises `ValueError("<path>:<line>: reason")`, so a gold standard never rests on a
guess. `expected_sections()` turns a source into the `parsers.model.Section`s a parser must return.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from parsers.model import DRAFTING_RULES, Cover, Document, Section, doc_id_for

HEADER_KEYS = (
    "standard_id",
    "title",
    "title_en",
    "ics",
    "ccs",
    "issued",
    "implemented",
    "issuer",
    "drafting_rules",
)
UNNUMBERED = {"前言": "foreword", "引言": "introduction", "参考文献": "bibliography", "索引": "index"}
CHAPTER_KINDS = {
    "范围": "scope",
    "适用范围": "scope",
    "规范性引用文件": "normative_references",
    "引用标准": "normative_references",
    "术语和定义": "terms",
    "术语": "terms",
    "符号": "symbols",
    "缩略语": "symbols",
    "符号和缩略语": "symbols",
    "符号、代号和缩略语": "symbols",
}
ANNEX_MARKERS = ("规范性", "资料性", "规范性附录", "资料性附录")
MAX_DEPTH = 5  # GB/T 1.1: chapters and clauses go down to at most five levels

_SEP = r"[ \u3000]+"
_CLAUSE = re.compile(rf"(?P<number>[1-9]\d*(?:\.[1-9]\d*)*)(?:{_SEP}(?P<title>.+))?")
_ANNEX = re.compile(r"附录(?P<letter>[A-Z])（(?P<marker>[^（）]+)）[ \u3000]*(?P<title>.*)")
_ANNEX_CLAUSE = re.compile(rf"(?P<number>[A-Z](?:\.[1-9]\d*)+)(?:{_SEP}(?P<title>.+))?")
_HEADER_LINE = re.compile(r"(?P<key>[a-z][a-z0-9_]*):[ \t]*(?P<value>.*)")

Table = tuple[tuple[str, ...], ...]
Block = str | Table


@dataclass(frozen=True)
class SourceSection:
    """One `## ` heading of a source and the blocks (paragraphs and tables) written under it."""

    number: str
    title: str
    annex_marker: str
    level: int
    kind: str
    blocks: tuple[Block, ...]
    line: int  # 1-based line of the heading in the source, for error messages

    @property
    def paragraphs(self) -> tuple[str, ...]:
        return tuple(b for b in self.blocks if isinstance(b, str))

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(b for b in self.blocks if not isinstance(b, str))

    @property
    def is_chapter(self) -> bool:
        """A numbered chapter of the body (1, 2, …): not front matter, annex or bibliography."""
        return self.level == 1 and self.number[:1].isdigit()

    @property
    def is_annex(self) -> bool:
        return self.number.startswith("附录")

    @property
    def annex_letter(self) -> str:
        """The letter of the annex this section is in (A for 附录A, A.1 …), '' outside annexes."""
        if self.is_annex:
            return self.number[2:]
        if self.kind == "annex":
            return self.number[:1]
        return ""

    def text(self) -> str:
        """The gold `Section.text`: own blocks joined by newlines, a table row per line, cells by ' | '."""
        lines: list[str] = []
        for block in self.blocks:
            if isinstance(block, str):
                lines.append(block)
            else:
                lines.extend(" | ".join(row) for row in block)
        return "\n".join(lines)


@dataclass(frozen=True)
class SourceDocument:
    """A parsed `.std` file: its header (key → value, in file order) and its sections in order."""

    path: str
    header: dict[str, str]
    sections: tuple[SourceSection, ...]

    @property
    def standard_id(self) -> str:
        return self.header["standard_id"]

    @property
    def title(self) -> str:
        return self.header["title"]

    @property
    def drafting_rules(self) -> str:
        return self.header["drafting_rules"]

    @property
    def slug(self) -> str:
        return Path(self.path).stem

    def section(self, number: str) -> SourceSection | None:
        return next((s for s in self.sections if s.number == number), None)


class _Reader:
    """Line-by-line state of one `load()`: keeps the path for messages and the section being filled."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.sections: list[SourceSection] = []
        # number, title, annex marker, level, kind and line of the heading being filled
        self.heading: tuple[str, str, str, int, str, int] | None = None
        self.blocks: list[Block] = []
        self.table_rows: list[tuple[str, ...]] = []
        self.table_line = 0
        self.numbers: set[str] = set()
        self.chapter_kinds: dict[str, str] = {}
        self.annex = ""  # letter of the annex we are in

    def fail(self, line: int, reason: str) -> ValueError:
        return ValueError(f"{self.path}:{line}: {reason}")

    # -- blocks -------------------------------------------------------------------------------------
    def flush_table(self) -> None:
        if not self.table_rows:
            return
        widths = {len(r) for r in self.table_rows}
        if len(widths) != 1:
            raise self.fail(self.table_line, f"table rows have different numbers of cells ({sorted(widths)})")
        if not self.blocks or not isinstance(self.blocks[-1], str) or not self.blocks[-1].startswith("表"):
            raise self.fail(self.table_line, "a table must follow its caption paragraph (表1　名称)")
        self.blocks.append(tuple(self.table_rows))
        self.table_rows = []

    def table_row(self, lineno: int, line: str) -> None:
        if self.heading is None:
            raise self.fail(lineno, "table before the first '## ' heading")
        if not line.endswith("|") or len(line) < 2:
            raise self.fail(lineno, "a table row must start and end with '|'")
        cells = tuple(c.strip() for c in line[1:-1].split("|"))
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            raise self.fail(lineno, "Markdown separator rows (|---|) are not part of the .std format")
        if any(not c for c in cells):
            raise self.fail(lineno, "empty table cell (write a dash or a word instead)")
        if not self.table_rows:
            self.table_line = lineno
        self.table_rows.append(cells)

    def paragraph(self, lineno: int, line: str) -> None:
        if self.heading is None:
            raise self.fail(lineno, "text before the first '## ' heading")
        self.flush_table()
        self.blocks.append(line)

    # -- headings -----------------------------------------------------------------------------------
    def close_section(self) -> None:
        self.flush_table()
        if self.heading is not None:
            number, title, marker, level, kind, line = self.heading
            self.sections.append(SourceSection(number, title, marker, level, kind, tuple(self.blocks), line))
        self.heading = None
        self.blocks = []

    def open_section(self, lineno: int, text: str) -> None:
        self.close_section()
        number, title, marker, level, kind = self.classify(lineno, text)
        if number in self.numbers:
            raise self.fail(lineno, f"section {number} appears twice")
        self.numbers.add(number)
        self.heading = (number, title, marker, level, kind, lineno)

    def classify(self, lineno: int, text: str) -> tuple[str, str, str, int, str]:
        """Number, title, annex marker, level and kind of a heading, by the format's rules only."""
        if text in UNNUMBERED:
            self.annex = ""
            return text, text, "", 1, UNNUMBERED[text]
        if m := _ANNEX.fullmatch(text):
            marker, title = m["marker"], m["title"].strip()
            if marker not in ANNEX_MARKERS:
                raise self.fail(lineno, f"annex marker （{marker}） is not one of {'/'.join(ANNEX_MARKERS)}")
            if not title:
                raise self.fail(lineno, "annex without a title")
            self.annex = m["letter"]
            return f"附录{m['letter']}", title, marker, 1, "annex"
        if m := _CLAUSE.fullmatch(text):
            number, title = m["number"], (m["title"] or "").strip()
            parts = number.split(".")
            if len(parts) > MAX_DEPTH:
                raise self.fail(lineno, f"{number} is deeper than {MAX_DEPTH} levels")
            if self.annex:
                raise self.fail(lineno, f"chapter/clause {number} after an annex heading")
            if len(parts) == 1:
                if not title:
                    raise self.fail(lineno, f"chapter {number} has no title")
                self.chapter_kinds[number] = CHAPTER_KINDS.get(title, "clause")
                return number, title, "", 1, self.chapter_kinds[number]
            parent = ".".join(parts[:-1])
            if parent not in self.numbers:
                raise self.fail(lineno, f"clause {number} comes before its parent {parent}")
            return number, title, "", len(parts), self.chapter_kinds[parts[0]]
        if m := _ANNEX_CLAUSE.fullmatch(text):
            number, title = m["number"], (m["title"] or "").strip()
            parts = number.split(".")
            if len(parts) > MAX_DEPTH:
                raise self.fail(lineno, f"{number} is deeper than {MAX_DEPTH} levels")
            if parts[0] != self.annex:
                where = f"附录{self.annex}" if self.annex else "outside any annex"
                raise self.fail(lineno, f"annex clause {number} is {where}")
            parent = ".".join(parts[:-1]) if len(parts) > 2 else f"附录{parts[0]}"
            if parent not in self.numbers:
                raise self.fail(lineno, f"clause {number} comes before its parent {parent}")
            return number, title, "", len(parts), "annex"
        raise self.fail(lineno, f"unrecognised heading '## {text}'")


def _read_header(path: str, lines: list[str]) -> tuple[dict[str, str], int]:
    """The `key: value` lines up to `---`; returns the header and the index of the first body line."""
    header: dict[str, str] = {}
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line == "---":
            break
        if not line:
            continue
        m = _HEADER_LINE.fullmatch(line)
        if not m:
            raise ValueError(f"{path}:{i + 1}: header line is not 'key: value' (missing '---' line?)")
        key, value = m["key"], m["value"].strip()
        if key in header:
            raise ValueError(f"{path}:{i + 1}: header key '{key}' given twice")
        if not value:
            raise ValueError(f"{path}:{i + 1}: header key '{key}' has no value")
        header[key] = value
    else:
        raise ValueError(f"{path}:{len(lines)}: no '---' line ending the header")
    end = i + 1
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise ValueError(f"{path}:{end}: header lacks {', '.join(missing)}")
    if header["drafting_rules"] not in DRAFTING_RULES[:2]:
        raise ValueError(
            f"{path}:{end}: drafting_rules '{header['drafting_rules']}' is not one of {DRAFTING_RULES[:2]}"
        )
    for key in ("issued", "implemented"):
        try:
            date.fromisoformat(header[key])
        except ValueError:
            raise ValueError(f"{path}:{end}: {key} '{header[key]}' is not a YYYY-MM-DD date") from None
    return header, end


def parse(text: str, path: str = "<string>") -> SourceDocument:
    """Read `.std` text; `path` only names the source in error messages."""
    if text.startswith("\ufeff"):
        raise ValueError(f"{path}:1: file starts with a byte-order mark")
    lines = text.splitlines()
    header, start = _read_header(path, lines)
    reader = _Reader(path)
    for i in range(start, len(lines)):
        lineno, line = i + 1, lines[i].strip()
        if not line:
            continue
        if line.startswith("## "):
            reader.open_section(lineno, line[3:].strip())
        elif line.startswith("#"):
            raise reader.fail(lineno, "a heading is written '## ' + heading (two hashes and a space)")
        elif line.startswith("|"):
            reader.table_row(lineno, line)
        else:
            reader.paragraph(lineno, line)
    reader.close_section()
    if not reader.sections:
        raise ValueError(f"{path}:{len(lines)}: no sections after the header")
    if not any(s.is_chapter for s in reader.sections):
        raise ValueError(f"{path}:{len(lines)}: no numbered chapter (## 1 范围 …)")
    return SourceDocument(path=path, header=header, sections=tuple(reader.sections))


def load(path: str | Path) -> SourceDocument:
    """Read and check one `.std` file; raises ValueError('<path>:<line>: reason') when it is malformed."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p}:1: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return parse(text, str(p))


def expected_sections(doc: SourceDocument) -> tuple[Section, ...]:
    """The gold Sections a parser must produce for any rendering of `doc` (provenance not compared)."""
    return tuple(
        Section(
            number=s.number,
            title=s.title,
            text=s.text(),
            level=s.level,
            kind=s.kind,
            annex_marker=s.annex_marker,
        )
        for s in doc.sections
    )


def cover(doc: SourceDocument) -> Cover:
    """The cover fields of the header, as parsers report them in `Document.cover`."""
    h = doc.header
    return Cover(
        title_en=h["title_en"],
        ics=h["ics"],
        ccs=h["ccs"],
        issued=h["issued"],
        implemented=h["implemented"],
    )


def gold_document(path: str | Path) -> Document:
    """A source as the Document every parser must produce (fast: no PDF or DOCX involved)."""
    path = Path(path)
    source = load(path)
    return Document(
        doc_id=doc_id_for(path.read_bytes()),
        source=str(path),
        format="text",
        standard_id=source.standard_id,
        title=source.title,
        drafting_rules=source.drafting_rules,
        sections=expected_sections(source),
        cover=cover(source),
    )


SOURCES = Path(__file__).resolve().parent / "sources"


def gold_documents(folder: str | Path = SOURCES) -> list[Document]:
    """Every source of the corpus, in file-name order."""
    return [gold_document(p) for p in sorted(Path(folder).glob("*.std"))]
