"""The garbled-text check every reader shares: is this readable Chinese standard text, or mojibake?

A text layer or a file decoded with the wrong table still "parses": it has lines, sometimes even numbers.
What gives it away is the share of characters a Chinese standard is never made of.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import regex

from parsers.errors import GarbledTextError

GARBLED_SHARE = 0.15  # share of implausible characters above which a text is garbage

# Characters a Chinese standard is made of; anything else (private use, U+FFFD, controls, unassigned,
# stray scripts, the Latin-1 letters a font without a ToUnicode map decodes to) counts as garbage.
PLAUSIBLE = (
    r"\s\x21-\x7e\u00a0-\u00bf\u00d7\u00f7\u02b0-\u02ff\u0370-\u03ff\u0401-\u045f\u2000-\u2bff"
    r"\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3200-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    r"\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff"
)
IMPLAUSIBLE = regex.compile(f"[^{PLAUSIBLE}]")
_SPACE = regex.compile(r"\s+")


def implausible_count(text: str) -> int:
    return len(IMPLAUSIBLE.findall(text))


def check_garbled(path: Path | str, texts: Iterable[str], *, what: str = "text") -> None:
    """Raise GarbledTextError when more than 15% of the visible characters are implausible."""
    visible = bad = 0
    for text in texts:
        visible += len(text) - sum(map(len, _SPACE.findall(text)))
        bad += implausible_count(text)
    if visible and bad > GARBLED_SHARE * visible:
        raise GarbledTextError(
            path,
            f"garbled {what}: {bad} of {visible} characters are private-use, replacement, control or "
            "implausible characters (a wrong encoding?)",
        )


__all__ = ["GARBLED_SHARE", "IMPLAUSIBLE", "check_garbled", "implausible_count"]
