"""Parsers: PDF, DOCX, Markdown and text standards → `Document` (numbered sections).

`parse_file` picks the reader from the file's content, not its name, and refuses a file whose name
promises another format, so a mislabelled file is reported instead of parsed into garbage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from parsers.encoding import has_utf16_bom
from parsers.errors import CorruptFileError, EmptyFileError, ParseError, UnsupportedFormatError
from parsers.garbled import check_garbled
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.model import Document, Section

SUFFIXES = {".pdf": "pdf", ".docx": "docx", ".md": "markdown", ".markdown": "markdown", ".txt": "text"}


def sniff(data: bytes) -> str:
    """The format the bytes really are: pdf, zip, ole, binary or text."""
    head = data[:1024]
    if head.lstrip(b"\x00\t\r\n ").startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "ole"
    if has_utf16_bom(head) and _utf16_head(head):
        return "text"
    if b"\x00" in head:
        return "binary"
    return "text"


def _utf16_head(head: bytes) -> bool:
    """Whether the first bytes after a UTF-16 byte order mark are UTF-16 text (not binary noise)."""
    try:
        head[: len(head) // 2 * 2].decode("utf-16")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 4  # only a character cut at the end of the sample
    return True


def detect_format(path: Path, data: bytes) -> str:
    suffix = path.suffix.lower()
    declared = SUFFIXES.get(suffix)
    if not data:
        raise EmptyFileError(path, "empty file (0 bytes)")
    actual = sniff(data)
    if declared is None:
        if suffix == ".doc" or actual == "ole":
            raise UnsupportedFormatError(path, "legacy Word .doc is not supported: save it as .docx")
        raise UnsupportedFormatError(
            path, f"unsupported file type {suffix or '(no extension)'}: expected .pdf, .docx, .md or .txt"
        )
    if declared == "pdf" and actual != "pdf":
        if actual == "text" and b"%PDF" not in data[:4096]:
            raise UnsupportedFormatError(path, f"extension .pdf but the content is {_describe(actual)}")
        if actual != "text":
            raise UnsupportedFormatError(path, f"extension .pdf but the content is {_describe(actual)}")
    if declared == "docx" and actual not in ("zip", "ole"):
        if actual == "text" or actual == "binary":
            raise UnsupportedFormatError(path, f"extension .docx but the content is {_describe(actual)}")
        raise UnsupportedFormatError(path, f"extension .docx but the content is {_describe(actual)}")
    if declared in ("markdown", "text") and actual != "text":
        raise UnsupportedFormatError(path, f"extension {suffix} but the content is {_describe(actual)}")
    return declared


def _describe(actual: str) -> str:
    return {
        "pdf": "a PDF: rename it to .pdf",
        "zip": "a zip archive (DOCX?): rename it to .docx",
        "ole": "an OLE compound file (legacy .doc or an encrypted Office file)",
        "binary": "binary data",
        "text": "plain text",
    }[actual]


def _reader(fmt: str) -> Callable[[Path, bytes, ParseLimits], Document]:
    if fmt == "pdf":
        from parsers.pdf import parse_pdf

        return parse_pdf
    if fmt == "docx":
        from parsers.docx import parse_docx

        def docx(path: Path, data: bytes, limits: ParseLimits) -> Document:
            _check_parts(path, data, limits)
            doc = parse_docx(path, data)
            check_garbled(path, [doc.title, *(s.text for s in doc.sections)])
            return doc

        return docx
    if fmt == "markdown":
        from parsers.markdown import parse_markdown

        return parse_markdown
    from parsers.text import parse_text

    return parse_text


def _check_parts(path: Path, data: bytes, limits: ParseLimits) -> None:
    """The declared size of every XML part, before any is inflated (a damaged zip is the reader's to
    report)."""
    import io
    import zipfile

    try:
        infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        return
    for info in infos:
        if info.filename.lower().endswith(".xml"):
            limits.check_xml(path, info.filename, info.file_size)


def parse_bytes(path: Path, data: bytes, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    return _reader(detect_format(path, data))(path, data, limits)


def parse_file(path: Path | str, limits: ParseLimits = DEFAULT_LIMITS) -> Document:
    """Parse one file; every failure is a ParseError naming the file and the reason."""
    path = Path(path)
    data = limits.read(path)
    try:
        return parse_bytes(path, data, limits)
    except ParseError:
        raise
    except RecursionError:
        raise CorruptFileError(path, "document nesting too deep to read") from None
    except Exception as exc:  # a reader's library failed in a way we did not foresee
        raise CorruptFileError(path, f"unreadable ({type(exc).__name__}: {exc})") from exc


@dataclass(frozen=True)
class ParseOutcome:
    path: Path
    document: Document | None = None
    error: ParseError | None = None


def parse_many(paths: Iterable[Path | str]) -> Iterator[ParseOutcome]:
    """Parse files one by one, each under the parse deadline; a bad file yields its error and the batch
    goes on."""
    from parsers.deadline import parse_with_deadline

    for p in paths:
        path = Path(p)
        try:
            yield ParseOutcome(path, document=parse_with_deadline(path))
        except ParseError as exc:
            yield ParseOutcome(path, error=exc)


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files given directly, plus supported files found (sorted) under given folders."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES))
        else:
            out.append(path)
    return out


__all__ = [
    "Document",
    "ParseError",
    "ParseLimits",
    "ParseOutcome",
    "Section",
    "detect_format",
    "expand_paths",
    "parse_bytes",
    "parse_file",
    "parse_many",
]
