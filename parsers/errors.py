"""Typed parse errors: each names the file and a reason a user can act on."""

from __future__ import annotations

from pathlib import Path


class ParseError(Exception):
    """A file that cannot become a Document. `str()` is `<path>: <reason>`."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")

    def __reduce__(self) -> tuple[type[ParseError], tuple[str, str]]:
        """Picklable with its path and reason, so a worker process can hand it back."""
        return (type(self), (self.path, self.reason))


class EmptyFileError(ParseError):
    """Zero bytes, or no text at all."""


class UnsupportedFormatError(ParseError):
    """Not a PDF, DOCX, Markdown or text file, whatever its extension says."""


class CorruptFileError(ParseError):
    """Truncated or damaged: the container cannot be read."""


class EncryptedDocumentError(ParseError):
    """Password-protected; we never guess passwords."""


class NoTextLayerError(ParseError):
    """Image-only PDF (scanned): OCR is not supported."""


class GarbledTextError(ParseError):
    """A text layer that does not decode to readable text (e.g. fonts without a ToUnicode map)."""


class UnsafeDocumentError(ParseError):
    """A zip bomb, an XML entity bomb or anything else that would exhaust the machine."""


class NotAStandardError(ParseError):
    """Readable text, but no recognisable standard structure (no 范围 and no numbered chapters)."""


class ResourceLimitError(ParseError):
    """Bigger or slower than the configured parse limits (size, pages, line length, wall time)."""


class BrokenStructureError(ParseError):
    """Parsed, but into a structure that only a broken parse (or other drafting rules) explains: no error
    is injected into it (`parsers.structure_quality`)."""
