"""Checkers of the terminology dimension (TER): chapter 3 entries, their definitions and lead-in, term use.

The lexical helpers here (word segmentation, modal-verb finder, term variants, term occurrences, lead-in
forms) are shared with `injectors.terminology`, so that an injector and its checker read a document the
same way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import jieba
import jieba.posseg
import regex

from parsers.entries import definition_line, split_term
from parsers.model import Document, Section
from validation.linter import Violation, rule

jieba.setLogLevel(logging.WARNING)

# ---------------------------------------------------------------------------------------------------
# Word segmentation: a private jieba tokenizer, so that words other modules add to jieba's global
# dictionary never change how this dimension segments (and so what it injects).
# ---------------------------------------------------------------------------------------------------
_TOKENIZER: jieba.Tokenizer | None = None
_POS: jieba.posseg.POSTokenizer | None = None


def _tokenizer() -> jieba.Tokenizer:
    global _TOKENIZER
    if _TOKENIZER is None:
        _TOKENIZER = jieba.Tokenizer()
        _TOKENIZER.initialize()
    return _TOKENIZER


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """jieba words of a text (precise mode); cached because injectors segment the same lines often."""
    return tuple(_tokenizer().cut(text, HMM=False))


@lru_cache(maxsize=65536)
def tagged(text: str) -> tuple[tuple[str, str], ...]:
    """(word, part-of-speech flag) pairs, for the few places where the kind of word matters."""
    global _POS
    if _POS is None:
        _POS = jieba.posseg.POSTokenizer(_tokenizer())
    return tuple((p.word, p.flag) for p in _POS.cut(text, HMM=False))


@lru_cache(maxsize=65536)
def boundaries(text: str) -> frozenset[int]:
    """Offsets where a word starts or ends: a span is word-aligned when both ends are in here."""
    out = {0}
    at = 0
    for w in words(text):
        at += len(w)
        out.add(at)
    return frozenset(out)


def word_aligned(text: str, start: int, end: int) -> bool:
    """True when text[start:end] does not cut a word in two (so replacing it never splits a word)."""
    edges = boundaries(text)
    return start in edges and end in edges


# ---------------------------------------------------------------------------------------------------
# Modal verbs (GB/T 1.1—2020 annex C) with the compounds that merely contain 应 / 宜 / 可.
# ---------------------------------------------------------------------------------------------------
_MODAL = regex.compile(
    r"(?<![响反相适供对效呼照感顺答回理报因])应(?![用急对答变力激收付届邀聘征运])"
    r"|(?<![适便事权合])宜(?![人居])"
    r"|(?<![认许不无宁])可(?![能行信靠见视控逆读变调选燃塑溶比达观疑惜爱怕口乐否是知追编扩执测持接操]|用性)"
)


def modal_verbs(text: str) -> list[tuple[int, str]]:
    """Offsets and characters of 应 / 宜 / 可 used as modal verbs (provisions), compounds excluded."""
    return [(m.start(), m.group()) for m in _MODAL.finditer(text)]


# ---------------------------------------------------------------------------------------------------
# Term entries of chapter 3.
# ---------------------------------------------------------------------------------------------------
_HAN = regex.compile(r"\p{Han}")
_SPACE = regex.compile(r"[\s\u3000]+")
_PARENS = str.maketrans("（）［］", "()[]")
_NOTE_TAIL = regex.compile(
    r"(注\d*[：:]|示例\d*[：:]|例如[：:]|[\[［]\s*来源|[\[［]\s*(GB|ISO|IEC|[A-Z]{2,}/))"
)
_ALIAS = regex.compile(r"简称[为作]?[“\"「]?(?P<alias>[\p{Han}A-Za-z0-9]{2,12}?)[”\"」]?(?=[。，；）)]|$)")
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


# Signs that the parser lost entry headings: a bare entry number, or a "术语 english" line inside a text.
_LOST_HEADING = regex.compile(r"^(\d+(\.\d+)+|[\p{Han}（）()、/]{2,24}[ \u3000]+[A-Za-z][A-Za-z \-]*)$")


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


def _has_children(document: Document, position: int) -> bool:
    number = document.sections[position].number
    nxt = document.sections[position + 1] if position + 1 < len(document.sections) else None
    return nxt is not None and nxt.number.startswith(number + ".")


def _is_term(term: str) -> bool:
    """A plausible term: has Chinese, is short, and is not a parser artifact or a group heading."""
    return (
        bool(_HAN.search(term))
        and 1 <= len(compact_key(term)) <= 24
        and not regex.search(r"[。；：，]", term)
        and not term.endswith("术语")
    )


def defined_terms(document: Document) -> tuple[DefinedTerm, ...]:
    """The term entries whose title reads cleanly as "术语 english" (group headings and debris skipped)."""
    out = []
    for i, s in entry_sections(document):
        if not s.title or _has_children(document, i):
            continue
        term, english = split_term(s.title)
        if not _is_term(term):
            continue
        start, line = definition_line(s.text)
        out.append(DefinedTerm(i, s.number, term, english, definition_proper(line), start, line))
    return tuple(out)


def abbreviations(document: Document) -> dict[str, str]:
    """Abbreviations defined under 符号和缩略语: "DTU" → "数据传输单元（Data Transfer Unit）"."""
    out: dict[str, str] = {}
    for s in document.sections:
        if s.kind != "symbols":
            continue
        for line in s.text.split("\n"):
            m = _ABBREVIATION_LINE.match(line.strip())
            if m:
                out[m.group("abbr")] = m.group("full")
    return out


def term_aliases(document: Document, entry: DefinedTerm) -> tuple[str, ...]:
    """Other names under which a term is used: 简称…, an abbreviation after "；", its 缩略语 entry."""
    section = document.sections[entry.position]
    out = [m.group("alias") for m in _ALIAS.finditer(section.text)]
    m = regex.search(r"[；;]\s*(?P<abbr>[A-Z][A-Za-z0-9\-]{1,11})\s*$", section.title)
    if m:
        out.append(m.group("abbr"))
    for abbr, full in abbreviations(document).items():
        name = regex.split(r"[（(]", full, maxsplit=1)[0].strip()
        if name and compact_key(name) in entry.variants:
            out.append(abbr)
    return tuple(dict.fromkeys(out))


_JOIN = "\x1f"  # joins sections so that no match runs from one section into the next


def document_text(document: Document) -> str:
    """Every title and text of the document, whitespace removed: where "appears anywhere" is decided."""
    return compact_key(_JOIN.join(part for s in document.sections for part in (s.title, s.text)))


def _count(haystack: str, needle: str) -> int:
    """Occurrences; an ASCII needle (an abbreviation) must not be part of a longer Latin word."""
    if not needle.isascii():
        return haystack.count(needle)
    return len(regex.findall(rf"(?<![A-Za-z]){regex.escape(needle)}(?![A-Za-z])", haystack))


def term_is_used(document: Document, entry: DefinedTerm, whole: str | None = None) -> bool:
    """Used anywhere outside its own entry, under any of its forms or aliases (lenient on purpose)."""
    whole = document_text(document) if whole is None else whole
    own_section = document.sections[entry.position]
    own = compact_key(_JOIN.join((own_section.title, own_section.text)))
    names = [*entry.variants, *(compact_key(a) for a in term_aliases(document, entry))]
    return any(_count(whole, name) > _count(own, name) for name in names if name)


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


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line) of the lines that are prose, not table rows."""
    offset = 0
    for line in text.split("\n"):
        if line.strip() and " | " not in line:
            yield offset, line
        offset += len(line) + 1


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
        for offset, line in prose_lines(s.text):
            taken: list[tuple[int, int]] = []
            for form, entry in forms:
                for m in regex.finditer(regex.escape(form), line):
                    a, b = m.start(), m.end()
                    if any(a < y and x < b for x, y in taken):
                        continue
                    taken.append((a, b))
                    if word_aligned(line, a, b):
                        found.append(Occurrence(position, offset + a, form, entry))
    found.sort(key=lambda o: (o.position, o.start))
    return found


