"""Table-structure benchmark: our PDF reader against pdfplumber on tables whose true structure is known.

Usage: `python bench/tables.py [--cpu]`. Two parts:

- the project's gold tables (tests/support/table_fixtures.py: row spans, multi-line cells, a vertical label,
  full-width rows, column spans, a continued table, and a title block and a flowchart that are not
  tables), rendered to PDF and scored for rows exact, columns exact and cell text exact (whitespace
  ignored, at the grid position where each cell starts), with the time each reader takes;
- when the real standards used in development sit next to the project, SL 651's tables 12, 13, 16, 17,
  24, 74 and E.5, whose true row and column counts were read off the rendered pages (counts only: no
  text of the standard is kept here), and the parse of that document against pypdfium2's bare text
  extraction (goal: at most 3×).

pdfplumber is the yardstick only; it is a dev dependency. The exit code is 1 when our reader misses a
fixture row, column or cell, an SL 651 count, or the speed goal.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pdfplumber

from bench.parse import best_of, raw_extraction
from parsers.lines import Line
from parsers.model import Table
from parsers.pdf import parse_pdf, read_lines
from tests.support.table_fixtures import PAGES, GoldTable, font, tables_pdf

ROOT = Path(__file__).resolve().parents[1]
SL651 = ROOT.parent / "shared" / "corpus-real" / "SL_651-2014.pdf"
GOAL = 3.0

# true (rows, columns) per printed part of each table, the continued part after the first
SL651_TABLES: dict[str, tuple[tuple[int, int], ...]] = {
    "12": ((12, 4),),
    "13": ((3, 5),),
    "16": ((11, 5),),
    "17": ((11, 5),),
    "24": ((2, 4), (12, 4)),
    "74": ((4, 9),),
    "E.5": ((8, 4), (23, 5)),
}

Grid = list[list[str | None]]  # text where a cell starts, None under a span


@dataclass
class Score:
    tables: int = 0
    rows: int = 0
    cols: int = 0
    cells: int = 0
    cells_total: int = 0
    false_tables: int = 0
    seconds: float = 0.0

    def line(self, name: str) -> str:
        cells = 100 * self.cells / self.cells_total if self.cells_total else 0.0
        return (
            f"| {name} | {self.rows}/{self.tables} | {self.cols}/{self.tables} | "
            f"{self.cells}/{self.cells_total} ({cells:.1f}%) | {self.false_tables} | "
            f"{self.seconds * 1000:.0f} ms |"
        )

    @property
    def perfect(self) -> bool:
        return (
            self.rows == self.cols == self.tables and self.cells == self.cells_total and not self.false_tables
        )


def _flat(text: str | None) -> str | None:
    return None if text is None else re.sub(r"\s+", "", text)


def our_grid(table: Table) -> Grid:
    owner = table.grid()
    cells = iter(cell for row in table.rows for cell in row)
    texts = {
        (r, c): next(cells).text for r, row in enumerate(owner) for c, o in enumerate(row) if o == (r, c)
    }
    return [[texts.get((r, c)) for c in range(table.columns)] for r in range(len(table.rows))]


def our_tables(lines: list[Line]) -> dict[int, list[Grid]]:
    """Per page, the tables our reader found, top to bottom."""
    out: dict[int, list[Grid]] = {}
    for line in lines:
        if line.table is not None:
            out.setdefault(line.page or 0, []).append(our_grid(line.table))
    return out


def plumber_tables(data: bytes) -> dict[int, list[Grid]]:
    """Per page, the tables pdfplumber finds (its default settings), top to bottom."""
    out: dict[int, list[Grid]] = {}
    with pdfplumber.open(_Bytes(data)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            found = sorted(page.find_tables(), key=lambda t: t.bbox[1])
            out[number] = [t.extract() for t in found]
    return out


def _Bytes(data: bytes):
    import io

    return io.BytesIO(data)


def score(
    gold_pages: tuple[tuple[GoldTable, ...], ...], found: dict[int, list[Grid]], seconds: float
) -> Score:
    s = Score(seconds=seconds)
    for number, golds in enumerate(gold_pages, start=1):
        got = found.get(number, [])
        s.false_tables += max(0, len(got) - len(golds))
        for k, gold in enumerate(golds):
            s.tables += 1
            want = gold.grid()
            s.cells_total += sum(text is not None for row in want for text in row)
            if k >= len(got):
                continue
            grid = got[k]
            s.rows += len(grid) == len(want)
            s.cols += max((len(r) for r in grid), default=0) == gold.columns
            for r, row in enumerate(want):
                for c, text in enumerate(row):
                    if text is None:
                        continue
                    have = grid[r][c] if r < len(grid) and c < len(grid[r]) else None
                    s.cells += have is not None and _flat(have) == _flat(text)
    return s


def fixtures(clock: Callable[[], float]) -> bool:
    path = font()
    if path is None:
        print("no CJK font installed (apt-get install fonts-arphic-uming): fixtures skipped")
        return True
    data = tables_pdf(path)
    name = Path("table-fixtures.pdf")
    lines = read_lines(name, data)
    ours = score(PAGES, our_tables(lines), best_of(lambda: read_lines(name, data), clock=clock))
    plumber = score(PAGES, plumber_tables(data), best_of(lambda: plumber_tables(data), clock=clock))
    raw = best_of(lambda: raw_extraction(data), clock=clock)
    count = sum(len(p) for p in PAGES)
    print(f"Gold fixtures: {count} tables on {len(PAGES)} pages, plus a title block and a flowchart")
    print()
    print("| reader | rows exact | cols exact | cell text exact | false tables | time (whole file) |")
    print("|---|---|---|---|---|---|")
    print(ours.line("our reader (full parse)"))
    print(plumber.line("pdfplumber 0.11 extract_tables"))
    print(f"| pypdfium2 raw text (yardstick) | | | | | {raw * 1000:.0f} ms |")
    print()
    return ours.perfect


def _find_caption(lines: list[Line], name: str) -> list[tuple[int, Table]]:
    """(page, table) of each printed part of table `name`, found by its caption."""
    pattern = re.compile(r"^表\s*" + r"\s*\.\s*".join(map(re.escape, name.split("."))) + r"(?![\d.])")
    return [
        (ln.page or 0, ln.table) for ln in lines if ln.table is not None and pattern.match(ln.table.caption)
    ]


def _plumber_part(pdf: pdfplumber.PDF, page: int, name: str, k: int) -> Grid | None:
    """pdfplumber's table under the caption of table `name` on `page` (the k-th such caption)."""
    p = pdf.pages[page - 1]
    pattern = r"表\s*" + r"\s*\.\s*".join(map(re.escape, name.split("."))) + r"(?![\d.])"
    hits = p.search(pattern, regex=True)
    if not hits:
        return None
    below = hits[min(k, len(hits) - 1)]["bottom"]
    tables = [t for t in p.find_tables() if t.bbox[1] >= below - 1]
    if not tables:
        return None
    return min(tables, key=lambda t: t.bbox[1]).extract()


