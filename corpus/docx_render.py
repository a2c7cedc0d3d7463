"""Renders a `.std` source as a Word document laid out like a Chinese standard (python-docx).

Real Word files number headings in two ways and the corpus has both, so the DOCX parser meets both.
"literal" documents type the number into the heading (`5.1　总体要求`, U+3000 or an ASCII space); "auto"
documents use Word automatic numbering, so the heading text holds only the title. Headings are marked
either by a built-in style (Heading 1..5 = level) or, in other documents, by a Normal paragraph whose
runs are all bold; captions, notes and body text are never bold and never heading-styled.

Encoding of "auto" numbering (what a parser must undo):

- abstractNum named "GBT-chapters": levels 0..4, decimal, lvlText %1, %1.%2 … %1.%2.%3.%4.%5; one w:num
  for it, referenced through w:pPr/w:numPr (w:ilvl + w:numId) by every chapter (ilvl 0), clause
  (ilvl = level - 1) and term entry (ilvl 1). Its numId follows the template's own lists: read it from
  the paragraphs, or find the w:num whose abstractNum is named "GBT-chapters".
- abstractNum named "GBT-annexes": level 0 upperLetter with lvlText 附录%1, levels 1..4 decimal %1.%2 …
  (so A.1, A.1.1); one w:num per annex whose w:lvlOverride/w:startOverride set level 0 to the letter's
  ordinal (A=1, B=2) and restart levels 1..4 at 1. The annex heading's first paragraph is numbered at
  ilvl 0 and has no text; the next two centred paragraphs hold （规范性） and the title.
- Counting per numId and ilvl (using a level resets the deeper ones; the first use of a level takes
  its start value) gives exactly the source numbers; the renderer refuses sources where it would not.
- An untitled clause is a numbered (or, in literal documents, number-prefixed) Normal, non-bold
  paragraph holding the clause's first paragraph. 前言/引言/参考文献/索引 are never numbered.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime

from docx import Document as new_document
from docx.document import Document as WordDocument
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_TAB_ALIGNMENT, WD_TAB_LEADER
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Mm, Pt, RGBColor
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from corpus import layout
from corpus.layout import Role
from corpus.stdsource import SourceDocument, SourceSection, Table

SONG, HEI, LATIN = "宋体", "黑体", "Times New Roman"
TEXT_WIDTH = Mm(165)
INDENT = Pt(21)  # two characters of 10.5 pt
MAX_LEVELS = 5


@dataclass(frozen=True)
class DocxStyle:
    """How one document prints its headings: numbering, heading signal and number–title separator."""

    numbering: str  # "auto" (Word list numbering) or "literal" (number typed in the text)
    headings: str  # "builtin" (Heading 1..5 styles) or "bold" (Normal paragraphs with bold runs)
    separator: str  # between a literal number and its title: U+3000 or " "


def style_for(index: int) -> DocxStyle:
    """The style of the document at `index` in sorted order: odd indices auto, others literal."""
    k = index // 2
    return DocxStyle(
        numbering="auto" if index % 2 else "literal",
        headings="builtin" if k % 2 == 0 else "bold",
        separator=" " if k % 3 == 1 else layout.IDEOGRAPHIC_SPACE,
    )


def _fonts(run: Run, east_asia: str, size: float | None = None, bold: bool | None = None) -> None:
    run.font.name = LATIN
    rpr = run._r.get_or_add_rPr()
    rpr.get_or_add_rFonts().set(qn("w:eastAsia"), east_asia)
    if size is not None:
        run.font.size = Pt(size)
    if bold is not None:
        run.bold = bold


def _lvl(ilvl: int, fmt: str, text: str, jc: str, suffix: str) -> str:
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
        f'<w:suff w:val="{suffix}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="{jc}"/>'
        '<w:pPr><w:ind w:left="0" w:firstLine="0"/></w:pPr>'
        f'<w:rPr><w:rFonts w:ascii="{LATIN}" w:hAnsi="{LATIN}" w:eastAsia="{HEI}"/></w:rPr></w:lvl>'
    )


def _level_text(depth: int) -> str:
    return ".".join(f"%{i}" for i in range(1, depth + 1))


class _Numbering:
    """The list definitions of an "auto" document, and a simulation of Word's counters to check them."""

    def __init__(self, doc: WordDocument, annex_letters: list[str]) -> None:
        numbering = doc.part.numbering_part.element
        abstract_ids = [int(a.get(qn("w:abstractNumId"))) for a in numbering.findall(qn("w:abstractNum"))]
        num_ids = [int(n.get(qn("w:numId"))) for n in numbering.findall(qn("w:num"))]
        chapters_abs, annex_abs = max(abstract_ids, default=-1) + 1, max(abstract_ids, default=-1) + 2
        chapter_levels = "".join(_lvl(i, "decimal", _level_text(i + 1), "left", "space") for i in range(5))
        annex_levels = _lvl(0, "upperLetter", "附录%1", "center", "nothing") + "".join(
            _lvl(i, "decimal", _level_text(i + 1), "left", "space") for i in range(1, MAX_LEVELS)
        )
        new_abstracts = [
            (chapters_abs, "GBT-chapters", chapter_levels),
            (annex_abs, "GBT-annexes", annex_levels),
        ]
        existing = numbering.findall(qn("w:abstractNum"))
        anchor = existing[-1] if existing else None
        for aid, name, levels in new_abstracts:
            el = parse_xml(
                f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{aid}">'
                f'<w:multiLevelType w:val="multilevel"/><w:name w:val="{name}"/>{levels}</w:abstractNum>'
            )
            if anchor is None:
                numbering.insert(0, el)
            else:
                anchor.addnext(el)
            anchor = el
        next_id = max(num_ids, default=0) + 1
        self.chapter_num = next_id
        numbering.append(
            parse_xml(
                f'<w:num {nsdecls("w")} w:numId="{next_id}"><w:abstractNumId w:val="{chapters_abs}"/></w:num>'
            )
        )
        self.annex_num: dict[str, int] = {}
        for k, letter in enumerate(annex_letters):
            num_id = next_id + 1 + k
            overrides = (
                f'<w:lvlOverride w:ilvl="0"><w:startOverride w:val="{ord(letter) - 64}"/></w:lvlOverride>'
            )
            overrides += "".join(
                f'<w:lvlOverride w:ilvl="{i}"><w:startOverride w:val="1"/></w:lvlOverride>'
                for i in range(1, MAX_LEVELS)
            )
            numbering.append(
                parse_xml(
                    f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{annex_abs}"/>'
                    f"{overrides}</w:num>"
                )
            )
            self.annex_num[letter] = num_id
        self.counters: dict[int, list[int | None]] = {}
        self.starts: dict[int, list[int]] = {self.chapter_num: [1] * MAX_LEVELS}
        for letter, num_id in self.annex_num.items():
            self.starts[num_id] = [ord(letter) - 64] + [1] * (MAX_LEVELS - 1)

    def attach(self, paragraph: Paragraph, section: SourceSection) -> None:
        """Number `paragraph` as `section`, after checking Word would print exactly its number."""
        letter = section.annex_letter
        num_id = self.annex_num[letter] if letter else self.chapter_num
        ilvl = section.level - 1
        counters = self.counters.setdefault(num_id, [None] * MAX_LEVELS)
        current = counters[ilvl]
        counters[ilvl] = self.starts[num_id][ilvl] if current is None else current + 1
        for deeper in range(ilvl + 1, MAX_LEVELS):
            counters[deeper] = None
        values = counters[: ilvl + 1]
        if any(v is None for v in values):
            raise ValueError(f"{section.number}: numbered before its parent level")
        parts = [str(v) for v in values]
        if letter:
            parts[0] = chr(64 + int(parts[0]))
            printed = f"附录{parts[0]}" if ilvl == 0 else ".".join(parts)
        else:
            printed = ".".join(parts)
        if printed != section.number:
            raise ValueError(
                f"auto numbering would print {printed} for section {section.number} "
                "(numbers in the source are not consecutive)"
            )
        num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
        num_pr.get_or_add_ilvl().val = ilvl
        num_pr.get_or_add_numId().val = num_id


