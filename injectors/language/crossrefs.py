"""In-text cross-references (见7.4.1, 按8.4测得, 第7章, 附录B, 表A.1, 图2, 公式（A.1）) and their targets.

Structural edits (delete, move, renumber) must keep them consistent, and the audit counts the ones that no
longer resolve; both read them from here. A reference to another document ("GB/T 1.1—2020的附录C",
"2018年版的第5章") is not a cross-reference of this document and is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import regex

from injectors.language.cache_sizes import LINE_CACHE
from parsers.model import Document, Section

Renamer = Callable[[str, Sequence[tuple[str, str]]], str]  # a number after renames (edit.rename_all)

CLAUSE = r"(?:[1-9]\d?(?:\.\d+){1,5}|[A-Z](?:\.\d+){1,5})"
# what may stand right before a clause number that is a reference (not a value such as 按1.5倍)
TRIGGER = (
    r"(?:参见|见|按照|按|采用|除|第|依照|依据|根据|符合|满足|参照|遵照|遵守|遵循|执行"
    r"|如|同|在|由|和|及|或|与)"
)
SEPARATOR = r"\s*(?:、|和|及|或|与|～|~|至|到|-|－)\s*"
# a number followed (on its line) by a unit, a multiplier or more digits is a value, not a clause
NOT_A_VALUE = r"(?![\d.]|[ \t　]*[A-Za-zμΩ°℃%‰×/]|[ \t　]*[倍个次年月日时分秒天周级度只台套件元名位])"
CLAUSE_LIST = regex.compile(
    rf"(?<={TRIGGER})\s*(?P<list>{CLAUSE}{NOT_A_VALUE}(?:{SEPARATOR}{CLAUSE}{NOT_A_VALUE})*)"
)
CLAUSE_IN_LIST = regex.compile(CLAUSE)
# a list joined by a conjunction ("交替进行8.2.2.1、8.2.2.2和8.2.2.3"): the word after 和 makes its last
# item a reference, and a list is one thing, so every item is one; a list standing after a value's context
# (pH 8.3, ＝6.5, a unit or a sign) is a list of values
JOINED_LIST = regex.compile(
    rf"(?<![\dA-Za-z.．=＝<>≤≥±+＋~～\-－/表图]\s*)(?<![\d.])"
    rf"(?P<list>{CLAUSE}{NOT_A_VALUE}(?:{SEPARATOR}{CLAUSE}{NOT_A_VALUE})+)"
)
CONJUNCTION = regex.compile(r"和|及|或|与")
# a clause named by what it lays down ("施加5.2.2规定的试验电压", "6.5.1所列的项目"): a value is not
# followed by 规定 (a 规定值 is a noun), and a table's or figure's number is no clause ("表A.2的规定")
CITED_LIST = regex.compile(
    rf"(?<![\dA-Za-z.．表图]\s*)(?<![\d.])(?P<list>{CLAUSE}(?:{SEPARATOR}{CLAUSE})*)"
    r"(?=[ \t　]*(?:中|的|所)?(?:规定(?!值)|要求|所述|所列|给出))"
)
CHAPTER = regex.compile(r"第\s?(?P<n>[1-9]\d?)\s?章")
ANNEX = regex.compile(r"附\s?录\s?(?P<n>[A-Z])(?![A-Za-z])")
# table and figure numbers: 表1, 表A.1, and chapter-based 表5-1 / 图 A-2
ITEM = r"(?P<n>[A-Z][.\-－]\d+|[1-9]\d*(?:[.\-－]\d+)?)(?!\d|[.\-－]\d)"
TABLE = regex.compile(rf"(?<![代仪报列量发图电水附年])表\s?{ITEM}")
FIGURE = regex.compile(rf"(?<![地构蓝视示绘制草框程意面])图\s?{ITEM}")
FORMULA = regex.compile(r"公式\s?[（(]\s?(?P<n>[A-Z]?\.?\d+)\s?[）)]")
# what, just before a reference, makes it a reference into another document
EXTERNAL = regex.compile(
    r"(?:[A-Z]{1,5}(?:/[A-Z])?\s*\d+(?:\.\d+)*\s*[—–-]\s*\d{4}|》|年版|GB/T\s*\d+(?:\.\d+)*)\s*(?:的|中的|中)?\s*$"
)
CAPTION = regex.compile(rf"^\s*(?P<kind>[表图])\s?{ITEM}(?=[\s　]|$)", regex.MULTILINE)
FORMULA_NUMBER = regex.compile(r"[（(]\s?(?P<n>[A-Z]?\.?\d+)\s?[）)]\s*$", regex.MULTILINE)
# a heading repeated in brackets as the first line of its section ("【8.2.2.8 数据安全保护】", left by an
# LLM-based PDF extraction): it carries the section's number, so it is renumbered with the heading
HEADING_ECHO = regex.compile(rf"^【\s*(?P<n>{CLAUSE}|[1-9]\d?)(?=[\s　])", regex.MULTILINE)
# clause numbers written where no reference finder reads them, which a renumbering therefore cannot follow:
# a number of three levels or more anywhere (a table cell "8.3.1"; a decimal value has one point), a heading
# line the parser left in the text ("3.1 智能制造 …" at a line start), a quoted heading ("“9 标识”") and
# 第N项 naming the tests of chapter N
WRITTEN_NUMBER = regex.compile(
    r"(?<![\dA-Za-z.．])(?P<n>[1-9]\d?(?:\.\d{1,2}){2,5})(?![\d.．])"
    rf"|^[ \t　|]*(?P<n>[1-9]\d?(?:\.\d{{1,2}}){{1,5}}){NOT_A_VALUE}"
    r"[ \t　]+(?!以上|以下|以内|左右)(?=[\p{Han}“])"
    r"|“\s*(?P<n>[1-9]\d?(?:\.\d+){0,5})[ \t　]+[^”\n]{1,30}”"
    r"|第\s?(?P<n>[1-9]\d?)\s?项",
    regex.MULTILINE,
)
# a clause of another document (or edition) cited after its source on the same line ("[GB/T 36339—2018，定义
# 2.3.1]", "《…》中5.2.1", "2003年版的4.4.3、4.4.5"): what stands between is no sentence of this document
SOURCE = regex.compile(
    r"(?:[A-Z]{1,5}(?:/[A-Z])?\s*\d+(?:\.\d+)*\s*[—–-]\s*\d{4}|》|年版)"
    r"(?:[^。；;\n\p{Han}]|[的中、和及或与定义条章第])*$"
)
# sections whose text lists other documents: their numbers are not cross-references
LIST_KINDS = frozenset({"normative_references", "bibliography"})


@dataclass(frozen=True)
class CrossReference:
    """One reference: what it points at (a section number, "附录B", "表A.1", "图1", "公式（1）") and where."""

    kind: str  # clause | chapter | annex | table | figure | formula
    target: str
    start: int
    end: int
    quote: str  # the reference as written, with the word before it ("见7.4.1", "按8.4")


def _item(number: str) -> str:
    return number.replace("－", "-")


def _external(text: str, start: int) -> bool:
    return EXTERNAL.search(text[max(0, start - 40) : start]) is not None


def _quote(text: str, start: int, end: int) -> str:
    return text[max(0, start - 2) : end]


def find_crossrefs(text: str) -> list[CrossReference]:
    """Every cross-reference in a text, in order; references into other documents are left out."""
    found: list[CrossReference] = []
    clauses: dict[int, tuple[str, int, int]] = {}
    external: set[int] = set()  # items of a list that cites another document, whichever word stands inside it
    for pattern in (CLAUSE_LIST, JOINED_LIST, CITED_LIST):
        for m in pattern.finditer(text):
            if pattern is JOINED_LIST and not CONJUNCTION.search(m["list"]):
                continue
            base = m.start("list")
            items = [
                (base + n.start(), base + n.end(), n.group()) for n in CLAUSE_IN_LIST.finditer(m["list"])
            ]
            if _external(text, m.start()):
                external.update(start for start, _, _ in items)
                continue
            clauses.update((start, (number, start, end)) for start, end, number in items)
    for number, start, end in (clauses[k] for k in sorted(clauses) if k not in external):
        found.append(CrossReference("clause", number, start, end, _quote(text, start, end)))
    for kind, pattern in (("chapter", CHAPTER), ("annex", ANNEX), ("formula", FORMULA)):
        for m in pattern.finditer(text):
            if _external(text, m.start()):
                continue
            target = {"chapter": m["n"], "annex": f"附录{m['n']}", "formula": f"公式（{m['n']}）"}[kind]
            found.append(CrossReference(kind, target, m.start(), m.end(), _quote(text, m.start(), m.end())))
    captions = {m.start("kind") for m in CAPTION.finditer(text)}
    for kind, pattern, word in (("table", TABLE, "表"), ("figure", FIGURE, "图")):
        for m in pattern.finditer(text):
            if m.start() in captions or _external(text, m.start()):
                continue
            target = f"{word}{_item(m['n'])}"
            found.append(CrossReference(kind, target, m.start(), m.end(), _quote(text, m.start(), m.end())))
    return sorted(found, key=lambda r: (r.start, r.end, r.kind))


def section_crossrefs(section: Section) -> list[CrossReference]:
    """The references in a section's own text (a list of documents has none)."""
    return [] if section.kind in LIST_KINDS else find_crossrefs(section.text)


