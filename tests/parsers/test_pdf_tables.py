"""PDF tables read from their ruling: one cell per ruled box, spans, full-width rows, continued tables; the
structure in the document model, its JSON and its text rendering.

The fixtures (tests/support/table_fixtures.py) are drawn with their true structure; bench/tables.py scores the
same fixtures against pdfplumber.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from parsers.lines import Line
from parsers.model import Cell, Document, Section, Table
from parsers.pdf import parse_pdf, read_lines
from parsers.render import render_text
from parsers.text import parse_text
from tests.parsers.test_pdf import Sheet
from tests.support.table_fixtures import (
    COLUMN_SPAN,
    CONTINUED_FIRST,
    CONTINUED_NEXT,
    FULL_WIDTH,
    PAGES,
    SPANS,
    TABLES,
    VERTICAL,
    GoldTable,
    font,
    tables_pdf,
)


@pytest.fixture(scope="module")
def cjk_font() -> Path:
    path = font()
    if path is None:
        pytest.skip("no CJK TrueType font installed (apt-get install fonts-arphic-uming)")
    return path


@pytest.fixture(scope="module")
def table_lines(cjk_font: Path) -> list[Line]:
    return read_lines(Path("tables.pdf"), tables_pdf(cjk_font))


def found(lines: list[Line]) -> list[tuple[int, Table]]:
    return [(ln.page or 0, ln.table) for ln in lines if ln.table is not None]


def grid_of(table: Table) -> list[list[str | None]]:
    """Text where each cell starts, None under a span: the same shape as GoldTable.grid."""
    owner = table.grid()
    cells = iter(cell for row in table.rows for cell in row)
    texts = {
        (r, c): next(cells).text for r, row in enumerate(owner) for c, o in enumerate(row) if o == (r, c)
    }
    return [[texts.get((r, c)) for c in range(table.columns)] for r in range(len(table.rows))]


def test_the_tables_are_found_on_their_pages_and_nothing_else_is_a_table(table_lines: list[Line]) -> None:
    pages = [[t.caption for p, t in found(table_lines) if p == n] for n in range(1, len(PAGES) + 1)]
    assert pages == [[g.caption for g in golds] for golds in PAGES]
    # the framed title block and the flowchart stay text
    texts = [ln.text for ln in table_lines if not ln.table_row]
    assert "附录甲" in texts
    assert any("取样" in t for t in texts)
    assert "存档" in texts


@pytest.mark.parametrize("gold", TABLES, ids=lambda g: g.name)
def test_table_rows_columns_and_cells_follow_the_ruling(table_lines: list[Line], gold: GoldTable) -> None:
    table = next(t for _, t in found(table_lines) if t.caption == gold.caption)
    assert table.columns == gold.columns
    assert len(table.rows) == len(gold.rows)
    assert grid_of(table) == gold.grid()
    spans = [[(cell.row_span, cell.col_span) for cell in row] for row in table.rows]
    assert spans == [[(cell.rows, cell.cols) for cell in row] for row in gold.rows]


def test_a_cell_of_several_lines_spanning_rows_is_one_cell(table_lines: list[Line]) -> None:
    table = next(t for _, t in found(table_lines) if t.caption == SPANS.caption)
    assert table.rows[1][1] == Cell("外观检查", row_span=3)
    assert table.rows[3][2].text == "按订货合同的约定逐件检查，并记录检查结果。"


def test_a_vertical_label_is_one_cell(table_lines: list[Line]) -> None:
    table = next(t for _, t in found(table_lines) if t.caption == VERTICAL.caption)
    assert table.rows[1][1] == Cell("帧头", row_span=5)
    assert [len(row) for row in table.rows] == [3, 4, 3, 3, 3, 3, 3, 3]


def test_full_width_rows_stay_in_the_table(table_lines: list[Line]) -> None:
    rows = [ln.text for ln in table_lines if ln.table_row and ln.page == 2][: len(FULL_WIDTH.rows)]
    assert rows[0] == "仪器编号的五个部分"
    assert (
        rows[-2]
        == "注：类别代码按附录甲的规定填写，地区代码取所在地的行政区划代码，顺序号由发放单位按登记先后编排。"
    )
    assert rows[-1] == "a 顺序号不足四位时在左侧补零。"
    assert rows[2] == "类别代码 | 地区代码 | 顺序号"


def test_a_row_spanning_label_over_column_spans(table_lines: list[Line]) -> None:
    table = next(t for _, t in found(table_lines) if t.caption == COLUMN_SPAN.caption)
    assert table.rows[0][1] == Cell("表示后续字节的个数", col_span=6)
    assert table.rows[1][0] == Cell("次字节", row_span=2)
    assert (
        table.row_texts()[2]
        == " | 一号门开关 | 二号门开关 | 三号门开关 | 四号门开关 | 五号门开关 | 六号门开关"
    )


def test_a_continued_table_keeps_its_merged_cells(table_lines: list[Line]) -> None:
    first = next(t for _, t in found(table_lines) if t.caption == CONTINUED_FIRST.caption)
    rest = next(t for _, t in found(table_lines) if t.caption == CONTINUED_NEXT.caption)
    assert not first.continued
    assert rest.continued
    assert len(rest.rows) == 6
    assert rest.rows[3][:2] == (Cell("4", row_span=3), Cell("观测要素信息组", row_span=3))


def test_an_uncaptioned_table_at_the_top_of_a_page_continues_the_one_before(cjk_font: Path) -> None:
    data = tables_pdf(cjk_font, captions=False)
    tables = found(read_lines(Path("tables.pdf"), data))
    # without its caption the one-column table is no table: a framed list reads as text
    assert [t.continued for _, t in tables] == [False] * 5 + [True]


# --- the model ------------------------------------------------------------------------------------


def spanned() -> Table:
    """Header, a row-spanning first cell, a row whose first cell is covered, a full-width note row."""
    return Table(
        rows=(
            (Cell("序号"), Cell("名称"), Cell("说明")),
            (Cell("1", row_span=2), Cell("甲"), Cell("")),
            (Cell("乙"), Cell("见正文")),
            (Cell("注：示例。", col_span=3),),
        ),
        columns=3,
        caption="表1　示例",
    )


def test_row_texts_mark_cells_covered_from_above_and_write_a_full_width_row_alone() -> None:
    assert spanned().row_texts() == ["序号 | 名称 | 说明", "1 | 甲 | ", " | 乙 | 见正文", "注：示例。"]
    assert spanned().grid()[2] == [(1, 0), (2, 1), (2, 2)]


def document_with(table: Table, rows: list[str]) -> Document:
    section = Section(
        "2", "要求", "\n".join(["正文。", *rows]), 1, "clause", tables=(replace(table, line=1),)
    )
    scope = Section("1", "范围", "本文件规定了示例。", 1, "scope")
    return Document("d", "x.pdf", "pdf", "GB/T 1—2025", "示例", "GB/T 1.1—2020", (scope, section))


def test_json_carries_the_cells_so_nobody_splits_on_pipes() -> None:
    table = spanned()
    doc = document_with(table, [r.strip() for r in table.row_texts()])
    row = json.loads(doc.to_json())["sections"][1]
    assert row["text"].split("\n")[3] == "| 乙 | 见正文"  # the text alone is ambiguous here
    cells = row["tables"][0]["rows"]
    assert cells[2] == [
        {"text": "乙", "row_span": 1, "col_span": 1},
        {"text": "见正文", "row_span": 1, "col_span": 1},
    ]
    assert cells[1][0] == {"text": "1", "row_span": 2, "col_span": 1}
    assert Document.from_json(doc.to_json()).sections[1].tables == doc.sections[1].tables


def test_rendered_text_reads_back_to_the_same_sections_full_width_rows_included() -> None:
    table = spanned()
    doc = document_with(table, [r.strip() for r in table.row_texts()])
    text = render_text(doc)
    assert "| 注：示例。 |" in text.split("\n")
    back = parse_text(Path("x.txt"), text.encode())
    assert [s.text for s in back.sections] == [s.text for s in doc.sections]


def test_rendering_follows_the_text_once_an_edit_changed_a_row() -> None:
    table = spanned()
    rows = [r.strip() for r in table.row_texts()]
    rows[3] = "注：改写后的示例。"
    text = render_text(document_with(table, rows))
    assert "注：改写后的示例。" in text.split("\n")
    assert "| 注：示例。 |" not in text


def small_standard(cjk_font: Path, caption: str = "表1　技术要求") -> bytes:
    """Two chapters; the second holds a captioned table with an empty cell at a row's start and a note row."""
    sheet = Sheet(cjk_font, header=None)
    sheet.page()
    sheet.line("GB/T 99998—2025")
    sheet.line("示例仪器 技术要求", size=14, center=True)
    sheet.line("1　范围")
    sheet.paragraph(
        "本文件规定了示例仪器的技术要求和检验方法，适用于示例仪器的设计、制造和验收，也适用于同类仪器。"
    )
    sheet.line("2　技术要求")
    sheet.paragraph("仪器应符合表1的规定。")
    sheet.line(caption, center=True)
    pdf, widths, top = sheet.pdf, (30, 50, 60), sheet.y
    pdf.set_font("cjk", size=9)
    for r, row in enumerate((("项目", "要求", "检验方法"), ("外观", "", "目测"), ("", "无划痕", "手摸"))):
        x = sheet.LEFT
        for text, width in zip(row, widths, strict=True):
            pdf.rect(x, top + 7 * r, width, 7)
            pdf.text(x + 1, top + 7 * r + 5, text)
            x += width
    pdf.rect(sheet.LEFT, top + 21, sum(widths), 7)
    pdf.text(sheet.LEFT + 1, top + 26, "注：要求一栏留空。")
    return sheet.output()


