"""STR-03 要素标题不规范 (Non-standard element title)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import regex

from injectors.authoring import (
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Replacement,
    Section,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.types.str.analysis import document_family, elements, structure_checkable

ERROR_TYPE = ErrorType(
    "STR-03",
    "STR",
    "要素标题不规范",
    "Non-standard element title",
    "GB/T 1.1—2020 8.3～8.13",
    "GB/T 1.1—2009 6.1～6.4",
    "R",
    "D",
    ("E-S-03",),
)


TERMS_TITLE = regex.compile(r"^术语(和|、)定义([、和及与].*)?$")


def standard_title(section: Section, family: str) -> str | None:
    """The title an element must carry when its own title is not acceptable, else None."""
    title = section.title.replace(" ", "")
    kind = section.kind
    if kind == "foreword" and (section.number != "前言" or title != "前言"):
        return "前言"
    if kind == "introduction" and title != "引言":
        return "引言"
    if kind == "scope" and title != "范围" and not (family == "hj" and title == "适用范围"):
        return "范围"
    if (
        kind == "normative_references"
        and title != "规范性引用文件"
        and not (family == "hj" and title in ("引用标准", "引用文件"))
    ):
        return "规范性引用文件"
    if kind == "terms" and not TERMS_TITLE.match(title):
        return "术语和定义"
    if kind == "bibliography" and (section.number != "参考文献" or title != "参考文献"):
        return "参考文献"
    if kind == "index" and title != "索引":
        return "索引"
    return None


def element_title(document: Document) -> list[Violation]:
    """Fixed titles of the fixed elements (HJ standards may say 适用范围 and 引用标准)."""
    if not structure_checkable(document):
        return []
    family = document_family(document)
    out = []
    for _, s in elements(document):
        wanted = standard_title(s, family)
        if wanted is not None:
            printed = s.title or s.number
            out.append(Violation(s.number, "STR-03", f"要素标题“{printed}”不规范，应为“{wanted}”"))
    return out


STANDARD_TITLES = {"scope": "范围", "normative_references": "规范性引用文件", "terms": "术语和定义"}


NON_STANDARD_TITLES: dict[str, tuple[str, ...]] = {
    "scope": ("适用范围",),
    "normative_references": ("引用标准", "引用文件"),
    "terms": ("定义", "术语", "术语与定义"),
}


class NonStandardElementTitle(Injector):
    """Why: the fixed elements have fixed titles (GB/T 1.1—2020 clause 8); drafts often borrow older or
    industry wording. How: 范围 → 适用范围, 规范性引用文件 → 引用标准 / 引用文件, 术语和定义 → 定义 / 术语 /
    术语与定义, 前言 → 序言, 参考文献 → 参考资料. HJ standards legitimately say 适用范围 and 引用标准,
    so those two are not injected there.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "60ee7d3a5da1fb00"

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
            form=new,
        )


DEFINITION = TypeDefinition(ERROR_TYPE, NonStandardElementTitle, checks=(element_title,))
