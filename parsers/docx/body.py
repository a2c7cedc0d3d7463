"""The DOCX body walk: paragraphs, tables, text boxes and fields to visible lines, numbers included.

It reads w:body in document order as Word shows it (deleted and hidden text and field codes are not
shown, tables become "cell | cell" rows, the number Word prints is written in front of its paragraph)
and records each line's heading level from outline levels and heading styles.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from parsers.docx.formats import _font_char
from parsers.docx.ooxml import (
    ALTERNATE_CONTENT,
    M_NS,
    MC_CHOICE,
    MC_FALLBACK,
    PPR,
    RPR,
    SDT,
    SDT_CONTENT,
    TBL,
    TC,
    TR,
    TXBX_CONTENT,
    P,
    R,
    T,
    _int,
    _on,
    _val,
    _w,
)
from parsers.docx.package import _Package
from parsers.docx.styles import _Counters, _leader, _Numbering, _Styles
from parsers.model import TABLE_CAPTION, TABLE_CONTINUED, Cell, Table

# Wrappers whose children are blocks (paragraphs, tables) or inline content, read through as if absent.
_BLOCK_WRAPPERS = {_w("customXml"), _w("ins"), _w("moveTo"), SDT_CONTENT, SDT}
_INLINE_WRAPPERS = {
    _w("hyperlink"),
    _w("smartTag"),
    _w("customXml"),
    _w("fldSimple"),
    _w("ins"),
    _w("moveTo"),
    _w("dir"),
    _w("bdo"),
    SDT,
    SDT_CONTENT,
}
_ROW_WRAPPERS = {_w("sdt"), SDT_CONTENT, _w("customXml"), _w("ins")}
_MATH = {f"{{{M_NS}}}oMath", f"{{{M_NS}}}oMathPara"}
_HEADING_STYLE_NAME = re.compile(r"^(?:heading|标题)\s*([1-9])$", re.IGNORECASE)


@dataclass(frozen=True)
class _Out:
    text: str
    heading_level: int | None = None
    table_row: bool = False
    table: Table | None = None  # on the first row of a table


class _BodyReader:
    """Walks w:body in document order and collects one `_Out` per visible line."""

    def __init__(self, package: _Package) -> None:
        self.styles = _Styles(package.styles)
        self.numbering = _Numbering(package.numbering, self.styles)
        self.counters = _Counters(self.numbering)
        self.out: list[_Out] = []

    # --- blocks ---------------------------------------------------------------------------------
    def blocks(self, parent: etree._Element) -> None:
        for child in parent:
            tag = child.tag
            if tag == P:
                self.paragraph(child)
            elif tag == TBL:
                self.table(child)
            elif tag in _BLOCK_WRAPPERS:
                self.blocks(child)
            elif tag == ALTERNATE_CONTENT:
                self.blocks(_chosen(child))

    def table(self, tbl: etree._Element) -> None:
        caption = self.out[-1].text if self.out and TABLE_CAPTION.match(self.out[-1].text) else ""
        rows: list[list[tuple[etree._Element, str]]] = []
        for row in _children(tbl, TR, _ROW_WRAPPERS):
            props = row.find(_w("trPr"))
            if props is not None and props.find(_w("del")) is not None:
                continue
            cells = [(tc, self.cell_text(tc)) for tc in _children(row, TC, _ROW_WRAPPERS)]
            if any(text for _, text in cells):
                rows.append(cells)
        table = _structure(rows, caption)
        for i, cells in enumerate(rows):
            text = " | ".join(text for _, text in cells)
            self.out.append(_Out(text, table_row=True, table=table if i == 0 else None))

    def cell_text(self, tc: etree._Element) -> str:
        """A cell's paragraphs (and nested tables) on one line; numbering inside still counts."""
        outer, self.out = self.out, []
        try:
            self.blocks(tc)
            return " ".join(o.text for o in self.out)
        finally:
            self.out = outer

    # --- paragraphs -----------------------------------------------------------------------------
    def paragraph(self, p: etree._Element) -> None:
        ppr = p.find(PPR)
        style_id = _val(ppr.find(_w("pStyle"))) if ppr is not None else None
        pieces: list[str] = [""]
        boxes: list[etree._Element] = []
        self.inline(p, pieces, boxes)
        prefix = self.number_prefix(ppr, style_id)
        if prefix:
            pieces[0] = prefix + pieces[0].lstrip()
        level = self.heading_level(ppr, style_id)
        leader = _leader(ppr) or next((st.leader for _, st in self.styles.chain(style_id) if st.leader), None)
        for piece in pieces:
            if leader and "\t" in piece.strip():
                # The last tab jumps to the leader tab stop (the page number of a 目次 entry).
                head, _, tail = piece.rstrip().rpartition("\t")
                piece = f"{head}{leader}{tail}"
            text = piece.replace("\t", " ").strip()
            if text:
                self.out.append(_Out(text, heading_level=level))
        for box in boxes:
            self.blocks(box)

    def inline(self, el: etree._Element, pieces: list[str], boxes: list[etree._Element]) -> None:
        """Visible text of runs, split at line breaks; deleted text and field codes are not shown."""
        for child in el:
            tag = child.tag
            if tag == R:
                self.run(child, pieces, boxes)
            elif tag in _INLINE_WRAPPERS:
                self.inline(child, pieces, boxes)
            elif tag in _MATH:
                pieces[-1] += "".join(t.text or "" for t in child.iter(f"{{{M_NS}}}t"))
            elif tag == ALTERNATE_CONTENT:
                self.inline(_chosen(child), pieces, boxes)

    def run(self, r: etree._Element, pieces: list[str], boxes: list[etree._Element]) -> None:
        rpr = r.find(RPR)
        if rpr is not None and _on(rpr.find(_w("vanish"))):
            return
        for child in r:
            tag = child.tag
            if tag == T:
                pieces[-1] += child.text or ""
            elif tag in (_w("tab"), _w("ptab")):
                pieces[-1] += "\t"
            elif tag in (_w("br"), _w("cr")):
                pieces.append("")
            elif tag == _w("noBreakHyphen"):
                pieces[-1] += "-"
            elif tag == _w("sym"):
                code = _int_hex(child.get(_w("char")))
                if code is not None:
                    pieces[-1] += _font_char(code, child.get(_w("font")))
            elif tag == _w("ruby"):
                base = child.find(_w("rubyBase"))
                if base is not None:
                    self.inline(base, pieces, boxes)
            elif tag in (_w("drawing"), _w("pict"), _w("object"), ALTERNATE_CONTENT):
                boxes.extend(_text_boxes(child))

    def number_prefix(self, ppr: etree._Element | None, style_id: str | None) -> str:
        """The number Word prints before this paragraph ("5.1 ", "附录A", "a) ", "——"), or ""."""
        num_pr = ppr.find(_w("numPr")) if ppr is not None else None
        num_id = _val(num_pr.find(_w("numId"))) if num_pr is not None else None
        ilvl = _int(_val(num_pr.find(_w("ilvl")))) if num_pr is not None else None
        chain = list(self.styles.chain(style_id)) if num_id is None or ilvl is None else []
        if num_id is None:
            num_id = next((style.num_id for _, style in chain if style.num_id is not None), None)
        if ilvl is None:
            ilvl = next((style.ilvl for _, style in chain if style.ilvl is not None), None)
        if ilvl is None and num_id is not None:
            ilvl = self._level_for_style(num_id, [sid for sid, _ in chain])
        if num_id is None or num_id == "0":
            return ""
        labelled = self.counters.label(num_id, ilvl or 0)
        if labelled is None:
            return ""
        text, level = labelled
        if not text:
            return ""
        if level.suffix == "nothing" or text.endswith(("—", "－", "-")):
            return text
        return text + " "

    def _level_for_style(self, num_id: str, style_ids: list[str]) -> int | None:
        """A style attached to a list without an ilvl takes the level whose w:pStyle names it
        (the paragraph's own style first, then the styles it is based on)."""
        found = self.numbering.list_of(num_id)
        if found is None:
            return None
        for style_id in style_ids:
            for ilvl, lvl in sorted(found[1].items()):
                if lvl.style == style_id:
                    return ilvl
        return None

    def heading_level(self, ppr: etree._Element | None, style_id: str | None) -> int | None:
        """Outline level (direct or from the style chain) or a Heading N / 标题 N style name, 1-based."""
        direct = _int(_val(ppr.find(_w("outlineLvl")))) if ppr is not None else None
        if direct is not None:
            return direct + 1 if 0 <= direct <= 8 else None
        for _, style in self.styles.chain(style_id):
            if style.outline is not None:
                return style.outline + 1 if 0 <= style.outline <= 8 else None
            if m := _HEADING_STYLE_NAME.match(style.name.strip()):
                return int(m.group(1))
        return None


