"""PDF standards → logical lines: pypdfium2 text plus a little geometry, running heads dropped, lines joined.

Speed matters (a corpus is parsed on every rebuild), so the reader asks pdfium for the page text once and
for the boxes of only a few characters per line (its first and last character, the first word of the
next line); character-level geometry is read only inside ruled tables, to split rows into cells.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
from parsers.pdf.budget import check_content_streams
from parsers.pdf.joining import _drop_running_heads, _join
from parsers.pdf.layout import _Page, _Visual
from parsers.pdf.patterns import _LINE, _NONCHARACTER, _SPACE
from parsers.pdf.tables import _Boxes, _measure, _page_rules, _tables
from parsers.widths import normalize_texts

NO_TEXT_LAYER = "no text layer: scanned document, OCR is not supported"


OCR_LAYER = (
    "scanned pages under an OCR text layer (invisible text over the page images): recognition noise would "
    "pass for drafting errors; OCR is not supported, use a PDF with a real text layer"
)
# text objects of the sampled pages, this many and this share invisible, over images: an OCR layer
MIN_OCR_OBJECTS = 20
OCR_SHARE = 0.9


SAMPLE_PAGES = 5  # pages looked at before anything else, so a bad 300-page file fails fast


MIN_TEXT_PER_PAGE = 10  # non-space characters on a page that has a real text layer


def read_lines(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> list[Line]:
    """The logical lines of a PDF: one per paragraph, heading, list item, note or table row."""
    check_content_streams(path, data, limits)  # before pdfium builds a page's objects
    pdf = _open(path, data)
    try:
        limits.check_pages(path, len(pdf))
        pages = list(_read_pages(path, pdf, limits))
    finally:
        pdf.close()
    _read_halfwidth(pages)
    _drop_off_page(pages)
    _drop_running_heads(pages)
    lines = _join(pages)
    for line in lines:
        limits.check_paragraph(path, len(line.text), line.page)
    return lines


def _drop_off_page(pages: Sequence[_Page]) -> None:
    """Text placed wholly above or below the page box is never printed (a stray glyph at y = -4747):
    kept, it would hide the page number above it from the running-head check."""
    for page in pages:
        low, high = page.bottom, page.bottom + page.height
        page.lines = [ln for ln in page.lines if not ln.measured or (ln.top > low and ln.bottom < high)]


def _read_halfwidth(pages: Sequence[_Page]) -> None:
    """Full-width numbers read half-width before lines are joined, which looks for headings
    (`parsers.widths`)."""
    visuals = [line for page in pages for line in page.lines]
    for line, text in zip(visuals, normalize_texts([v.text for v in visuals]), strict=True):
        line.text = text


def parse_pdf(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    """Parse a PDF standard into a Document (the shared assembler does the numbering)."""
    return assemble(read_lines(path, data, limits), path=path, fmt="pdf", data=data)


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


def _check_recognised(path: Path, pages: Sequence[pdfium.PdfPage]) -> None:
    """Reject a scan whose text is an OCR layer: invisible text laid over the page images. Its recognition
    noise (前言 read as 亠刖, 100 as 1OO) would pass for drafting errors nobody injected."""
    shown = hidden = 0
    for page in pages:
        raw = page.raw
        for i in range(pdfium_c.FPDFPage_CountObjects(raw)):
            obj = pdfium_c.FPDFPage_GetObject(raw, i)
            if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_TEXT:
                continue
            if pdfium_c.FPDFTextObj_GetTextRenderMode(obj) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
                hidden += 1
            else:
                shown += 1
    if hidden >= MIN_OCR_OBJECTS and hidden >= OCR_SHARE * (hidden + shown) and any(map(_has_images, pages)):
        raise NoTextLayerError(path, OCR_LAYER)


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
        _check_recognised(path, [loaded[i][0] for i in sorted(loaded)])
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

    Text objects are counted before pdfium builds the text page, which is what costs (time and memory grow
    with the page's objects): an absurd page is refused on its object count alone.
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


def _read_page(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, text: str, number: int, base: int
) -> _Page:
    """The visual lines of a page with their geometry; the lines inside a ruled table become its rows."""
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
        clean = _NONCHARACTER.sub("", stripped)
        if not clean.strip():
            continue
        line = _Visual(clean, number, base + first, start=first, end=last)
        if measurable:
            _measure(line, boxes, first, last, stripped)
        lines.append(line)
    if measurable:
        lines = _tables(lines, rules, boxes, text)
    return _Page(number, right - left, top - bottom, bottom, lines, rules)
