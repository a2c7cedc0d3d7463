"""Ruled tables from a page's vector paths: the grid of each, its ruled boxes, the text of each box."""

from __future__ import annotations

import ctypes
import itertools
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from parsers.model import TABLE_CAPTION, TABLE_CONTINUED, Cell, Table
from parsers.pdf.joining import _glue_all
from parsers.pdf.layout import _Rules, _Visual
from parsers.pdf.patterns import _FIRST_TOKEN, _NONCHARACTER, _TOKEN


class _Boxes:
    """Character boxes of one text page, through one reused struct (pdfium calls are the cost here)."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self.raw = textpage.raw
        self.rect = pdfium_c.FS_RECTF()
        self.ref = ctypes.byref(self.rect)

    def box(self, index: int) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) of a character, from its font's ascent and descent."""
        pdfium_c.FPDFText_GetLooseCharBox(self.raw, index, self.ref)
        r = self.rect
        return r.left, r.right, r.bottom, r.top


def _measure(line: _Visual, boxes: _Boxes, first: int, last: int, text: str) -> None:
    """Where the line starts and ends, how tall it is, and how wide its first word is (3 box lookups)."""
    x0, _, b0, t0 = boxes.box(first)
    _, x1, b1, t1 = boxes.box(last)
    line.x0, line.x1 = x0, x1
    line.top, line.bottom = max(t0, t1), min(b0, b1)
    line.size = max(t0 - b0, 0.1)
    line.end_size = max(t1 - b1, 0.1)
    token = _FIRST_TOKEN.match(text)
    span = len(token.group()) if token else 1
    _, tx1, _, _ = boxes.box(first + span - 1)
    line.token_width = max(tx1 - x0, line.size * 0.5)
    line.measured = True


def _page_rules(page: pdfium.PdfPage) -> _Rules:
    """Table borders among the page's top-level path objects: thin rectangles, strokes, rectangle outlines."""
    rules = _Rules()
    raw = page.raw
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    refs = [ctypes.byref(v) for v in (left, bottom, right, top)]
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    for i in range(pdfium_c.FPDFPage_CountObjects(raw)):
        obj = pdfium_c.FPDFPage_GetObject(raw, i)
        if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        if not pdfium_c.FPDFPageObj_GetBounds(obj, *refs):
            continue
        x0, y0, x1, y1 = left.value, bottom.value, right.value, top.value
        w, h = x1 - x0, y1 - y0
        if w <= 2.5 and h > 4:
            rules.vertical.append(((x0 + x1) / 2, y0, y1))
            continue
        if h <= 2.5 and w > 4:
            rules.horizontal.append(((y0 + y1) / 2, x0, x1))
            continue
        if w <= 4 or h <= 4:
            continue
        pdfium_c.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke))
        n = pdfium_c.FPDFPath_CountSegments(obj)
        if n <= 5:  # one rectangle: its outline is a border only when stroked
            if stroke.value:
                rules.vertical += [(x0, y0, y1), (x1, y0, y1)]
                rules.horizontal += [(y0, x0, x1), (y1, x0, x1)]
        elif n <= 600:
            _path_segments(obj, n, rules, stroked=bool(stroke.value))
    return rules


def _path_segments(obj: ctypes.c_void_p, n: int, rules: _Rules, *, stroked: bool) -> None:
    """Borders inside a compound path: its stroked straight segments, or its thin filled sub-rectangles."""
    matrix = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix))
    a, b, c, d, e, f = matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f
    x, y = ctypes.c_float(), ctypes.c_float()
    xref, yref = ctypes.byref(x), ctypes.byref(y)
    get_segment = pdfium_c.FPDFPath_GetPathSegment
    get_point = pdfium_c.FPDFPathSegment_GetPoint
    get_type = pdfium_c.FPDFPathSegment_GetType
    moveto = pdfium_c.FPDF_SEGMENT_MOVETO
    points: list[tuple[float, float]] = []
    for i in range(n + 1):
        if i < n:
            seg = get_segment(obj, i)
            get_point(seg, xref, yref)
            px, py = x.value, y.value
            point = (a * px + c * py + e, b * px + d * py + f)
            if get_type(seg) != moveto or not points:
                points.append(point)
                continue
        if stroked:
            for p, q in zip(points, [*points[1:], points[0]], strict=True):
                _add_rule(rules, p, q)
        elif len(points) >= 4:
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            if x1 - x0 <= 2.5 and y1 - y0 > 4:
                rules.vertical.append(((x0 + x1) / 2, y0, y1))
            elif y1 - y0 <= 2.5 and x1 - x0 > 4:
                rules.horizontal.append(((y0 + y1) / 2, x0, x1))
        if i < n:
            points = [point]