def test_parse_pdf_puts_each_table_in_its_section_at_its_first_row(cjk_font: Path) -> None:
    doc = parse_pdf(Path("t.pdf"), small_standard(cjk_font))
    section = doc.section("2")
    assert section is not None
    assert section.text.split("\n") == [
        "仪器应符合表1的规定。",
        "表1　技术要求",
        "项目 | 要求 | 检验方法",
        "外观 |  | 目测",
        "| 无划痕 | 手摸",
        "注：要求一栏留空。",
    ]
    (table,) = section.tables
    assert (table.line, table.caption, table.columns) == (2, "表1　技术要求", 3)
    assert table.rows[1] == (Cell("外观"), Cell(""), Cell("目测"))
    assert table.rows[2] == (Cell(""), Cell("无划痕"), Cell("手摸"))
    assert table.rows[3] == (Cell("注：要求一栏留空。", col_span=3),)


@pytest.mark.parametrize(
    ("caption", "continued"), [("表1　技术要求（续）", True), ("续表1", True), ("表 1 技术要求", False)]
)
def test_a_caption_says_whether_the_table_continues(cjk_font: Path, caption: str, continued: bool) -> None:
    lines = read_lines(Path("t.pdf"), small_standard(cjk_font, caption))
    ((_, table),) = found(lines)
    assert (table.caption, table.continued) == (caption, continued)


