"""What a PDF's text layer holds beyond its printed text: an OCR layer over scanned pages, a font's private
decimal point, glyphs placed outside the page."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fpdf import FPDF
from fpdf.enums import TextMode

from parsers.errors import NoTextLayerError
from parsers.pdf import read_lines
from tests.parsers.test_pdf import CJK_FONTS, Sheet


def scan_pdf(*, invisible: bool) -> bytes:
    """Page images with lines of text over them: invisible, as an OCR program lays them, or printed."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (120, 160), (250, 250, 250)).save(buffer, "PNG")
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for page in range(3):
        pdf.add_page()
        pdf.image(io.BytesIO(buffer.getvalue()), x=10, y=10, w=190)
        if invisible:
            pdf.text_mode = TextMode.INVISIBLE
        for n in range(12):
            pdf.cell(
                0,
                9,
                f"{page + 1}.{n + 1} The device shall be checked every month.",
                new_x="LMARGIN",
                new_y="NEXT",
            )
    return bytes(pdf.output())


def test_an_ocr_layer_over_scanned_pages_is_refused(tmp_path: Path) -> None:
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scan_pdf(invisible=True))
    with pytest.raises(NoTextLayerError, match="OCR text layer") as refused:
        read_lines(scan, scan.read_bytes())
    assert str(refused.value).startswith(f"{scan}: scanned pages under an OCR text layer")
    printed = tmp_path / "printed.pdf"  # the same text printed beside a picture is an ordinary text layer
    printed.write_bytes(scan_pdf(invisible=False))
    assert len(read_lines(printed, printed.read_bytes())) >= 30


def test_a_pdf_whose_font_maps_its_point_to_a_private_code_point(tmp_path: Path) -> None:
    """The heading after a full last line of a paragraph stays a heading: the PDF reader reads the point
    before it joins lines, which looks for headings."""
    font = next((f for f in CJK_FONTS if f.exists()), None)
    if font is None:
        pytest.skip("no CJK TrueType font installed (apt-get install fonts-arphic-uming)")
    sheet = Sheet(font, header=None)
    sheet.pdf.compress = False  # so that the ToUnicode map can be edited
    sheet.page("1")
    sheet.line("１　范围")
    sheet.paragraph(sheet.full_lines("设备外壳应采用阻燃材料制造表面应平整光洁", 2))
    sheet.line("１．１　外观")
    sheet.paragraph("外观应平整。")
    for n in range(2, 7):
        sheet.paragraph(f"编号１．{n}的部件应完好。")
    data = sheet.output()
    assert data.count(b"<FF0E>") == 1
    path = tmp_path / "private-point.pdf"
    path.write_bytes(data.replace(b"<FF0E>", b"<E010>"))  # the font's full stop now reads as U+E010
    lines = [line.text for line in read_lines(path, path.read_bytes())]
    assert lines[0] == "1\u3000范围" and lines[1].endswith("。")
    assert lines[2:4] == ["1.1\u3000外观", "外观应平整。"]
    assert "编号1.6的部件应完好。" in lines


def test_text_below_the_page_does_not_hide_the_page_number(tmp_path: Path) -> None:
    """A stray glyph placed outside the page box is never printed; the page number above it stays the
    outermost line, and is dropped."""
    font = next((f for f in CJK_FONTS if f.exists()), None)
    if font is None:
        pytest.skip("no CJK TrueType font installed (apt-get install fonts-arphic-uming)")
    sheet = Sheet(font, header=None)
    for n in range(1, 4):
        sheet.page(str(n))
        sheet.line("1　范围" if n == 1 else f"{n}　要求")
        sheet.paragraph("设备应按规定的周期进行检查，检查结果应记录并保存。")
        sheet.pdf.set_font("cjk", size=9)
        sheet.pdf.text(150, 400, "书")  # 400 mm down an A4 page: below it
    path = tmp_path / "stray.pdf"
    path.write_bytes(sheet.output())
    lines = [line.text for line in read_lines(path, path.read_bytes())]
    assert lines == [
        "1\u3000范围",
        "设备应按规定的周期进行检查，检查结果应记录并保存。",
        "2\u3000要求",
        "设备应按规定的周期进行检查，检查结果应记录并保存。",
        "3\u3000要求",
        "设备应按规定的周期进行检查，检查结果应记录并保存。",
    ]
