"""The clause-numbering grammar shared by every format: what a heading line of a standard looks like.

`parse_heading` is purely syntactic (one line, no context); `parsers.assembler` decides with the
surrounding numbering whether a candidate really is a heading.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

_FULLWIDTH = str.maketrans(
    "０１２３４５６７８９．ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ（）",
    "0123456789.ABCDEFGHIJKLMNOPQRSTUVWXYZ()",
)

# Element headings that carry no number, with the kind they introduce.
UNNUMBERED = {
    "前言": "foreword",
    "序言": "foreword",
    "引言": "introduction",
    "参考文献": "bibliography",
    "参考资料": "bibliography",  # non-standard (STR-03), but it must still parse as the element
    "索引": "index",
}
TOC_TITLE = "目次"

_CJK = r"\p{Han}"
# "3. 1 .2", "3 .1", "３．１" — a dotted number whose dots picked up spaces in the PDF.
_DOTTED = regex.compile(
    r"^([1-9]\d{0,2}(?:\s*\.\s*\d{1,3}){0,5})(?!\s*\.\s*\d)(?=\s|$|\p{Han}|[A-Za-z(（\[【])"
)
# "3 1 1 标题": the dots were lost entirely; only accepted when a CJK title follows.
_SPACED = regex.compile(r"^([1-9]\d?(?: \d{1,2}){1,4})[ \u3000]+(?=\p{Han})")
_ANNEX_CLAUSE = regex.compile(r"^([A-Z](?:\s*\.\s*\d{1,3}){1,5})(?=\s|$|\p{Han})")
_ANNEX = regex.compile(
    r"^附\s*录\s*([A-Z])(?![A-Za-z0-9.])\s*"
    r"(?:[（(]\s*((?:规\s*范\s*性|资\s*料\s*性)(?:\s*附\s*录)?)\s*[)）])?\s*(.*)$"
)
_MARKER_ONLY = regex.compile(r"^[（(]\s*((?:规\s*范\s*性|资\s*料\s*性)(?:\s*附\s*录)?)\s*[)）]$")
_TEXTY = regex.compile(r"[。；！？]|[，,].{12,}")
_SPACES = regex.compile(r"[\s\u3000]+")
_SPACE_BETWEEN_CJK = regex.compile(rf"(?<={_CJK}) (?={_CJK})")

MAX_TITLE = 40


@dataclass(frozen=True)
class Heading:
    """A syntactic heading candidate. `rest` is body text that followed an untitled clause number."""

    number: str
    title: str
    level: int
    annex_marker: str = ""
    rest: str = ""
    spaced_number: bool = False  # "3 1 1": weaker evidence, needs the sequence to agree

    @property
    def is_annex(self) -> bool:
        return self.number.startswith("附录")


def normalize_title(text: str) -> str:
    """One space between words, none between CJK characters ("前 言" → "前言")."""
    text = _SPACES.sub(" ", text).strip()
    return _SPACE_BETWEEN_CJK.sub("", text)


def compact(text: str) -> str:
    return _SPACES.sub("", text)


def to_halfwidth(text: str) -> str:
    return text.translate(_FULLWIDTH)


def looks_like_title(text: str) -> bool:
    """Titles are short and never end a sentence."""
    return 0 < len(text) <= MAX_TITLE and not _TEXTY.search(text) and text[-1] not in "。；：:，,、"


def parse_marker(text: str) -> str | None:
    """ "（规范性）" alone on a line (the middle line of a three-line annex heading)."""
    m = _MARKER_ONLY.match(to_halfwidth(text.strip()))
    return compact(m.group(1)) if m else None


def number_level(number: str) -> int:
    if number.startswith("附录") or number in UNNUMBERED:
        return 1
    return number.count(".") + 1


def parse_heading(text: str) -> Heading | None:
    """Read a line as a heading candidate, repairing what PDF layout does to numbers."""
    line = text.strip()
    if not line:
        return None
    key = compact(line)
    if key in UNNUMBERED:
        return Heading(number=key, title=key, level=1)
    head = to_halfwidth(line[:24]) + line[24:]
    if m := _ANNEX.match(head):
        marker = compact(m.group(2) or "")
        return Heading(
            number=f"附录{m.group(1)}",
            title=normalize_title(line[m.start(3) : m.end(3)]),  # the title as written, not half-width
            level=1,
            annex_marker=marker,
        )
    m = _SPACED.match(head)
    spaced = m is not None
    m = m or _DOTTED.match(head) or _ANNEX_CLAUSE.match(head)
    if m is None:
        return None
    raw = m.group(1)
    number = raw.replace(" ", ".") if spaced else compact(raw)
    if any(len(part) > 1 and part.startswith("0") for part in number.split(".")):
        return None
    after = line[m.end() :].strip()  # `head` has the same length; only the number is made half-width
    after = regex.sub(r"^[\]】]\s*", "", after)
    if not after:
        return Heading(number=number, title="", level=number_level(number), spaced_number=spaced)
    if looks_like_title(after):
        return Heading(
            number=number, title=normalize_title(after), level=number_level(number), spaced_number=spaced
        )
    return Heading(number=number, title="", level=number_level(number), rest=after, spaced_number=spaced)


def annex_letter(number: str) -> str | None:
    """The annex a number belongs to: "附录B" and "B.2.1" → "B"; chapters → None."""
    if number.startswith("附录"):
        return number[-1]
    if number[:1].isalpha() and number[:1].isascii():
        return number[0]
    return None
