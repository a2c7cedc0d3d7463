"""Renders a `.std` source as an A4 PDF laid out like a published Chinese standard (fpdf2, pure Python).

Lines are broken the way CJK typesetting breaks them — between two printed characters, never at a space
and never inside a run of Latin letters or digits — so joining a paragraph's lines with "" gives its text
back exactly. Only a run of Latin text wider than the line (an English title) is broken at a space, and
that space is dropped (join such lines with " "). The output is byte-for-byte deterministic.
"""

from __future__ import annotations

import copy
import functools
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF, FontFace
from fpdf.enums import TableHeadingsDisplay

from corpus import layout
from corpus.layout import Role
from corpus.stdsource import SourceDocument, SourceSection, Table

# Debian packages: fonts-arphic-uming (明体/宋体-style body), fonts-wqy-microhei (黑体-style headings),
# fonts-dejavu-core (fallback for symbols).
SONG_FONT = Path("/usr/share/fonts/truetype/arphic/uming.ttc")
HEI_FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
SYMBOL_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # superscripts etc. the CJK fonts lack
FONT_PACKAGES = "fonts-arphic-uming fonts-wqy-microhei fonts-dejavu-core"

PAGE_W, PAGE_H = 210.0, 297.0
LEFT, RIGHT, TOP, BOTTOM = 25.0, 20.0, 25.0, 25.0
TEXT_W = PAGE_W - LEFT - RIGHT
PT = 25.4 / 72  # millimetres per point
BODY_PT, SMALL_PT, TABLE_PT = 10.5, 9.0, 9.0
LABEL_W = 12.0  # room reserved for a page number in the 目次
MAX_SPACING = 0.3  # justification adds at most 0.3 em between glyphs (text extraction stays unspaced)

NO_LINE_START = set("，。、；：！？）》」』”’〕】…%～·")
NO_LINE_END = set("（《「『“‘〔【")

logging.getLogger("fontTools").setLevel(logging.ERROR)


class FontsMissingError(RuntimeError):
    """The CJK fonts are not installed; the message names the Debian packages to install."""


def check_fonts() -> None:
    missing = [str(p) for p in (SONG_FONT, HEI_FONT, SYMBOL_FONT) if not p.exists()]
    if missing:
        raise FontsMissingError(f"missing font file(s) {', '.join(missing)}: apt-get install {FONT_PACKAGES}")


def _is_latin(ch: str) -> bool:
    """Letters, digits and symbols that stay glued to their neighbours (not CJK, not a space)."""
    return ord(ch) < 0x2E80 and not ch.isspace()


def break_allowed(prev: str, ch: str) -> bool:
    """May a line end after `prev` and the next start with `ch`? (CJK rules: breaks keep every character.)"""
    if prev.isspace() or ch.isspace():
        return False
    if _is_latin(prev) and _is_latin(ch):
        return False
    return ch not in NO_LINE_START and prev not in NO_LINE_END


def wrap(text: str, first_width: float, width: float, measure: Callable[[str], float]) -> list[str]:
    """Greedy line breaking of `text` into lines no wider than the widths given (first line may differ)."""
    lines: list[str] = []
    start, used, last_break = 0, 0.0, -1
    limit = first_width
    i = 0
    while i < len(text):
        ch = text[i]
        if i > start and break_allowed(text[i - 1], ch):
            last_break = i
        w = measure(ch)
        if used + w > limit and i > start:
            if last_break > start:
                cut, resume = last_break, last_break
            else:
                space = text.rfind(" ", start + 1, i + 1)
                if space > start:  # a run of Latin text: break at its last space, which is dropped
                    cut, resume = space, space + 1
                else:  # nothing to break at: cut the run (only for absurdly long tokens)
                    cut, resume = i, i
            lines.append(text[start:cut])
            start, i, last_break, limit = resume, resume, -1, width
            used = 0.0
            continue
        used += w
        i += 1
    lines.append(text[start:])
    return lines


def roman(n: int) -> str:
    values = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, letters in values:
        while n >= value:
            out += letters
            n -= value
    return out


def _add_fonts(pdf: FPDF) -> None:
    pdf.add_font("song", "", str(SONG_FONT), collection_font_number=0)
    pdf.add_font("hei", "", str(HEI_FONT), collection_font_number=0)
    pdf.add_font("dejavu", "", str(SYMBOL_FONT))