def _add_rule(rules: _Rules, a: tuple[float, float], b: tuple[float, float]) -> None:
    if abs(a[0] - b[0]) < 1 and abs(a[1] - b[1]) > 4:
        rules.vertical.append((a[0], min(a[1], b[1]), max(a[1], b[1])))
    elif abs(a[1] - b[1]) < 1 and abs(a[0] - b[0]) > 4:
        rules.horizontal.append((a[1], min(a[0], b[0]), max(a[0], b[0])))


MAX_RULES = 4000  # whole rules on one page; real pages of tables have a few hundred
MAX_GRID_CELLS = 5000  # grid positions of one table; real tables have a few hundred
_MEET = 2.0  # pt: a vertical and a horizontal rule this close are drawn to meet
_SAME_X = 3.0  # pt: vertical rules closer than this are one column border
_SAME_Y = 3.0  # pt: horizontal rules closer than this are one row border (double rules, thick strokes)
_FRAME = 0.9  # share of each side of a table that its outer border must cover


@dataclass
class _Grid:
    """A ruled table on a page: its column and row borders and the ruled boxes made of its grid positions.

    Rows run top to bottom (`ys` falls, PDF y grows up the page). A box is the set of grid positions no
    rule separates: one cell, however many text lines it holds and however many rows or columns it spans.
    """

    xs: list[float]
    ys: list[float]
    owner: list[list[int]]  # per row band and column: the box it belongs to
    spans: list[tuple[int, int, int, int]]  # per box: first row, first column, last row, last column

    def __post_init__(self) -> None:
        self.depths = [-y for y in self.ys]  # ascending, for bisect

    @property
    def left(self) -> float:
        return self.xs[0]

    @property
    def right(self) -> float:
        return self.xs[-1]

    @property
    def top(self) -> float:
        return self.ys[0]

    @property
    def bottom(self) -> float:
        return self.ys[-1]

    def holds(self, line: _Visual) -> bool:
        """Whether a visual line lies inside the table (a line running past its sides is text around it; its
        last character, often punctuation, may hang over the right border)."""
        mid = (line.top + line.bottom) / 2
        inside = line.x0 >= self.left - _SAME_X and line.x1 <= self.right + max(_SAME_X, line.end_size)
        return inside and self.bottom < mid < self.top

    def band_at(self, y: float) -> int:
        return min(max(bisect_right(self.depths, -y) - 1, 0), len(self.ys) - 2)

    def box_at(self, x: float, y: float) -> int:
        col = min(max(bisect_right(self.xs, x + 0.5) - 1, 0), len(self.xs) - 2)
        return self.owner[self.band_at(y)][col]


def _merge(values: list[float], tolerance: float) -> list[float]:
    """Sorted values, those closer than `tolerance` to the previous kept one folded into it."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tolerance:
            out.append(v)
    return out


def _binned(
    kept: list[float], rules: list[tuple[float, float, float]], tolerance: float
) -> list[list[tuple[float, float]]]:
    """Per kept position (from `_merge`), the extents of the rules folded into it."""
    out: list[list[tuple[float, float]]] = [[] for _ in kept]
    for at, a, b in rules:
        k = bisect_right(kept, at) - 1
        if k >= 0 and at - kept[k] <= tolerance:
            out[k].append((a, b))
    return out


def _walls(borders: list[float], extents: list[list[tuple[float, float]]], across: list[float]) -> list[int]:
    """The outer borders, and the inner ones whose rules cross the middle of some band between `across`."""
    mids = [(a + b) / 2 for a, b in itertools.pairwise(across)]
    inner = [
        k for k in range(1, len(borders) - 1) if any(a - 1 <= m <= b + 1 for a, b in extents[k] for m in mids)
    ]
    return [0, *inner, len(borders) - 1]


def _covered(spans: list[tuple[float, float]], lo: float, hi: float) -> float:
    """How much of [lo, hi] the union of the spans covers."""
    total, reach = 0.0, lo
    for a, b in sorted(spans):
        a, b = max(a, reach), min(b, hi)
        if b > a:
            total += b - a
            reach = b
    return total


def _joined(lines: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Rules drawn in pieces (one per cell, as word processors do) joined into whole rules."""
    out: list[tuple[float, float, float]] = []
    for at, a, b in sorted(lines, key=lambda r: (round(r[0]), r[1])):
        if out and round(out[-1][0]) == round(at) and a <= out[-1][2] + _MEET:
            if b > out[-1][2]:
                out[-1] = (out[-1][0], out[-1][1], b)
            continue
        out.append((at, a, b))
    return out


