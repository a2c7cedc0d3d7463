"""Parsers: PDF, DOCX, Markdown and text standards → `Document` (numbered sections).

`parse_file` (`parsers.files`) picks the reader from the file's content, not its name, and refuses a file
whose name promises another format, so a mislabelled file is reported instead of parsed into garbage;
`parse_many` parses a batch, each file under the parse deadline (`parsers.deadline`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from parsers.deadline import parse_with_deadline
from parsers.errors import ParseError
from parsers.files import SUFFIXES, detect_format, parse_bytes, parse_file
from parsers.limits import ParseLimits
from parsers.model import Document, Section


@dataclass(frozen=True)
class ParseOutcome:
    path: Path
    document: Document | None = None
    error: ParseError | None = None


def parse_many(paths: Iterable[Path | str]) -> Iterator[ParseOutcome]:
    """Parse files one by one, each under the parse deadline; a bad file yields its error and the batch
    goes on."""
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
    "SUFFIXES",
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
