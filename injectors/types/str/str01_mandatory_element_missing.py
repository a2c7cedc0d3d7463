"""STR-01 必备要素缺失 (Mandatory element missing)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import regex

from injectors.authoring import (
    EDITION_2009,
    EDITION_2020,
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
    edition,
)
from injectors.language.crossrefs import references_into
from injectors.language.modals import has_requirement
from injectors.language.patterns import STANDARD_NUMBER
from injectors.types.str.analysis import (
    NORMATIVE_LEAD,
    document_family,
    elements,
    sentences,
    structure_checkable,
)
from injectors.types.str.editing import block_end, chapter_at, numbers_captions_by_chapter

ERROR_TYPE = ErrorType(
    "STR-01",
    "STR",
    "必备要素缺失",
    "Mandatory element missing",
    "GB/T 1.1—2020 6.2",
    "GB/T 1.1—2009 5.1",
    "R",
    "D",
    ("E-S-01",),
    no_correction="the element was removed: there is no section to correct, the fix restores a whole element",
    # the 2009 rules list 规范性引用文件 as an optional element (5.1): what a 2009 document breaks without it
    # is the clause that has the documents the body cites normatively listed there
    forms=(("规范性引用文件", "GB/T 1.1—2020 6.2", "GB/T 1.1—2009 6.2.3"),),
)


def generation(document: Document) -> str:
    """ "2020" or "2009": the edition the document is held to (one decision for every type), which decides
    which chapters are mandatory."""
    return "2009" if edition(document) == EDITION_2009 else "2020"


def cites_documents_normatively(document: Document) -> bool:
    """Whether a body clause cites a standard from a requirement or an instruction (so a list is needed)."""
    for s in document.sections:
        if s.kind not in ("clause", "symbols", "annex") or (
            s.kind == "annex" and not _normative_annex_part(document, s)
        ):
            continue
        for sentence, note in sentences(s.text):
            if note:
                continue
            for m in STANDARD_NUMBER.finditer(sentence):
                before = sentence[: m.start()]
                if regex.search(r"参见|参考|参照", before[-6:]):
                    continue
                if has_requirement(sentence) or NORMATIVE_LEAD.search(before):
                    return True
    return False


def _normative_annex_part(document: Document, section: Section) -> bool:
    letter = section.number[-1] if section.number.startswith("附录") else section.number[:1]
    annex = document.section(f"附录{letter}")
    return annex is not None and annex.annex_marker.startswith("规范性")


def missing_mandatory_element(document: Document) -> list[Violation]:
    """前言 and 范围 always; 规范性引用文件 and 术语和定义 are mandatory chapters from GB/T 1.1—2020 on."""
    if not structure_checkable(document):
        return []
    kinds = {s.kind for _, s in elements(document)}
    out = []
    if "foreword" not in kinds:
        out.append(Violation("前言", "STR-01", "缺少必备要素“前言”"))
    if "scope" not in kinds:
        out.append(Violation("1", "STR-01", "缺少必备要素“1 范围”"))
    modern = generation(document) == "2020"
    if "normative_references" not in kinds and (modern or cites_documents_normatively(document)):
        reason = "" if modern else "（正文规范性引用了文件）"
        out.append(Violation("2", "STR-01", f"缺少必备要素“2 规范性引用文件”{reason}"))
    if "terms" not in kinds and modern:
        out.append(Violation("3", "STR-01", "缺少必备要素“3 术语和定义”"))
    return out


# The form an instance records: the element it deletes.
ELEMENT_FORM = {"foreword": "前言", "scope": "范围", "references": "规范性引用文件", "terms": "术语和定义"}


NOTHING_TO_LIST = regex.compile(r"没有(需要界定的术语和定义|规范性引用文件|规范性引用的文件)")


def states_nothing(document: Document, target: int) -> bool:
    """Whether the chapter at `target` is only the statement that there is nothing to list in it."""
    section = document.sections[target]
    return block_end(document, target) == target + 1 and bool(NOTHING_TO_LIST.search(section.text))


def statement(section: Section) -> str:
    """The line of the chapter that says there is nothing to list (the fix restores it as it was)."""
    return next(line.strip() for line in section.text.split("\n") if NOTHING_TO_LIST.search(line))


def later_chapters(document: Document, after: int) -> list[int]:
    return sorted({int(s.number) for s in document.sections if s.number.isdigit() and int(s.number) > after})


# How a 2009 document names itself (本标准, 本部分, 本指导性技术文件 …): its foreword uses the same words.
_SELF_REFERENCE = regex.compile(r"本(?:指导性技术文件|技术规范|标准|部分|规范|规程|指南|导则)")


def self_reference(document: Document) -> str:
    """The words the document's scope names it by, so that a restored foreword speaks as the rest of it
    does ("本指导性技术文件按照…" in a guidance document); 本标准 where the scope says none."""
    scope = next((s for s in document.sections if s.kind == "scope"), None)
    found = _SELF_REFERENCE.search(scope.text) if scope is not None else None
    return found.group(0) if found else "本标准"


def drafting_sentence(document: Document) -> str:
    """The sentence the foreword of the document's edition states; "" where the foreword named none (an
    older document, or one that never said): a fix then names no edition it cannot know."""
    if document.drafting_rules == EDITION_2009:
        return f"{self_reference(document)}按照GB/T 1.1—2009给出的规则起草"
    if document.drafting_rules == EDITION_2020:
        return "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草"
    return ""


class MandatoryElementRemoved(Injector):
    """Why: 前言, 范围, 规范性引用文件 and 术语和定义 are mandatory (GB/T 1.1—2020 table 3), and a draft
    that lost one is a classic structural defect. How: remove the 前言, or chapter 1, 2 or 3 with its
    entries, and renumber every later chapter (and the references to them) so that only the missing
    element (not a numbering gap) is the error; a chapter the rest of the document refers to is kept, and
    so is one whose deletion would renumber clauses the text also writes where no reference is read (a
    table of test clauses, a quoted heading: the base class refuses that edit).
    Every element the document's edition makes mandatory is a site, so that no one element marks the
    type: the 前言 and chapter 1 in every edition, chapter 3 from the 2020 rules on, chapter 2 from the 2020
    rules on and, in a 2009 document, where the body cites documents normatively (the chapter was
    optional then, the list of what the body cites was not). Where chapter 2 or 3 only states that there
    is nothing to list, that chapter is the site of its kind: it is the one drafters drop, and it takes no
    other error with it. Every site is offered to the planner at once (the chapters as rivals: each
    renumbers the chapters after it), and the corpus-wide choice (`injectors.form_spread`) weighs what
    deleting a chapter takes with it: the scope holds the scope types' errors and their evidence, the
    chapters 2 and 3 the references' and the terms' errors, and a deletion is taken only where the
    balance can spare them (`injectors.joint` drops any pick whose evidence went with the chapter).
    """

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "c78116c866ec3bfe"
    forms = tuple(ELEMENT_FORM.values())
    # the 前言 and up to three chapters: the planner sees every one of them, and the chapters (each of which
    # renumbers the chapters after it) as a choice between them
    alternatives = 4
    rivals = True

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        chapters = []
        modern = generation(document) == "2020"
        references = chapter_at(document, "2", "normative_references")
        if references is not None and (modern or cites_documents_normatively(document)):
            chapters.append(Site(references, "references"))
        terms = chapter_at(document, "3", "terms")
        if terms is not None and modern:
            chapters.append(Site(terms, "terms"))
        # a chapter that only states it has nothing to list is the one a drafter drops (the habit of the
        # 2009 rules, where it was optional), and it takes no other error with it
        stated = [c for c in chapters if states_nothing(document, c.target)]
        chapters = stated or chapters
        # the scope is mandatory in every edition: a site beside the chapters, not only where they are not
        scope = chapter_at(document, "1", "scope")
        if scope is not None:
            chapters.append(Site(scope, "scope"))
        foreword = next((i for i, s in enumerate(document.sections) if s.kind == "foreword"), None)
        return ([Site(foreword, "foreword")] if foreword is not None else []) + chapters

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        if site.detail == "foreword":
            sentence = drafting_sentence(document)
            rules = f"“{sentence}。”" if sentence else "起草所依据的规则"
            return Proposal(
                Edit("remove", site.target, span=block_end(document, site.target) - site.target),
                "文件缺少必备要素“前言”：整个前言被删除",
                f"补充“前言”，说明{rules}以及提出、归口、起草单位和主要起草人等信息",
                form="前言",
            )
        span = block_end(document, site.target) - site.target
        gone = frozenset(s.number for s in document.sections[site.target : site.target + span])
        if references_into(document, gone, range(site.target, site.target + span)):
            return None  # the rest of the document refers to it: deleting it would leave dangling references
        number = int(section.number)
        modern = generation(document) == "2020"
        renames = tuple((str(n), str(n - 1)) for n in later_chapters(document, number))
        if numbers_captions_by_chapter(document, {old for old, _ in renames}):
            return None  # its tables would keep the old chapter numbers ("表6-2" in chapter 5)
        shifted = f"，原第{number + 1}章及以后各章依次前移编号" if renames else ""
        if site.detail == "scope":
            fix = f"恢复第1章“{section.title}”，说明文件规定的内容和适用界限，并恢复后续章的编号"
        elif states_nothing(document, site.target):
            fix = f"恢复第{number}章“{section.title}”（写明“{statement(section)}”），并恢复后续章的编号"
        elif site.detail == "references":
            fix = "恢复第2章“规范性引用文件”，列出正文中规范性引用的文件（前加引导语），并恢复后续章的编号"
        else:
            entries = span - 1
            shifted += f"（连同其{entries}个术语条目）" if entries else ""
            fix = (
                "恢复第3章“术语和定义”（无需界定术语时写明“本文件没有需要界定的术语和定义。”），"
                "并恢复后续章的编号"
            )
        # under the 2009 rules the chapter is required only because the body cites documents normatively
        cited = "（正文规范性引用了文件，须列出其清单）" if site.detail == "references" and not modern else ""
        return Proposal(
            Edit("remove", site.target, span=span, renames=renames),
            f"文件缺少必备要素“{section.number} {section.title}”{cited}：该章被整体删除{shifted}",
            fix,
            form=ELEMENT_FORM[site.detail],
        )


DEFINITION = TypeDefinition(ERROR_TYPE, MandatoryElementRemoved, checks=(missing_mandatory_element,))
