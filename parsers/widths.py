"""Full-width digits and Latin letters as the half-width forms every analysis reads.

Some standards are typeset with full-width digits and letters throughout ("１ 范围", "ＧＢ／Ｔ ６９２０").
The heading grammar, the cover reader and every injector match half-width numbers, so such a document is
normalised once, line by line, before it is assembled: it then parses into the same sections as its
half-width twin. Chinese punctuation (，。：（）) is full-width by rule and stays as it is.

A few PDF fonts map their decimal point to a private-use code point ("３\ue010１"). Where one private-use
character stands between two digits nearly every time it occurs, it can only be that point, and it is read
as one; a private-use character used anywhere else is left alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import regex

from parsers.lines import Line

_ALNUM = str.maketrans(
    {
        **{chr(0xFF10 + i): chr(0x30 + i) for i in range(10)},
        **{chr(0xFF21 + i): chr(0x41 + i) for i in range(26)},
        **{chr(0xFF41 + i): chr(0x61 + i) for i in range(26)},
    }
)
_WIDE = "[０-９Ａ-Ｚａ-ｚ]"
# the point and the slash only between full-width digits and letters ("３．１", "ＧＢ／Ｔ"): a full-width
# slash in half-width text ("F／A") is how that document writes it
_FULL_POINT = regex.compile(r"(?<=[０-９])．(?=[０-９])")
_FULL_SLASH = regex.compile(rf"(?<={_WIDE})／(?={_WIDE})")
_PRIVATE = regex.compile(r"[\ue000-\uf8ff]")

# a private-use character is read as the decimal point when it occurs this often, between digits this share
# of the time: a glyph used a handful of times is no evidence
MIN_PRIVATE_POINTS = 5
PRIVATE_POINT_SHARE = 0.9


def to_halfwidth(text: str) -> str:
    """Full-width digits and Latin letters, and a point or slash between two of them, as half-width."""
    if not any("\uff0e" <= c <= "\uff5a" for c in text):
        return text
    text = _FULL_SLASH.sub("/", _FULL_POINT.sub(".", text))
    return text.translate(_ALNUM)


def _private_point(texts: Sequence[str]) -> str | None:
    """The private-use character that stands for the decimal point, if the text shows one."""
    seen: Counter[str] = Counter()
    between: Counter[str] = Counter()
    for text in texts:
        for m in _PRIVATE.finditer(text):
            seen[m.group()] += 1
            before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
            if before.isascii() and before.isdigit() and after.isascii() and after.isdigit():
                between[m.group()] += 1
    for char, count in between.most_common(1):
        if count >= MIN_PRIVATE_POINTS and count >= PRIVATE_POINT_SHARE * seen[char]:
            return char
    return None


def normalize_texts(texts: Sequence[str]) -> list[str]:
    """The texts of one document as the grammar reads them (see the module's docstring). Every change keeps
    the length, so offsets and character boxes into the original text stay valid."""
    out = [to_halfwidth(text) for text in texts]
    point = _private_point(out)
    if point is not None:
        between = regex.compile(rf"(?<=\d){regex.escape(point)}(?=\d)")
        out = [between.sub(".", t) if point in t else t for t in out]
    return out


def normalize_lines(lines: Sequence[Line]) -> list[Line]:
    """`normalize_texts` over a document's lines; unchanged lines stay as they are."""
    texts = normalize_texts([line.text for line in lines])
    return [
        line if text == line.text else replace(line, text=text)
        for line, text in zip(lines, texts, strict=True)
    ]
