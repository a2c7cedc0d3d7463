"""Cited documents: the grammar of standard numbers (GB/T 1.1—2020, ISO/IEC 27001:2013, T/CSAE 53-2020 …)
and where a text cites them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import regex

# Codes of Chinese industry standards (and of metrological specifications cited like them); longer first.
# fmt: off
INDUSTRY_CODES = (
    "CJJ", "JGJ", "JJF", "JJG", "AQ", "BB", "CB", "CH", "CJ", "CY", "DA", "DL", "DZ", "EJ", "FZ", "GA",
    "GD", "GH", "GM", "GY", "HB", "HG", "HJ", "HS", "HY", "JB", "JC", "JG", "JR", "JT", "JY", "LB",
    "LD", "LS", "LY", "MH", "MT", "MZ", "NB", "NY", "QB", "QC", "QJ", "QX", "RB", "SB", "SC", "SF",
    "SH", "SJ", "SL", "SN", "SW", "SY", "TB", "TD", "TY", "WB", "WH", "WJ", "WM", "WS", "WW", "XB",
    "XF", "YB", "YC", "YD", "YJ", "YS", "YY", "YZ", "ZY",
)


# fmt: on
_CODE = (
    r"(?:GB(?:/[TZ])?|DB\d{2}(?:/T)?|T/[A-Z][A-Z0-9]{1,11}"
    r"|ISO(?:/IEC)?(?:/(?:TS|TR|PAS))?|IEC(?:/(?:TS|TR|PAS))?"
    rf"|(?:{'|'.join(INDUSTRY_CODES)})(?:/[TZ])?)"
)


_HYPHENS = "-－–‐‑"  # what drafts put where the em dash belongs


_YEAR = r"(?:19|20)\d{2}(?!\d)"


CITATION = regex.compile(
    rf"(?<![A-Za-z0-9/.])(?P<code>{_CODE})(?P<gap>[ \t\u3000]*)"
    rf"(?P<number>\d+(?:\.\d+)*(?:-(?!{_YEAR})\d+)*)"
    rf"(?:(?P<sep>\s*(?:—{{1,2}}|―|[{_HYPHENS}]|[:：])\s*)(?P<year>{_YEAR}))?"
    r"(?P<all>\s*[（(]\s*所有部分\s*[)）])?"
    r"(?![A-Za-z0-9])"
)


EM_DASHES = ("—", "——", "―")


_PART_SEPARATOR = regex.compile(r"[.\-]")


@dataclass(frozen=True)
class Cited:
    """A standard number as written somewhere: code, number, year, and where it sits in the text."""

    code: str  # "GB/T", "JT/T", "ISO/IEC", "T/CESA"
    number: str  # "2423.1", "8601-1"
    year: str | None
    sep: str  # the separator before the year as written ("—", "-", ":"), "" when undated
    all_parts: bool
    start: int
    end: int
    number_end: int  # where the number ends (the year, if any, follows)
    sep_start: int | None = None  # offset of the separator's first non-space character
    year_end: int | None = None

    @cached_property  # read thousands of times per lint (list order, same_document)
    def category(self) -> int:
        """0 national, 1 industry, 2 local, 3 group, 4 ISO/IEC, 5 other (GB/T 1.1—2020 8.4)."""
        if self.code.startswith("GB"):
            return 0
        if self.code.startswith("DB"):
            return 2
        if self.code.startswith("T/"):
            return 3
        if self.code.startswith(("ISO", "IEC")):
            return 4
        if self.code.split("/")[0] in INDUSTRY_CODES:
            return 1
        return 5

    @cached_property  # read thousands of times per lint (list order, same_document)
    def family(self) -> str:
        """The code without /T or /Z, so that GB 4208 and GB/T 4208 are the same document."""
        if self.category == 4:
            return "ISO"
        if self.category in (0, 1, 2):
            return self.code.split("/")[0]
        return self.code

    @cached_property  # read thousands of times per lint (list order, same_document)
    def parts(self) -> tuple[int, ...]:
        return tuple(int(p) for p in _PART_SEPARATOR.split(self.number))

    @property
    def chinese(self) -> bool:
        return self.category in (0, 1, 2, 3)

    @property
    def ident(self) -> str:
        """ "GB/T 2423.1" — the number without the year."""
        return f"{self.code} {self.number}"

    @property
    def citation(self) -> str:
        """The correct written form: em dash for Chinese standards, colon for ISO and IEC."""
        text = self.ident
        if self.year:
            text += (":" if self.category == 4 else "—") + self.year
        return text + ("（所有部分）" if self.all_parts else "")

    @property
    def wrong_separator(self) -> bool:
        return bool(self.year) and self.chinese and self.sep not in EM_DASHES

    def same_document(self, other: Cited) -> bool:
        """Same family and number, or one is a part of the other (GB/T 19582 and GB/T 19582.1)."""
        if self.family != other.family:
            return False
        a, b = self.parts, other.parts
        n = min(len(a), len(b))
        return a[:n] == b[:n]


def find_cited(text: str) -> list[Cited]:
    """Every standard number in a text, with exact offsets."""
    out = []
    for m in CITATION.finditer(text):
        code = m.group("code")
        if code in INDUSTRY_CODES and not m.group("gap") and not m.group("year"):
            continue  # "ZY100", "SB1-RS": a model name, not "HJ 212" or "CJ5024-1997"
        sep_start = None
        sep = ""
        if m.group("year"):
            raw = m.group("sep")
            sep = raw.strip()
            sep_start = m.start("sep") + (len(raw) - len(raw.lstrip()))
        out.append(
            Cited(
                code=code,
                number=m.group("number"),
                year=m.group("year"),
                sep=sep,
                all_parts=bool(m.group("all")),
                start=m.start(),
                end=m.end(),
                number_end=m.end("number"),
                sep_start=sep_start,
                year_end=m.end("year") if m.group("year") else None,
            )
        )
    return out


# A line break inside a citation (PDF extraction wraps "应符合 GB/T⏎39786—2021 的规定"): between the code
# and the number, or around the separator before the year.
_SEP = rf"(?:—{{1,2}}|―|[{_HYPHENS}]|[:：])"


_NUMBER_TAIL = r"\d+(?:\.\d+)*(?:-\d+)*"


_WRAPPED = regex.compile(
    # between code and number, when a year or the words of a citation follow ("GB/T⏎39786—2021 的规定")
    rf"(?<=(?<![A-Za-z0-9/.]){_CODE}[ \t\u3000]*)\n(?=[ \t\u3000]*{_NUMBER_TAIL}"
    rf"(?:[ \t\u3000]*{_SEP}[ \t\u3000]*{_YEAR}|[ \t\u3000]*(?:的|中|规定|界定)))"
    # before or after the separator of the year ("GB/T 39786⏎—2021", "GB/T 39786—⏎2021")
    rf"|(?<=(?<![A-Za-z0-9/.]){_CODE}[ \t\u3000]*{_NUMBER_TAIL}[ \t\u3000]*)"
    rf"\n(?=[ \t\u3000]*{_SEP}[ \t\u3000]*{_YEAR})"
    rf"|(?<=(?<![A-Za-z0-9/.]){_CODE}[ \t\u3000]*{_NUMBER_TAIL}[ \t\u3000]*{_SEP}[ \t\u3000]*)"
    rf"\n(?=[ \t\u3000]*{_YEAR})"
)


def unwrap_citations(text: str) -> str:
    """`text` with every line break inside a standard number turned into a space: same length, same
    offsets, so that a citation wrapped over two lines is found (and read in its sentence) as one."""
    return _WRAPPED.sub(" ", text)


def parse_number(text: str) -> Cited | None:
    """One standard number ("GB/T 1.1—2020", "GB 16735-2004"), or None."""
    found = find_cited(text.strip())
    return found[0] if found and found[0].start == 0 else None
