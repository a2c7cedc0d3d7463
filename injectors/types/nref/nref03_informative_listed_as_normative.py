"""NREF-03 资料性文件列为规范性引用 (Informative document listed as normative)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache

from injectors.authoring import (
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.language.citations import Cited
from injectors.types.nref.analysis import Analysis, analyse, excluded, place_name
from injectors.types.nref.editing import Candidate, inserted_entry, list_reason, parsed, snippet

ERROR_TYPE = ErrorType(
    "NREF-03",
    "NREF",
    "资料性文件列为规范性引用",
    "Informative document listed as normative",
    "GB/T 1.1—2020 8.6",
    "GB/T 1.1—2009 6.2.3",
    "R",
    "D",
    ("E-R-03",),
)


def informative_listed_as_normative(document: Document) -> list[Violation]:
    """A listed document that is also in 参考文献, or that the text only mentions informatively."""
    a = analyse(document)
    if a.list_target is None:
        return []
    location = document.sections[a.list_target].number
    out = []
    for item in a.items:
        if a.in_bibliography(item.cited):
            out.append(
                Violation(location, "NREF-03", f"“{item.cited.ident}”既列入规范性引用文件，又列入参考文献")
            )
            continue
        roles = [u.role for u in a.uses_of(item.cited)]
        if roles and all(r == "informative" for r in roles):
            out.append(
                Violation(
                    location,
                    "NREF-03",
                    f"“{item.cited.ident}”在正文中仅被资料性提及（注、示例、见/参见），不应列入规范性引用文件",
                )
            )
    return out


@lru_cache(maxsize=4)
def _corpus_titles(context: InjectionContext) -> dict[str, str]:
    """Standard ("GB/T 2423.1") → its title as the corpus's lists give it (the last list wins); read once
    per corpus, not once per document."""
    return {
        f"{c.family} {c.number}": ref.entry.title
        for ref in (*context.references, *context.bibliography)
        if (c := parsed(ref.entry.line, ref.entry.number, ref.entry.year)) is not None
    }


def _informative_candidates(document: Document, a: Analysis, context: InjectionContext) -> list[Candidate]:
    """Documents the text only mentions informatively: entries of 参考文献, and 注/见 citations."""
    out: list[Candidate] = []
    idents: list[str] = []

    def add(cited: Cited, title: str, source: str) -> None:
        key = f"{cited.family} {cited.number}"
        fits = title and key not in idents and a.listed(cited) is None and not excluded(cited, a.own)
        fits = fits and not a.impossible(cited)
        if fits and all(u.role == "informative" for u in a.uses_of(cited)):
            idents.append(key)
            out.append(Candidate(cited, title, source))

    for _, entry in a.bibliography:
        if entry.cited.category < 5:
            add(entry.cited, entry.title, "参考文献")
    titles = _corpus_titles(context)
    for use in a.references():
        key = f"{use.cited.family} {use.cited.number}"
        if use.role == "informative" and not a.in_bibliography(use.cited) and key in titles:
            section = document.sections[use.target]
            add(
                use.cited,
                titles[key],
                f"{place_name(section.number)}（“{snippet(section.text, use.cited.start, use.cited.end)}”）",
            )
    return out


class InformativeReferenceListed(Injector):
    """NREF-03: copy into the chapter 2 list a document that is only cited informatively.

    Why: documents mentioned in 注, 示例, after 见/参见, or listed in 参考文献 are informative;
    listing them as normative references turns them into provisions. Sites are the 参考文献 entries
    and the informatively cited documents (titles from the corpus); the entry is inserted where the
    list order stays as it was.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "390e53731e85c42c"

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        a = analyse(document)
        already = bool(informative_listed_as_normative(document))
        return list_reason(document, a, already, "no_informative_citation")

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or not a.items or informative_listed_as_normative(document):
            return
        for candidate in _informative_candidates(document, a, context):
            yield Site(a.list_target, candidate)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        inserted = inserted_entry(document, site)
        if inserted is None:
            return None
        section, replacement, entry = inserted
        candidate: Candidate = site.detail
        if candidate.source == "参考文献":
            error = (
                f"{place_name(section.number)}规范性引用文件清单中列出了“{entry}”，"
                "而该文件是资料性引用，已列于参考文献"
            )
            fix = f"从{place_name(section.number)}中删除“{entry}”，仅在参考文献中列出"
        else:
            error = (
                f"{place_name(section.number)}规范性引用文件清单中列出了“{entry}”，"
                f"而正文仅在{candidate.source}中资料性提及该文件"
            )
            fix = f"从{place_name(section.number)}中删除“{entry}”，将其列入参考文献"
        form = "参考文献" if candidate.source == "参考文献" else "资料性引用"
        return Proposal(Edit("modify", site.target, (replacement,)), error=error, fix=fix, form=form)


DEFINITION = TypeDefinition(ERROR_TYPE, InformativeReferenceListed, checks=(informative_listed_as_normative,))
