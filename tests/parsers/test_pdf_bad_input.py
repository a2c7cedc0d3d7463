"""The PDF reader on bad input: damaged, locked, scanned or garbled files rejected with name and reason."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from parsers.errors import (
    CorruptFileError,
    EmptyFileError,
    EncryptedDocumentError,
    GarbledTextError,
    NoTextLayerError,
    ParseError,
)
from parsers.pdf import NO_TEXT_LAYER, parse_pdf, read_lines
from parsers.pdf import reader as pdf_reader

LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def latin_pdf(*, encrypt: str | None = None, owner_only: bool = False) -> FPDF:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    for _ in range(5):
        pdf.cell(0, 10, "1 Scope: this document specifies requirements.", new_x="LMARGIN", new_y="NEXT")
    if encrypt:
        pdf.set_encryption(owner_password="owner", user_password=None if owner_only else encrypt)
    return pdf


def image_only_pdf(pages: int = 3) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (120, 160), (250, 250, 250)).save(buffer, "PNG")
    pdf = FPDF()
    for _ in range(pages):
        pdf.add_page()
        pdf.image(io.BytesIO(buffer.getvalue()), x=10, y=10, w=190)
    return bytes(pdf.output())


def unicode_font_pdf() -> bytes:
    """Latin text in an embedded TrueType font, uncompressed so the ToUnicode map can be edited."""
    if not LATIN_FONT.exists():
        pytest.skip("DejaVu Sans is not installed")
    pdf = FPDF()
    pdf.compress = False
    pdf.add_page()
    pdf.add_font("dejavu", "", str(LATIN_FONT))
    pdf.set_font("dejavu", size=12)
    for _ in range(6):
        pdf.cell(0, 10, "Scope of this document and its requirements", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def blank_pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    return bytes(pdf.output())


def private_use_pdf() -> bytes:
    """Every glyph mapped to a private-use code point (same byte length, so the xref stays valid)."""
    data = unicode_font_pdf()
    return re.sub(rb"(<[0-9A-F]{4}> )<00([0-9A-F]{2})>", rb"\1<E0\2>", data)


def no_tounicode_pdf() -> bytes:
    return unicode_font_pdf().replace(b"/ToUnicode", b"/ToUnicodX")


BAD_INPUTS: list[tuple[str, Callable[[], bytes], type[ParseError], str]] = [
    ("empty.pdf", lambda: b"", EmptyFileError, "empty file"),
    ("truncated.pdf", lambda: bytes(latin_pdf().output())[:700], CorruptFileError, "truncated"),
    ("garbage.pdf", lambda: b"%PDF-1.7\n" + b"\x13\x37" * 500 + b"\n%%EOF\n", CorruptFileError, "damaged"),
    ("locked.pdf", lambda: bytes(latin_pdf(encrypt="secret").output()), EncryptedDocumentError, "password"),
    ("scan.pdf", image_only_pdf, NoTextLayerError, NO_TEXT_LAYER),
    ("blank.pdf", lambda: blank_pdf(), EmptyFileError, "no text"),
    ("pua.pdf", private_use_pdf, GarbledTextError, "garbled text layer"),
    ("no-tounicode.pdf", no_tounicode_pdf, GarbledTextError, "ToUnicode"),
]


@pytest.mark.parametrize(("name", "make", "error", "reason"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_is_a_typed_error_naming_file_and_reason(
    tmp_path: Path, name: str, make: Callable[[], bytes], error: type[ParseError], reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(make())
    with pytest.raises(error) as info:
        parse_pdf(path, path.read_bytes())
    assert str(path) in str(info.value)
    assert reason in info.value.reason


def test_owner_password_only_is_readable(tmp_path: Path) -> None:
    """Permissions-only encryption (empty user password) does not stop reading."""
    data = bytes(latin_pdf(encrypt="x", owner_only=True).output())
    lines = read_lines(tmp_path / "perm.pdf", data)
    assert lines[0].text.startswith("1 Scope")


def test_scanned_file_fails_on_a_sample_of_pages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A long image-only file is rejected after looking at a handful of pages, not all of them."""
    loads: list[int] = []
    real = pdf_reader._load

    def counting(path: Path, pdf: pdfium.PdfDocument, i: int, *limits):  # type: ignore[no-untyped-def]
        loads.append(i)
        return real(path, pdf, i, *limits)

    monkeypatch.setattr(pdf_reader, "_load", counting)
    with pytest.raises(NoTextLayerError):
        read_lines(tmp_path / "long-scan.pdf", image_only_pdf(pages=40))
    assert len(loads) <= pdf_reader.SAMPLE_PAGES