def sl651(clock: Callable[[], float]) -> bool:
    if not SL651.exists():
        print("the real standards are not next to the project: SL 651 skipped")
        return True
    data = SL651.read_bytes()
    lines = read_lines(SL651, data)
    ok = True
    print("SL 651 tables: rows × columns per printed part (true counts read off the rendered pages)")
    print()
    print("| table | true | our reader | pdfplumber |")
    print("|---|---|---|---|")
    with pdfplumber.open(SL651) as pdf:
        for name, truth in SL651_TABLES.items():
            parts = _find_caption(lines, name)
            ours = [(len(t.rows), t.columns) for _, t in parts]
            plumber = []
            for k, (page, _) in enumerate(parts):
                grid = _plumber_part(pdf, page, name, k if parts[0][0] == page else 0)
                plumber.append((len(grid), max(len(r) for r in grid)) if grid else (0, 0))
            ok &= tuple(ours) == truth
            print(f"| {name} | {_counts(truth)} | {_counts(ours)} | {_counts(plumber)} |")
    print()
    parse = best_of(lambda: parse_pdf(SL651, data), clock=clock)
    raw = best_of(lambda: raw_extraction(data), clock=clock)
    start = clock()
    with pdfplumber.open(SL651) as pdf:
        theirs = [table for p in pdf.pages for table in p.extract_tables()]
    plumber_time = clock() - start
    ratio = parse / raw
    found = [ln.table for ln in lines if ln.table is not None]
    narrow = sum(t.columns == 1 for t in found)
    print(
        f"Tables found in SL 651: ours {len(found)} ({narrow} of one column, each under its caption); "
        f"pdfplumber {len(theirs)} ({sum(max(map(len, t), default=0) == 1 for t in theirs)} of one column)"
    )
    print(
        f"SL 651 ({len(lines)} lines): our parse {parse:.2f} s, pypdfium2 raw text {raw:.2f} s, "
        f"ratio {ratio:.2f} (goal ≤ {GOAL:g}); pdfplumber extract_tables on every page {plumber_time:.2f} s "
        f"({plumber_time / parse:.1f}× our parse)"
    )
    return ok and ratio <= GOAL


def _counts(parts: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str:
    return " + ".join(f"{r}×{c}" for r, c in parts) or "not found"


def main(argv: list[str]) -> int:
    clock = time.process_time if "--cpu" in argv else time.perf_counter
    ok = fixtures(clock)
    ok &= sl651(clock)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
