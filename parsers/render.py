"""Render a Document as plain text that `parsers.text` reads back to the same sections."""

from __future__ import annotations

from parsers.model import Document, Section


def render_text(document: Document) -> str:
    lines = [document.standard_id, document.title, ""] if document.standard_id else []
    for s in document.sections:
        lines.append(s.heading)
        lines.extend(_body(s))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _body(section: Section) -> list[str]:
    """The section's text lines, its tables written from their structure (every row between pipes, a
    full-width row too) where the text still holds them as read, other " | " rows from their text."""
    body = section.text.split("\n") if section.text else []
    tables = {t.line: t for t in section.tables if t.in_place(body)}
    out: list[str] = []
    i = 0
    while i < len(body):
        table = tables.get(i)
        if table is not None:
            out.extend(f"| {row} |" for row in table.row_texts())
            i += len(table.rows)
            continue
        row = body[i]
        out.append(f"| {row} |" if " | " in row else row)
        i += 1
    return out
