"""Markdown standards (typically converted from PDF): ATX headings, tables and emphasis unwrapped."""

from __future__ import annotations

from pathlib import Path

import regex

from parsers.assembler import assemble
from parsers.lines import Line
from parsers.model import Document
from parsers.text import decode, text_lines

_ATX = regex.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_EMPHASIS = regex.compile(r"(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1")
_TABLE_RULE = regex.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HTML_TAG = regex.compile(r"</?(?:br|p|div|span|sup|sub|b|i|strong|em)\b[^>]*>", regex.IGNORECASE)


def markdown_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    for line in text_lines(text):
        raw = _HTML_TAG.sub("", line.text)
        if _TABLE_RULE.match(raw):
            continue
        if line.table_row:
            lines.append(Line(_EMPHASIS.sub(r"\2", raw), offset=line.offset, table_row=True))
            continue
        level = None
        if m := _ATX.match(raw):
            level, raw = len(m.group(1)), m.group(2)
        raw = _EMPHASIS.sub(r"\2", raw).strip()
        if raw:
            lines.append(Line(raw, offset=line.offset, heading_level=level))
    return lines


def parse_markdown(path: Path, data: bytes) -> Document:
    return assemble(markdown_lines(decode(path, data)), path=path, fmt="markdown", data=data)
