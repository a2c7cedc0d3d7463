"""Text encodings detected, not assumed: UTF-8, UTF-16 with a BOM, GB18030 (GBK, GB2312) or Big5.

GB18030 decodes almost any byte string, so trying it after UTF-8 turns a Big5 file into plausible-looking
mojibake ("厚 м砃砏祘…"). Both Chinese tables are tried and the one whose characters are the common ones
of its own script wins: real text is mostly made of the first level of GB2312 or of Big5; mojibake is made
of rare characters, kana and Cyrillic.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from parsers.errors import CorruptFileError, EmptyFileError, GarbledTextError

BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
MIN_COMMON_SHARE = 0.5  # of the CJK characters, the share that must be common for a Chinese table to fit
_SAMPLE_CHARS = 20_000  # characters scored per candidate table (the start of a file is representative)


def has_utf16_bom(data: bytes) -> bool:
    return data[:2] in (b"\xff\xfe", b"\xfe\xff") and data[:4] != b"\xff\xfe\x00\x00"


def _common_gb(ch: str) -> bool:
    """A level-1 GB2312 hanzi (the 3,755 most frequent simplified characters)."""
    try:
        lead = ch.encode("gb2312")[0]
    except UnicodeEncodeError:
        return False
    return 0xB0 <= lead <= 0xD7


def _common_big5(ch: str) -> bool:
    """A frequent Big5 hanzi (5,401 characters, lead bytes A4–C6)."""
    try:
        lead = ch.encode("big5")[0]
    except UnicodeEncodeError:
        return False
    return 0xA4 <= lead <= 0xC6


def _share(text: str, common: Callable[[str], bool]) -> tuple[float, int]:
    """The share of CJK ideographs in the sample that are common in a table, and how many there are."""
    cjk = [ch for ch in text[:_SAMPLE_CHARS] if "\u4e00" <= ch <= "\u9fff"]
    if not cjk:
        return 1.0, 0
    hits = sum(1 for ch in cjk if common(ch))
    return hits / len(cjk), len(cjk)


def _strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _utf8(data: bytes) -> str | None:
    """UTF-8, also when a copy cut the last character in half (the cut bytes are dropped)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            return data[: exc.start].decode("utf-8", errors="strict")
        return None


def decode_text(path: Path | str, data: bytes) -> tuple[str, str]:
    """(text, encoding name); refuses bytes that fit no table, or fit one only as mojibake."""
    if not data.strip():
        raise EmptyFileError(path, "empty file")
    for bom, encoding in BOMS:
        if data.startswith(bom):
            text = _strict(data, encoding)
            if text is None:
                raise CorruptFileError(
                    path, f"not text: a {encoding.upper()} byte order mark, then invalid bytes"
                )
            return _no_nul(path, text), encoding
    text = _utf8(data)
    if text is not None:
        return _no_nul(path, text), "utf-8"
    candidates: list[tuple[float, int, str, str]] = []
    for rank, (encoding, common) in enumerate((("gb18030", _common_gb), ("big5", _common_big5))):
        text = _strict(data, encoding)
        if text is not None:
            share, _count = _share(text, common)
            candidates.append((share, -rank, encoding, text))
    if not candidates:
        raise CorruptFileError(path, "not text: the bytes decode as none of UTF-8, UTF-16, GB18030 or Big5")
    share, _, encoding, text = max(candidates)
    if share < MIN_COMMON_SHARE:
        raise GarbledTextError(
            path,
            f"garbled text: decoded as {encoding.upper()} only {share:.0%} of the Chinese characters "
            "are common ones (an unsupported encoding? save the file as UTF-8)",
        )
    return _no_nul(path, text), encoding


def _no_nul(path: Path | str, text: str) -> str:
    if "\x00" in text:
        raise CorruptFileError(path, "not text: NUL characters (binary data or UTF-16 without a BOM)")
    return text


__all__ = ["decode_text", "has_utf16_bom"]
