"""What the PDF reader knows of a page: its visual lines, the vector rules that draw table borders."""

from __future__ import annotations

from dataclasses import dataclass, field

_BAND = 12.0  # pt: height of the buckets vertical rules are indexed by


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
    grid: tuple[int, int] | None = None  # left and right border of that table
    measured: bool = False


@dataclass
class _Rules:
    """Ruling lines of a page: vertical (x, y0, y1) and horizontal (y, x0, x1)."""

    vertical: list[tuple[float, float, float]] = field(default_factory=list)
    horizontal: list[tuple[float, float, float]] = field(default_factory=list)
    bands: dict[int, list[tuple[float, float, float]]] = field(default_factory=dict)

    def index(self) -> None:
        """Bucket the vertical rules by height so that a line only looks at the rules near it."""
        for rule in self.vertical:
            for band in range(int((rule[1] - 1) // _BAND), int((rule[2] + 1) // _BAND) + 1):
                self.bands.setdefault(band, []).append(rule)


@dataclass
class _Page:
    """A page's lines and ruling; size and position of its box, to know where its edges are."""

    number: int
    width: float
    height: float
    bottom: float
    lines: list[_Visual]
    rules: _Rules