# ---------------------------------------------------------------------------------------------------
# The lead-in sentence of chapter 3.
# ---------------------------------------------------------------------------------------------------
LEAD_NONE = regex.compile(r"本(?:文件|标准)没有需要界定的术语和定义")
LEAD_LIST = regex.compile(r"^下列术语和定义适用于本(?:文件|标准)。?$")
LEAD_REF = regex.compile(r"^(?P<refs>.+?)界定的(?P<also>以及下列)?术语和定义适用于本(?:文件|标准)。?")
LEAD_THIS = regex.compile(r"适用于(?P<this>本标准|本文件)")


def lead_in(chapter: Section) -> tuple[int, str]:
    """The offset and text of the first line of the terms chapter (its lead-in); (-1, "") when empty."""
    offset = 0
    for line in chapter.text.split("\n"):
        if line.strip():
            return offset, line
        offset += len(line) + 1
    return -1, ""


# ---------------------------------------------------------------------------------------------------
# Checkers.
# ---------------------------------------------------------------------------------------------------
@rule("TER-02")
def defined_term_never_used(document: Document) -> Iterator[Violation]:
    """A term is defined only to be used: an entry whose term appears nowhere else is a defect."""
    whole = document_text(document)
    for entry in defined_terms(document):
        if not term_is_used(document, entry, whole):
            yield Violation(
                entry.number, "TER-02", f"第{entry.number}条界定的术语“{entry.term}”在文件其他部分均未使用"
            )


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
        for m in regex.finditer(regex.escape(form), text):
            a, b = m.start(), m.end()
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