class _DocxRenderer:
    """Builds one Word document from a source; `render()` returns its bytes."""

    def __init__(self, doc: SourceDocument, style: DocxStyle, page_labels: dict[str, str]) -> None:
        self.src = doc
        self.style = style
        self.labels = page_labels
        self.doc = new_document()
        self.numbering: _Numbering | None = None
        if style.numbering == "auto":
            letters = [s.number[2:] for s in doc.sections if s.is_annex]
            self.numbering = _Numbering(self.doc, letters)
        self.first_chapter = next(s.number for s in doc.sections if s.is_chapter)

    # -- document setup -----------------------------------------------------------------------------
    def setup(self) -> None:
        doc, h = self.doc, self.src.header
        section = doc.sections[0]
        section.page_width, section.page_height = Mm(210), Mm(297)
        section.left_margin, section.right_margin = Mm(25), Mm(20)
        section.top_margin, section.bottom_margin = Mm(25), Mm(25)
        section.different_first_page_header_footer = True
        header = section.header.paragraphs[0]
        header.alignment = WD_ALIGN_PARAGRAPH.RIGHT
        _fonts(header.add_run(h["standard_id"]), HEI, 10.5)
        footer = section.footer.paragraphs[0]
        footer.alignment = WD_ALIGN_PARAGRAPH.CENTER
        footer._p.append(
            parse_xml(f'<w:fldSimple {nsdecls("w")} w:instr="PAGE"><w:r><w:t>1</w:t></w:r></w:fldSimple>')
        )
        normal = doc.styles["Normal"]
        normal.font.name = LATIN
        normal.font.size = Pt(10.5)
        normal.element.get_or_add_rPr().get_or_add_rFonts().set(qn("w:eastAsia"), SONG)
        normal.paragraph_format.space_after = Pt(0)
        normal.paragraph_format.line_spacing = 1.25
        for level in range(1, MAX_LEVELS + 1):
            st = doc.styles[f"Heading {level}"]
            rfonts = st.element.get_or_add_rPr().get_or_add_rFonts()
            for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
                rfonts.attrib.pop(qn(attr), None)
            st.font.name = LATIN
            rfonts.set(qn("w:eastAsia"), HEI)
            st.font.size = Pt(10.5)
            st.font.bold = False
            st.font.italic = False
            st.font.color.rgb = RGBColor(0, 0, 0)
            st.paragraph_format.space_before = Pt(6)
            st.paragraph_format.space_after = Pt(3)
            st.paragraph_format.keep_with_next = True
        for level in (1, 2):
            name = f"toc {level}"
            if name not in [s.name for s in doc.styles]:
                toc = doc.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
                toc.base_style = normal
                toc.paragraph_format.left_indent = INDENT * (level - 1)
        when = datetime.fromisoformat(h["issued"]).replace(tzinfo=UTC)
        cp = doc.core_properties
        cp.title = h["title"]
        cp.subject = h["standard_id"]
        cp.author = h["issuer"]
        cp.keywords = h["drafting_rules"]
        cp.comments = "gbtbench corpus: generated by corpus/generate.py"
        cp.category = "standard"
        cp.last_modified_by = "gbtbench"
        cp.language = "zh-CN"
        cp.revision = 1
        cp.created = when
        cp.modified = when
        cp.last_printed = when

    # -- paragraphs ---------------------------------------------------------------------------------
    def para(
        self,
        text: str = "",
        *,
        font: str = SONG,
        size: float | None = None,
        bold: bool | None = None,
        align: WD_ALIGN_PARAGRAPH | None = None,
        first_indent: Pt | None = None,
        indent: Pt | None = None,
        page_break: bool = False,
        before: float | None = None,
    ) -> Paragraph:
        p = self.doc.add_paragraph()
        if text:
            _fonts(p.add_run(text), font, size, bold)
        fmt = p.paragraph_format
        if align is not None:
            p.alignment = align
        if first_indent is not None:
            fmt.first_line_indent = first_indent
        if indent is not None:
            fmt.left_indent = indent
        if page_break:
            fmt.page_break_before = True
        if before is not None:
            fmt.space_before = Pt(before)
        return p

    def heading(
        self,
        text: str,
        level: int,
        *,
        align: WD_ALIGN_PARAGRAPH | None = None,
        page_break: bool = False,
        size: float | None = None,
    ) -> Paragraph:
        """A heading paragraph: Heading N style, or a Normal paragraph with a bold 黑体 run."""
        if self.style.headings == "builtin":
            p = self.doc.add_paragraph(style=f"Heading {min(level, MAX_LEVELS)}")
            if text:
                _fonts(p.add_run(text), HEI, size)
        else:
            p = self.doc.add_paragraph()
            if text:
                _fonts(p.add_run(text), HEI, size, bold=True)
            p.paragraph_format.keep_with_next = True
            p.paragraph_format.space_before = Pt(6)
        if align is not None:
            p.alignment = align
        if page_break:
            p.paragraph_format.page_break_before = True
        return p

    # -- cover and 目次 ----------------------------------------------------------------------------
    def cover(self) -> None:
        h = self.src.header
        self.para(f"ICS {h['ics']}", font=HEI)
        self.para(f"CCS {h['ccs']}", font=HEI)
        center = WD_ALIGN_PARAGRAPH.CENTER
        self.para(layout.issuing_body_line(h["standard_id"]), font=HEI, size=26, align=center, before=48)
        self.para(h["standard_id"], font=HEI, size=14, align=WD_ALIGN_PARAGRAPH.RIGHT, before=6)
        self.para(h["title"], font=HEI, size=22, align=center, before=120)
        self.para(h["title_en"], font=SONG, size=12, align=center, before=12)
        dates = self.para(before=200)
        dates.paragraph_format.tab_stops.add_tab_stop(TEXT_WIDTH, WD_TAB_ALIGNMENT.RIGHT)
        _fonts(dates.add_run(f"{h['issued']}发布\t{h['implemented']}实施"), HEI, 14)
        for n, line in enumerate(layout.issuer_lines(h["issuer"])):
            self.para(line, font=HEI, size=14, align=center, before=18 if n == 0 else None)

    def toc(self) -> None:
        self.para("目次", font=HEI, size=16, align=WD_ALIGN_PARAGRAPH.CENTER, page_break=True)
        for entry in layout.toc_entries(self.src):
            p = self.doc.add_paragraph(style=f"toc {entry.level}")
            p.paragraph_format.tab_stops.add_tab_stop(TEXT_WIDTH, WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS)
            _fonts(p.add_run(f"{entry.text}\t{self.labels.get(entry.number, '1')}"), SONG)

    # -- body ---------------------------------------------------------------------------------------
    def number_text(self, s: SourceSection, text: str) -> str:
        """Heading text of a literal document: number, separator, text (the number alone if no text)."""
        return f"{s.number}{self.style.separator}{text}" if text else s.number

    def section_heading(self, s: SourceSection) -> None:
        auto = self.numbering is not None
        center = WD_ALIGN_PARAGRAPH.CENTER
        if not s.number[:1].isascii() and not s.is_annex:  # 前言 引言 参考文献 索引
            self.heading(s.number, 1, align=center, page_break=True, size=16)
            return
        if s.is_annex:
            first = self.heading("" if auto else s.number, 1, align=center, page_break=True)
            if self.numbering is not None:
                self.numbering.attach(first, s)
            bold = self.style.headings == "bold"
            self.para(layout.annex_marker_line(s), font=HEI, bold=bold, align=center)
            self.para(s.title, font=HEI, bold=bold, align=center)
            return
        page_break = s.number == self.first_chapter
        if layout.is_term_entry(s):
            title = layout.display_title(s)
            if self.numbering is not None:
                self.numbering.attach(self.heading(title, s.level), s)
            elif self.src.drafting_rules.endswith("2020"):
                self.heading(s.number, s.level)
                term = self.para(title, font=HEI, bold=True)
                term.paragraph_format.keep_with_next = True
            else:
                self.heading(self.number_text(s, title), s.level)
            return
        if not s.title:
            return  # untitled clause: numbered first paragraph, see body()
        if self.numbering is not None:
            self.numbering.attach(self.heading(s.title, s.level, page_break=page_break), s)
        else:
            self.heading(self.number_text(s, s.title), s.level, page_break=page_break)

    def paragraph(self, s: SourceSection, index: int, text: str) -> None:
        role = layout.paragraph_role(s, index)
        if role is Role.CAPTION:
            p = self.para(text, font=HEI, align=WD_ALIGN_PARAGRAPH.CENTER, before=3)
            p.paragraph_format.keep_with_next = True
        elif role in (Role.NOTE, Role.EXAMPLE):
            self.para(text, size=9, indent=INDENT)
        elif role is Role.LIST:
            self.para(text, indent=INDENT)
        elif role is Role.REFERENCE and s.kind == "bibliography":
            self.para(text)
        else:
            self.para(text, first_indent=INDENT)

    def table(self, rows: Table, *, spacer: bool) -> None:
        table = self.doc.add_table(rows=len(rows), cols=len(rows[0]))
        table.style = self.doc.styles["Table Grid"]
        table.alignment = WD_TABLE_ALIGNMENT.CENTER
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                cell = table.cell(r, c)
                p = cell.paragraphs[0]
                _fonts(p.add_run(value), HEI if r == 0 else SONG, 9, bold=None)
        if spacer:  # Word merges two adjacent tables, and a document may not end with one
            self.para()

    def body(self, s: SourceSection) -> None:
        self.section_heading(s)
        start = 0
        if s.level > 1 and not s.title and not layout.is_term_entry(s):
            first = s.blocks[0] if s.blocks and isinstance(s.blocks[0], str) else ""
            if self.numbering is not None:
                self.numbering.attach(self.para(first), s)
            else:
                self.para(self.number_text(s, first))
            start = 1 if first else 0
        for i in range(start, len(s.blocks)):
            block = s.blocks[i]
            if isinstance(block, str):
                self.paragraph(s, i, block)
            else:
                nxt = s.blocks[i + 1] if i + 1 < len(s.blocks) else None
                last = s is self.src.sections[-1] and nxt is None
                self.table(block, spacer=last or (nxt is not None and not isinstance(nxt, str)))

    def render(self) -> bytes:
        self.setup()
        self.cover()
        self.toc()
        for s in self.src.sections:
            self.body(s)
        out = io.BytesIO()
        self.doc.save(out)
        return _normalise_zip(out.getvalue(), self.src.header["issued"])


def _normalise_zip(data: bytes, issued: str) -> bytes:
    """Rewrite the package with fixed timestamps and attributes so equal input gives equal bytes."""
    y, m, d = (int(x) for x in issued.split("-"))
    when = (max(y, 1980), m, d, 0, 0, 0)
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=when)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            zi.create_system = 3
            dst.writestr(zi, src.read(info.filename), compresslevel=6)
    return out.getvalue()


def render_docx(doc: SourceDocument, style: DocxStyle, page_labels: dict[str, str]) -> bytes:
    """The DOCX bytes of `doc` in `style`; `page_labels` (section → printed page) fill the 目次."""
    return _DocxRenderer(doc, style, page_labels).render()
