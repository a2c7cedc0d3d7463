"""How much one input file may ask of the machine, and the typed refusal when it asks for more.

Every reader runs in time linear in its input, but a linear reader still takes minutes on a 50 MB line
or a 100k-page file; these limits refuse such files up front, with a reason, instead of stalling a build.
The defaults are far above any real standard (a few hundred pages, lines of a few thousand characters).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from parsers.errors import ResourceLimitError

ENV_PREFIX = "GBTBENCH_PARSE_"


@dataclass(frozen=True)
class ParseLimits:
    """Upper bounds for one file; `seconds` is enforced by `parsers.deadline` (a worker process)."""

    max_bytes: int = 512 * 1024 * 1024
    max_pages: int = 5_000  # the longest real standards have a few hundred; 5k pages parse in about a minute
    max_line_chars: int = 200_000
    max_paragraph_chars: int = 1_000_000
    max_page_chars: int = 200_000  # a printed A4 page holds a few thousand
    max_page_objects: int = 20_000  # text objects on a PDF page (one per character, at worst)
    seconds: float = 120.0

    def __post_init__(self) -> None:
        for name in (
            "max_bytes",
            "max_pages",
            "max_line_chars",
            "max_paragraph_chars",
            "max_page_chars",
            "max_page_objects",
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
        """Refuse a text whose longest line is over the limit (one linear scan, no copy of the text)."""
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


DEFAULT_LIMITS = ParseLimits()

__all__ = ["DEFAULT_LIMITS", "ENV_PREFIX", "ParseLimits"]