def test_parse_json_prints_the_cells(cjk_font: Path, tmp_path: Path) -> None:
    path = tmp_path / "standard.pdf"
    path.write_bytes(small_standard(cjk_font))
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "flows.cli", "parse", str(path), "--json"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=root, check=False)
    assert result.returncode == 0, result.stderr
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]
    section = next(s for s in row["sections"] if s["number"] == "2")
    (table,) = section["tables"]
    cells = [[cell["text"] for cell in r] for r in table["rows"]]
    assert cells == [
        ["项目", "要求", "检验方法"],
        ["外观", "", "目测"],
        ["", "无划痕", "手摸"],
        ["注：要求一栏留空。"],
    ]
    assert table["rows"][3][0]["col_span"] == 3


# --- non-characters -------------------------------------------------------------------------------


def test_no_noncharacter_reaches_the_text_where_a_line_ends_in_a_hyphen(cjk_font: Path) -> None:
    sheet = FPDF(unit="mm", format="A4")
    sheet.add_font("cjk", "", str(cjk_font), collection_font_number=0)
    sheet.add_page()
    sheet.set_font("cjk", size=10.5)
    sheet.text(25, 40, "当请求类型取值为 verify-")
    sheet.text(25, 46, "SignedData 时，采用本格式。")
    data = bytes(sheet.output())
    raw = pdfium.PdfDocument(data)[0].get_textpage().get_text_range()
    assert "\ufffe" in raw  # what pdfium reports at the hyphen: the reader must not pass it on
    lines = read_lines(Path("hyphen.pdf"), data)
    text = "".join(ln.text for ln in lines)
    assert not re.search("[\ufdd0-\ufdef\ufffe\uffff]", text)
    assert "verifySignedData" in text


