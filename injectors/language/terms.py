"""Checkers of the terminology dimension (TER): chapter 3 entries, their definitions and lead-in, term use.

The lexical helpers here (word segmentation, modal-verb finder, term variants, term occurrences, lead-in
forms) are shared with this dimension's injectors, so that an injector and its checker read a document the
same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.modals import modal_cores
from injectors.language.patterns import HAN
from injectors.language.words import tagged, word_aligned, words
from parsers.entries import definition_line, split_term
from parsers.model import Document, Section


# ---------------------------------------------------------------------------------------------------
# Modal verbs (GB/T 1.1—2020 annex C) with the compounds that merely contain 应 / 宜 / 可.
# ---------------------------------------------------------------------------------------------------
def modal_verbs(text: str) -> list[tuple[int, str]]:
    """Offsets and characters of 应 / 宜 / 可 used as modal verbs (provisions), compounds excluded."""
    return modal_cores(text)


# ---------------------------------------------------------------------------------------------------
# Term entries of chapter 3.
# ---------------------------------------------------------------------------------------------------


_SPACE = regex.compile(r"[\s\u3000]+")


_PARENS = str.maketrans("（）［］", "()[]")


_NOTE_TAIL = regex.compile(
    r"(注\d*[：:]|示例\d*[：:]|例如[：:]|[\[［]\s*来源|[\[［]\s*(GB|ISO|IEC|[A-Z]{2,}/))"
)


_ABBREVIATION_LINE = regex.compile(r"^(?P<abbr>[A-Za-z][A-Za-z0-9\-/&.]{0,15})\s*[：:]\s*(?P<full>.+)$")


def compact_key(text: str) -> str:
    """Whitespace removed and brackets half-width: how PDFs and authors vary the same words."""
    return _SPACE.sub("", text).translate(_PARENS)


@dataclass(frozen=True)
class DefinedTerm:
    """One entry of the terms chapter as the checkers and injectors need it."""

    position: int  # index of the entry's section in document.sections
    number: str
    term: str
    english: str
    definition: str  # the definition proper: first definition line without notes and sources
    line_start: int  # offset of the definition line in the section text (-1 when there is none)
    line: str  # the whole definition line as printed

    @property
    def variants(self) -> tuple[str, ...]:
        return term_variants(self.term)


@lru_cache(maxsize=4096)
def term_variants(term: str) -> tuple[str, ...]:
    """The forms a body may use for a term: brackets optional, and "A/B" alternatives spelled out.

    "散列/杂凑函数" → 散列函数, 杂凑函数 (the shorter side replaces the head of the longer one);
    "云计算平台/系统" → 云计算平台, 云计算系统 (or its tail).
    """
    key = compact_key(term)
    out = [key]
    bare = regex.sub(r"\([^()]*\)", "", key)
    if bare and bare != key:
        out.append(bare)
    if bare.count("/") == 1:
        left, _, right = bare.partition("/")
        if left and right:
            if len(left) <= len(right):
                tails = words(right) if len(words(right)) > 1 else (right[:-2], right[-2:])
                out.extend(left + "".join(tails[k:]) for k in range(1, len(tails)))
            else:
                heads = words(left) if len(words(left)) > 1 else tuple(left)
                out.extend("".join(heads[:k]) + right for k in range(1, len(heads)))
            out.append(left if len(left) > len(right) else right)
    return tuple(dict.fromkeys(v for v in out if len(v) >= 2))


def definition_proper(line: str) -> str:
    """A definition line without the inline notes, examples and sources PDFs glue onto it."""
    m = _NOTE_TAIL.search(line)
    return (line[: m.start()] if m else line).strip()


def terms_chapter(document: Document) -> tuple[int, Section] | None:
    """The 术语和定义 chapter (first level-1 section of kind terms) and its position."""
    for i, s in enumerate(document.sections):
        if s.kind == "terms" and s.level == 1:
            return i, s
    return None


def entry_sections(document: Document) -> list[tuple[int, Section]]:
    """The sections of the terms chapter below its heading (entries and group headings), in order."""
    found = terms_chapter(document)
    if found is None:
        return []
    start, _ = found
    out = []
    for i in range(start + 1, len(document.sections)):
        s = document.sections[i]
        if s.kind != "terms" or s.level == 1:
            break
        out.append((i, s))
    return out


@lru_cache(maxsize=4096)
def _is_term(term: str) -> bool:
    """A plausible term: has Chinese, is short, and is not a parser artifact or a group heading."""
    return (
        bool(HAN.search(term))
        and 1 <= len(compact_key(term)) <= 24
        and not regex.search(r"[。；：，]", term)
        and not term.endswith("术语")
    )


def defined_terms(document: Document) -> tuple[DefinedTerm, ...]:
    """The term entries whose title reads cleanly as "术语 english" (group headings and debris skipped)."""
    entries = tuple(entry_sections(document))
    if not entries:
        return ()
    after = entries[-1][0] + 1
    return _defined_terms(entries, document.sections[after].number if after < len(document.sections) else "")


@lru_cache(maxsize=256)  # every lint asks (TER's checkers), and most edits leave the terms chapter as it is
def _defined_terms(entries: tuple[tuple[int, Section], ...], after: str) -> tuple[DefinedTerm, ...]:
    """`defined_terms` of the entry sections (position, section), `after` the number of the section
    that follows them ("" at the end of the document)."""
    out = []
    numbers = [s.number for _, s in entries[1:]] + [after]
    for (i, s), following in zip(entries, numbers, strict=True):
        if not s.title or following.startswith(s.number + "."):  # a group heading: it has entries
            continue
        term, english = split_term(s.title)
        if not _is_term(term):
            continue
        start, line = definition_line(s.text)
        out.append(DefinedTerm(i, s.number, term, english, definition_proper(line), start, line))
    return tuple(out)


def abbreviations(document: Document) -> dict[str, str]:
    """Abbreviations defined under 符号和缩略语: "DTU" → "数据传输单元（Data Transfer Unit）"."""
    return dict(_abbreviations(tuple(s.text for s in document.sections if s.kind == "symbols")))


@lru_cache(maxsize=256)  # read once per term entry and candidate (TER-02's aliases)
def _abbreviations(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for text in texts:
        for line in text.split("\n"):
            m = _ABBREVIATION_LINE.match(line.strip())
            if m:
                out[m.group("abbr")] = m.group("full")
    return tuple(out.items())


JOIN = "\x1f"  # joins sections so that no match runs from one section into the next


@lru_cache(maxsize=16)
def document_text(document: Document) -> str:
    """Every title and text of the document, whitespace removed: where "appears anywhere" is decided."""
    # part by part (JOIN is not whitespace), so a corrupted copy recomputes only its changed sections
    return JOIN.join(_compact_part(part) for s in document.sections for part in (s.title, s.text))


@lru_cache(maxsize=LINE_CACHE)
def _compact_part(text: str) -> str:
    return compact_key(text)


def compact_section(section: Section) -> str:
    """A section's title and text as `document_text` has them (whitespace removed, joined by JOIN)."""
    return _compact_part(section.title) + JOIN + _compact_part(section.text)


