"""The document model every stage shares: a standard as an ordered tuple of numbered sections."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from parsers.hash_once import hash_once, state_without_hash
from parsers.numbering import to_halfwidth

FORMATS = ("pdf", "docx", "markdown", "text")
DRAFTING_RULES = ("GB/T 1.1—2020", "GB/T 1.1—2009", "unknown")


def doc_id_for(data: bytes) -> str:
    """Content address of a source file: the same bytes always get the same id."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class Provenance:
    """Where a section starts in its source: a PDF page (1-based) and/or a character offset."""

    page: int | None = None
    offset: int | None = None


# a table's caption: "表 3 …", "表A.1 …", "续表 3"; it continues a table as "表 3 …（续）" or "续表 3"
TABLE_CAPTION = re.compile(r"^(?:续\s*)?表\s*[A-Z]?\s*[.．]?\s*\d")
TABLE_CONTINUED = re.compile(r"[（(]\s*续\s*[)）]\s*$|^续\s*表")


@dataclass(frozen=True)
class Cell:
    """One ruled box of a table: its text (wrapped lines glued), and the grid rows and columns it covers."""

    text: str
    row_span: int = 1
    col_span: int = 1


@dataclass(frozen=True)
class Table:
    """A table as drawn: rows of the cells that start in them, left to right, with their spans (the HTML way).

    `line` is where its first row stands among the section's text lines, each row rendered there by
    `row_texts`, so text-only consumers keep working while the structure stays exact.
    """

    rows: tuple[tuple[Cell, ...], ...]
    columns: int
    caption: str = ""
    continued: bool = False  # the rest of a table begun on an earlier page
    line: int = 0

    def grid(self) -> list[list[tuple[int, int] | None]]:
        """For every grid position, the (row, column) where the cell covering it starts (None: no cell)."""
        owner: list[list[tuple[int, int] | None]] = [[None] * self.columns for _ in self.rows]
        for r, row in enumerate(self.rows):
            c = 0
            for cell in row:
                while c < self.columns and owner[r][c] is not None:
                    c += 1
                if c >= self.columns:
                    break
                for rr in range(r, min(r + cell.row_span, len(self.rows))):
                    for cc in range(c, min(c + cell.col_span, self.columns)):
                        owner[rr][cc] = (r, c)
                c += cell.col_span
        return owner

    def row_texts(self) -> list[str]:
        """Each row as one line: its cells joined by " | ", "" where a cell from a row above reaches down.

        A cell spanning several columns is written once; a row of one full-width cell is just its text.
        """
        owner = self.grid()
        texts = []
        for r, row in enumerate(self.rows):
            starts = iter(row)
            parts = []
            for c, anchor in enumerate(owner[r]):
                if anchor == (r, c):
                    parts.append(next(starts).text)
                elif anchor is None or (anchor[0] < r and anchor[1] == c):
                    parts.append("")
            texts.append(" | ".join(parts))
        return texts

    def in_place(self, lines: list[str]) -> bool:
        """Whether the text lines from `line` on are still this table's rows (an edit may have changed them:
        the text then wins). Width variants are not a change (text may be folded to half width)."""
        rows = self.row_texts()
        if self.line + len(rows) > len(lines):
            return False
        return all(
            to_halfwidth(lines[self.line + k].strip()) == to_halfwidth(row.strip())
            for k, row in enumerate(rows)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "caption": self.caption,
            "continued": self.continued,
            "columns": self.columns,
            "line": self.line,
            "rows": [[asdict(cell) for cell in row] for row in self.rows],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        return cls(
            rows=tuple(tuple(Cell(**cell) for cell in row) for row in data["rows"]),
            columns=data["columns"],
            caption=data.get("caption", ""),
            continued=data.get("continued", False),
            line=data.get("line", 0),
        )


_TABLE_LINES = "_table_lines"  # where a section keeps `table_lines` once read


@dataclass(frozen=True)
class Section:
    """One element: 前言, 1, 3.2, 附录A, A.1, 参考文献 …; `text` is its own body, not its children's."""

    number: str
    title: str
    text: str
    level: int
    kind: str  # foreword introduction scope normative_references terms symbols clause annex bibliography …
    annex_marker: str = ""  # inside the brackets of an annex heading: 规范性, 资料性, 规范性附录 …
    provenance: Provenance = field(default=Provenance(), compare=False)
    tables: tuple[Table, ...] = ()  # the structure of the table rows in `text`

    # sections key the section-local checkers' memo and the injectors' caches: a dataclass's own hash
    # walks every cell of every table on every lookup (parsers.hash_once)
    __hash__ = hash_once

    def __getstate__(self) -> dict[str, Any]:
        """What pickle and copy keep: the fields, not the hash or the table lines kept on the section."""
        return {k: v for k, v in state_without_hash(self).items() if k != _TABLE_LINES}

    @property
    def heading(self) -> str:
        """The heading as printed on one line."""
        if self.kind == "annex" and self.level == 1:
            marker = f"（{self.annex_marker}）" if self.annex_marker else ""
            return f"{self.number}{marker}{self.title}"
        if self.number == self.title or not self.title:
            return self.number
        return f"{self.number} {self.title}"

    def table_lines(self) -> frozenset[int]:
        """Indices of the text lines that are rows of a table, full-width rows (a title, a note) included.

        Read once and kept on the section: the injectors' checkers ask for them on every lint of every
        candidate, and each answer renders every table's rows."""
        known: frozenset[int] | None = self.__dict__.get(_TABLE_LINES)
        if known is None:
            lines = self.text.split("\n")
            known = frozenset(
                t.line + k for t in self.tables if t.in_place(lines) for k in range(len(t.rows))
            )
            object.__setattr__(self, _TABLE_LINES, known)
        return known

    @property
    def is_numbered(self) -> bool:
        return self.number[:1].isdigit() or self.number.startswith("附录") or self.number[:1].isascii()


@dataclass(frozen=True)
class Cover:
    """What the cover page says besides the id and title."""

    title_en: str = ""
    ics: str = ""
    ccs: str = ""
    issued: str = ""
    implemented: str = ""


@dataclass(frozen=True)
class Document:
    doc_id: str
    source: str
    format: str
    standard_id: str
    title: str
    drafting_rules: str
    sections: tuple[Section, ...]
    cover: Cover = field(default=Cover(), compare=False)

    __hash__ = hash_once  # cache keys (parsers.hash_once)
    __getstate__ = state_without_hash

    def section(self, number: str) -> Section | None:
        return next((s for s in self.sections if s.number == number), None)

    def sections_of_kind(self, kind: str) -> tuple[Section, ...]:
        return tuple(s for s in self.sections if s.kind == kind)

    def to_dict(self, *, provenance: bool = True) -> dict[str, Any]:
        sections = []
        for s in self.sections:
            row: dict[str, Any] = {
                "number": s.number,
                "title": s.title,
                "text": s.text,
                "level": s.level,
                "kind": s.kind,
            }
            if s.annex_marker:
                row["annex_marker"] = s.annex_marker
            if provenance:
                row["provenance"] = asdict(s.provenance)
            if s.tables:
                row["tables"] = [t.to_dict() for t in s.tables]
            sections.append(row)
        return {
            "doc_id": self.doc_id,
            "source": self.source,
            "format": self.format,
            "standard_id": self.standard_id,
            "title": self.title,
            "drafting_rules": self.drafting_rules,
            "cover": asdict(self.cover),
            "sections": sections,
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Document:
        sections = tuple(
            Section(
                number=s["number"],
                title=s["title"],
                text=s["text"],
                level=s["level"],
                kind=s["kind"],
                annex_marker=s.get("annex_marker", ""),
                provenance=Provenance(**s.get("provenance", {})),
                tables=tuple(Table.from_dict(t) for t in s.get("tables", ())),
            )
            for s in data["sections"]
        )
        return cls(
            doc_id=data["doc_id"],
            source=data["source"],
            format=data["format"],
            standard_id=data["standard_id"],
            title=data["title"],
            drafting_rules=data["drafting_rules"],
            sections=sections,
            cover=Cover(**data.get("cover", {})),
        )

    @classmethod
    def from_json(cls, text: str) -> Document:
        return cls.from_dict(json.loads(text))
