"""Injectors of the normative-references dimension (NREF): errors in the chapter 2 list and in citations.

Every edit is a minimal text replacement in one section: a list entry deleted, inserted, swapped with
another, or one citation re-written. List edits keep everything else the checkers read unchanged (an entry
is inserted where the list order stays as it was), so that each instance shows exactly one new defect.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.base import Site
from injectors.edit import Replacement, apply_replacements
from injectors.language.citations import Cited, find_cited, parse_number
from injectors.types.nref.analysis import Analysis, ListItem, analyse, list_items, order_problem
from parsers.model import Document, Section

# What the planner rewrites in a description when other errors renumber this document ("第5章", "“5.2”"):
# clause numbers of OTHER documents and words quoted from the text must never take that form here.
_RENUMBERED = regex.compile(r"第\d+(?:\.\d+)*[条章]|“[\dA-Z](?:\.\d+)*”")


def snippet(text: str, start: int, end: int, width: int = 14) -> str:
    """The words around a span for a description: within its sentence, never cutting a number in two."""
    stops = "\n。；"
    left = max(max(text.rfind(ch, 0, start) for ch in stops) + 1, start - width)
    ends = [i for i in (text.find(ch, end) for ch in stops) if i >= 0]
    right = min(min(ends) if ends else len(text), end + width)
    while left > 0 and text[left - 1] not in stops and regex.match(r"[\w/.—\-:]", text[left - 1]):
        left -= 1  # do not start inside "GB/T 31167—2014"
    while right < len(text) and text[right] not in stops and regex.match(r"[\w/.—\-:]", text[right]):
        right += 1
    for other in find_cited(text):  # nor inside a standard number written with a space ("GB/T 22239—2019")
        if other.start < left < other.end:
            left = other.start
        if other.start < right < other.end:
            right = other.end
    # the text's own quotation marks would stand inside the description's quote, one of a pair cut off
    # ("…编码结束符“…"): the quote stops short of them
    marks = [left + m.start() for m in regex.finditer(r"[“”]", text[left:right])]
    left = max([left, *(i + 1 for i in marks if i < start)])
    right = min([right, *(i for i in marks if i >= end)])
    if right < len(text) and (partial := regex.search(r"[、，,和及]?\s*[A-Z][A-Z/]*$", text[left:right])):
        right = left + partial.start()  # nor end on a code whose number was cut off ("…、GB/T")
    head = "…" if left > 0 and text[left - 1] not in stops else ""
    tail = "…" if right < len(text) and text[right] not in stops else ""
    quoted = head + text[left:right] + tail
    return text[start:end] if _RENUMBERED.search(quoted) else quoted


def list_reason(document: Document, a: Analysis, already: bool, otherwise: str) -> str:
    """Why an NREF type has no site: no reference list (or an empty one), the list already shows this
    type's error (a new one at the same place could not be told from it), or `otherwise`."""
    if a.list_target is None or not a.items:
        return "no_reference_list"
    return "already_in_original" if already else otherwise


def list_section(document: Document, a: Analysis) -> Section:
    assert a.list_target is not None
    return document.sections[a.list_target]


def inserted_entry(document: Document, site: Site) -> tuple[Section, Replacement, str] | None:
    """The list section, the replacement that adds the site's candidate in order, and the entry's text."""
    a = analyse(document)
    section = list_section(document, a)
    candidate: Candidate = site.detail
    replacement = _insertion(section, a.items, candidate.cited, candidate.title)
    if replacement is None:
        return None
    return section, replacement, replacement.new.strip("\n")


def _order_signature(entries: Sequence[Cited]) -> tuple[str, str] | None:
    problem = order_problem(entries)
    return None if problem is None else (entries[problem[0]].ident, entries[problem[1]].ident)


_LEAD_IN = regex.compile(r"下列文件[^\n]*")


def _insertion(section: Section, items: Sequence[ListItem], cited: Cited, title: str) -> Replacement | None:
    """Insert "number title" as a new entry where the list order (good or bad) stays as it was."""
    if not items:
        return None
    entries = [i.cited for i in items]
    before = _order_signature(entries)
    gap = next((i.gap for i in items if i.gap), "　")
    line = f"{cited.citation}{gap}{title}"
    # an entry a damaged source printed above the lead-in sentence is no place to add another
    lead_in = _LEAD_IN.search(section.text)
    for p in range(len(items) + 1):
        if _order_signature([*entries[:p], cited, *entries[p:]]) != before:
            continue
        if lead_in is not None and p < len(items) and items[p].start < lead_in.end():
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


@dataclass(frozen=True)
class Candidate:
    """A real standard listed by another document of the corpus."""

    cited: Cited
    title: str
    source: str = ""  # where the citation came from (NREF-03: 参考文献, or the informative place)


@lru_cache(maxsize=1 << 14)  # every document of a build reads the corpus's reference lists
def parsed(line: str, number: str, year: str | None) -> Cited | None:
    cited = parse_number(line) or parse_number(f"{number}—{year}" if year else number)
    if cited is None or cited.category == 5:
        return None
    return cited
