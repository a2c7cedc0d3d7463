"""DOCX standards → logical lines: Word's automatic numbering materialised as text, unsafe files refused.

A Word file shows clause numbers that are not in its text (they come from numbering.xml), so this
reader replays Word's list counters and writes each number in front of its paragraph, as the PDF or
text of the same standard would show it. Everything else (headings, sections, kinds) is decided by the
shared assembler in `parsers.assembler`. Before any part is parsed, the package is checked for what
could exhaust the machine (zip bombs, XML entity bombs) or is not a DOCX at all (legacy .doc, encrypted
files), so every bad input becomes a typed `ParseError` naming the file and the reason.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from parsers.docx.body import _BodyReader
from parsers.docx.ooxml import _w
from parsers.docx.package import _open_package
from parsers.errors import CorruptFileError, EmptyFileError
from parsers.lines import Line
from parsers.model import Document


def read_lines(path: Path, data: bytes) -> list[Line]:
    """The visible lines of a DOCX body, numbers materialised; raises a ParseError for bad input."""
    path = Path(path)
    package = _open_package(path, data)
    reader = _BodyReader(package)
    try:
        reader.blocks(package.document.find(_w("body")))  # type: ignore[arg-type]
    except RecursionError:
        raise CorruptFileError(path, "document nesting too deep to read") from None
    lines: list[Line] = []
    offset = 0
    for out in reader.out:
        line = Line(out.text, offset=offset, heading_level=out.heading_level, table_row=out.table_row)
        lines.append(replace(line, table=out.table) if out.table is not None else line)
        offset += len(out.text) + 1  # lines are joined with "\n" in the concatenated text
    if not lines:
        raise EmptyFileError(path, "no text: the document body is empty")
    return lines


def parse_docx(path: Path, data: bytes) -> Document:
    """A DOCX standard as a Document (sections assembled by the shared `parsers.assembler`)."""
    from parsers.assembler import assemble

    return assemble(read_lines(path, data), path=Path(path), fmt="docx", data=data)