# ---------------------------------------------------------------------------------------------------
# Term occurrences in the body, word-aligned, longest term first.
# ---------------------------------------------------------------------------------------------------
BODY_KINDS = ("clause", "annex")


@dataclass(frozen=True)
class Occurrence:
    """A word-aligned use of a defined term in one line of a body section."""

    position: int  # section index
    start: int  # offset in the section's text
    form: str  # the words as printed
    entry: DefinedTerm


def prose_lines(text: str, table_rows: frozenset[int] = frozenset()) -> Iterator[tuple[int, str]]:
    """(offset, line) of the lines that are prose, not table rows (`table_rows`: the indices of the rows
    a section's table structure knows, full-width rows without " | " among them)."""
    offset = 0
    for k, line in enumerate(text.split("\n")):
        if line.strip() and " | " not in line and k not in table_rows:
            yield offset, line
        offset += len(line) + 1


def _literal_starts(form: str, line: str) -> Iterator[int]:
    """Where `form` occurs in `line`, left to right, not overlapping (as a literal `finditer` would)."""
    at = line.find(form)
    while at >= 0:
        yield at
        at = line.find(form, at + len(form))


def occurrences(document: Document, entries: Sequence[DefinedTerm] | None = None) -> list[Occurrence]:
    """Uses of defined terms in body prose; a term inside a longer defined term is not a use of it."""
    entries = defined_terms(document) if entries is None else entries
    forms = sorted(
        ((v, e) for e in entries for v in e.variants if v and "/" not in v and "(" not in v),
        key=lambda fe: -len(fe[0]),
    )
    found: list[Occurrence] = []
    for position, s in enumerate(document.sections):
        if s.kind not in BODY_KINDS:
            continue
        for offset, line in prose_lines(s.text, s.table_lines()):
            taken: list[tuple[int, int]] = []
            for form, entry in forms:
                for a in _literal_starts(form, line):
                    b = a + len(form)
                    if any(a < y and x < b for x, y in taken):
                        continue
                    taken.append((a, b))
                    if word_aligned(line, a, b):
                        found.append(Occurrence(position, offset + a, form, entry))
    found.sort(key=lambda o: (o.position, o.start))
    return found