@functools.cache
def _font_template() -> FPDF:
    """Parsed fonts shared by every layout pass (parsing a CJK font costs ~0.2 s; sharing it is safe
    as long as the borrowing FPDF is never output)."""
    pdf = FPDF()
    _add_fonts(pdf)
    return pdf


class StandardPDF(FPDF):
    """FPDF with the running header (standard id) and footer (page number) of a standard."""

    def __init__(self, doc: SourceDocument, *, shared_fonts: bool = False) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.std = doc
        self.body_start = 10**6  # first page of 1 范围; pages before it are numbered I, II …
        self.widths: dict[tuple[str, str, float], float] = {}
        self.set_margins(LEFT, TOP, RIGHT)
        self.set_auto_page_break(True, BOTTOM)
        if shared_fonts:  # layout-only pass: borrow parsed fonts (never output: output subsets in place)
            for key, font in _font_template().fonts.items():
                self.fonts[key] = copy.deepcopy(font)
        else:
            _add_fonts(self)
        self.set_fallback_fonts(["hei", "song", "dejavu"], exact_match=False)
        issued = datetime.fromisoformat(doc.header["issued"]).replace(tzinfo=UTC)
        self.set_creation_date(issued)
        self.set_title(doc.title)
        self.set_subject(doc.standard_id)
        self.set_author(doc.header["issuer"])
        self.set_creator("gbtbench corpus/generate.py")
        self.set_lang("zh-CN")

    def page_label(self, page: int) -> str:
        if page < self.body_start:
            return roman(page - 1)
        return str(page - self.body_start + 1)

    def header(self) -> None:
        if self.page == 1:
            return
        self.set_font("hei", size=BODY_PT)
        self.set_xy(LEFT, 14)
        self.cell(TEXT_W, 5, self.std.standard_id, align="R")
        self.set_xy(LEFT, TOP)

    def footer(self) -> None:
        if self.page == 1:
            return
        self.set_font("song", size=SMALL_PT)
        self.set_xy(LEFT, PAGE_H - 15)
        self.cell(TEXT_W, 5, self.page_label(self.page), align="C")

    def measure(self, ch: str) -> float:
        """Width of one character in the current font (cached: wrapping measures every character)."""
        key = (f"{self.font_family}{self.font_style}", ch, self.font_size_pt)
        w = self.widths.get(key)
        if w is None:
            w = self.widths[key] = self.get_string_width(ch)
        return w


