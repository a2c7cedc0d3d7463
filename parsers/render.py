"""Render a Document as plain text that `parsers.text` reads back to the same sections."""

from __future__ import annotations

from parsers.model import Document


def render_text(document: Document) -> str:
    lines = [document.standard_id, document.title, ""] if document.standard_id else []
    for s in document.sections:
        lines.append(s.heading)
        for row in s.text.split("\n") if s.text else []:
            lines.append(f"| {row} |" if " | " in row else row)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