def _components(
    vertical: list[tuple[float, float, float]], horizontal: list[tuple[float, float, float]]
) -> list[tuple[list[int], list[int]]]:
    """Groups of rules that touch each other: (vertical indices, horizontal indices) per group."""
    nv = len(vertical)
    parent = list(range(nv + len(horizontal)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(horizontal)), key=lambda h: horizontal[h][0])
    heights = [horizontal[h][0] for h in order]
    for v, (x, y0, y1) in enumerate(vertical):
        for k in range(bisect_left(heights, y0 - _MEET), bisect_right(heights, y1 + _MEET)):
            h = order[k]
            _, x0, x1 = horizontal[h]
            if x0 - _MEET <= x <= x1 + _MEET:
                parent[find(v)] = find(nv + h)
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for i in range(len(parent)):
        vs, hs = groups.setdefault(find(i), ([], []))
        (vs if i < nv else hs).append(i if i < nv else i - nv)
    return [g for g in groups.values() if g[0] and g[1]]


def _grids(rules: _Rules) -> list[_Grid]:
    """The ruled tables of a page: framed grids of two or more columns, or of one column and several ruled
    rows (a framed block of one row, a title box or a flowchart label, is not a table)."""
    out: list[_Grid] = []
    vertical, horizontal = _joined(rules.vertical), _joined(rules.horizontal)
    if len(vertical) + len(horizontal) > MAX_RULES:
        return out  # graph paper or a drawing, not tables: finding its grids would cost their product
    for vs, hs in _components(vertical, horizontal):
        if len(vs) < 2:
            continue
        grid = _grid([vertical[v] for v in vs], [horizontal[h] for h in hs])
        if grid is not None:
            out.append(grid)
    return sorted(out, key=lambda g: (g.right - g.left) * (g.top - g.bottom))


def _grid(
    vertical: list[tuple[float, float, float]], horizontal: list[tuple[float, float, float]]
) -> _Grid | None:
    xs = _merge([v[0] for v in vertical], _SAME_X)
    up = _merge([h[0] for h in horizontal], _SAME_Y)
    if len(xs) < 2 or len(up) < (2 if len(xs) > 2 else 3):
        return None
    ys = up[::-1]
    left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    if top - bottom < 4 or right - left < 4:
        return None
    walls_v = _binned(xs, vertical, _SAME_X)
    walls_h = _binned(up, horizontal, _SAME_Y)[::-1]
    height, width = top - bottom, right - left
    if (
        _covered(walls_v[0], bottom, top) < _FRAME * height
        or _covered(walls_v[-1], bottom, top) < _FRAME * height
        or _covered(walls_h[0], left, right) < _FRAME * width
        or _covered(walls_h[-1], left, right) < _FRAME * width
    ):
        return None
    # a border is one where it parts two boxes somewhere: an arrow running into a framed label is not
    keep = _walls(xs, walls_v, ys)
    xs, walls_v = [xs[k] for k in keep], [walls_v[k] for k in keep]
    keep = _walls(ys, walls_h, xs)
    ys, walls_h = [ys[k] for k in keep], [walls_h[k] for k in keep]
    if len(ys) < (2 if len(xs) > 2 else 3):
        return None
    rows, cols = len(ys) - 1, len(xs) - 1
    if rows * cols > MAX_GRID_CELLS:
        return None  # a grid this fine is a drawing (graph paper), and reading it costs rows × columns
    owner, spans = _cells(xs, ys, walls_v, walls_h)
    return _Grid(xs, ys, owner, spans)


def _cells(
    xs: list[float],
    ys: list[float],
    walls_v: list[list[tuple[float, float]]],
    walls_h: list[list[tuple[float, float]]],
) -> tuple[list[list[int]], list[tuple[int, int, int, int]]]:
    """The boxes of a grid: neighbouring cells with no wall between them are one box. Returns each cell's
    box and each box's span (first row, first column, last row, last column)."""
    rows, cols = len(ys) - 1, len(xs) - 1
    parent = list(range(rows * cols))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(rows):
        mid = (ys[r] + ys[r + 1]) / 2
        for c in range(cols - 1):
            if not any(y0 - 1 <= mid <= y1 + 1 for y0, y1 in walls_v[c + 1]):
                parent[find(r * cols + c + 1)] = find(r * cols + c)
    for c in range(cols):
        mid = (xs[c] + xs[c + 1]) / 2
        for r in range(rows - 1):
            if not any(x0 - 1 <= mid <= x1 + 1 for x0, x1 in walls_h[r + 1]):
                parent[find((r + 1) * cols + c)] = find(r * cols + c)
    index: dict[int, int] = {}
    owner = [[0] * cols for _ in range(rows)]
    spans: list[tuple[int, int, int, int]] = []
    for r in range(rows):
        for c in range(cols):
            root = find(r * cols + c)
            if root not in index:
                index[root] = len(spans)
                spans.append((r, c, r, c))
            b = index[root]
            r0, c0, r1, c1 = spans[b]
            spans[b] = (min(r0, r), min(c0, c), max(r1, r), max(c1, c))
            owner[r][c] = b
    return owner, spans


