"""Quoting the document in a description or a message: whole words only, never past the clause.

A reviewer reads "应符合ITU-T G.711的规定" as a quote, "应符合ITU-" as a slip; every excerpt a description
shows therefore starts and ends on a word boundary (jieba words, a word jieba only guesses, Latin and number
runs and standard numbers kept whole: never "GB/T 31168 —").
"""

from __future__ import annotations

import regex

from injectors.language.citations import find_cited
from injectors.language.words import boundaries, quote_edges

CLAUSE_END = "，,；;。！？!?：:\n"
_RUN = regex.compile(
    r"[A-Za-z0-9][A-Za-z0-9./\-—:]*(?: [A-Z0-9][A-Za-z0-9./\-—:]*)*"
)  # "ITU-T", "GB/T 1.1—2020", "A.1" stay whole


_UNIT_AFTER = regex.compile(
    r" ?(?:[A-Za-zμΩ°℃%‰][A-Za-zμΩ°℃%‰²³/·()（）]*|个月|个|年|次|台|天|小时|分钟|秒|倍|级|位|字|条|块|人|件)"
)


# digits grouped by a space as GB/T writes them ("1 200 mm") are one number
_ONE_MEASURE = r"[－\-+±]?\d[\d.]*(?: \d{3}(?!\d))*\s?[A-Za-zμΩ°℃%‰²³·]*(?:/[A-Za-zμΩ°℃%‰²³·]+)*"
_MEASURE = regex.compile(rf"{_ONE_MEASURE}(?:\s?[～~至]\s?{_ONE_MEASURE})?")  # "15 ℃～25 ℃" stays whole


_REFERENCE = regex.compile(r"(?:第|表|图|附录)\s?[A-Z]?\d*(?:\.\d+)*(?:章|条)?")


def _word_end(text: str, at: int) -> int:
    """The first word boundary at or after `at` (the end of the word `at` falls in)."""
    for run in _RUN.finditer(text):
        if run.start() < at < run.end():
            return run.end()
    edges = [e for e in quote_edges(text) if e >= at]
    return min(edges) if edges else len(text)


def _kept_whole(text: str) -> list[tuple[int, int]]:
    """Spans no quote may end inside: Latin and number runs, and standard numbers as written (a PDF's
    "GB/T 31168 —2014" included)."""
    return [(r.start(), r.end()) for r in _RUN.finditer(text)] + [(c.start, c.end) for c in find_cited(text)]


def aligned(line: str, start: int, end: int, loose: tuple[int, ...] = ()) -> bool:
    """Both ends of line[start:end] on a word edge (jieba's exact cut) or next to punctuation or a space,
    never inside a Latin or number run or a standard number; `loose` ends pass as they are (the edge of
    the words an edit put in)."""
    edges = boundaries(line)
    spans = _kept_whole(line)

    def ok(at: int) -> bool:
        if at in (0, len(line), *loose):
            return True
        if any(a < at < b for a, b in spans):
            return False
        return at in edges or bool(_EDGE.match(line[at - 1]) or _EDGE.match(line[at]))

    return ok(start) and ok(end)


_EDGE = regex.compile(r"[\p{P}\p{Z}\s]")


def quote_after(text: str, start: int, end: int, after: int = 8) -> str:
    """text[start:end] and up to about `after` more characters, ending on a word and inside the clause."""
    stop = end
    while stop < len(text) and text[stop] not in CLAUSE_END:
        stop += 1
    if end + after >= stop:
        return text[start:stop]
    cut = max([e for e in quote_edges(text) if end <= e <= end + after] or [end])
    cut = max(cut, _word_end(text, cut)) if cut < stop else stop
    number = _MEASURE.match(text, cut + len(text[cut:stop]) - len(text[cut:stop].lstrip(" ")))
    if number is not None and number.group() and number.start() < end + after:
        cut = number.end()  # "应不小于 1.2mm": a value the window reaches is quoted whole
    if text[:cut].rstrip(" ")[-1:].isdigit():
        unit = _UNIT_AFTER.match(text, cut)  # "不应大于100 ms", not "不应大于100 "
        cut = unit.end() if unit is not None else cut
    for reference in _REFERENCE.finditer(text):
        if reference.start() < cut < reference.end():
            cut = reference.end()  # "应符合第7章", not "应符合第" or "应符合第7"
    for measure in _MEASURE.finditer(text):
        if measure.start() < cut < measure.end():
            cut = measure.end()  # "宜为10 ℃/min", not "宜为10 ℃/"
    for a, b in _kept_whole(text):
        if a < cut < b:
            cut = b  # "应符合GB/T 31168—2014", not "应符合GB/T 31168—"
    cut = min(cut, stop)
    opened = unpaired_opening(text, end, cut)
    if opened is not None:
        cut = opened  # "应明确标明", not "应明确标明‘": a mark whose pair the quote leaves out
    return text[start:cut].rstrip(" ")


