"""NREF-05 引用形式错误 (Citation form error)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

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
from injectors.language.citations import Cited
from injectors.types.nref.analysis import Analysis, ListItem, Use, analyse, place_name

ERROR_TYPE = ErrorType(
    "NREF-05",
    "NREF",
    "引用形式错误",
    "Citation form error",
    "GB/T 1.1—2020 9.5",
    # 规范性引用文件: an entry carries its year as the text cites it (dated or undated), an em dash before it
    "GB/T 1.1—2009 6.2.3",
    "R",
    "D",
    (),
    # the lead-in of the list is the list's clause in 2020 (a 2009 document's own lead-in is no error)
    forms=(
        ("lead-in", "GB/T 1.1—2020 8.6", "GB/T 1.1—2009 6.2.3"),
        # an entry of the list is "number␣title": the list's clause in both editions
        ("title-marks", "GB/T 1.1—2020 8.6", "GB/T 1.1—2009 6.2.3"),
    ),
)


LEAD_IN_2009 = regex.compile(r"对于本(?:文件|标准)的应用是必不可少的|凡是(?:不)?注日期的引用文件")


LEAD_IN_2020_FULL = regex.compile(
    r"下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。[^\n]*?最新版本[^\n]*?适用于本文件。"
)


LEAD_IN_2009_TEXT = (
    "下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。"
    "凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)


# A Chinese title as the list writes it, no title marks yet ("—86 水质…" is a two-digit year the
# number grammar left behind, not a title)
_PLAIN_TITLE = regex.compile(r"^\p{Han}[^《》\n]{1,58}[^\s，。；;,.、《》]$")


_MARKED_TITLE = regex.compile(r"^《[^《》\n]+》$")


def undated_specific(use: Use) -> bool:
    """A clause, table, figure or annex cited from an undated reference."""
    return bool(use.specific) and use.cited.year is None


def listed_edition(a: Analysis, use: Use) -> Cited | None:
    """The dated list entry of the very document a dated normative citation names (same number, not a
    part of it): the edition the list says the text cites."""
    if use.role != "normative" or not use.cited.year:
        return None
    return next(
        (i.cited for i in a.items if i.cited.year and i.cited.ident == use.cited.ident),
        None,
    )


def citation_form(document: Document) -> list[Violation]:
    """Em dash before the year, a dated reference for a specific clause, the lead-in of the right edition."""
    a = analyse(document)
    out: list[Violation] = []
    if a.list_target is not None:
        section = document.sections[a.list_target]
        for item in a.items:
            if item.cited.wrong_separator:
                written = section.text[item.cited.start : item.cited.end]
                out.append(
                    Violation(
                        section.number,
                        "NREF-05",
                        f"“{written.strip()}”年号前应使用一字线“—”（{item.cited.citation}）",
                    )
                )
        for item in a.items:
            if _MARKED_TITLE.match(item.title):
                out.append(
                    Violation(
                        section.number,
                        "NREF-05",
                        f"规范性引用文件清单中“{item.cited.ident}”的文件名称“{item.title}”加了书名号，"
                        "清单条目应为“文件编号 文件名称”",
                    )
                )
        if document.drafting_rules == "GB/T 1.1—2020" and LEAD_IN_2009.search(section.text):
            out.append(
                Violation(
                    section.number,
                    "NREF-05",
                    "按GB/T 1.1—2020起草的文件在规范性引用文件中使用了GB/T 1.1—2009的引导语",
                )
            )
    for target, entry in a.bibliography:
        if entry.cited.wrong_separator:
            section = document.sections[target]
            written = section.text[entry.cited.start : entry.cited.end]
            out.append(
                Violation(
                    section.number,
                    "NREF-05",
                    f"“{written.strip()}”年号前应使用一字线“—”（{entry.cited.citation}）",
                )
            )
    for use in a.uses:
        section = document.sections[use.target]
        written = section.text[use.cited.start : use.cited.end].strip()
        if use.cited.wrong_separator:
            out.append(
                Violation(
                    section.number,
                    "NREF-05",
                    f"“{written}”年号前应使用一字线“—”（{use.cited.citation}）",
                )
            )
        listed = listed_edition(a, use)
        if listed is not None and listed.year != use.cited.year:
            out.append(
                Violation(
                    section.number,
                    "NREF-05",
                    f"“{written}”与规范性引用文件清单所列“{listed.citation}”的年号不一致",
                )
            )
        if undated_specific(use):
            out.append(
                Violation(
                    section.number,
                    "NREF-05",
                    f"引用了不注日期文件“{written}”中的具体内容“{use.specific}”，引用具体章条、图表时应注日期",
                )
            )
    return out


_FOLLOWS_PROVISION = regex.compile(r"^(?:的规定|规定的|的要求|要求的|的相关规定)")


def _inside(section: Section) -> str:
    """ "第6.4条", "前言中", "参考文献中", "第2章规范性引用文件清单中": where a defect sits, as a phrase."""
    if section.kind == "normative_references":
        return f"{place_name(section.number)}规范性引用文件清单中"
    name = place_name(section.number)
    return name if name.startswith("第") else f"{name}中"


def _bad_locations(found: Iterable[Violation]) -> set[str]:
    return {v.location for v in found}


SITES_PER_FORM = 3


class CitationFormError(Injector):
    """NREF-05: a citation written in the wrong form.

    Why: GB/T 1.1—2020 9.5 fixes the form of a citation. Three edits, each at its own sites: the em dash
    before a year becomes a hyphen ("GB/T 2423.1—2008" → "GB/T 2423.1-2008", list entries and citations);
    a specific clause is cited from an undated reference ("按GB 2894的规定" → "按GB 2894中5.2的规定", or
    the year is dropped from "GB/T 2423.1—2008中4.2"); a normative citation names an earlier edition than
    the list does ("GB/T 2423.1—2008" listed, "按GB/T 2423.1—2003的规定" in the text: the list brought up to
    date and one citation not); the 2020 list lead-in of a 2020 document is replaced by the 2009 one; an
    entry of the list takes title marks ("GB/T 2423.1—2008 《…》", the title copied from a sentence that
    cites it, where title marks belong), though an entry is the number and the title alone.
    """

    error_type = ERROR_TYPE.id
    version = "7"
    digest = "bca463e5fa98b843"
    forms = ("dash", "year", "undate", "specific", "lead-in", "title-marks")
    # a document with a list and citations has sites of four forms or more: the planner sees them all,
    # not the hyphen that nearly every document offers twice over
    alternatives = 4

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No dated citation in the Chinese form, no normative citation to cite a clause of, no 2020
        lead-in, or every place that has one already shows a form error."""
        return "no_citation"

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        """At most `SITES_PER_FORM` sites of each form, spread through the document: every dated citation
        is a site of the hyphen (and every dated normative one of the year), one list a site of the
        lead-in, and a site drawn at random would otherwise nearly always be a hyphen."""
        found = list(self._every_site(document))
        by_form: dict[str, list[int]] = {}
        for k, site in enumerate(found):
            by_form.setdefault(site.detail[0], []).append(k)
        kept: set[int] = set()
        for ks in by_form.values():
            step = max(1.0, len(ks) / SITES_PER_FORM)
            kept.update(ks[int(i * step)] for i in range(min(len(ks), SITES_PER_FORM)))
        yield from (site for k, site in enumerate(found) if k in kept)

    def _every_site(self, document: Document) -> Iterator[Site]:
        a = analyse(document)
        for site in self._all_sites(document, a):
            cited = _cited(site.detail[1])
            if cited is None or not a.impossible(cited):
                yield site

    def _all_sites(self, document: Document, a: Analysis) -> Iterator[Site]:
        dirty = _bad_locations(citation_form(document))
        if a.list_target is not None and document.sections[a.list_target].number not in dirty:
            yield from _list_sites(document, a)
        for target, entry in a.bibliography:
            c = entry.cited
            if document.sections[target].number not in dirty and _dash_site(c):
                yield Site(target, ("dash", c))
        for use in a.uses:
            if document.sections[use.target].number not in dirty:
                yield from _use_sites(document, a, use)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        kind, detail = site.detail
        section = document.sections[site.target]
        where = _inside(section)
        text = section.text
        if kind == "dash":
            c: Cited = detail
            assert c.sep_start is not None and c.year_end is not None and c.year is not None
            wrong = text[c.start : c.sep_start] + "-" + c.year
            right = text[c.start : c.year_end].strip()  # as the document writes it ("GB/T19713—2005")
            edit = Edit("modify", site.target, (Replacement("text", c.sep_start, c.sep, "-"),))
            return Proposal(
                edit,
                error=f"{where}将注日期引用“{right}”写成“{wrong.strip()}”，年号前误用连字符“-”",
                fix=f"改为“{c.citation}”，年号前使用一字线“—”",
                form="dash",
            )
        if kind == "title-marks":
            item: ListItem = detail
            title_start = item.end - len(item.title)
            assert text[title_start : item.end] == item.title
            number = text[item.cited.start : item.cited.end].strip()
            edit = Edit(
                "modify",
                site.target,
                (Replacement("text", title_start, item.title, f"《{item.title}》"),),
            )
            return Proposal(
                edit,
                error=f"{where}“{number}”的文件名称加了书名号“《{item.title}》”",
                fix=f"删除书名号，按“文件编号 文件名称”写为“{number} {item.title}”",
                form="title-marks",
            )
        if kind == "lead-in":
            m = LEAD_IN_2020_FULL.search(text)
            assert m is not None
            edit = Edit(
                "modify", site.target, (Replacement("text", m.start(), m.group(), LEAD_IN_2009_TEXT),)
            )
            return Proposal(
                edit,
                error=(
                    f"{place_name(section.number)}的引导语使用了GB/T 1.1—2009的表述"
                    "“下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件……”，"
                    "与本文件按GB/T 1.1—2020起草不符"
                ),
                fix=(
                    "改为GB/T 1.1—2020的引导语"
                    "“下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。……”"
                ),
                form="lead-in",
            )
        use = detail
        c = use.cited
        if kind == "year":
            return _other_edition(use, where, text, rng)
        if kind == "undate":
            assert c.year_end is not None
            old = text[c.number_end : c.year_end]
            written = text[c.start : c.number_end] + text[c.end : use.specific_end]
            edit = Edit("modify", site.target, (Replacement("text", c.number_end, old, ""),))
            return Proposal(
                edit,
                error=f"{where}“{written}”引用了不注日期文件“{c.ident}”中的具体章条或图表",
                fix=f"引用具体章条、图表时应注日期，改为“{text[c.start : use.specific_end]}”",
                form="undate",
            )
        clause = f"{rng.randint(4, 8)}.{rng.randint(1, 4)}"
        specific = rng.choice([clause, clause, f"表{rng.randint(1, 3)}"])
        follows = _FOLLOWS_PROVISION.match(text[c.end :])
        assert follows is not None
        written = f"{text[c.start : c.end]}中{specific}{follows.group()}"
        edit = Edit("modify", site.target, (Replacement("text", c.end, "", f"中{specific}"),))
        return Proposal(
            edit,
            error=f"{where}“{written}”引用了不注日期文件“{c.ident}”中的具体章条或图表",
            fix=f"引用具体章条、图表时应注日期（写为“{c.ident}—××××中{specific}”），或改为引用整个文件",
            form="specific",
        )


