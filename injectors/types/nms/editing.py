"""Injectors of the NMS dimension (modal verbs): weaken, strengthen, mis-word, blur or misplace a provision.

Every edit is one small replacement inside one body line, chosen only where the lexicon of
`analysis` reads the changed word exactly as intended, so that the checker (D types) or
the diff rule (D∆ types) sees the error and nothing else changes. Sentences that cite a standard or an
annex are left alone: changing their modal verb would also change what the references chapter or the
annex marker must say, which belongs to other types. Nor is a table cell or a fixed value (a 必选/可选
column, "该字段可选") a provision: its 可 is part of a value word, and no clause is there to weaken,
strengthen or blur (`fixed_value`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.base import Site
from injectors.checking import Violation
from injectors.edit import Edit, Replacement
from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.modals import Modal, lexicon, modal_verbs, next_word, sentence_span
from injectors.language.patterns import CITATION
from injectors.language.quotes import quote_after
from injectors.language.words import boundaries, word_aligned
from injectors.types.nms.analysis import body_lines, informative_annexes, is_normative_body
from injectors.types.nms.evidence import Evidence
from parsers.model import Document, Section


@dataclass(frozen=True)
class BodyModal:
    """A modal verb in a body line: where the line starts in the section text, the line, the modal."""

    line_offset: int
    line: str
    modal: Modal


def body_modals(section: Section, informative: frozenset[str]) -> Iterator[BodyModal]:
    """Modal verbs of a normative section's provisions, outside sentences citing documents or annexes."""
    return iter(_body_modals(section, informative))


@lru_cache(maxsize=LINE_CACHE)  # every NMS type reads the document's modal verbs
def _body_modals(section: Section, informative: frozenset[str]) -> tuple[BodyModal, ...]:
    if not is_normative_body(section, informative):
        return ()
    out = []
    for offset, line in body_lines(section):
        if table_like(line):
            continue
        for modal in modal_verbs(line):
            if fixed_value(line, modal.start):
                continue
            if not word_aligned(line, modal.start, modal.end):
                continue  # 可 of 方可, 应 of 应对: replacing it alone would break a word
            if line[modal.start - 1 : modal.start] == "除":
                continue  # "除应由厂商进行的操作外": names the exception, provides nothing
            a, b = sentence_span(line, modal.start, modal.end)
            if not CITATION.search(line[a:b]) and not relative_clause(line, modal.end):
                out.append(BodyModal(offset, line, modal))
    return tuple(out)


# 可选, 必选/可选, 可空, 可读写: values of a table column or a field list, not a modal verb and its verb
_VALUE_WORD = regex.compile(r"(?:可|应|宜)(?:选|空|读写|读|写|选项)(?=$|[\s|/／、，,；;。）)])")
_REMARK = regex.compile(r"[（(][应宜可][^（()）]{0,5}[）)]")
# cells of a table a PDF rendered as a line: tab, two spaces or more, an ideographic space, a bar
_CELL_GAP = regex.compile(r"\t| {2,}|\u3000|\|")


def fixed_value(line: str, start: int) -> bool:
    """Whether the modal verb at `start` begins a value word (可选 in a 必选/可选 column), stands in a
    slash-separated list of values ("必选/可选") or opens a short remark in brackets ("（可扩充）")."""
    if _VALUE_WORD.match(line, start):
        return True
    if _REMARK.match(line, start - 1 if start else 0) and start:
        return True  # "缺省参数定义（可扩充）如表1": a remark on a table, "（最好扩充）" is no clause
    return line[start - 1 : start] in ("/", "／")


def table_like(line: str) -> bool:
    """A table row a PDF rendered as text (cells apart by tabs or wide gaps), or a line too short to hold
    a provision (a lone cell such as "可选")."""
    stripped = line.strip()
    return len(_CELL_GAP.findall(stripped)) >= 2 or len(regex.findall(r"\p{Han}", stripped)) < 5


_OBJECT_VERBS = frozenset(
    lexicon("符合 满足 采用 使用 按 按照 为 是 有 具有 包括 包含 大于 小于 低于 高于 少于 多于 超过")
    + lexicon("不 在 以 与 对 由 将 达到 保持 设置 记录")
)


_SHORT_ATTRIBUTE = regex.compile(r"\p{Han}{1,5}的")


def relative_clause(line: str, end: int) -> bool:
    """The modal opens a relative clause ("应支持的运维要求", "可用于炼焦的烟煤"), not a provision."""
    word = next_word(line, end)
    if line[end + len(word) : end + len(word) + 1] == "的":
        return True
    return word not in _OBJECT_VERBS and _SHORT_ATTRIBUTE.match(line, end) is not None


def flagged(document: Document, check: Callable[[Document], Iterable[Violation]]) -> frozenset[str]:
    """Locations where one of our checkers already fires on the original (pre-existing: never a site)."""
    return frozenset(v.location for v in check(document))


def modal_sites(
    document: Document, wanted: Callable[[BodyModal], bool], skip: frozenset[str] = frozenset()
) -> Iterator[Site]:
    """One site per body section that holds at least one modal verb `wanted` accepts."""
    informative = informative_annexes(document)
    for position, section in enumerate(document.sections):
        if section.number in skip:
            continue
        found = tuple(m for m in body_modals(section, informative) if wanted(m))
        if found:
            yield Site(position, found)


def quote(line: str, start: int, end: int, after: int = 6) -> str:
    """The changed words and a few words after them, stopping at the clause end; from the start of the
    word they begin in ("均可发出", not "可发出": jieba reads 均可 as one word)."""
    if start not in boundaries(line):
        start = max([e for e in boundaries(line) if e < start] or [start])
    return quote_after(line, start, end, after).rstrip("、，,；;：:")  # "包括姓名、出生日期", no "、"


def rewrite(found: BodyModal, old: str, new: str, at: int | None = None) -> tuple[str, int]:
    """The line with `old` (at the modal, or at `at`) replaced by `new`, and where `new` starts."""
    start = found.modal.start if at is None else at
    line = found.line
    assert line[start : start + len(old)] == old
    return line[:start] + new + line[start + len(old) :], start


def modify(position: int, found: BodyModal, start: int, old: str, new: str) -> Edit:
    return Edit("modify", position, (Replacement("text", found.line_offset + start, old, new),))


@dataclass(frozen=True)
class Evidenced:
    """A modal verb whose change the document makes detectable, and the evidence for it (strongest first)."""

    found: BodyModal
    evidence: tuple[Evidence, ...]


EvidenceFinder = Callable[[Document, int, int, str, Modal], list[Evidence]]


def evidenced_sites(
    document: Document, wanted: Callable[[BodyModal], bool], finder: EvidenceFinder
) -> Iterator[Site]:
    """One site per body section holding a modal verb `wanted` accepts and `finder` gives evidence for."""
    for site in modal_sites(document, wanted):
        found = []
        for modal in site.detail:
            evidence = finder(document, site.target, modal.line_offset, modal.line, modal.modal)
            if evidence:
                found.append(Evidenced(modal, tuple(evidence)))
        if found:
            yield Site(site.target, tuple(found))


def no_evidence_reason(document: Document, wanted: Callable[[BodyModal], bool]) -> str:
    """ "no_evidence" when the document has modal verbs to change but none whose change it would reveal."""
    return "no_evidence" if any(True for _ in modal_sites(document, wanted)) else "no_site"
