"""What the PDF reader knows of a page: its visual lines, the vector rules that draw table borders."""

from __future__ import annotations

from dataclasses import dataclass, field

from parsers.model import Table

EDGE_ZONE = 0.1  # top and bottom tenth of a page: where running heads and page numbers live


@dataclass
class _Visual:
    """One line as pdfium reports it, with the geometry needed to decide what to do with it."""

    text: str
    page: int  # 1-based
    offset: int  # in the page texts (pypdfium2 get_text_range) concatenated with one "\n" between pages
    x0: float = 0.0
    x1: float = 0.0
    top: float = 0.0
    bottom: float = 0.0
    size: float = 0.0  # height of the first character's box: a stand-in for the font size
    end_size: float = 0.0
    token_width: float = 0.0  # width of the first word (or CJK character): what did not fit above
    cells: list[str] | None = None  # set for a row of a ruled table
    table: Table | None = None  # set on the first row of a ruled table
    measured: bool = False
    start: int = 0  # first and last character of the line in its page's text
    end: int = 0


@dataclass
class _Rules:
    """Ruling lines of a page: vertical (x, y0, y1) and horizontal (y, x0, x1)."""

    vertical: list[tuple[float, float, float]] = field(default_factory=list)
    horizontal: list[tuple[float, float, float]] = field(default_factory=list)


@dataclass
class _Page:
    """A page's lines and ruling; size and position of its box, to know where its edges are."""

    number: int
    width: float
    height: float
    bottom: float
    lines: list[_Visual]
    rules: _Rules