DEFINITION_OPENERS = ("是指", "系指", "指", "是")


def definition_opener(definition: str) -> str | None:
    """是指 / 指 / 是 opening a definition (a whole word, so 指令… or 是否… do not count)."""
    ws = words(definition)
    if ws and ws[0] in DEFINITION_OPENERS:
        return ws[0]
    if definition.startswith("是指"):
        return "是指"
    return None


def first_sentence(definition: str) -> str:
    """A definition proper is one sentence; what follows the first 。 is explanation, checked elsewhere."""
    end = definition.find("。")
    return definition if end < 0 else definition[: end + 1]


def _noun_at(spans: Sequence[tuple[int, int, str]], offset: int, *, before: bool) -> bool:
    """Is the word just before (or just after) `offset` a noun, i.e. is the match part of a compound?"""
    for start, end, flag in spans:
        if (end if before else start) == offset and (flag.startswith("n") or flag == "vn"):
            return True
    return False


def repeated_term(entry: DefinedTerm) -> str | None:
    """The term repeated, as a whole word, in the first sentence of its own definition.

    A match glued to another noun is part of a different, longer term ("非对称密码技术" in the definition
    of 非对称密码, "消息鉴别码算法" in that of 鉴别码) and does not count.
    """
    text = compact_key(first_sentence(entry.definition))
    spans: list[tuple[int, int, str]] = []
    at = 0
    for word, flag in tagged(text):
        spans.append((at, at + len(word), flag))
        at += len(word)
    forms = [v for v in entry.variants if len(v) >= 2 and (len(v) >= 3 or v == compact_key(entry.term))]
    for form in forms:
        for a in _occurrences(text, form):
            b = a + len(form)
            if not word_aligned(text, a, b):
                continue
            if _noun_at(spans, a, before=True) or _noun_at(spans, b, before=False):
                continue
            return form
    return None


DEFINITION_MODALS = ("应", "宜")


def definition_modals(definition: str) -> list[str]:
    """应 / 宜 in the first sentence of a definition.

    可 is not reported: in real definitions it describes a capability or forms an adjective
    ("可自动执行的计算机程序", "可运行的系统"), which reviewers do not treat as a provision (9 such
    definitions in 4 of the real standards, none a permission).
    """
    return [w for _, w in modal_verbs(first_sentence(definition)) if w in DEFINITION_MODALS]


@lru_cache(maxsize=4096)  # each candidate's lint reads the same entries again
def definition_defects(entry: DefinedTerm) -> tuple[str, ...]:
    """Why a definition cannot stand in for its term (GB/T 1.1—2020 8.5.4): one message per defect."""
    definition = entry.definition
    if not definition:
        return ()
    out = []
    opener = definition_opener(definition)
    if opener:
        out.append(f"第{entry.number}条术语“{entry.term}”的定义以“{opener}”开头")
    modals = definition_modals(definition)
    if modals:
        used = "、".join(dict.fromkeys(f"“{w}”" for w in modals))
        out.append(f"第{entry.number}条术语“{entry.term}”的定义中含有能愿动词{used}，定义不应包含要求")
    repeated = repeated_term(entry)
    if repeated:
        out.append(f"第{entry.number}条术语“{entry.term}”的定义中重复了被定义的术语“{repeated}”")
    return tuple(out)


def _occurrences(text: str, word: str) -> Iterator[int]:
    """Where `word` starts in `text`, left to right, never overlapping (as a regex search would find it)."""
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + len(word))