def targets(document: Document) -> frozenset[str]:
    """What a reference of this document can resolve to: section numbers, annexes, captions, formulas."""
    out: set[str] = set()
    for s in document.sections:
        out.add(s.number)
        if s.number.startswith("附录"):
            out.add("附录" + s.number[2:].strip())
        out.update(target for target, _, _ in captions(s.text))
        for m in FORMULA_NUMBER.finditer(s.text):
            out.add(f"公式（{m['n']}）")
    return frozenset(out)


def captions(text: str) -> list[tuple[str, int, int]]:
    """Table and figure captions of a text: ("表A.1", start, end of the caption's number)."""
    return [(f"{m['kind']}{_item(m['n'])}", m.start("kind"), m.end("n")) for m in CAPTION.finditer(text)]


def resolves(reference: CrossReference, known: frozenset[str]) -> bool:
    return reference.target in known


def unresolved(document: Document) -> Iterator[tuple[Section, CrossReference]]:
    """References of a document that point at nothing in it, with the section they stand in."""
    known = targets(document)
    for s in document.sections:
        for r in section_crossrefs(s):
            if not resolves(r, known):
                yield s, r


def follow_renames(text: str, renames: Sequence[tuple[str, str]], rename: Renamer) -> str:
    """The text with its clause and chapter references (and a bracketed heading echo) renumbered like the
    headings they point at.

    A word processor updates such references when headings are renumbered; a structural edit (a chapter
    deleted or moved, an entry inserted) must do the same, so that only the error itself is wrong.
    """
    if not renames or not any(old in text for old, _ in renames):
        return text  # a renamer changes only numbers that start with a renamed one: none is in this text
    return _followed(text, tuple(renames), rename)