# --- a real standard ------------------------------------------------------------------------------

# true rows × columns of each printed part, counted on the rendered pages of SL 651
SL651_TABLES = {
    "12": [(12, 4)],
    "13": [(3, 5)],
    "16": [(11, 5)],
    "17": [(11, 5)],
    "24": [(2, 4), (12, 4)],
    "74": [(4, 9)],
    "E.5": [(8, 4), (23, 5)],
}


def test_sl651_tables_have_their_true_rows(real_corpus: Path) -> None:
    path = real_corpus / "SL_651-2014.pdf"
    lines = read_lines(path, path.read_bytes())
    tables = [t for _, t in found(lines)]
    for name, parts in SL651_TABLES.items():
        pattern = re.compile(r"^表\s*" + r"\s*\.\s*".join(map(re.escape, name.split("."))) + r"(?![\d.])")
        mine = [t for t in tables if pattern.match(t.caption)]
        assert [(len(t.rows), t.columns) for t in mine] == parts, name
        assert [t.continued for t in mine] == [False] + [True] * (len(parts) - 1), name
    assert not any(re.search("[\ufffe\uffff]", ln.text) for ln in lines)


def test_provision_lines_leave_out_every_table_row_by_the_structure() -> None:
    from injectors.types.nms.analysis import body_lines

    table = Table(
        rows=((Cell("检验项目应符合下列要求", col_span=2),), (Cell("外观"), Cell("应平整"))),
        columns=2,
    )
    rows = [r.strip() for r in table.row_texts()]
    section = document_with(table, rows).sections[1]
    assert [line for _, line in body_lines(section)] == ["正文。"]
    edited = replace(section, text=section.text.replace("外观 | 应平整", "外观 | 应光洁"))
    assert [line for _, line in body_lines(edited)] == ["正文。", "检验项目应符合下列要求"]


def test_term_uses_are_looked_for_outside_every_table_row() -> None:
    from injectors.language.terms import prose_lines

    table = Table(rows=((Cell("示例装置的组成", col_span=2),), (Cell("外壳"), Cell("金属"))), columns=2)
    section = document_with(table, [r.strip() for r in table.row_texts()]).sections[1]
    assert [line for _, line in prose_lines(section.text, section.table_lines())] == ["正文。"]
    assert [line for _, line in prose_lines(section.text)] == ["正文。", "示例装置的组成"]


# --- the same structure from Word -----------------------------------------------------------------


def test_word_tables_carry_their_merged_cells_too() -> None:
    import docx

    from parsers.docx import parse_docx
    from tests.support.docx_fixtures import save

    doc = docx.Document()
    for text in ("GB/T 99997—2025", "示例装置 技术要求", "1 范围", "本文件规定了示例装置的要求。", "2 要求"):
        doc.add_paragraph(text)
    doc.add_paragraph("表1　装置参数")
    table = doc.add_table(rows=5, cols=3)
    values = [["装置参数", "", ""], ["项目", "指标", "说明"], ["电源", "220 V", "交流"], ["", "50 Hz", ""]]
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(0, 0).merge(table.cell(0, 2))  # a title row across the table
    table.cell(2, 0).merge(table.cell(3, 0))  # 电源 over two rows
    table.cell(4, 0).merge(table.cell(4, 2))
    table.cell(4, 0).text = "注：指标为额定值。"
    document = parse_docx(Path("merged.docx"), save(doc))
    section = document.section("2")
    assert section is not None
    (parsed,) = section.tables
    assert (parsed.caption, parsed.columns, parsed.line) == ("表1　装置参数", 3, 1)
    assert parsed.rows == (
        (Cell("装置参数", col_span=3),),
        (Cell("项目"), Cell("指标"), Cell("说明")),
        (Cell("电源", row_span=2), Cell("220 V"), Cell("交流")),
        (Cell("50 Hz"), Cell("")),
        (Cell("注：指标为额定值。", col_span=3),),
    )
    assert parsed.in_place(section.text.split("\n"))
    assert section.table_lines() == frozenset(range(1, 6))