_PAIRS = {"“": "”", "‘": "’", "《": "》", "「": "」", "（": "）", "(": ")"}


def unpaired_opening(text: str, start: int, end: int) -> int | None:
    """Where text[start:end] opens a quotation mark, title mark or bracket that it does not close."""
    open_at: list[int] = []
    for i in range(start, end):
        ch = text[i]
        if ch in _PAIRS:
            open_at.append(i)
        elif open_at and ch == _PAIRS[text[open_at[-1]]]:
            open_at.pop()
    return open_at[0] if open_at else None


def opening(text: str, limit: int) -> str:
    """The first whole words of `text`, at least `limit` characters (to the end of the word, number or
    standard number that reaches it), followed by "……" when it was cut: "北京时间00:00……", never
    "北京时间00……"."""
    text = regex.sub(r"\s*\n\s*", "", text.strip())
    if len(text) <= limit:
        return text
    cut = _word_end(text, limit)
    for a, b in sorted(_kept_whole(text)):
        if a < cut < b:
            cut = b  # the head grows to the end of a number rather than cut it
    return text if cut >= len(text) else text[:cut].rstrip("，,、；;：: ") + "……"


def shorten(text: str, limit: int) -> str:
    """`text` whole when it is short, else its first words up to `limit` characters and an ellipsis."""
    text = regex.sub(r"\s*\n\s*", "", text.strip())
    if len(text) <= limit:
        return text
    cut = max([e for e in quote_edges(text) if 0 < e <= limit] or [limit])
    for a, b in sorted(_kept_whole(text)):
        if a < cut < b:
            cut = a or b
    return text[:cut].rstrip("，,、；;：: ") + "……"


def whole_span(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] widened to word edges on both sides (never inside a Latin or number run or a
    standard number): what a quote of that span should show."""
    edges = quote_edges(text)
    start = max([e for e in edges if e <= start] or [0])
    end = max(end, _word_end(text, end)) if end < len(text) else end
    for a, b in _kept_whole(text):
        if a < start < b:
            start = a
        if a < end < b:
            end = b
    return start, end


_QUOTED = regex.compile(r"“([^“”]+)”")


def nested(text: str) -> str:
    """Quotes inside a quote in single marks, as Chinese punctuation nests them: a description that quotes
    a clause which itself quotes a name reads “…框架下的‘样品信息’…”, not two double pairs a reader (and
    `QUOTE`) would pair wrongly. Text whose double marks do not pair up is left as it is."""
    if text.count("“") != text.count("”"):
        return text
    out, depth = [], 0
    for char in text:
        if char == "“":
            out.append("‘" if depth else char)
            depth += 1
        elif char == "”" and depth:
            depth -= 1
            out.append("’" if depth else char)
        else:
            out.append(char)
    return "".join(out)


def as_written(quote: str) -> str:
    """A quote taken from a description, with the marks `nested` turned single put back as the document
    writes them."""
    return quote.replace("‘", "“").replace("’", "”")


def whole_quotes(description: str, *texts: str) -> str:
    """Each quote of `description` found in one of `texts` widened to whole words there: a model's
    description may quote "温度宜不大" where the section says "温度宜不大于"."""

    def widened(m: regex.Match[str]) -> str:
        quote = m.group(1)
        for text in texts:
            at = text.find(quote)
            if at >= 0:
                start, end = whole_span(text, at, at + len(quote))
                return f"“{text[start:end]}”"
        return m.group()

    return _QUOTED.sub(widened, description)
