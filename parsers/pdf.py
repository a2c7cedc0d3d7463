"""PDF standards → logical lines: pypdfium2 text plus a little geometry, running heads dropped, lines joined.

Speed matters (a corpus is parsed on every rebuild), so the reader asks pdfium for the page text once and
for the boxes of only a few characters per line (its first and last character, the first word of the
next line); character-level geometry is read only inside ruled tables, to split rows into cells.
"""

from __future__ import annotations

import ctypes
import itertools
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from parsers.assembler import assemble
from parsers.errors import (
    CorruptFileError,
    EmptyFileError,
    EncryptedDocumentError,
    GarbledTextError,
    NoTextLayerError,
    ParseError,
)
from parsers.garbled import GARBLED_SHARE, implausible_count
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.lines import Line
from parsers.model import Document
from parsers.numbering import Heading, parse_heading

NO_TEXT_LAYER = "no text layer: scanned document, OCR is not supported"

SAMPLE_PAGES = 5  # pages looked at before anything else, so a bad 300-page file fails fast
MIN_TEXT_PER_PAGE = 10  # non-space characters on a page that has a real text layer
_BAND = 12.0  # pt: height of the buckets vertical rules are indexed by
EDGE_ZONE = 0.1  # top and bottom tenth of a page: where running heads and page numbers live

_SPACE = re.compile(r"\s+")
_DIGITS = re.compile(r"\d+")
_WORDY = re.compile(r"[^\W\d_]")  # letters and CJK characters
_LINE = re.compile(r"[^\r\n]+")
_TOKEN = re.compile(r"\S+")

_PAGE_NUMBER = re.compile(
    r"^(?:[-—–－~·\s]*(?:\d{1,4}|[IVX]{1,6}|[ivx]{1,6}|[Ⅰ-Ⅻ]|[ⅰ-ⅻ])[-—–－~·\s]*"
    r"|第\s*\d{1,4}\s*页(?:\s*[/，,]?\s*共\s*\d{1,4}\s*页)?|\d{1,4}\s*/\s*\d{1,4})$"
)
_TOC_LINE = re.compile(r"(?:[.．…·⋯_]{3,}|\s{3,})\s*[0-9IVXLⅠ-Ⅻ]+\s*$")
_NOT_LONE_PUNCTUATION = set("—-#*•·")
_SENTENCE_END = re.compile(r"[。；！？：.;!?:][）)」』”\"’]*$")
_LIST_START = re.compile(
    r"^(?:——|[•·●▪]|[a-z][)）]|\d{1,2}[)）]|[(（][a-z\d]{1,2}[)）]|"
    r"注\s*\d{0,2}\s*[：:]|注\s*\d{1,2}(?=\s)|示例\s*\d{0,2}\s*[：:]?)"
)
_REFERENCE = re.compile(
    r"^(?:\[\d{1,3}\]|(?:GB/[TZ]|GB|ISO/IEC|ISO|IEC|[A-Z]{1,5}/[TZ]|T/[A-Z]{2,12}|[A-Z]{2,5})\s*\d)"
)
_REFERENCE_CHAPTERS = ("规范性引用文件", "引用标准", "引用文件", "参考文献")
_LATIN_END = re.compile(r"[A-Za-z0-9,.;:%)\]]$")
_LATIN_START = re.compile(r"^[A-Za-z0-9(\[]")
_MAY_BE_HEADING = re.compile(r"^[\s\u3000]*[0-9０-９A-ZＡ-Ｚ附前序引参索目]")
_FIRST_TOKEN = re.compile(r"^[A-Za-z0-9.,/%_\-+:]+")


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