def test_graph_paper_is_not_read_as_a_table(cjk_font: Path) -> None:
    """A grid finer than any table (here 80 × 130 boxes) is a drawing: its text stays text."""
    from parsers.pdf.tables import MAX_GRID_CELLS

    assert MAX_GRID_CELLS < 80 * 130
    sheet = FPDF(unit="mm", format="A4")
    sheet.add_font("cjk", "", str(cjk_font), collection_font_number=0)
    sheet.add_page()
    sheet.set_line_width(0.1)
    for k in range(81):
        sheet.line(25 + 2 * k, 20, 25 + 2 * k, 280)
    for k in range(131):
        sheet.line(25, 20 + 2 * k, 185, 20 + 2 * k)
    sheet.set_font("cjk", size=5)
    sheet.text(30, 41.5, "坐标纸上的说明文字")
    lines = read_lines(Path("graph.pdf"), bytes(sheet.output()))
    assert [(ln.text, ln.table_row) for ln in lines] == [("坐标纸上的说明文字", False)]


def test_a_table_nested_in_a_cell_is_that_cells_text_row_by_row(cjk_font: Path) -> None:
    sheet = FPDF(unit="mm", format="A4")
    sheet.add_font("cjk", "", str(cjk_font), collection_font_number=0)
    sheet.add_page()
    sheet.set_font("cjk", size=9)
    sheet.text(80, 36, "表1　编码结构")
    sheet.rect(25, 40, 40, 8)
    sheet.rect(65, 40, 100, 8)
    sheet.text(26, 45, "字段")
    sheet.text(66, 45, "说明")
    sheet.rect(25, 48, 40, 30)
    sheet.rect(65, 48, 100, 30)
    sheet.text(26, 60, "设备编码")
    sheet.text(66, 53, "编码由三部分组成：")
    for r, row in enumerate((("类别", "地区", "序号"), ("2", "6", "4"))):
        for k, text in enumerate(row):
            sheet.rect(75 + 25 * k, 57 + 7 * r, 25, 7)
            sheet.text(76 + 25 * k, 62 + 7 * r, text)
    tables = found(read_lines(Path("nested.pdf"), bytes(sheet.output())))
    assert len(tables) == 1
    ((_, table),) = tables
    assert table.rows == (
        (Cell("字段"), Cell("说明")),
        (Cell("设备编码"), Cell("编码由三部分组成： 类别 地区 序号 2 6 4")),
    )


def test_scope_and_annex_checks_read_table_rows_from_the_structure() -> None:
    """A full-width row holds no " | ": SCP-03 takes no requirement from it and STR-05 no caption."""
    from injectors.types.scp.requirements import requirement_sentences
    from injectors.types.str.str05_annex_error import caption_lines

    note = "所有仪器应按本表的规定编号。"  # a full-width row under the table, no "注："
    caption_row = "表1 仪器编号规则"
    table = Table(
        rows=((Cell(caption_row, col_span=2),), (Cell("部分"), Cell("说明")), (Cell(note, col_span=2),)),
        columns=2,
    )
    text = "\n".join(["仪器应标明编号。", caption_row, "部分 | 说明", note])
    plain = Section("5", "编号", text, 1, "clause")
    structured = replace(plain, tables=(replace(table, line=1),))
    assert structured.table_lines() == {1, 2, 3}
    assert [s for _, _, s in requirement_sentences(structured)] == ["仪器应标明编号。"]
    assert note in [s for _, _, s in requirement_sentences(plain)]  # the text alone cannot tell the row
    assert [m.group() for _, m in caption_lines(structured.text, structured.table_lines())] == []
    assert [m.group() for _, m in caption_lines(plain.text)] != []