def definition_defects(entry: DefinedTerm) -> list[str]:
    """Why a definition cannot stand in for its term (GB/T 1.1—2020 8.5.4): one message per defect."""
    definition = entry.definition
    if not definition:
        return []
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
    return out


@rule("TER-04")
def definition_defect(document: Document) -> Iterator[Violation]:
    """A definition must be able to replace its term in a sentence: no opener, no provision, no term."""
    for entry in defined_terms(document):
        for message in definition_defects(entry):
            yield Violation(entry.number, "TER-04", message)


def _last_part(number: str) -> int | None:
    tail = number.rsplit(".", 1)[-1]
    return int(tail) if tail.isdigit() else None


def numbering_readable(document: Document) -> bool:
    """False when entry headings were read as text (a bare "3.99" line, a "术语 english" line inside an
    entry): the numbers seen are then the parser's, not the author's, and are not judged."""
    found = terms_chapter(document)
    if found is None:
        return False
    sections = [found[1], *(s for _, s in entry_sections(document))]
    return not any(_LOST_HEADING.match(line.strip()) for s in sections for line in s.text.split("\n"))


def numbering_defects(document: Document) -> Iterator[Violation]:
    """Entries of one level numbered 1, 2, 3 … under their parent: a gap or a repeat is an error."""
    if not numbering_readable(document):
        return
    last: dict[str, str] = {}  # parent number → number of the previous sibling
    for _, s in entry_sections(document):
        parent, _, _ = s.number.rpartition(".")
        n = _last_part(s.number)
        if not parent or n is None:
            continue
        previous = last.get(parent)
        p = _last_part(previous) if previous else 0
        last[parent] = s.number
        if p is None:
            continue
        if previous == s.number:
            yield Violation(s.number, "TER-05", f"术语条目编号“{s.number}”重复")
        elif n > p + 1:
            after = f"{previous}之后" if previous else "首个条目"
            message = f"术语条目编号不连续：{after}为{s.number}，应为{parent}.{p + 1}"
            yield Violation(s.number, "TER-05", message)
        elif n <= p:
            yield Violation(s.number, "TER-05", f"术语条目编号顺序错误：{previous}之后为{s.number}")


def english_defects(document: Document) -> Iterator[Violation]:
    """An entry without the English equivalent that the document's other entries all carry."""
    entries = defined_terms(document)
    with_english = [e for e in entries if e.english]
    if len(with_english) < 2 or len(with_english) * 2 <= len(entries):
        return
    for e in entries:
        if not e.english and not regex.match(r"^\s*[A-Za-z]", e.line):
            yield Violation(e.number, "TER-05", f"第{e.number}条术语“{e.term}”缺少英文对应词")


def lead_in_defects(document: Document) -> Iterator[Violation]:
    """The lead-in must agree with what follows (GB/T 1.1—2020 8.5.2).

    A lead-in that cites a document chapter 2 does not list is left to NREF-01 (cited normatively but
    not listed, reported at "2"): reporting it here as well would give one defect two labels, and every
    NREF-01 instance that deletes a document the lead-in cites would carry an unlabelled TER-05.
    """
    found = terms_chapter(document)
    if found is None:
        return
    _, chapter = found
    _, line = lead_in(chapter)
    line = compact_key(line)  # PDFs break "适 用于" apart
    if not line:
        return
    has_entries = bool(entry_sections(document))
    where = chapter.number
    if LEAD_NONE.search(line) and has_entries:
        yield Violation(where, "TER-05", f"引导语为“{line}”，但其后列出了术语条目")
    ref = LEAD_REF.match(line)
    if ref and not ref.group("also") and has_entries:
        yield Violation(
            where, "TER-05", "引导语仅称引用文件界定的术语和定义适用，未写“以及下列”，但其后列出了术语条目"
        )
    this = LEAD_THIS.search(line)
    if this and this.group("this") == "本标准" and document.drafting_rules == "GB/T 1.1—2020":
        yield Violation(where, "TER-05", "按GB/T 1.1—2020起草的文件，引导语应称“适用于本文件”而非“本标准”")
    if LEAD_LIST.match(line) and not has_entries and "\n" not in chapter.text.strip():
        yield Violation(where, "TER-05", "引导语称“下列术语和定义适用于本文件”，但其后没有术语条目")


@rule("TER-05")
def term_entry_format(document: Document) -> Iterator[Violation]:
    """Entry numbers, English equivalents and the lead-in sentence of the terms chapter."""
    yield from numbering_defects(document)
    yield from english_defects(document)
    yield from lead_in_defects(document)