class _Renderer:
    """Lays out one document on a StandardPDF; run twice so the 目次 can print real page numbers."""

    def __init__(self, doc: SourceDocument, labels: dict[str, str], *, final: bool) -> None:
        self.doc = doc
        self.pdf = StandardPDF(doc, shared_fonts=not final)
        self.toc_labels = labels
        self.heading_labels: dict[str, str] = {}  # what this pass learns: section number → page label

    # -- primitives ---------------------------------------------------------------------------------
    def font(self, family: str, size: float) -> float:
        """Set the font; returns the line height for that size (1.5 lines)."""
        self.pdf.set_font(family, size=size)
        return size * PT * 1.5

    def lines(
        self,
        text: str,
        *,
        family: str = "song",
        size: float = BODY_PT,
        first_indent: float = 0.0,
        indent: float = 0.0,
        align: str = "L",
        after: float = 0.0,
        justify: bool = True,
    ) -> None:
        """One paragraph: wrapped, each line drawn as one string (so extraction keeps it whole).

        Lines but the last are justified with character spacing, as typeset Chinese is: a full line
        then means "the paragraph goes on", which is what PDF readers use to find paragraph ends.
        """
        pdf = self.pdf
        lh = self.font(family, size)
        avail = TEXT_W - indent
        lines = wrap(text, avail - first_indent, avail, pdf.measure)
        for n, line in enumerate(lines):
            x = LEFT + indent + (first_indent if n == 0 else 0.0)
            width = TEXT_W - (x - LEFT)
            spacing = 0.0
            if justify and align == "L" and n < len(lines) - 1:
                extra = width - sum(pdf.measure(c) for c in line)
                spacing = min(max(extra, 0.0) / len(line) / PT, MAX_SPACING * size)  # points per glyph
            pdf.set_x(x)
            pdf.set_char_spacing(round(spacing, 2))
            pdf.cell(width, lh, line, align=align, new_x="LMARGIN", new_y="NEXT")
            pdf.set_char_spacing(0)
        pdf.set_y(pdf.y + after)

    def keep(self, height: float) -> None:
        """Start a new page unless `height` mm still fit (a heading is not left alone at a page foot)."""
        if self.pdf.y + height > self.pdf.page_break_trigger:
            self.pdf.add_page()

    def em(self, size: float = BODY_PT) -> float:
        return size * PT

    def note_heading_page(self, number: str) -> None:
        self.heading_labels[number] = self.pdf.page_label(self.pdf.page)

    # -- cover and 目次 ----------------------------------------------------------------------------
    def cover(self) -> None:
        pdf, h = self.pdf, self.doc.header
        pdf.add_page()
        self.lines(f"ICS {h['ics']}", family="hei")
        self.lines(f"CCS {h['ccs']}", family="hei", after=18)
        self.lines(layout.issuing_body_line(h["standard_id"]), family="hei", size=24, align="C", after=4)
        self.lines(h["standard_id"], family="hei", size=14, align="R", after=2)
        pdf.line(LEFT, pdf.y, PAGE_W - RIGHT, pdf.y)
        pdf.set_y(pdf.y + 40)
        size = 22.0
        pdf.set_font("hei", size=size)
        while size > 16 and pdf.get_string_width(h["title"]) > TEXT_W:
            size -= 1
            pdf.set_font("hei", size=size)
        self.lines(h["title"], family="hei", size=size, align="C", after=8)
        self.lines(h["title_en"], size=12, align="C")
        pdf.set_y(PAGE_H - 70)
        lh = self.font("hei", 14)
        pdf.set_x(LEFT)
        pdf.cell(TEXT_W / 2, lh, f"{h['issued']}发布", align="L")
        pdf.cell(TEXT_W / 2, lh, f"{h['implemented']}实施", align="R", new_x="LMARGIN", new_y="NEXT")
        pdf.line(LEFT, pdf.y + 1, PAGE_W - RIGHT, pdf.y + 1)
        pdf.set_y(pdf.y + 8)
        for line in layout.issuer_lines(h["issuer"]):
            self.lines(line, family="hei", size=14, align="C")

    def toc(self) -> None:
        pdf = self.pdf
        pdf.add_page()
        self.lines("目次", family="hei", size=16, align="C", after=6)
        for entry in layout.toc_entries(self.doc):
            lh = self.font("song", BODY_PT)
            indent = 0.0 if entry.level == 1 else 2 * self.em()
            avail = TEXT_W - indent - LABEL_W - 6
            parts = wrap(entry.text, avail, avail, pdf.measure)
            for line in parts[:-1]:
                self.lines(line, indent=indent, justify=False)
            last = parts[-1]
            dot = pdf.measure(".")
            room = TEXT_W - indent - LABEL_W - pdf.get_string_width(last) - 2
            dots = "." * max(3, int(room / dot))
            pdf.set_x(LEFT + indent)
            pdf.cell(TEXT_W - indent - LABEL_W, lh, f"{last} {dots}", align="L")
            label = self.toc_labels.get(entry.number, "0")
            pdf.cell(LABEL_W, lh, label, align="R", new_x="LMARGIN", new_y="NEXT")

    # -- body ---------------------------------------------------------------------------------------
    def heading(self, s: SourceSection) -> None:
        pdf = self.pdf
        if s.number in layout.NEW_PAGE_HEADINGS or s.is_annex or s.number == self.first_chapter:
            if s.number == self.first_chapter:
                pdf.body_start = pdf.page + 1
            pdf.add_page()
            self.note_heading_page(s.number)
            if s.is_annex:
                self.lines(s.number, family="hei", size=BODY_PT, align="C", after=1)
                self.lines(layout.annex_marker_line(s), family="hei", size=BODY_PT, align="C", after=1)
                self.lines(s.title, family="hei", size=BODY_PT, align="C", after=5)
            elif s.level == 1 and not s.number[:1].isdigit():
                self.lines(s.number, family="hei", size=16, align="C", after=6)
            else:
                self.lines(layout.literal_heading(s), family="hei", after=2, justify=False)
            return
        self.keep(4 * self.em() * 1.5)
        pdf.set_y(pdf.y + 1.5)
        self.note_heading_page(s.number)
        if layout.is_term_entry(s) and self.doc.drafting_rules.endswith("2020"):
            self.lines(s.number, family="hei", justify=False)
            self.lines(layout.display_title(s), family="hei", after=1, justify=False)
        elif not s.title:
            return  # an untitled clause: its number opens its first paragraph (see body())
        else:
            self.lines(layout.literal_heading(s), family="hei", after=1, justify=False)

    def paragraph(self, s: SourceSection, index: int, text: str) -> None:
        role = layout.paragraph_role(s, index)
        em = self.em()
        if role is Role.CAPTION:
            self.keep(3 * em * 1.5)
            self.lines(text, family="hei", align="C", after=1, justify=False)
        elif role in (Role.NOTE, Role.EXAMPLE):
            self.lines(text, size=SMALL_PT, indent=2 * em, after=0.5)
        elif role is Role.LIST:
            self.lines(text, indent=2 * em)
        elif role is Role.SOURCE:
            self.lines(text, first_indent=2 * em)
        elif role is Role.REFERENCE:
            self.lines(text, first_indent=0.0 if s.kind == "bibliography" else 2 * em)
        else:
            self.lines(text, first_indent=2 * em)

    def table(self, rows: Table) -> None:
        pdf = self.pdf
        self.font("song", TABLE_PT)
        pad = 1.0
        ncols = len(rows[0])
        natural = [
            max(sum(pdf.measure(c) for c in row[j]) for row in rows) + 2 * pad + 2.0 for j in range(ncols)
        ]
        if sum(natural) <= TEXT_W:
            widths = [w * TEXT_W / sum(natural) for w in natural]
        else:
            fair = TEXT_W / ncols
            small = [w for w in natural if w <= fair]
            rest = TEXT_W - sum(small)
            big = sum(w for w in natural if w > fair)
            widths = [w if w <= fair else w * rest / big for w in natural]
        lh = TABLE_PT * PT * 1.4
        with pdf.table(
            col_widths=tuple(w / TEXT_W for w in widths),
            width=TEXT_W,
            align="LEFT",
            text_align="LEFT",
            line_height=lh,
            padding=pad,
            first_row_as_headings=True,
            headings_style=FontFace(family="hei", emphasis="", size_pt=TABLE_PT),
            repeat_headings=TableHeadingsDisplay.NONE,
        ) as table:
            for r, row in enumerate(rows):
                pdf.set_font("hei" if r == 0 else "song", size=TABLE_PT)
                cells = [
                    "\n".join(wrap(c, w - 2 * pad - 2.0, w - 2 * pad - 2.0, pdf.measure))
                    for c, w in zip(row, widths, strict=True)
                ]
                pdf.set_font("song", size=TABLE_PT)
                table_row = table.row()
                for c in cells:
                    table_row.cell(c)
        pdf.set_y(pdf.y + 2)

    def body(self, s: SourceSection) -> None:
        self.heading(s)
        blocks = list(s.blocks)
        start = 0
        if s.level > 1 and not s.title:  # untitled clause: `5.2.2　first paragraph …`
            first = blocks[0] if blocks and isinstance(blocks[0], str) else ""
            self.lines(f"{s.number}{layout.IDEOGRAPHIC_SPACE}{first}".rstrip(), first_indent=0.0)
            start = 1 if first else 0
        for i in range(start, len(blocks)):
            block = blocks[i]
            if isinstance(block, str):
                self.paragraph(s, i, block)
            else:
                self.table(block)

    def render(self) -> None:
        self.first_chapter = next(s.number for s in self.doc.sections if s.is_chapter)
        self.cover()
        self.toc()
        for s in self.doc.sections:
            self.body(s)


def page_labels(doc: SourceDocument) -> dict[str, str]:
    """For each section number, the page label (I, II, 1, 2 …) its heading is printed on (layout only)."""
    check_fonts()
    layout_pass = _Renderer(doc, {}, final=False)
    layout_pass.render()
    return layout_pass.heading_labels


def render_pdf(doc: SourceDocument) -> tuple[bytes, dict[str, str]]:
    """The PDF bytes and the page labels of the section headings (the DOCX 目次 prints them too)."""
    labels = page_labels(doc)
    final = _Renderer(doc, labels, final=True)
    final.render()
    if final.heading_labels != labels:  # the 目次 has a fixed size, so the layout cannot move
        raise RuntimeError(f"{doc.path}: page layout changed between passes")
    data = bytes(final.pdf.output())
    missing = sorted({chr(c) for f in final.pdf.fonts.values() for c in getattr(f, "missing_glyphs", [])})
    if missing:  # the text layer would lose these characters, and the PDF would no longer match its source
        shown = " ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
        raise ValueError(f"{doc.path}: no installed font has a glyph for {shown}")
    return data, labels