def _other_edition(use: Use, where: str, text: str, rng: random.Random) -> Proposal:
    """The text cites an earlier edition than the list gives (the list was brought up to date and this
    citation was not): a year a few years before the listed one."""
    c = use.cited
    assert c.year is not None and c.year_end is not None
    year = str(int(c.year) - rng.randint(3, 8))
    start = c.year_end - len(c.year)
    right = text[c.start : c.year_end].strip()
    wrong = text[c.start : start] + year
    return Proposal(
        Edit("modify", use.target, (Replacement("text", start, c.year, year),)),
        error=f"{where}引用“{wrong.strip()}”，而规范性引用文件清单列出的是“{c.citation}”，同一文件的年号前后不一致",
        fix=f"将“{wrong.strip()}”改为“{right}”，与清单所列版本一致",
        form="year",
    )


DEFINITION = TypeDefinition(ERROR_TYPE, CitationFormError, checks=(citation_form,))


def _dash_site(c: Cited) -> bool:
    """A dated citation written the Chinese way, whose dash a hyphen can replace."""
    return bool(c.year and c.chinese and not c.wrong_separator)


def _cited(detail: object) -> Cited | None:
    """The reference a site's edit touches (none for the list's lead-in)."""
    if isinstance(detail, Cited):
        return detail
    if isinstance(detail, (Use, ListItem)):
        return detail.cited
    return None


