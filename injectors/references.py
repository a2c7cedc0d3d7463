"""Injectors of the normative-references dimension (NREF): errors in the chapter 2 list and in citations.

Every edit is a minimal text replacement in one section: a list entry deleted, inserted, swapped with
another, or one citation re-written. List edits keep everything else the checkers read unchanged (an entry
is inserted where the list order stays as it was), so that each instance shows exactly one new defect.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import jieba
import regex

from injectors.base import Injector, Proposal, Site, register
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement, apply_replacements
from parsers.model import Document, Section
from validation.linter import Violation
from validation.rules.references import (
    LEAD_IN_2009_TEXT,
    LEAD_IN_2020_FULL,
    ORDER_RULE,
    Analysis,
    Cited,
    ListItem,
    analyse,
    citation_form,
    cited_but_not_listed,
    excluded,
    informative_listed_as_normative,
    list_items,
    list_out_of_order,
    listed_but_not_cited,
    order_problem,
    parse_number,
    place_name,
)

MAX_CANDIDATES = 8  # real numbers offered per document for NREF-02: the best-fitting ones
# What the planner rewrites in a description when other errors renumber this document ("第5章", "“5.2”"):
# clause numbers of OTHER documents and words quoted from the text must never take that form here.
_RENUMBERED = regex.compile(r"第\d+(?:\.\d+)*[条章]|“[\dA-Z](?:\.\d+)*”")
_FOLLOWS_PROVISION = regex.compile(r"^(?:的规定|规定的|的要求|要求的|的相关规定)")


# --- shared helpers -----------------------------------------------------------------------------------


def _snippet(text: str, start: int, end: int, width: int = 14) -> str:
    """The words around a span for a description: within its sentence, never cutting a number in two."""
    stops = "\n。；"
    left = max(max(text.rfind(ch, 0, start) for ch in stops) + 1, start - width)
    ends = [i for i in (text.find(ch, end) for ch in stops) if i >= 0]
    right = min(min(ends) if ends else len(text), end + width)
    while left > 0 and text[left - 1] not in stops and regex.match(r"[\w/.—\-:]", text[left - 1]):
        left -= 1  # do not start inside "GB/T 31167—2014"
    while right < len(text) and text[right] not in stops and regex.match(r"[\w/.—\-:]", text[right]):
        right += 1
    if right < len(text) and (partial := regex.search(r"[、，,和及]?\s*[A-Z][A-Z/]*$", text[left:right])):
        right = left + partial.start()  # nor end on a code whose number was cut off ("…、GB/T")
    head = "…" if left > 0 and text[left - 1] not in stops else ""
    tail = "…" if right < len(text) and text[right] not in stops else ""
    quoted = head + text[left:right] + tail
    return text[start:end] if _RENUMBERED.search(quoted) else quoted


def _list_section(document: Document, a: Analysis) -> Section:
    assert a.list_target is not None
    return document.sections[a.list_target]


def _inserted_entry(document: Document, site: Site) -> tuple[Section, Replacement, str] | None:
    """The list section, the replacement that adds the site's candidate in order, and the entry's text."""
    a = analyse(document)
    section = _list_section(document, a)
    candidate: Candidate = site.detail
    replacement = _insertion(section, a.items, candidate.cited, candidate.title)
    if replacement is None:
        return None
    return section, replacement, replacement.new.strip("\n")


def _order_signature(entries: Sequence[Cited]) -> tuple[str, str] | None:
    problem = order_problem(entries)
    return None if problem is None else (entries[problem[0]].ident, entries[problem[1]].ident)


def _insertion(section: Section, items: Sequence[ListItem], cited: Cited, title: str) -> Replacement | None:
    """Insert "number title" as a new entry where the list order (good or bad) stays as it was."""
    if not items:
        return None
    entries = [i.cited for i in items]
    before = _order_signature(entries)
    gap = next((i.gap for i in items if i.gap), "　")
    line = f"{cited.citation}{gap}{title}"
    for p in range(len(items) + 1):
        if _order_signature([*entries[:p], cited, *entries[p:]]) != before:
            continue
        if p < len(items):
            item = items[p]
            replacement = Replacement("text", item.start, "", line + ("\n" if item.line_start else ""))
        else:
            replacement = Replacement("text", items[-1].end, "", "\n" + line)
        after = list_items(apply_replacements(section, [replacement]))
        idents = [i.cited.ident for i in after]
        if idents == [*(e.ident for e in entries[:p]), cited.ident, *(e.ident for e in entries[p:])]:
            return replacement
    return None


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


def _inside(section: Section) -> str:
    """ "第6.4条", "前言中", "参考文献中", "第2章规范性引用文件清单中": where a defect sits, as a phrase."""
    if section.kind == "normative_references":
        return f"{place_name(section.number)}规范性引用文件清单中"
    name = place_name(section.number)
    return name if name.startswith("第") else f"{name}中"


def _bad_locations(found: Iterable[Violation]) -> set[str]:
    return {v.location for v in found}


# --- NREF-01 -------------------------------------------------------------------------------------------


@register
class NormativeReferenceUnlisted(Injector):
    """NREF-01: delete from the chapter 2 list an entry that the body cites normatively.

    Why: a document that a requirement (应符合GB 4208—2017的规定) or an instruction (按…进行) relies on is
    part of the provisions and must be listed. Sites are the listed entries with at least one normative
    citation; the edit deletes the entry's line (or only its span in a glued list).
    """

    error_type = "NREF-01"

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or cited_but_not_listed(document):
            return
        for k, item in enumerate(a.items):
            if any(u.role == "normative" for u in a.uses_of(item.cited)):
                yield Site(a.list_target, k)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        a = analyse(document)
        section = _list_section(document, a)
        item = a.items[site.detail]
        use = next(u for u in a.uses_of(item.cited) if u.role == "normative")
        body = document.sections[use.target]
        edit = Edit("modify", site.target, (_removal(section, a.items, site.detail),))
        return Proposal(
            edit,
            error=(
                f"{place_name(section.number)}规范性引用文件清单中未列出“{item.text(section)}”，"
                f"而{place_name(body.number)}（“{_snippet(body.text, use.cited.start, use.cited.end)}”）"
                "规范性引用了该文件"
            ),
            fix=f"在{place_name(section.number)}中按顺序列出“{item.text(section)}”",
        )


# --- NREF-02 -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A real standard listed by another document of the corpus."""

    cited: Cited
    title: str
    source: str = ""  # where the citation came from (NREF-03: 参考文献, or the informative place)