def _int_hex(value: str | None) -> int | None:
    try:
        return int(value, 16) if value else None
    except ValueError:
        return None


def _chosen(alternate: etree._Element) -> etree._Element:
    """mc:AlternateContent: the first Choice (we read what Word reads), else the Fallback."""
    choice = alternate.find(MC_CHOICE)
    if choice is None:
        choice = alternate.find(MC_FALLBACK)
    return choice if choice is not None else etree.Element("empty")


def _text_boxes(el: etree._Element) -> list[etree._Element]:
    """Text box contents inside a drawing, once (not again from the VML fallback)."""
    if el.tag == TXBX_CONTENT:
        return [el]
    if el.tag == ALTERNATE_CONTENT:
        return _text_boxes(_chosen(el))
    found: list[etree._Element] = []
    for child in el:
        found.extend(_text_boxes(child))
    return found


def _structure(rows: list[list[tuple[etree._Element, str]]], caption: str) -> Table | None:
    """The table's cells with their spans: w:gridSpan spans columns, a w:vMerge that does not restart
    continues the cell above in the same grid column."""
    if not rows:
        return None
    built: list[list[list[int | str]]] = []  # per row: [text, row span, column span, grid column]
    above: dict[int, list[int | str]] = {}  # grid column → the cell that last started there
    for cells in rows:
        row: list[list[int | str]] = []
        col = 0
        for tc, text in cells:
            props = tc.find(_w("tcPr"))
            span = max(_int(_val(props.find(_w("gridSpan")))) or 1, 1) if props is not None else 1
            merge = props.find(_w("vMerge")) if props is not None else None
            anchor = above.get(col)
            if merge is not None and _val(merge) in (None, "continue") and anchor is not None:
                anchor[1] = int(anchor[1]) + 1
            else:
                cell: list[int | str] = [text, 1, span, col]
                row.append(cell)
                for c in range(col, col + span):
                    above[c] = cell
            col += span
        built.append(row)
    columns = max(int(c[3]) + int(c[2]) for row in built for c in row) if any(built) else 1
    return Table(
        tuple(tuple(Cell(str(c[0]), int(c[1]), int(c[2])) for c in row) for row in built),
        columns=columns,
        caption=caption,
        continued=TABLE_CONTINUED.search(caption) is not None,
    )


def _children(parent: etree._Element, tag: str, wrappers: set[str]) -> Iterator[etree._Element]:
    """Children with `tag`, looking through content controls and custom XML around them."""
    for child in parent:
        if child.tag == tag:
            yield child
        elif child.tag in wrappers:
            yield from _children(child, tag, wrappers)
