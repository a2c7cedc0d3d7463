"""Table borders from a page's vector paths, and table rows split into cells at them."""

from __future__ import annotations

import ctypes
from bisect import bisect_right

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from parsers.pdf.layout import _BAND, _Rules, _Visual
from parsers.pdf.patterns import _FIRST_TOKEN, _TOKEN


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
    rules.index()
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


def _borders(rules: _Rules, y: float) -> list[float]:
    """x positions of the vertical rules crossing height y, merged when closer than 3 pt."""
    if len(rules.vertical) < 3:
        return []
    band = rules.bands.get(int(y // _BAND))
    if not band:
        return []
    xs = sorted(x for x, y0, y1 in band if y0 - 1 <= y <= y1 + 1)
    merged: list[float] = []
    for x in xs:
        if not merged or x - merged[-1] > 3:
            merged.append(x)
    return merged


def _split_cells(line: _Visual, boxes: _Boxes, rules: _Rules, first: int, last: int, text: str) -> None:
    """Mark a line lying inside a ruled table of two or more columns, and cut it at the rules.

    pdfium separates text that jumps from one cell to the next with a space, so only the first character
    of each space-separated token needs a box to find its column.
    """
    xs = _borders(rules, (line.top + line.bottom) / 2)
    if len(xs) < 3 or line.x0 < xs[0] - 3 or line.x1 > xs[-1] + 3:
        return
    cells: list[list[str]] = [[] for _ in range(len(xs) - 1)]
    for m in _TOKEN.finditer(text, first, last + 1):
        left = boxes.box(m.start())[0]
        col = min(max(bisect_right(xs, left + 0.5) - 1, 0), len(cells) - 1)
        cells[col].append(m.group())
    line.cells = [" ".join(c) for c in cells]
    line.grid = (round(xs[0]), round(xs[-1]))
