"""The intermediate every format reader produces: logical lines of text in reading order.

Format readers (pdf, docx, markdown, text) only turn bytes into `Line`s; the shared assembler in
`parsers.assembler` turns lines into a Document, so numbering rules live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from parsers.model import Table


@dataclass(frozen=True)
class Line:
    text: str
    page: int | None = None  # 1-based page of a PDF
    offset: int | None = None  # character offset in the source text or extraction
    heading_level: int | None = None  # set when the format itself marks a heading (Word style/outline)
    table_row: bool = False  # a row of a table, cells joined by " | "
    table: Table | None = None  # on the first row of a table whose structure the reader knows