def read_lines(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> list[Line]:
    """The logical lines of a PDF: one per paragraph, heading, list item, note or table row."""
    pdf = _open(path, data)
    try:
        limits.check_pages(path, len(pdf))
        pages = list(_read_pages(path, pdf, limits))
    finally:
        pdf.close()
    _drop_running_heads(pages)
    lines = _join(pages)
    for line in lines:
        limits.check_paragraph(path, len(line.text), line.page)
    return lines


def parse_pdf(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    """Parse a PDF standard into a Document (the shared assembler does the numbering)."""
    return assemble(read_lines(path, data, limits), path=path, fmt="pdf", data=data)


# --- opening and rejecting -------------------------------------------------------------------


def _open(path: Path, data: bytes) -> pdfium.PdfDocument:
    """Open the bytes, turning pdfium's error codes into typed errors that name the file."""
    if not data:
        raise EmptyFileError(path, "empty file (0 bytes)")
    if b"%PDF-" not in data[:1024]:
        raise CorruptFileError(path, "not a PDF: no %PDF- header")
    if b"%%EOF" not in data.rstrip(b"\x00\t\n\x0c\r ")[-2048:]:
        raise CorruptFileError(path, "truncated PDF: the end-of-file marker is missing")
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code in (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY):
            raise EncryptedDocumentError(path, "encrypted PDF: a password is required to open it") from None
        raise CorruptFileError(path, f"damaged PDF: {exc}") from None
    if len(pdf) == 0:
        pdf.close()
        raise CorruptFileError(path, "damaged PDF: no pages")
    return pdf


def _text_objects(page: pdfium.PdfPage) -> int:
    raw = page.raw
    kind = pdfium_c.FPDF_PAGEOBJ_TEXT
    get, type_of = pdfium_c.FPDFPage_GetObject, pdfium_c.FPDFPageObj_GetType
    return sum(1 for i in range(pdfium_c.FPDFPage_CountObjects(raw)) if type_of(get(raw, i)) == kind)


def _sample(n: int) -> list[int]:
    """Pages spread over the document (first, last and between), 0-based and sorted."""
    if n <= SAMPLE_PAGES:
        return list(range(n))
    return sorted({round(i * (n - 1) / (SAMPLE_PAGES - 1)) for i in range(SAMPLE_PAGES)})


def _has_images(page: pdfium.PdfPage) -> bool:
    """Whether the page draws an image (or a form XObject, where scanners often put theirs)."""
    raw = page.raw
    kinds = (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)
    return any(
        pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(raw, i)) in kinds
        for i in range(pdfium_c.FPDFPage_CountObjects(raw))
    )


def _check_text(path: Path, texts: Sequence[str], *, images: bool) -> None:
    """Reject a sample of page texts that is empty (scanned) or mostly implausible (garbled)."""
    visible = sum(len(_SPACE.sub("", t)) for t in texts)
    if visible < MIN_TEXT_PER_PAGE * len(texts):
        if images:
            raise NoTextLayerError(path, NO_TEXT_LAYER)
        if not visible:
            raise EmptyFileError(path, "no text: every page is blank")
    bad = sum(implausible_count(t) for t in texts)
    if bad > GARBLED_SHARE * visible:
        raise GarbledTextError(
            path,
            f"garbled text layer: {bad} of {visible} characters are private-use, replacement, control or "
            "implausible characters (a font without a ToUnicode map?)",
        )


# --- pages -----------------------------------------------------------------------------------


def _read_pages(path: Path, pdf: pdfium.PdfDocument, limits: ParseLimits) -> Iterator[_Page]:
    """Read every page, checking a sample first so that a scanned or garbled file fails fast."""
    n = len(pdf)
    loaded: dict[int, tuple[pdfium.PdfPage, pdfium.PdfTextPage, str]] = {}
    try:
        for i in _sample(n):
            loaded[i] = _load(path, pdf, i, limits)
            limits.check_page(path, i + 1, len(loaded[i][2]))
        texts = [loaded[i][2] for i in sorted(loaded)]
        _check_text(path, texts, images=any(_has_images(loaded[i][0]) for i in loaded))
        offset = 0
        all_texts: list[str] = []
        for i in range(n):
            page, textpage, text = loaded.pop(i) if i in loaded else _load(path, pdf, i, limits)
            limits.check_page(path, i + 1, len(text))
            limits.check_lines(path, text)
            try:
                yield _read_page(page, textpage, text, i + 1, offset)
            finally:
                textpage.close()
                page.close()
            offset += len(text) + 1
            all_texts.append(text)
        if n > len(texts):
            _check_text(path, all_texts, images=True)
    finally:
        for page, textpage, _ in loaded.values():
            textpage.close()
            page.close()


def _load(
    path: Path, pdf: pdfium.PdfDocument, i: int, limits: ParseLimits
) -> tuple[pdfium.PdfPage, pdfium.PdfTextPage, str]:
    """Page i, its text page and text; a page pdfium cannot load makes the file corrupt, not skipped.

    Text objects are counted before pdfium builds the text page, which is what costs (10 s and 900 MB for
    a page of 100k lines): an absurd page is refused on its object count alone.
    """
    try:
        page = pdf[i]
        try:
            limits.check_page_objects(path, i + 1, _text_objects(page))
        except ParseError:
            page.close()
            raise
        textpage = page.get_textpage()
        return page, textpage, textpage.get_text_range()
    except pdfium.PdfiumError as exc:
        raise CorruptFileError(path, f"damaged PDF: page {i + 1} cannot be read ({exc})") from None


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


def _read_page(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, text: str, number: int, base: int
) -> _Page:
    """The visual lines of a page with their geometry, and the table rows split into cells."""
    left, bottom, right, top = page.get_bbox()
    rules = _page_rules(page)
    lines: list[_Visual] = []
    measurable = textpage.count_chars() == len(text)  # astral characters shift pdfium's indices
    boxes = _Boxes(textpage)
    for m in _LINE.finditer(text):
        start = m.start()
        raw = m.group()
        stripped = raw.strip()
        if not stripped:
            continue
        first = start + (len(raw) - len(raw.lstrip()))
        last = start + len(raw.rstrip()) - 1
        line = _Visual(stripped, number, base + first)
        if measurable:
            _measure(line, boxes, first, last, stripped)
            if rules.vertical:
                _split_cells(line, boxes, rules, first, last, text)
        lines.append(line)
    return _Page(number, right - left, top - bottom, bottom, lines, rules)


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


# --- running heads ---------------------------------------------------------------------------


def _drop_running_heads(pages: list[_Page]) -> None:
    """Remove page numbers and the lines repeated at the top or the bottom of many pages.

    The first page keeps its top lines: on a cover they are the standard id the assembler reads, and
    whatever precedes the first element heading is dropped by the assembler anyway.
    """
    edges = [_edge_lines(page) for page in pages]
    counts: Counter[tuple[str, bool]] = Counter()
    for found in edges:
        counts.update({(_head_key(line.text), at_top) for line, at_top, _ in found})
    textual = sum(1 for p in pages if p.lines)
    threshold = max(2, round(0.25 * textual))
    for page, found in zip(pages, edges, strict=True):
        drop: set[int] = set()
        for line, at_top, outermost in found:
            numberish = outermost and _PAGE_NUMBER.match(line.text) is not None
            repeated = counts[(_head_key(line.text), at_top)] >= threshold
            if numberish or (repeated and not (page.number == 1 and at_top)):
                drop.add(id(line))
        if drop:
            page.lines = [ln for ln in page.lines if id(ln) not in drop]


def _edge_lines(page: _Page) -> list[tuple[_Visual, bool, bool]]:
    """Up to two lines at the very top and two at the very bottom of a page, outside tables.

    Each comes with whether it is at the top, and whether it is the outermost line on its side (only
    those can be a page number: a clause number alone on the first body line is not one).
    """
    measured = [ln for ln in page.lines if ln.measured and ln.cells is None]
    if not measured:
        return []
    zone = EDGE_ZONE * page.height
    top_edge = page.bottom + page.height - zone
    bottom_edge = page.bottom + zone
    by_height = sorted(measured, key=lambda ln: -ln.top)
    tops = [ln for ln in by_height[:2] if ln.bottom >= top_edge]
    bottoms = [ln for ln in by_height[max(len(tops), len(by_height) - 2) :] if ln.top <= bottom_edge]
    return [(ln, True, ln is by_height[0]) for ln in tops] + [
        (ln, False, ln is by_height[-1]) for ln in bottoms
    ]


def _head_key(text: str) -> str:
    """What a running head is compared by: digits folded only when words remain ("GB/T #—#", not "#.#")."""
    compact_text = _SPACE.sub("", text)
    folded = _DIGITS.sub("#", compact_text)
    return folded if len(_WORDY.findall(folded)) >= 3 else compact_text


# --- joining ---------------------------------------------------------------------------------


@dataclass
class _Margins:
    """The text column of odd and even pages (mirrored margins are common in print PDFs)."""

    left: dict[int, float]
    right: dict[int, float]

    @classmethod
    def of(cls, pages: Sequence[_Page]) -> _Margins:
        """Left: the leftmost common line start; right: where nine in ten long lines end (or before).

        Odd and even pages are measured apart only when each has enough lines to judge by.
        """
        long_lines = {
            parity: [
                ln
                for p in pages
                if p.number % 2 == parity
                for ln in p.lines
                if ln.measured and ln.cells is None and ln.x1 - ln.x0 >= 0.4 * p.width
            ]
            for parity in (0, 1)
        }
        both = long_lines[0] + long_lines[1]
        left: dict[int, float] = {}
        right: dict[int, float] = {}
        for parity in (0, 1):
            lines = long_lines[parity] if len(long_lines[parity]) >= 30 else both
            if not lines:
                continue
            starts = Counter(round(ln.x0) for ln in lines)
            floor = max(2, len(lines) // 20)
            left[parity] = float(min([x for x, c in starts.items() if c >= floor] or starts))
            ends = sorted(ln.x1 for ln in lines)
            right[parity] = ends[int(0.9 * (len(ends) - 1))]
        return cls(left, right)


@dataclass
class _Paragraph:
    """A logical line being built from visual lines."""

    parts: list[_Visual]
    marker: bool  # starts with a list, note or reference marker: continuation lines may hang
    table: bool = False

    @property
    def first(self) -> _Visual:
        return self.parts[0]

    @property
    def last(self) -> _Visual:
        return self.parts[-1]


def _join(pages: Sequence[_Page]) -> list[Line]:
    """Join visual lines into logical lines; merge the visual lines of one table row."""
    margins = _Margins.of(pages)
    out: list[Line] = []
    current: _Paragraph | None = None
    in_references = False
    for page in pages:
        for line in page.lines:
            if current is not None:
                if _belongs(current, line, page, margins, in_references):
                    current.parts.append(line)
                    continue
                out.append(_emit(current))
            if line.cells is None and (heading := _heading(line.text)) is not None:
                title = _SPACE.sub("", heading.title)
                if heading.number == "参考文献" or title.startswith(_REFERENCE_CHAPTERS):
                    in_references = True
                elif heading.title and not _REFERENCE.match(line.text):
                    in_references = False
            marker = _starts_marker(line.text, in_references)
            current = _Paragraph([line], marker, table=line.cells is not None)
    if current is not None:
        out.append(_emit(current))
    return out


def _belongs(par: _Paragraph, line: _Visual, page: _Page, margins: _Margins, in_references: bool) -> bool:
    """Table lines join their row, text lines their paragraph; the two never mix."""
    if line.cells is not None:
        return par.table and _same_row(page, par.last, line)
    return not par.table and _continues(par, line, margins, in_references)


def _heading(text: str) -> Heading | None:
    """`parse_heading`, skipped for the many lines that cannot start a heading (it is the costly part)."""
    return parse_heading(text) if _MAY_BE_HEADING.match(text) else None


def _starts_marker(text: str, in_references: bool) -> bool:
    return bool(_LIST_START.match(text) or (in_references and _REFERENCE.match(text)))


def _continues(par: _Paragraph, line: _Visual, margins: _Margins, in_references: bool) -> bool:
    """Whether `line` is a wrapped continuation of the paragraph (the CJK typesetting rules, inverted)."""
    prev = par.last
    if not (prev.measured and line.measured):
        return False
    if line.page != prev.page and line.page != prev.page + 1:
        return False
    if _punctuation_only(line.text):
        return True
    if _TOC_LINE.search(prev.text) or _PAGE_NUMBER.match(line.text):
        return False
    if _LIST_START.match(line.text) or (in_references and _REFERENCE.match(line.text)):
        return False
    if abs(line.size - prev.end_size) > 0.2 * max(prev.end_size, 1.0):
        return False
    if line.page == prev.page and (line.top > prev.top + 1 or prev.bottom - line.top > 1.5 * prev.size):
        return False
    parity = line.page % 2
    right = margins.right.get(parity, prev.x1)
    left = margins.left.get(parity, line.x0)
    slack = 0.6 * prev.size
    if right - prev.x1 > line.token_width + slack:
        return False  # the first word of this line would have fitted on the previous one
    if not _indent_continues(par, line, left):
        return False
    heading = _heading(line.text)
    if heading is not None and (heading.number in ("前言", "引言", "参考文献", "索引") or heading.is_annex):
        return False
    # a heading after the full-width last line of a paragraph
    return heading is None or not _SENTENCE_END.search(prev.text)


def _punctuation_only(text: str) -> bool:
    """ "。" or "）。" wrapped onto a line of its own (but not a dash that opens a list item)."""
    return len(text) <= 3 and all(
        unicodedata.category(ch)[0] in "PS" and ch not in _NOT_LONE_PUNCTUATION for ch in text
    )


def _indent_continues(par: _Paragraph, line: _Visual, left: float) -> bool:
    """Continuation lines return to the margin, keep a block indent, or hang under a marker."""
    tol = 0.5 * line.size
    if line.x0 <= left + tol:
        return True
    prev = par.last
    if len(par.parts) > 1 and abs(line.x0 - prev.x0) <= tol:
        return True
    # a first line indented on its own opens a new paragraph, unless it opens a list item or a note
    return par.marker and par.first.x0 - tol <= line.x0 <= par.first.x0 + 6 * line.size


def _same_row(page: _Page, prev: _Visual, line: _Visual) -> bool:
    """Two visual lines of a ruled table belong to one row when no horizontal rule separates them."""
    if prev.page != line.page or prev.grid != line.grid or prev.grid is None:
        return False
    a = (prev.top + prev.bottom) / 2
    b = (line.top + line.bottom) / 2
    lower, upper = min(a, b), max(a, b)  # cells are centred vertically: a later line may sit higher
    x0, x1 = prev.grid
    for y, h0, h1 in page.rules.horizontal:
        if lower < y < upper and h0 <= x1 - 2 and h1 >= x0 + 2:
            return False
    return True


def _emit(par: _Paragraph) -> Line:
    """The logical line: wrapped text glued back, or a table row's cells joined with " | "."""
    first = par.first
    if par.table:
        width = max(len(p.cells or []) for p in par.parts)
        columns: list[list[str]] = [[] for _ in range(width)]
        for part in par.parts:
            for i, cell in enumerate(part.cells or []):
                if cell:
                    columns[i].append(cell)
        cells = [_glue_all(column) for column in columns]
        return Line(" | ".join(cells), page=first.page, offset=first.offset, table_row=True)
    return Line(_glue_all([p.text for p in par.parts]), page=first.page, offset=first.offset)


def _glue_all(parts: Sequence[str]) -> str:
    """Glue wrapped lines in one pass: each joint looks only at the two lines it joins (linear time)."""
    if not parts:
        return ""
    pieces = [parts[0]]
    for prev, part in itertools.pairwise(parts):
        if _latin_joint(prev, part):
            pieces.append(" ")
        pieces.append(part)
    return "".join(pieces)


def _latin_joint(a: str, b: str) -> bool:
    """A space only between two Latin words (not after a hyphen): the CJK way of joining lines."""
    return (
        bool(a) and _LATIN_END.match(a[-1]) is not None and _LATIN_START.match(b) is not None and a[-1] != "-"
    )


__all__ = ["NO_TEXT_LAYER", "parse_pdf", "read_lines"]
