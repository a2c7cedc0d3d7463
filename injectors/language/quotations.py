"""Text a drafter does not own: quotations, titles of cited documents, headings written into the text.

An edit there is not a drafting error of this document: "提示“信息以广播为准”" quotes a display text, and
"GB/T 2423.3—2016　环境试验　第2部分" names another document; a term or modal changed inside them is either
invisible or wrong in another way. Injectors that rewrite words ask `protected` before they edit.
"""

from __future__ import annotations

import regex

# paired quotation marks and title marks (a pair on one line; nested pairs are inside the outer one)
_PAIRS = regex.compile(
    r"“[^”\n]*”|‘[^’\n]*’|「[^」\n]*」|『[^』\n]*』|《[^》\n]*》|〈[^〉\n]*〉|\"[^\"\n]*\""
)
# a cited document's designation and the title after it, up to the end of the line or a clause break
_CITED = regex.compile(
    r"(?:GB(?:/[TZ])?|[A-Z]{2}/[TZ]|ISO(?:/IEC)?|IEC|ITU-T\s*[A-Z]\.?)\s*\d+(?:[.\-]\d+)*"
    r"(?:\s*[—–-]\s*\d{4})?(?:[\s　]+[^\n，。；;]+)?"
)
# a heading standing in the text: a bracketed echo "【8.2 数据保护】" or a numbered line "5.2.1 外观"
_HEADING = regex.compile(
    r"^[ \t　]*(?:【[^】\n]*】|(?:[1-9]\d?(?:\.\d+)+|[A-Z](?:\.\d+)+)[ \t　]+[^\n，。；]{1,30})[ \t　]*$",
    regex.MULTILINE,
)


def protected_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every quotation, cited title and heading line in a text, in order."""
    spans = [m.span() for pattern in (_PAIRS, _CITED, _HEADING) for m in pattern.finditer(text)]
    return sorted(spans)


def protected(text: str, start: int, end: int, spans: list[tuple[int, int]] | None = None) -> bool:
    """Whether text[start:end] touches a quotation, a cited title or a heading (see `protected_spans`)."""
    found = protected_spans(text) if spans is None else spans
    return any(a < end and start < b for a, b in found)
