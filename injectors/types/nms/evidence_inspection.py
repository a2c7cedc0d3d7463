"""Evidence that a clause is a requirement because the document checks it: its inspection rules list it as
a pass/fail item (检验规则, 判定, a table of 检验项目 names it or its sub-chapter), or a test method
presupposes it (the 试验方法 chapter refers to the clause itself, not its sub-chapter and not as a test's
conditions, or tests what it is about).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.modals import lexicon
from injectors.types.nms.analysis import place
from injectors.types.nms.evidence import INSPECTION, TEST_METHOD, Evidence
from injectors.types.nms.provision_parts import excerpt
from parsers.model import Document, Section

_INSPECTION_TITLE = regex.compile(r"检验规则|判定|检验项目|出厂检验|型式检验|交收检验|验收规则|抽样")
_TEST_TITLE = regex.compile(r"试验方法|检验方法|测试方法|检测方法|测量方法|试验$|测试$|检测$|检查$")
_GENERIC_TITLES = frozenset(
    lexicon(
        "要求 一般要求 基本要求 通用要求 总体要求 技术要求 总则 概述 其他 其他要求 一般规定 基本规定 通则"
    )
)


@dataclass(frozen=True)
class Referrer:
    """A section of the inspection rules or the test methods, with the titles above it."""

    kind: str  # INSPECTION | TEST_METHOD
    section: Section
    titles: str  # its own title and its ancestors', joined


@lru_cache(maxsize=256)
def referrers(document: Document) -> tuple[Referrer, ...]:
    """The sections that can make a clause a pass/fail item or presuppose it: inspection rules, tests."""
    out: list[Referrer] = []
    chain: list[Section] = []
    for section in document.sections:
        if section.kind not in ("clause", "annex"):
            continue
        chain = [s for s in chain if s.level < section.level] + [section]
        titles = " ".join(s.title for s in chain)
        if _INSPECTION_TITLE.search(titles):
            out.append(Referrer(INSPECTION, section, titles))
        elif any(_TEST_TITLE.search(s.title) for s in chain):
            out.append(Referrer(TEST_METHOD, section, titles))
    return tuple(out)


@lru_cache(maxsize=4096)
def _number_pattern(number: str) -> regex.Pattern[str]:
    return regex.compile(rf"(?<![\d.]){regex.escape(number)}(?![\d]|\.\d)")


def _mentions_number(text: str, number: str) -> regex.Match[str] | None:
    return _number_pattern(number).search(text) if number in text else None


@lru_cache(maxsize=4096)
def _item_pattern(title: str) -> regex.Pattern[str]:
    """The title as an item of an inspection list (between list punctuation or conjunctions)."""
    return regex.compile(
        rf"(?:^|(?<=[、，,：:|为和及与 ])){regex.escape(title)}(?=$|[、，,；;。|和及与等 ])", regex.M
    )


def _line_at(text: str, at: int) -> str:
    a = text.rfind("\n", 0, at) + 1
    b = text.find("\n", at)
    return text[a : b if b >= 0 else len(text)]


def _owners(document: Document, position: int) -> list[Section]:
    """The clause at `position` and its ancestors below chapter level (5.4.1, 5.4), nearest first."""
    section = document.sections[position]
    out = [section]
    level = section.level
    for s in reversed(document.sections[:position]):
        if s.level < level and s.level >= 2 and s.kind == section.kind:
            out.append(s)
            level = s.level
        if s.level <= 1:
            break
    return out


# "在7.1的试验条件下", "按5.2规定的条件": the mention takes the clause as the conditions of a test, which
# says nothing about whether the clause is a requirement
_AS_CONDITIONS = regex.compile(r"\s*(?:[中的所]|规定的|给出的){0,2}\s*(?:试验|测试|检验|环境|工作)?条件")


def _as_conditions(text: str, end: int) -> bool:
    return _AS_CONDITIONS.match(text, end) is not None


def referenced_by(document: Document, position: int) -> list[Evidence]:
    """The inspection rules or test methods that name this clause (or, for the inspection rules, its
    sub-chapter) by number or title. A test method that names the sub-chapter tests something of it, not
    necessarily this clause ("在7.1的试验条件下" checks repeatability, not 7.1.7's markings); a mention
    that takes the clause as a test's conditions tests nothing of it."""
    own_chapter = document.sections[position].number.split(".")[0]
    out: list[Evidence] = []
    for depth, owner in enumerate(_owners(document, position)):
        title = owner.title.strip()
        named = len(title) >= 2 and title not in _GENERIC_TITLES and title != owner.number
        for ref in referrers(document):
            if ref.section.number.split(".")[0] == own_chapter:
                continue
            if depth and ref.kind != INSPECTION:
                continue
            hit = _mentions_number(ref.section.text, owner.number)
            if hit is not None and _as_conditions(ref.section.text, hit.end()):
                continue
            if hit is not None:
                line = _line_at(ref.section.text, hit.start())
                offset = hit.start() - (ref.section.text.rfind("\n", 0, hit.start()) + 1)
                words = excerpt(line, offset, offset + len(owner.number))
                out.append(Evidence(ref.kind, words, place(ref.section.number)))
            elif named and ref.kind == TEST_METHOD and title in ref.section.title:
                out.append(Evidence(TEST_METHOD, ref.section.heading, place(ref.section.number)))
            elif named and ref.kind == INSPECTION:
                item = _item_pattern(title).search(ref.section.text) if title in ref.section.text else None
                at = item.start() if item is not None else -1
                if at >= 0 and regex.search(r"项目|\|", _line_at(ref.section.text, at)):
                    line = _line_at(ref.section.text, at)
                    offset = at - (ref.section.text.rfind("\n", 0, at) + 1)
                    out.append(
                        Evidence(
                            INSPECTION, excerpt(line, offset, offset + len(title)), place(ref.section.number)
                        )
                    )
    return out