def _parsed(line: str, number: str, year: str | None) -> Cited | None:
    cited = parse_number(line) or parse_number(f"{number}—{year}" if year else number)
    if cited is None or cited.category == 5:
        return None
    return cited


# Words of standard titles too general to say that two documents are about the same thing.
_GENERIC = regex.compile(
    r"^(?:技术|要求|方法|规范|规程|通用|部分|基本|条件|规则|指南|系统|产品|设备|装置|标准|术语|定义|总则|通则|分类|代码|"
    r"信息|管理|应用|测定|试验|性能|相关|等级|及其|使用|导则|程序|质量|设计|测量|数据|安全|环境|评价|检验|"
    r"控制|工程|第一|国家标准|行业标准|基于|实施|评估)$"
)


@lru_cache(maxsize=4096)
def _title_words(title: str) -> tuple[str, ...]:
    """Distinct content words of a standard title (Chinese, two characters or more, not generic)."""
    words = jieba.lcut(title)
    return tuple(
        dict.fromkeys(
            w for w in words if len(w) >= 2 and regex.fullmatch(r"\p{Han}+", w) and not _GENERIC.match(w)
        )
    )


def _affinity(title: str, topic: str, body: str, rarity: dict[str, float]) -> float:
    """How specifically a candidate's title words are this document's words: each shared word weighs by
    its rarity among the corpus's reference titles; words of the title or scope count fully, words found
    only deeper in the text a quarter."""
    words = [w for w in _title_words(title) if w in body]
    return sum(rarity.get(w, 0.0) * (1.0 if w in topic else 0.25) for w in words)