def _list_sites(document: Document, a: Analysis) -> Iterator[Site]:
    """The list's own sites: its dated entries' dashes, a 2020 lead-in, titles a 《》 can enclose."""
    assert a.list_target is not None
    section = document.sections[a.list_target]
    for item in a.items:
        if _dash_site(item.cited):
            yield Site(a.list_target, ("dash", item.cited))
    if document.drafting_rules == "GB/T 1.1—2020" and LEAD_IN_2020_FULL.search(section.text):
        yield Site(a.list_target, ("lead-in", None))
    for item in a.items:
        if item.line_start and item.gap and _PLAIN_TITLE.match(item.title):
            yield Site(a.list_target, ("title-marks", item))


def _use_sites(document: Document, a: Analysis, use: Use) -> Iterator[Site]:
    """A citation's sites: its dash; where it is normative, another edition, a clause of an undated
    reference, or a dated one's date dropped."""
    section = document.sections[use.target]
    c = use.cited
    if _dash_site(c):
        yield Site(use.target, ("dash", c))
    if use.role != "normative":
        return
    listed = listed_edition(a, use)
    if listed is not None and listed.year == c.year and c.year_end is not None and c.chinese:
        yield Site(use.target, ("year", use))
    if c.year and use.specific and not use.specific.startswith("第"):
        yield Site(use.target, ("undate", use))
    elif not c.year and not use.specific and _FOLLOWS_PROVISION.match(section.text[c.end :]):
        yield Site(use.target, ("specific", use))
