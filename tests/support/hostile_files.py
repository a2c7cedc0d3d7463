"""Crafted hostile inputs, written byte by byte: huge PDFs, pages of many lines, Markdown lines full of `*`.

PDFs are written directly (not through fpdf2, which would take minutes for 100k pages): one shared content
stream drawn by every page, so a 100k-page file is a few MB, and a standard Type 1 font (no embedding).
"""

from __future__ import annotations

import zlib
from pathlib import Path

LINE = "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron"
LEADING = 12.0


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of numbered objects (1-based) with a correct cross-reference table; 1 is the catalog."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(content: bytes) -> bytes:
    packed = zlib.compress(content, 6)
    return f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode() + packed + b"\nendstream"


def _text(lines: int, top: float, paragraph: int) -> bytes:
    """`lines` full-width lines; every `paragraph`-th is short and ends a sentence (0: one long paragraph)."""
    full = f"({LINE}) Tj T*".encode()
    short = f"({LINE[:24]}.) Tj T*".encode()
    body = [f"BT /F1 10 Tf {LEADING} TL 50 {top} Td".encode()]
    body += [short if paragraph and i % paragraph == paragraph - 1 else full for i in range(lines)]
    body.append(b"ET")
    return b"\n".join(body)


def pdf_pages(pages: int, lines_per_page: int = 40, paragraph: int = 5) -> bytes:
    """`pages` pages, each drawing the same `lines_per_page` lines in paragraphs of `paragraph` lines."""
    height = lines_per_page * LEADING + 100
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    # 1 catalog, 2 pages, 3 font, 4 content, 5.. the pages
    kids = " ".join(f"{5 + i} 0 R" for i in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        font,
        _stream(_text(lines_per_page, height - 50, paragraph)),
    ]
    page = (
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 {height:g}] "
        "/Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    ).encode()
    objects += [page] * pages
    return _pdf(objects)


def pdf_tall_page(lines: int, paragraph: int = 0) -> bytes:
    """One page holding `lines` lines (as tall as it must be), by default one paragraph: the case that
    made the old line gluing quadratic."""
    return pdf_pages(1, lines, paragraph)


def markdown_stars(size: int) -> bytes:
    """A Markdown table line of about `size` bytes made of "| *a " (the former regex backtracked on it)."""
    unit = "| *a "
    return ("# 1 范围\n\n" + unit * max(1, size // len(unit)) + "\n").encode()


def _one_page(content: bytes) -> bytes:
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    )
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
            font,
            _stream(content),
            page,
        ]
    )


def pdf_text_objects(count: int) -> bytes:
    """One page showing `count` one-letter strings, each its own text object (a few bytes compressed)."""
    return _one_page(b"BT /F1 1 Tf 10 10 Td " + b"(a) Tj " * count + b"ET")


def pdf_path_objects(count: int) -> bytes:
    """One page filling `count` tiny rectangles, each its own path object."""
    return _one_page(b"0 0 1 1 re f\n" * count)


def markdown_headings(count: int) -> bytes:
    """A Markdown standard of `count` numbered headings with a word under each (about 25 bytes each)."""
    body = "".join(f"## {i} 标题\n字\n" for i in range(1, count + 1))
    return ("# 1 范围\n\n" + body).encode()


def docx_paragraphs(megabytes: int) -> bytes:
    """A DOCX whose document.xml is about `megabytes` MB of short paragraphs of random hexadecimal words:
    under the package's size and ratio limits (it hardly compresses), but costly to build a tree of."""
    import random

    from tests.support.docx_fixtures import raw_docx

    noise = random.Random(0).randbytes(megabytes * 1_000_000 // 3).hex()
    words = [noise[i : i + 8] for i in range(0, len(noise), 8)]
    paragraphs = (
        "<w:p><w:r><w:t>" + " ".join(words[i : i + 12]) + "</w:t></w:r></w:p>"
        for i in range(0, len(words), 12)
    )
    return raw_docx("<w:p><w:r><w:t>1 范围</w:t></w:r></w:p>" + "".join(paragraphs))


def raw_brackets(size: int) -> bytes:
    """A predictions file of one document whose raw model output is `size` bytes of "[x " (an unclosed
    bracket after another: the shape that made a naive reader quadratic)."""
    import json

    return (json.dumps({"doc_id": "d1", "raw_output": "[x " * (size // 3)}) + "\n").encode()


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


__all__ = ["markdown_stars", "pdf_pages", "pdf_tall_page", "write"]