def _corpus_candidates(document: Document, a: Analysis, context: InjectionContext) -> list[Candidate]:
    """Real numbers from other documents' lists: same field first, then those whose title shares the
    most specific words with this document, then the most widely cited."""
    field = document.cover.ics.split(".")[0]
    body = "\n".join(s.title + "\n" + s.text for s in document.sections if s.kind != "normative_references")
    topic = document.title + "".join(s.text for s in document.sections if s.kind == "scope")
    references = context.references_for(document)
    titles = list(dict.fromkeys(r.entry.title for r in references))
    frequency = Counter(w for t in titles for w in _title_words(t))
    rarity = {w: math.log((1 + len(titles)) / n) for w, n in frequency.items() if 2 * n <= len(titles)}
    ranked: dict[str, tuple[bool, float, int, Candidate]] = {}
    popularity: Counter[str] = Counter()
    for order, ref in enumerate(references):
        cited = _parsed(ref.entry.line, ref.entry.number, ref.entry.year)
        if cited is None or not ref.entry.title or a.mentioned(cited) or excluded(cited, a.own):
            continue
        key = f"{cited.family} {cited.number}"
        popularity[key] += 1
        if key not in ranked:
            same_field = bool(field) and ref.ics.split(".")[0] == field
            affinity = _affinity(ref.entry.title, topic, body, rarity)
            ranked[key] = (same_field, affinity, order, Candidate(cited, ref.entry.title))
    order = sorted(ranked, key=lambda k: (not ranked[k][0], -ranked[k][1], -popularity[k], ranked[k][2]))
    fitting = [k for k in order if ranked[k][0] or ranked[k][1] > 0]
    chosen = fitting if len(fitting) >= 3 else order
    return [ranked[k][3] for k in chosen]


@register
class UncitedReferenceListed(Injector):
    """NREF-02: add to the list a real standard of the same field that the document cites nowhere.

    Why: the list holds only documents the text cites normatively; an extra entry misleads users about
    what the provisions depend on. The number and title are real, taken from another corpus document's
    list (same ICS field first, then titles sharing words with this document's title and scope); the
    entry goes where the list order stays as it was.
    """

    error_type = "NREF-02"

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or not a.items or listed_but_not_cited(document):
            return
        for candidate in _corpus_candidates(document, a, context)[:MAX_CANDIDATES]:
            yield Site(a.list_target, candidate)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        inserted = _inserted_entry(document, site)
        if inserted is None:
            return None
        section, replacement, entry = inserted
        return Proposal(
            Edit("modify", site.target, (replacement,)),
            error=f"{place_name(section.number)}规范性引用文件清单中列出了“{entry}”，但正文中没有任何条款引用该文件",
            fix=f"删除“{entry}”，或在需要引用该文件的条款中规范性地引用它",
        )


# --- NREF-03 -------------------------------------------------------------------------------------------


def _informative_candidates(document: Document, a: Analysis, context: InjectionContext) -> list[Candidate]:
    """Documents the text only mentions informatively: entries of 参考文献, and 注/见 citations."""
    out: list[Candidate] = []
    idents: list[str] = []

    def add(cited: Cited, title: str, source: str) -> None:
        key = f"{cited.family} {cited.number}"
        fits = title and key not in idents and a.listed(cited) is None and not excluded(cited, a.own)
        if fits and all(u.role == "informative" for u in a.uses_of(cited)):
            idents.append(key)
            out.append(Candidate(cited, title, source))

    for _, entry in a.bibliography:
        if entry.cited.category < 5:
            add(entry.cited, entry.title, "参考文献")
    titles = {
        f"{c.family} {c.number}": ref.entry.title
        for ref in (*context.references, *context.bibliography)
        if (c := _parsed(ref.entry.line, ref.entry.number, ref.entry.year)) is not None
    }
    for use in a.references():
        key = f"{use.cited.family} {use.cited.number}"
        if use.role == "informative" and not a.in_bibliography(use.cited) and key in titles:
            section = document.sections[use.target]
            add(
                use.cited,
                titles[key],
                f"{place_name(section.number)}（“{_snippet(section.text, use.cited.start, use.cited.end)}”）",
            )
    return out


@register
class InformativeReferenceListed(Injector):
    """NREF-03: copy into the chapter 2 list a document that is only cited informatively.

    Why: documents mentioned in 注, 示例, after 见/参见, or listed in 参考文献 are informative;
    listing them as normative references turns them into provisions. Sites are the 参考文献 entries
    and the informatively cited documents (titles from the corpus); the entry is inserted where the
    list order stays as it was.
    """

    error_type = "NREF-03"

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or not a.items or informative_listed_as_normative(document):
            return
        for candidate in _informative_candidates(document, a, context):
            yield Site(a.list_target, candidate)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        inserted = _inserted_entry(document, site)
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
        return Proposal(Edit("modify", site.target, (replacement,)), error=error, fix=fix)


# --- NREF-04 -------------------------------------------------------------------------------------------


