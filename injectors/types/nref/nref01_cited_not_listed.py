"""NREF-01 规范性引用未列出 (Cited normatively but not listed)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

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
from injectors.language.citations import Cited
from injectors.types.nref.analysis import ListItem, analyse, place_name
from injectors.types.nref.editing import list_reason, list_section, snippet

ERROR_TYPE = ErrorType(
    "NREF-01",
    "NREF",
    "规范性引用未列出",
    "Cited normatively but not listed",
    "GB/T 1.1—2020 8.6",
    "GB/T 1.1—2009 6.2.3",
    "R",
    "D",
    ("E-R-01",),
)


def cited_but_not_listed(document: Document) -> list[Violation]:
    """A document cited in a requirement or instruction must be listed in chapter 2."""
    a = analyse(document)
    if a.list_target is None or not document.sections[a.list_target].text.strip():
        # no chapter 2, or one the parser found empty: STR's business, not a missing entry
        return []
    location = document.sections[a.list_target].number
    out: list[Violation] = []
    reported: list[Cited] = []
    for use in a.references():
        if use.role != "normative" or a.listed(use.cited) is not None:
            continue
        if any(r.same_document(use.cited) for r in reported):
            continue
        reported.append(use.cited)
        where = place_name(document.sections[use.target].number)
        out.append(
            Violation(
                location,
                "NREF-01",
                f"“{use.cited.ident}”在{where}中被规范性引用，但未列入规范性引用文件清单",
            )
        )
    return out


def _removal(section: Section, items: Sequence[ListItem], k: int) -> Replacement:
    """Delete entry k: its whole line, or only its span when a PDF conversion glued entries together."""
    text = section.text
    item = items[k]
    line_start = text.rfind("\n", 0, item.start) + 1
    line_end = text.find("\n", item.end)
    line_end = len(text) if line_end < 0 else line_end
    alone = not text[line_start : item.start].strip() and not text[item.end : line_end].strip()
    if alone:
        if line_end < len(text):
            return Replacement("text", line_start, text[line_start : line_end + 1], "")
        start = max(0, line_start - 1)
        return Replacement("text", start, text[start:line_end], "")
    same_line = [i for i in items if line_start <= i.start < line_end]
    position = same_line.index(item)
    if position + 1 < len(same_line):
        end = same_line[position + 1].start
        return Replacement("text", item.start, text[item.start : end], "")
    start = same_line[position - 1].end if position > 0 else item.start
    return Replacement("text", start, text[start : item.end], "")


class NormativeReferenceUnlisted(Injector):
    """NREF-01: delete from the chapter 2 list an entry that the body cites normatively.

    Why: a document that a requirement (应符合GB 4208—2017的规定) or an instruction (按…进行) relies on is
    part of the provisions and must be listed. Sites are the listed entries with at least one normative
    citation; the edit deletes the entry's line (or only its span in a glued list).
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "087aa22bd178741f"

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        a = analyse(document)
        return list_reason(document, a, bool(cited_but_not_listed(document)), "no_normatively_cited_entry")

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or cited_but_not_listed(document):
            return
        for k, item in enumerate(a.items):
            if a.impossible(item.cited):
                continue
            if any(u.role == "normative" for u in a.uses_of(item.cited)):
                yield Site(a.list_target, k)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        a = analyse(document)
        section = list_section(document, a)
        item = a.items[site.detail]
        use = next(u for u in a.uses_of(item.cited) if u.role == "normative")
        body = document.sections[use.target]
        edit = Edit("modify", site.target, (_removal(section, a.items, site.detail),))
        return Proposal(
            edit,
            error=(
                f"{place_name(section.number)}规范性引用文件清单中未列出“{item.text(section)}”，"
                f"而{place_name(body.number)}（“{snippet(body.text, use.cited.start, use.cited.end)}”）"
                "规范性引用了该文件"
            ),
            fix=f"在{place_name(section.number)}中按顺序列出“{item.text(section)}”",
        )


DEFINITION = TypeDefinition(ERROR_TYPE, NormativeReferenceUnlisted, checks=(cited_but_not_listed,))
