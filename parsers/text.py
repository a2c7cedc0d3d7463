"""Plain-text standards, including LLM extractions with "[5.1]" heading markers and "序言" for 前言."""

from __future__ import annotations

from pathlib import Path

import regex

from parsers.assembler import assemble
from parsers.encoding import decode_text
from parsers.garbled import check_garbled
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.lines import Line
from parsers.model import Document

# "[5.1] 标题" — but not "[1] GB/T 191…", a bibliography entry.
_BRACKET_NUMBER = regex.compile(r"^\s*\[\s*((?:[A-Z]|\d{1,3})(?:\.\d{1,3})*)\s*\]\s*(?=\p{Han})")
# "[附录 A] 附录 A（规范性附录）…": the marker repeats the heading that follows it
_BRACKET_ANNEX = regex.compile(r"^\s*\[\s*附\s*录\s*[A-Z]\s*\]\s*(?=附\s*录)")
_CONTINUATION = regex.compile(r"^\s*\[续\]\s*[…\.]*")


def decode(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> str:
    """The text in whichever of UTF-8, UTF-16 (BOM), GB18030 or Big5 it is; garbled or over-long refused."""
    text, _ = decode_text(path, data)
    limits.check_lines(path, text)
    check_garbled(path, (text,))
    return text


def text_lines(text: str) -> list[Line]:
    """One Line per source line, with LLM-extraction markers turned into ordinary numbers."""
    lines: list[Line] = []
    offset = 0
    in_bibliography = False
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        key = regex.sub(r"\s", "", line)
        if key == "参考文献":
            in_bibliography = True
        elif key in ("前言", "序言", "引言", "目次"):  # that 参考文献 was a line of a 目次
            in_bibliography = False
        elif not in_bibliography:  # "[1] 国家标准管理办法" after 参考文献 is an entry, not chapter 1
            line = _BRACKET_NUMBER.sub(lambda m: f"{m.group(1)} ", line)
            line = _BRACKET_ANNEX.sub("", line)
        line = _CONTINUATION.sub("", line)
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            lines.append(Line(" | ".join(cells), offset=offset, table_row=True))
        elif stripped:
            lines.append(Line(text=stripped, offset=offset))
        offset += len(raw)
    return lines


def parse_text(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    return assemble(text_lines(decode(path, data, limits)), path=path, fmt="text", data=data)