@register
class ReferenceListOutOfOrder(Injector):
    """NREF-04: swap two entries of an ordered list so that the GB/T 1.1—2020 8.4 order breaks.

    Why: the list order (national, industry, local, group, ISO/IEC, others; by code and number) lets a
    reader find an entry. Sites are the pairs of entries whose swap breaks the order under every accepted
    convention; the edit exchanges their two spans.
    """

    error_type = "NREF-04"

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or len(a.items) < 2 or list_out_of_order(document):
            return
        entries = [i.cited for i in a.items]
        for i in range(len(entries)):
            for j in range(i + 1, len(entries)):
                swapped = list(entries)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                if order_problem(swapped) is not None:
                    yield Site(a.list_target, (i, j))

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        a = analyse(document)
        section = _list_section(document, a)
        i, j = site.detail
        first, second = a.items[i], a.items[j]
        text_i, text_j = first.text(section), second.text(section)
        if text_i == text_j:
            return None
        edit = Edit(
            "modify",
            site.target,
            (
                Replacement("text", first.start, text_i, text_j),
                Replacement("text", second.start, text_j, text_i),
            ),
        )
        # the numbers as the list writes them, so that the quotes match the text a reviewer sees
        moved_up = section.text[second.cited.start : second.cited.end].strip()
        moved_down = section.text[first.cited.start : first.cited.end].strip()
        return Proposal(
            edit,
            error=(
                f"{place_name(section.number)}规范性引用文件清单中“{moved_up}”被排在“{moved_down}”之前，"
                f"不符合{ORDER_RULE}的规则"
            ),
            fix=f"将“{moved_down}”移至“{moved_up}”之前",
        )


# --- NREF-05 -------------------------------------------------------------------------------------------


@register
class CitationFormError(Injector):
    """NREF-05: a citation written in the wrong form.

    Why: GB/T 1.1—2020 9.5 fixes the form of a citation. Three edits, each at its own sites: the em dash
    before a year becomes a hyphen ("GB/T 2423.1—2008" → "GB/T 2423.1-2008", list entries and citations);
    a specific clause is cited from an undated reference ("按GB 2894的规定" → "按GB 2894中5.2的规定", or
    the year is dropped from "GB/T 2423.1—2008中4.2"); the 2020 list lead-in of a 2020 document is replaced
    by the 2009 one.
    """

    error_type = "NREF-05"

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        dirty = _bad_locations(citation_form(document))
        if a.list_target is not None:
            section = document.sections[a.list_target]
            if section.number not in dirty:
                for item in a.items:
                    if item.cited.year and item.cited.chinese and not item.cited.wrong_separator:
                        yield Site(a.list_target, ("dash", item.cited))
                if document.drafting_rules == "GB/T 1.1—2020" and LEAD_IN_2020_FULL.search(section.text):
                    yield Site(a.list_target, ("lead-in", None))
        for target, entry in a.bibliography:
            c = entry.cited
            if (
                document.sections[target].number not in dirty
                and c.year
                and c.chinese
                and not c.wrong_separator
            ):
                yield Site(target, ("dash", c))
        for use in a.uses:
            section = document.sections[use.target]
            if section.number in dirty:
                continue
            c = use.cited
            if c.year and c.chinese and not c.wrong_separator:
                yield Site(use.target, ("dash", c))
            if use.role != "normative":
                continue
            if c.year and use.specific and not use.specific.startswith("第"):
                yield Site(use.target, ("undate", use))
            elif not c.year and not use.specific and _FOLLOWS_PROVISION.match(section.text[c.end :]):
                yield Site(use.target, ("specific", use))

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        kind, detail = site.detail
        section = document.sections[site.target]
        where = _inside(section)
        text = section.text
        if kind == "dash":
            c: Cited = detail
            assert c.sep_start is not None and c.year_end is not None
            wrong = text[c.start : c.sep_start] + "-" + c.year
            edit = Edit("modify", site.target, (Replacement("text", c.sep_start, c.sep, "-"),))
            return Proposal(
                edit,
                error=f"{where}将注日期引用“{c.citation}”写成“{wrong.strip()}”，年号前误用连字符“-”",
                fix=f"改为“{c.citation}”，年号前使用一字线“—”",
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
            )
        use = detail
        c = use.cited
        if kind == "undate":
            assert c.year_end is not None
            old = text[c.number_end : c.year_end]
            written = text[c.start : c.number_end] + text[c.end : use.specific_end]
            edit = Edit("modify", site.target, (Replacement("text", c.number_end, old, ""),))
            return Proposal(
                edit,
                error=f"{where}“{written}”引用了不注日期文件“{c.ident}”中的具体章条或图表",
                fix=f"引用具体章条、图表时应注日期，改为“{text[c.start : use.specific_end]}”",
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
        )
