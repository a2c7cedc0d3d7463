"""PDF reader: opening and rejecting (reader), page geometry (layout), table borders (tables), line patterns
(patterns) and the joining of visual lines into logical ones (joining)."""

from parsers.pdf.reader import NO_TEXT_LAYER, parse_pdf, read_lines

__all__ = ["NO_TEXT_LAYER", "parse_pdf", "read_lines"]
