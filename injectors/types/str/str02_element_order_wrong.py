"""STR-02 要素顺序错误 (Element order wrong)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from injectors.authoring import (
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Section,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.types.str.analysis import (
    ELEMENT_RANK,
    document_family,
    elements,
    page_furniture,
    structure_checkable,
)
from injectors.types.str.editing import block_end, chapter_at

ERROR_TYPE = ErrorType(
    "STR-02",
    "STR",
    "要素顺序错误",
    "Element order wrong",
    "GB/T 1.1—2020 6.2",
    "GB/T 1.1—2009 5.1",
    "R",
    "D",
    (
        "E-S-02",
        "E-S-04",
    ),
    no_correction="the element was moved: its text is unchanged, the fix is its position",
)


ELEMENT_NAME = {
    "foreword": "前言",
    "introduction": "引言",
    "scope": "范围",
    "normative_references": "规范性引用文件",
    "terms": "术语和定义",
    "symbols": "符号和缩略语",
    "clause": "技术内容",
    "annex": "附录",
    "bibliography": "参考文献",
    "index": "索引",
}


def element_label(section: Section) -> str:
    """How a message names an element: "第2章“规范性引用文件”", "附录B", "参考文献"."""
    if section.kind == "annex" or not section.number[:1].isdigit():
        return section.number
    return f"第{section.number}章“{section.title}”"


def order_form(moved: Section, passed: Section) -> str:
    """The form an instance records: which element now stands after which ("附录>参考文献")."""
    return f"{ELEMENT_NAME[moved.kind]}>{ELEMENT_NAME[passed.kind]}"


def element_order(document: Document) -> list[Violation]:
    """An element that comes after one that GB/T 1.1 table 3 puts later (reported at the late-comer)."""
    if not structure_checkable(document):
        return []
    out = []
    previous: Section | None = None
    for _, s in elements(document):
        if previous is not None and ELEMENT_RANK[s.kind] < ELEMENT_RANK[previous.kind]:
            out.append(
                Violation(
                    s.number,
                    "STR-02",
                    f"要素顺序错误：{element_label(s)}位于{element_label(previous)}之后，"
                    f"“{ELEMENT_NAME[s.kind]}”应在“{ELEMENT_NAME[previous.kind]}”之前",
                )
            )
        previous = s
    return out


class ElementOrderWrong(Injector):
    """Why: GB/T 1.1—2020 table 3 fixes the order 前言, 引言, 范围, 规范性引用文件, 术语和定义 … 附录,
    参考文献. How: move one element past its successor — 规范性引用文件 after 术语和定义, 范围 after
    规范性引用文件, 术语和定义 after the chapter that follows it (符号和缩略语 or the first technical
    chapter; chapter numbers follow the new order, so only the titles are out of order), the last chapter
    after the annexes, the last annex after 参考文献, or 前言 after 引言. Each order the document offers is
    a site, drawn evenly, so that no one order marks the type. The location is the moved element: the one
    now too late.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "b2d959e6ce2da58d"

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
        if terms is not None:
            following = block_end(document, terms)
            if (
                chapter_at(document, "4", "symbols") == following
                or chapter_at(document, "4", "clause") == following
            ):
                out.append(Site(terms, ("swap", following)))
        annexes = [
            i for i, s in enumerate(document.sections) if s.kind == "annex" and s.number.startswith("附录")
        ]
        bibliography = next((i for i, s in enumerate(document.sections) if s.kind == "bibliography"), None)
        if annexes and bibliography is not None and block_end(document, annexes[-1]) == bibliography:
            out.append(Site(annexes[-1], ("after", bibliography)))
        last = max((i for i, s in elements(document) if s.kind == "clause"), default=None)
        if annexes and last is not None and block_end(document, last) == annexes[0] and last > (terms or 0):
            out.append(Site(last, ("after", annexes[-1])))
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
        if page_furniture(document, range(site.target, end)):
            return None  # the end rule or back cover would land mid-document (or travel with the element)
        if mode == "swap":
            a, b = moved.number, passed.number
            edit = Edit("move", site.target, span=span, before=before, renames=((a, b), (b, a)))
            return Proposal(
                edit,
                f"要素顺序错误：“{moved.title}”被置于“{passed.title}”之后（现为第{b}章，第{a}章成为“{passed.title}”）",
                f"将“{moved.title}”调回为第{a}章、“{passed.title}”为第{b}章",
                form=order_form(moved, passed),
            )
        edit = Edit("move", site.target, span=span, before=before)
        # where it belongs: before the element that followed it (附录A, not the last annex it now follows)
        follower = document.sections[block_end(document, site.target)]
        return Proposal(
            edit,
            f"要素顺序错误：{element_label(moved)}被置于{element_label(passed)}之后",
            f"将{element_label(moved)}移至{element_label(follower)}之前",
            form=order_form(moved, passed),
        )


DEFINITION = TypeDefinition(ERROR_TYPE, ElementOrderWrong, checks=(element_order,))
