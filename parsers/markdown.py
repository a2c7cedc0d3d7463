"""Markdown standards (typically converted from PDF): ATX headings, tables and emphasis unwrapped."""

from __future__ import annotations

from pathlib import Path

import regex

from parsers.assembler import assemble
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.lines import Line
from parsers.model import Document
from parsers.text import decode, text_lines

_ATX = regex.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# Emphasis content never contains its own delimiter, so each try scans at most to the next delimiter and a
# line full of "*" is read in linear time (the former `(.+?)\1` backtracked cubically on "| *a " * 8000).
_EMPHASIS = regex.compile(
    r"\*\*([^*\s](?:[^*]*[^*\s])?)\*\*|__([^_\s](?:[^_]*[^_\s])?)__"
    r"|\*([^*\s](?:[^*]*[^*\s])?)\*|_([^_\s](?:[^_]*[^_\s])?)_"
)
_TABLE_RULE = regex.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
# `[^<>]*`: a try stops at the next "<", so "<br<br<br…" without a ">" is not rescanned to the line's end
_HTML_TAG = regex.compile(r"</?(?:br|p|div|span|sup|sub|b|i|strong|em)\b[^<>]*>", regex.IGNORECASE)


def _unwrap(text: str) -> str:
    return _EMPHASIS.sub(lambda m: m.group(m.lastindex or 0), text)


def markdown_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    for line in text_lines(text):
        raw = _HTML_TAG.sub("", line.text)
        if _TABLE_RULE.match(raw):
            continue
        if line.table_row:
            lines.append(Line(_unwrap(raw), offset=line.offset, table_row=True))
            continue
        level = None
        if m := _ATX.match(raw):
            level, raw = len(m.group(1)), m.group(2)
        raw = _unwrap(raw).strip()
        if raw:
            lines.append(Line(raw, offset=line.offset, heading_level=level))
    return lines


def parse_markdown(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    return assemble(markdown_lines(decode(path, data, limits)), path=path, fmt="markdown", data=data)
