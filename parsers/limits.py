"""How much one input file may ask of the machine, and the typed refusal when it asks for more.

Every reader runs in time linear in its input, but a linear reader still takes minutes on a 50 MB line
or a 100k-page file; these limits refuse such files up front, with a reason, instead of stalling a build.
The defaults are far above any real standard (a few hundred pages, lines of a few thousand characters).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from parsers.errors import CorruptFileError, ResourceLimitError, UnsupportedFormatError

ENV_PREFIX = "GBTBENCH_PARSE_"


@dataclass(frozen=True)
class ParseLimits:
    """Upper bounds for one file; `seconds` and `max_memory` are enforced by `parsers.deadline` (a worker
    process)."""

    max_bytes: int = 512 * 1024 * 1024
    max_pages: int = 5_000  # the longest real standards have a few hundred; 5k pages parse in about a minute
    max_line_chars: int = 200_000
    max_lines: int = 50_000  # in one text file or one PDF page; a long standard as text has a few thousand
    max_paragraph_chars: int = 1_000_000
    max_page_chars: int = 200_000  # a printed A4 page holds a few thousand
    max_page_objects: int = 20_000  # text objects on a PDF page (one per character, at worst)
    max_page_paths: int = 200_000  # path objects on a PDF page (rules, borders, vector figures)
    max_xml_bytes: int = 32 * 1024 * 1024  # one XML part of a DOCX, inflated; a long standard's is a few MB
    max_memory: int = 1024 * 1024 * 1024  # resident bytes of a parse worker; far more than a standard needs
    seconds: float = 120.0

    def __post_init__(self) -> None:
        for name in (
            "max_bytes",
            "max_pages",
            "max_line_chars",
            "max_lines",
            "max_paragraph_chars",
            "max_page_chars",
            "max_page_objects",
            "max_page_paths",
            "max_xml_bytes",
            "max_memory",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"parse limit {name} must be at least 1, got {getattr(self, name)}")
        if self.seconds <= 0:
            raise ValueError(f"parse limit seconds must be positive, got {self.seconds}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ParseLimits:
        """The defaults, each overridden by GBTBENCH_PARSE_<NAME> (MAX_PAGES, SECONDS …) when set."""
        env = os.environ if env is None else env
        values: dict[str, float | int] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw:
                kind = float if f.name == "seconds" else int
                try:
                    values[f.name] = kind(raw)
                except ValueError:
                    raise ValueError(f"{ENV_PREFIX}{f.name.upper()}={raw!r} is not a number") from None
        return cls(**values)  # type: ignore[arg-type]

    def check_size(self, path: Path | str, size: int) -> None:
        if size > self.max_bytes:
            raise ResourceLimitError(path, f"file too large ({size} bytes; the limit is {self.max_bytes})")

    def read(self, path: Path | str) -> bytes:
        """The bytes of a regular file, at most `max_bytes` of them; anything else is refused by name.

        The file is opened without blocking (a FIFO would wait for a writer forever) and checked on the
        open descriptor, so a symlink to /dev/zero or a FIFO named `.txt` is refused before one byte is
        read, and a file that grows after the check is still read only up to the limit.
        """
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise _open_error(path, exc) from None
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise UnsupportedFormatError(path, "is a directory")
            if not stat.S_ISREG(info.st_mode):
                raise UnsupportedFormatError(path, f"not a regular file ({_kind(info.st_mode)})")
            self.check_size(path, info.st_size)
            chunks: list[bytes] = []
            left = self.max_bytes + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 24))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            data = b"".join(chunks)
            self.check_size(path, len(data))
            return data
        except OSError as exc:
            raise _open_error(path, exc) from None
        finally:
            os.close(fd)

    def check_xml(self, path: Path | str, part: str, size: int) -> None:
        """Refuse a DOCX part whose XML alone would take a library's tree builder gigabytes and minutes,
        though the package is under every zip-bomb limit (its text does not compress)."""
        if size > self.max_xml_bytes:
            raise ResourceLimitError(
                path, f"{part} is {size} bytes of XML (the limit per part is {self.max_xml_bytes})"
            )

    def check_pages(self, path: Path | str, pages: int) -> None:
        if pages > self.max_pages:
            raise ResourceLimitError(path, f"too many pages ({pages}; the limit is {self.max_pages})")

    def check_page(self, path: Path | str, page: int, chars: int) -> None:
        if chars > self.max_page_chars:
            raise ResourceLimitError(
                path, f"page {page} holds {chars} characters (the limit per page is {self.max_page_chars})"
            )

    def check_page_objects(self, path: Path | str, page: int, count: int) -> None:
        if count > self.max_page_objects:
            raise ResourceLimitError(
                path,
                f"page {page} draws {count} text objects (the limit per page is {self.max_page_objects})",
            )

    def check_lines(self, path: Path | str, text: str) -> None:
        """Refuse a text of too many lines or whose longest line is over the limit (one linear scan, no
        copy of the text): every later stage is linear in the lines, and a text of a million one-word
        headings costs minutes there."""
        lines = text.count("\n") + (not text.endswith("\n"))
        if lines > self.max_lines:
            raise ResourceLimitError(path, f"too many lines ({lines}; the limit is {self.max_lines})")
        start = 0
        end = len(text)
        while start < end:
            stop = text.find("\n", start)
            if stop < 0:
                stop = end
            if stop - start > self.max_line_chars:
                line = text.count("\n", 0, start) + 1
                raise ResourceLimitError(
                    path,
                    f"line {line} is {stop - start} characters long (the limit is {self.max_line_chars})",
                )
            start = stop + 1

    def check_paragraph(self, path: Path | str, chars: int, page: int | None = None) -> None:
        if chars > self.max_paragraph_chars:
            where = f" on page {page}" if page is not None else ""
            raise ResourceLimitError(
                path,
                f"a paragraph{where} runs past {self.max_paragraph_chars} characters "
                "(the limit per paragraph)",
            )


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"


def _open_error(path: Path | str, exc: OSError) -> CorruptFileError | UnsupportedFormatError:
    if exc.errno == errno.ELOOP:
        return CorruptFileError(path, "symbolic link loop")
    if exc.errno == errno.ENOENT:
        return CorruptFileError(path, "file not found")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return CorruptFileError(path, "permission denied")
    if exc.errno == errno.EISDIR:
        return UnsupportedFormatError(path, "is a directory")
    return CorruptFileError(path, f"cannot be read ({exc.strerror or exc})")


DEFAULT_LIMITS = ParseLimits()

__all__ = ["DEFAULT_LIMITS", "ENV_PREFIX", "ParseLimits"]