def _fill(grid: _Grid, lines: list[_Visual], boxes: _Boxes, text: str) -> list[list[list[str]]]:
    """The text of each box: per text line that reaches it, the tokens of that line that start in it.

    pdfium separates text that jumps from one cell to the next with a space, so only the first character
    of each space-separated token needs a box to find its cell.
    """
    found: list[list[list[str]]] = [[] for _ in grid.spans]
    for line in lines:
        if line.cells is not None:  # a row of a table nested in a cell: its cells, apart, on one line
            nested = " ".join(cell for cell in line.cells if cell)
            if nested:
                found[grid.box_at(line.x0 + 1, (line.top + line.bottom) / 2)].append([f" {nested} "])
            continue
        seen: dict[int, list[str]] = {}
        for m in _TOKEN.finditer(text, line.start, line.end + 1):
            x0, _, y0, y1 = boxes.box(m.start())
            token = _NONCHARACTER.sub("", m.group())
            if token:
                seen.setdefault(grid.box_at(x0, (y0 + y1) / 2), []).append(token)
        for b, tokens in seen.items():
            found[b].append(tokens)
    return found


def _table_rows(
    grid: _Grid, found: list[list[list[str]]], caption: str
) -> tuple[Table, list[tuple[int, int]]]:
    """The table, and per row the (first, last) grid row band it stands for.

    A band where no box starts (a rule drawn across a merged cell, or a sliver between double rules)
    is no row of its own: it joins the row above.
    """
    starts = sorted({r0 for r0, _, _, _ in grid.spans})
    bands = len(grid.ys) - 1
    row_of = [bisect_right(starts, r) - 1 for r in range(bands)]
    rows: list[list[Cell]] = [[] for _ in starts]
    for b in sorted(range(len(grid.spans)), key=lambda b: (grid.spans[b][0], grid.spans[b][1])):
        r0, c0, r1, c1 = grid.spans[b]
        text = " ".join(_glue_all([" ".join(tokens) for tokens in found[b]]).split())
        rows[row_of[r0]].append(Cell(text, row_of[r1] - row_of[r0] + 1, c1 - c0 + 1))
    extents = [(s, (starts[i + 1] - 1) if i + 1 < len(starts) else bands - 1) for i, s in enumerate(starts)]
    table = Table(
        tuple(tuple(row) for row in rows),
        columns=len(grid.xs) - 1,
        caption=caption,
        continued=TABLE_CONTINUED.search(caption) is not None,
    )
    return table, extents


def _tables(lines: list[_Visual], rules: _Rules, boxes: _Boxes, text: str) -> list[_Visual]:
    """The page's lines with the lines inside each ruled table replaced by that table's rows."""
    if len(rules.vertical) < 2:
        return lines
    out = lines
    for grid in _grids(rules):  # smallest first: a table nested in a cell is read before the one around it
        inside = [ln for ln in out if ln.measured and grid.holds(ln)]
        if not inside:
            continue
        first = out.index(inside[0])
        caption = _caption(out[:first], grid)
        if len(grid.xs) == 2 and not caption:
            continue  # a one-column table is one only when its caption says so (else a framed list, a box)
        table, extents = _table_rows(grid, _fill(grid, inside, boxes, text), caption)
        rows = []
        offset = inside[0].offset
        starts: dict[int, int] = {}  # grid band → where its first text line starts in the page text
        for ln in inside:
            band = grid.band_at((ln.top + ln.bottom) / 2)
            starts[band] = min(starts.get(band, ln.offset), ln.offset)
        for i, (texts, (r0, r1)) in enumerate(zip(table.row_texts(), extents, strict=True)):
            top, bottom = grid.ys[r0], grid.ys[r1 + 1]
            here = [starts[b] for b in range(r0, r1 + 1) if b in starts]
            offset = max(offset, min(here, default=offset))  # rows stay in order
            row = _Visual(
                texts,
                inside[0].page,
                offset,
                x0=grid.left,
                x1=grid.right,
                top=top,
                bottom=bottom,
                cells=[c.text for c in table.rows[i]],
                table=table if i == 0 else None,
                measured=True,
            )
            rows.append(row)
        held = {id(ln) for ln in inside}
        out = out[:first] + rows + [ln for ln in out[first:] if id(ln) not in held]
    return out


def _caption(before: list[_Visual], grid: _Grid) -> str:
    """The caption printed just above a table ("表 3 …", "表 A.1 …（续）"), when there is one."""
    above = [ln for ln in before if ln.measured and ln.cells is None and ln.bottom >= grid.top - 1]
    if not above:
        return ""
    nearest = min(above, key=lambda ln: ln.bottom - grid.top)
    if nearest.bottom - grid.top > 3 * max(nearest.size, 1.0):
        return ""
    return nearest.text if TABLE_CAPTION.match(nearest.text) else ""
