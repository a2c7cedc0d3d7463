"""Injectors of the structure dimension (STR): elements removed, moved or mistitled; numbering; annexes.

Every edit here is deterministic (generator "rule"): it removes, moves or renumbers whole sections, or
rewrites a heading, an annex marker, a caption number or one template paragraph. Renumbering uses the
edit's `renames` so that printed numbers stay consistent where the error is not about numbering.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from injectors.base import Injector, Proposal, Site, register
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from parsers.model import Document, Section
from validation.rules.structure import (
    Key,
    Numbered,
    annex_marker_kind,
    annex_mentions,
    caption_lines,
    children_of,
    cites_documents_normatively,
    document_family,
    foreword_declarations,
    generation,
    key_number,
    number_key,
    numbered_sections,
)


def block_end(document: Document, position: int) -> int:
    """The position after a section and all its sub-clauses (term entries of chapter 3, A.1 of 附录A …)."""
    number = document.sections[position].number
    prefix = f"{number[-1]}." if number.startswith("附录") else f"{number}."
    end = position + 1
    while end < len(document.sections) and document.sections[end].number.startswith(prefix):
        end += 1
    return end


def chapter_at(document: Document, number: str, kind: str) -> int | None:
    """Position of chapter `number` when it is the element of this kind (where GB/T 1.1 puts it)."""
    return next(
        (
            i
            for i, s in enumerate(document.sections)
            if s.number == number and s.kind == kind and s.level == 1
        ),
        None,
    )


def later_chapters(document: Document, after: int) -> list[int]:
    return sorted({int(s.number) for s in document.sections if s.number.isdigit() and int(s.number) > after})


def quote(text: str, limit: int = 24) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "……"


def drafting_sentence(document: Document) -> str:
    if generation(document) == "2009":
        return "本标准按照GB/T 1.1—2009给出的规则起草"
    return "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草"


# --- STR-01 ------------------------------------------------------------------------------------------------


@register
class MandatoryElementRemoved(Injector):
    """Why: 前言, 规范性引用文件 and 术语和定义 are mandatory (GB/T 1.1—2020 table 3), and a draft
    that lost one is a classic structural defect. How: remove the 前言, or chapter 2 or 3 with its
    entries, and renumber every later chapter so that only the missing element (not a numbering gap) is
    the error. 2009 documents only lose chapter 2 when the body cites documents normatively (the chapter
    was optional then), never chapter 3.
    """

    error_type = "STR-01"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        out = []
        foreword = next((i for i, s in enumerate(document.sections) if s.kind == "foreword"), None)
        if foreword is not None:
            out.append(Site(foreword, "foreword"))
        modern = generation(document) == "2020"
        references = chapter_at(document, "2", "normative_references")
        if references is not None and (modern or cites_documents_normatively(document)):
            out.append(Site(references, "references"))
        terms = chapter_at(document, "3", "terms")
        if terms is not None and modern:
            out.append(Site(terms, "terms"))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        if site.detail == "foreword":
            return Proposal(
                Edit("remove", site.target, span=block_end(document, site.target) - site.target),
                "文件缺少必备要素“前言”：整个前言被删除",
                f"补充“前言”，说明“{drafting_sentence(document)}。”以及提出、归口、起草单位和主要起草人等信息",
            )
        number = int(section.number)
        renames = tuple((str(n), str(n - 1)) for n in later_chapters(document, number))
        span = block_end(document, site.target) - site.target
        shifted = f"，原第{number + 1}章及以后各章依次前移编号" if renames else ""
        if site.detail == "references":
            fix = "恢复第2章“规范性引用文件”，列出正文中规范性引用的文件（前加引导语），并恢复后续章的编号"
        else:
            entries = span - 1
            shifted += f"（连同其{entries}个术语条目）" if entries else ""
            fix = (
                "恢复第3章“术语和定义”（无需界定术语时写明“本文件没有需要界定的术语和定义。”），"
                "并恢复后续章的编号"
            )
        return Proposal(
            Edit("remove", site.target, span=span, renames=renames),
            f"文件缺少必备要素“{section.number} {section.title}”：该章被整体删除{shifted}",
            fix,
        )


# --- STR-02 ------------------------------------------------------------------------------------------------


@register
class ElementOrderWrong(Injector):
    """Why: GB/T 1.1—2020 table 3 fixes the order 前言, 引言, 范围, 规范性引用文件, 术语和定义 … 附录,
    参考文献. How: move one element past its successor — 规范性引用文件 after 术语和定义, 范围 after
    规范性引用文件 (chapter numbers follow the new order, so only the titles are out of order), the last
    annex after 参考文献, or 前言 after 引言. The location is the moved element: the one now too late.
    """

    error_type = "STR-02"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        out = []
        scope = chapter_at(document, "1", "scope")
        references = chapter_at(document, "2", "normative_references")
        terms = chapter_at(document, "3", "terms")
        if references is not None and terms is not None and block_end(document, references) == terms:
            out.append(Site(references, ("swap", terms)))
        if scope is not None and references is not None and block_end(document, scope) == references:
            out.append(Site(scope, ("swap", references)))
        annexes = [
            i for i, s in enumerate(document.sections) if s.kind == "annex" and s.number.startswith("附录")
        ]
        bibliography = next((i for i, s in enumerate(document.sections) if s.kind == "bibliography"), None)
        if annexes and bibliography is not None and block_end(document, annexes[-1]) == bibliography:
            out.append(Site(annexes[-1], ("after", bibliography)))
        foreword = next((i for i, s in enumerate(document.sections) if s.kind == "foreword"), None)
        introduction = next((i for i, s in enumerate(document.sections) if s.kind == "introduction"), None)
        if foreword is not None and introduction == foreword + 1:
            out.append(Site(foreword, ("after", introduction)))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        mode, other = site.detail
        moved = document.sections[site.target]
        passed = document.sections[other]
        end = block_end(document, other)
        before = end if end < len(document.sections) else None
        span = block_end(document, site.target) - site.target
        if mode == "swap":
            a, b = moved.number, passed.number
            edit = Edit("move", site.target, span=span, before=before, renames=((a, b), (b, a)))
            return Proposal(
                edit,
                f"要素顺序错误：“{moved.title}”被置于“{passed.title}”之后（现为第{b}章，第{a}章成为“{passed.title}”）",
                f"将“{moved.title}”调回为第{a}章、“{passed.title}”为第{b}章",
            )
        edit = Edit("move", site.target, span=span, before=before)
        return Proposal(
            edit,
            f"要素顺序错误：“{moved.number}”被置于“{passed.number}”之后",
            f"将“{moved.number}”移至“{passed.number}”之前",
        )


# --- STR-03 ------------------------------------------------------------------------------------------------

STANDARD_TITLES = {"scope": "范围", "normative_references": "规范性引用文件", "terms": "术语和定义"}
NON_STANDARD_TITLES: dict[str, tuple[str, ...]] = {
    "scope": ("适用范围",),
    "normative_references": ("引用标准", "引用文件"),
    "terms": ("定义", "术语", "术语与定义"),
}


@register
class NonStandardElementTitle(Injector):
    """Why: the fixed elements have fixed titles (GB/T 1.1—2020 clause 8); drafts often borrow older or
    industry wording. How: 范围 → 适用范围, 规范性引用文件 → 引用标准 / 引用文件, 术语和定义 → 定义 / 术语 /
    术语与定义, 前言 → 序言, 参考文献 → 参考资料. HJ standards legitimately say 适用范围 and 引用标准,
    so those two are not injected there.
    """

    error_type = "STR-03"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        family = document_family(document)
        if family == "engineering":
            return []
        out = []
        for i, s in enumerate(document.sections):
            if s.level != 1:
                continue
            if s.kind in NON_STANDARD_TITLES and s.number.isdigit() and s.title == STANDARD_TITLES[s.kind]:
                if family == "hj" and s.kind != "terms":
                    continue  # HJ standards may say 适用范围 and 引用标准
                out.append(Site(i, NON_STANDARD_TITLES[s.kind]))
            elif s.kind == "foreword" and s.number == s.title == "前言":
                out.append(Site(i, ("序言",)))
            elif s.kind == "bibliography" and s.number == s.title == "参考文献":
                out.append(Site(i, ("参考资料",)))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        new = rng.choice(site.detail)
        replacements = [Replacement("title", 0, section.title, new)]
        if not section.number.isdigit():
            replacements.insert(0, Replacement("number", 0, section.number, new))
            where = "要素标题"
        else:
            where = f"第{section.number}章标题"
        return Proposal(
            Edit("modify", site.target, tuple(replacements)),
            f"{where}“{section.title}”被写为不规范的“{new}”",
            f"将“{new}”改为规定的要素标题“{section.title}”",
        )


# --- STR-04 ------------------------------------------------------------------------------------------------


def _label(key: Key) -> str:
    number = key_number(key)
    if len(key) == 1:
        return number if number.startswith("附录") else f"第{number}章"
    return number


def hanging_paragraph(section: Section, kids: Sequence[Numbered], rng: random.Random) -> str:
    """A lead paragraph drafters put under a heading: "本章规定了…。" or "本条从…方面作出规定。"."""
    unit = "章" if "." not in section.number else "条"
    title = section.title
    templates = []
    if title.endswith(("要求", "方法", "规则", "程序", "流程", "条件", "指标", "内容", "原则", "规定")):
        templates.append(f"本{unit}规定了{title}。")
    else:
        templates.append(f"本{unit}规定了{title}的有关要求。")
    titles = [k.section.title for k in kids]
    if 2 <= len(titles) <= 6 and all(titles) and all(len(t) <= 16 for t in titles):
        templates.append(f"本{unit}从{'、'.join(titles)}{len(titles)}个方面作出规定。")
    return rng.choice(templates)


@register
class NumberingHierarchyError(Injector):
    """Why: GB/T 1.1—2020 7.3 wants continuous numbers, each clause under its own parent, and no 悬置段.
    How (one per site): rename the last clause of a level so that 5.2 is followed by 5.4 (gap), or takes its
    previous sibling's number (duplicate), or continues the previous parent's numbering (6.3 → 5.5 under
    chapter 6); or put a lead paragraph between a heading and its first sub-clause (悬置段). Only the last
    clause of a level is renamed, so the later numbers and the cross-references to them stay valid.
    """

    error_type = "STR-04"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        items = numbered_sections(document)
        keys = {item.key for item in items}
        kids = children_of(items)
        out = []
        for item in items:
            key = item.key
            if (
                key in kids
                and not item.section.text.strip()
                and item.section.title
                and item.section.kind == "clause"
            ):
                out.append(Site(item.position, ("hanging",)))
            if len(key) < 2 or not isinstance(key[-1], int):
                continue
            parent = key[:-1]
            siblings = kids.get(parent, [])
            if siblings[-1].key != key or key[-1] < 2 or len({s.key for s in siblings}) != len(siblings):
                continue
            if (*parent, key[-1] + 1) not in keys:
                out.append(Site(item.position, ("gap", (*parent, key[-1] + 1))))
            if key not in kids and (*parent, key[-1] - 1) in keys:
                out.append(Site(item.position, ("duplicate", (*parent, key[-1] - 1))))
            uncle = _previous_sibling(parent)
            if uncle is not None and uncle in keys and len(siblings) >= 3 and len(kids.get(uncle, [])) >= 2:
                last = max(int(k.key[-1]) for k in kids[uncle])
                new = (*uncle, last + 1)
                if new not in keys:
                    out.append(Site(item.position, ("parent", new)))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        mode = site.detail[0]
        old = section.number
        if mode == "hanging":
            items = numbered_sections(document)
            key = number_key(old)
            kids = children_of(items).get(key, []) if key is not None else []
            if not kids:
                return None
            paragraph = hanging_paragraph(section, kids, rng)
            first = kids[0].section.number
            return Proposal(
                Edit("modify", site.target, (Replacement("text", 0, "", paragraph),)),
                f"{_label(key)}标题与其第一个子条“{first}”之间设有悬置段“{paragraph}”",
                f"删除该悬置段，或将其内容作为一个编号的条（如“{first} 概述”）并相应调整后续条的编号",
            )
        new_key: Key = site.detail[1]
        new = key_number(new_key)
        key = number_key(old)
        assert key is not None
        parent = _label(key[:-1])
        edit = Edit("modify", site.target, renames=((old, new),))
        if mode == "gap":
            previous = key_number((*key[:-1], int(key[-1]) - 1))
            error = f"{parent}下的条编号不连续：“{previous}”之后为“{new}”，缺少“{old}”"
            fix = f"将“{new}”改为“{old}”"
        elif mode == "duplicate":
            error = f"条编号“{new}”重复：{parent}下最后一条（原“{old}”）与前一条同为“{new}”"
            fix = f"将第二个“{new}”改为“{old}”"
        else:
            error = (
                f"条“{new}”位于{parent}之下，编号与其所属上一层次不符（接续了{_label(new_key[:-1])}的编号）"
            )
            fix = f"将“{new}”改为“{old}”"
        return Proposal(edit, error, fix)


def _previous_sibling(key: Key) -> Key | None:
    last = key[-1]
    if isinstance(last, int):
        return (*key[:-1], last - 1) if last >= 2 else None
    return (chr(ord(last) - 1),) if last > "A" else None


# --- STR-05 ------------------------------------------------------------------------------------------------


@register
class AnnexError(Injector):
    """Why: an annex carries its nature (（规范性）/（资料性）) under its number, and its tables and
    figures are numbered 表A.1, 图A.1 (GB/T 1.1—2020 9.6). How: swap the marker where the body's
    references contradict the new one (a normative annex that the body requires "应符合附录A的规定"
    becomes 资料性; an informative annex only "参见"-referenced, or declared in a 2009 foreword, becomes
    规范性), drop the marker, or renumber one annex caption 表A.1 → 表1.
    """

    error_type = "STR-05"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        mentions = annex_mentions(document)
        declared = foreword_declarations(document)
        out = []
        for i, s in enumerate(document.sections):
            if s.kind != "annex":
                continue
            if s.number.startswith("附录"):
                letter = s.number[-1]
                marker = annex_marker_kind(s.annex_marker)
                if not marker:
                    continue
                out.append(Site(i, ("missing",)))
                own = [m for m in mentions if m.letter == letter]
                normative = [m for m in own if m.strength == "normative"]
                if marker == "规范性" and normative:
                    out.append(Site(i, ("informative", normative[0].section, normative[0].sentence)))
                informative_only = own and all(m.strength == "informative" for m in own)
                if marker == "资料性" and not normative and (informative_only or letter in declared):
                    out.append(
                        Site(i, ("normative", own[0].section if own else "", own[0].sentence if own else ""))
                    )
                continue
            letter = s.number[:1]
            for offset, m in caption_lines(s.text):
                if m.group("letter") == letter:
                    start = offset + m.start("letter")
                    old = m.group(0)[m.start("letter") : m.start("n")]  # "A." or "A ."
                    out.append(Site(i, ("caption", start, old, m.group("kind"), letter, m.group("n"))))
                    break
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        mode = site.detail[0]
        if mode == "caption":
            _, start, old, kind, letter, n = site.detail
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, old, ""),)),
                f"附录{letter}中的“{kind}{letter}.{n}”被编为“{kind}{n}”，附录中的{kind}未按“{kind}{letter}.{n}”的形式编号",
                f"将“{kind}{n}”改为“{kind}{letter}.{n}”",
            )
        marker = section.annex_marker
        annex = section.number
        if mode == "missing":
            return Proposal(
                Edit("modify", site.target, (Replacement("annex_marker", 0, marker, ""),)),
                f"“{annex}”缺少附录性质的标识“（{marker}）”",
                f"在“{annex}”之下标明“（{marker}）”",
            )
        current = annex_marker_kind(marker)
        new = "资料性" if mode == "informative" else "规范性"
        where, sentence = site.detail[1], site.detail[2]
        if mode == "informative":
            why = f"而第{where}条以要求引用该附录（“{quote(sentence)}”）"
        elif where:
            why = f"而正文仅以资料性方式提及该附录（第{where}条“{quote(sentence)}”）"
        else:
            why = "与前言中对该附录性质的说明不一致"
        printed = f"{new}{marker[len(current) :]}"
        return Proposal(
            Edit("modify", site.target, (Replacement("annex_marker", 0, current, new),)),
            f"“{annex}”被标为“（{printed}）”，{why}，附录性质标识错误（应为“（{marker}）”）",
            f"将“{annex}”的标识改为“（{marker}）”",
        )