@lru_cache(maxsize=LINE_CACHE)  # the corpus-wide choice re-assembles a document's sections pass after pass
def _followed(text: str, renames: tuple[tuple[str, str], ...], rename: Renamer) -> str:
    out = HEADING_ECHO.sub(lambda m: m.group(0).replace(m["n"], rename(m["n"], renames), 1), text)
    for ref in reversed(find_crossrefs(out)):
        if ref.kind == "clause":
            new = rename(ref.target, renames)
            if new != ref.target:
                out = out[: ref.start] + new + out[ref.end :]
        elif ref.kind == "chapter":
            new = rename(ref.target, renames)
            if new != ref.target and "." not in new:
                digits = CHAPTER.match(out, ref.start)
                assert digits is not None
                out = out[: digits.start("n")] + new + out[digits.end("n") :]
    return out


def unfollowed_numbers(text: str, renames: Sequence[tuple[str, str]], rename: Renamer) -> list[str]:
    """Clause numbers a renumbering changes that the text writes outside the references it follows (a
    table cell, a quoted heading, a heading line left in the text): renaming the headings would leave them
    pointing at the old numbers, and renaming them blindly would rename values, so the caller refuses."""
    if not renames or not any(old in text for old, _ in renames):
        return []
    return [n for n in _written_numbers(text) if rename(n, renames) != n]


@lru_cache(maxsize=LINE_CACHE)
def _written_numbers(text: str) -> tuple[str, ...]:
    """The numbers `WRITTEN_NUMBER` finds outside followed references, heading echoes and cited sources."""
    followed = [(r.start, r.end) for r in find_crossrefs(text) if r.kind in ("clause", "chapter")]
    followed.extend(m.span("n") for m in HEADING_ECHO.finditer(text))
    out = []
    for m in WRITTEN_NUMBER.finditer(text):
        start, end = m.span("n")
        line = text.rfind("\n", 0, start) + 1
        if any(a < end and start < b for a, b in followed) or SOURCE.search(text, line, start):
            continue
        out.append(m["n"])
    return tuple(out)


def section_unfollowed(section: Section, renames: Sequence[tuple[str, str]], rename: Renamer) -> list[str]:
    """`unfollowed_numbers` of a section's text (a list of documents names other documents' clauses)."""
    return [] if section.kind in LIST_KINDS else unfollowed_numbers(section.text, renames, rename)


def section_following(section: Section, renames: Sequence[tuple[str, str]], rename: Renamer) -> Section:
    """A section whose references follow the renumbering (a list of documents has none)."""
    if not renames or section.kind in LIST_KINDS:
        return section
    text = follow_renames(section.text, renames, rename)
    return section if text == section.text else replace(section, text=text)


def references_into(
    document: Document, numbers: frozenset[str], outside: range
) -> list[tuple[Section, CrossReference]]:
    """References, from sections outside `outside` (positions), to a clause or chapter among `numbers`
    or below one (见3.2 points into chapter 3): what deleting those sections would leave dangling."""
    found = []
    for position, s in enumerate(document.sections):
        if position in outside:
            continue
        for r in section_crossrefs(s):
            if r.kind in ("clause", "chapter") and any(
                r.target == n or r.target.startswith(n + ".") for n in numbers
            ):
                found.append((s, r))
    return found
