"""Render a Document as plain text that `parsers.text` reads back to the same sections."""

from __future__ import annotations

from parsers.model import Document, Section, Table


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
    tables = {t.line: t for t in section.tables if in_place(t, body)}
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


def in_place(table: Table, body: list[str]) -> bool:
    """Whether the text lines from `table.line` on are still the table's rows (an edit may have changed
    them: the text then wins, and the structure is not used to render it)."""
    rows = table.row_texts()
    if table.line + len(rows) > len(body):
        return False
    return all(body[table.line + k].strip() == row.strip() for k, row in enumerate(rows))
