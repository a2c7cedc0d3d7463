"""Entries of the 缩略语 list that the body relies on (TER-01's second form).

TER-01 must not change what a clause says. Taking an abbreviation's line out of 缩略语 leaves every body
use of it ("NB-IoT") word for word as the drafter wrote it, now undefined: the abbreviation stands where
it stood and means what it meant, and a reviewer reading the document finds it nowhere.

Never a symbol: a quantity symbol (r_min, U_a, v) is no abbreviation, and drafters introduce it where it
is used ("式中：rmin——最小转弯半径"), so a symbols list without it shows no error. An abbreviation here is
made of capitals (two or more, more capitals than small letters: "NB-IoT", "CRC"), stands in a list that
is one of abbreviations (not a 符号 list alone), and is spelled out nowhere in the body (neither as
"全称（ABC）" nor by its full name written anywhere). Never one the
general language writes without expansion ("IT", "USB", "VR"): nobody looks it up.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.terms import BODY_KINDS
from parsers.model import Document

# A 缩略语 line as `injectors.language.terms.abbreviations` reads it: "DTU：数据传输单元（…）".
_LINE = regex.compile(r"^(?P<abbr>[A-Za-z][A-Za-z0-9\-/&.]{0,15})\s*[：:]\s*(?P<full>.+)$")


@dataclass(frozen=True)
class AbbreviationEntry:
    """One 缩略语 line (with its line break) and where the body uses the abbreviation first."""

    start: int
    line: str
    abbreviation: str
    full: str
    used_in: str  # the number of the first body section that uses it


# Abbreviations the general language writes without expansion ("IT", "USB", "GPS", "VR"): a 缩略语 list
# without one of them shows no error a reviewer would point at.
_EVERYDAY = "IT IP PC USB GPS CPU LED LCD SIM ID APP TV AR VR QR PDF URL SMS DNA CD DVD ATM 4G 5G"
EVERYDAY_ABBREVIATIONS = frozenset(_EVERYDAY.split())


def is_abbreviation(token: str) -> bool:
    """Capitals, two or more, outnumbering small letters: "CRC", "NB-IoT", not "rmin", "Ua", "dB"."""
    upper = sum(c.isupper() for c in token)
    return upper >= 2 and upper > sum(c.islower() for c in token)


def introduced(abbreviation: str, text: str) -> bool:
    """Spelled out or explained in the body: "消息鉴别码（MAC）", "式中：rmin——…", "MAC：消息鉴别码"."""
    if f"（{abbreviation}）" in text or f"({abbreviation})" in text:
        return True
    return regex.search(_token(abbreviation).pattern + r"\s*(?:——|—|--|[：:=＝]|为)", text) is not None


def full_name_written(full: str, text: str) -> bool:
    """The list's full name written out in `text` ("下层PKI公钥密码基础设施的实现"): whoever reads it has the
    expansion, so a description saying the document never gives it would be wrong."""
    name = regex.sub(r"\s+", "", regex.split(r"[（(]", full, maxsplit=1)[0])
    return len(regex.findall(r"\p{Han}", name)) >= 2 and name in regex.sub(r"\s+", "", text)


def used(abbreviation: str, text: str) -> bool:
    """The abbreviation as a whole token (not "CRC" inside "CRC32" nor "MAC" inside "MACs")."""
    return _token(abbreviation).search(text) is not None


@lru_cache(maxsize=1024)
def _token(abbreviation: str) -> regex.Pattern[str]:
    return regex.compile(r"(?<![A-Za-z0-9\-])" + regex.escape(abbreviation) + r"(?![A-Za-z0-9\-])")


def abbreviation_entries(document: Document) -> Iterator[tuple[int, AbbreviationEntry]]:
    """(position of the 缩略语 section, entry) for each listed abbreviation the body uses and that no
    other line of the document spells out (a body line "消息鉴别码（MAC）" would still define it)."""
    body = [(s.number, s.text) for s in document.sections if s.kind in BODY_KINDS]
    for position, section in enumerate(document.sections):
        if section.kind != "symbols" or ("符号" in section.title and "缩略" not in section.title):
            continue  # a symbols list holds quantity symbols, introduced where they are used
        at = 0
        for raw in section.text.split("\n"):
            start, at = at, at + len(raw) + 1
            found = _LINE.match(raw.strip())
            if found is None:
                continue
            abbreviation, full = found.group("abbr"), found.group("full")
            if not is_abbreviation(abbreviation) or abbreviation.upper() in EVERYDAY_ABBREVIATIONS:
                continue
            users = [number for number, text in body if used(abbreviation, text)]
            spelled = any(introduced(abbreviation, text) or full_name_written(full, text) for _, text in body)
            if users and not spelled:
                if at <= len(section.text):  # the line with its break
                    entry = AbbreviationEntry(start, raw + "\n", abbreviation, full, users[0])
                elif start == 0:  # the only line: the list would be left empty
                    continue
                else:  # the last line: the break before it goes with it
                    entry = AbbreviationEntry(start - 1, "\n" + raw, abbreviation, full, users[0])
                yield position, entry
