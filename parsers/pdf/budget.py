"""Counting what a PDF's content streams draw, before pdfium loads a page.

pdfium builds every object of a page when it loads it: a 77 KB file whose one page shows seven million
strings or fills millions of rectangles costs seconds and gigabytes before any count can be asked of it.
So the raw file is scanned first: each content stream is inflated in bounded pieces and its text-showing
and path-painting operators counted; a stream that draws more than a page may is refused. A stream is
drawn by at least one page, so its count is a lower bound of that page's. Images, fonts and other
streams that hold no drawing operators are not inflated.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from parsers.errors import ResourceLimitError
from parsers.limits import ParseLimits

_STREAM = re.compile(rb"(?<!end)stream\r?\n")
# text shown by Tj / TJ, or by ' and " after their string operand
_TEXT = re.compile(rb"\bT[jJ]\b|[)>]\s*['\"]")
# a path painted by S s f F f* B B* b b* (a lone operator, not part of a name, number or word)
_PATH = re.compile(rb"(?<![\w*/(])[SsfFBb]\*?(?![\w*])")
_NOT_CONTENT = (b"/Subtype", b"/Length1", b"/ObjStm", b"/XRef", b"/Metadata")
_FILTERS = re.compile(rb"/Filter\s*\[?\s*/(\w+)\s*(/\w+)?")
MAX_STREAM_BYTES = 256 * 1024 * 1024  # inflated; a real page's content is well under a megabyte
_PIECE = 1 << 20


def check_content_streams(path: Path | str, data: bytes, limits: ParseLimits) -> None:
    """Refuse a PDF one of whose content streams draws more text or path objects than a page may."""
    for match in _STREAM.finditer(data):
        start = match.end()
        head = data[max(data.rfind(b"obj", 0, match.start()), match.start() - 2048, 0) : match.start()]
        if any(marker in head for marker in _NOT_CONTENT):
            continue
        filters = _FILTERS.search(head)
        pieces: Iterable[bytes]
        if filters is None:
            end = data.find(b"endstream", start)
            pieces = [data[start : end if end >= 0 else len(data)]]
        elif filters.group(1) in (b"FlateDecode", b"Fl") and filters.group(2) is None:
            pieces = _inflate(path, data, start)
        else:
            continue  # another filter: left to pdfium's own checks after loading
        _count(path, pieces, limits)


def _inflate(path: Path | str, data: bytes, start: int) -> Iterator[bytes]:
    """The inflated stream in pieces of at most a megabyte (never held whole)."""
    inflater = zlib.decompressobj()
    pending = data[start : start + _PIECE]
    offset = start + len(pending)
    total = 0
    while True:
        try:
            piece = inflater.decompress(pending, _PIECE)
        except zlib.error:
            return  # damaged: pdfium reports it
        total += len(piece)
        if total > MAX_STREAM_BYTES:
            raise ResourceLimitError(
                path, f"a content stream inflates past {MAX_STREAM_BYTES // (1 << 20)} MB (the limit)"
            )
        if piece:
            yield piece
        if inflater.eof:
            return
        pending = inflater.unconsumed_tail
        if not pending:
            if offset >= len(data):
                return
            pending = data[offset : offset + _PIECE]
            offset += len(pending)


def _count(path: Path | str, pieces: Iterable[bytes], limits: ParseLimits) -> None:
    """Count the operators piece by piece, stopping at the first limit passed; an operator cut between
    two pieces is counted once (each piece is counted up to its last whitespace, the rest carried over)."""
    text = paths = 0
    carry = b""
    for piece in _then_blank(pieces):
        buffer = carry + piece
        cut = max(buffer.rfind(b" "), buffer.rfind(b"\n"), buffer.rfind(b"\r"))
        cut = len(buffer) if cut < 0 else cut
        text += len(_TEXT.findall(buffer, 0, cut))
        paths += len(_PATH.findall(buffer, 0, cut))
        carry = buffer[cut:]
        if text > limits.max_page_objects:
            raise ResourceLimitError(
                path,
                f"a page draws over {limits.max_page_objects} text objects (the limit per page)",
            )
        if paths > limits.max_page_paths:
            raise ResourceLimitError(
                path,
                f"a page draws over {limits.max_page_paths} path objects (the limit per page)",
            )


def _then_blank(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """The pieces and a final blank, which makes the carried-over tail count."""
    yield from pieces
    yield b" "
