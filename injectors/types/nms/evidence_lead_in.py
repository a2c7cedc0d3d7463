"""Evidence that a list item is a requirement: a lead-in binds the clause's actor to every item of its list
("柜门应符合下列要求：" before its items, "必须满足以下各项要求。" closing the parent of its sub-clauses), so
a weakened item contradicts it. Not "下列规定", which may permit too, nor where another item recommends.
"""

from __future__ import annotations

import regex

from injectors.language.modals import RECOMMENDATION, Modal, modal_verbs
from injectors.language.quotes import shorten
from injectors.types.nms.analysis import place
from injectors.types.nms.evidence import LEAD_IN, Evidence
from injectors.types.nms.provision_parts import LIST_ITEM, heads_its_item, lead_in_line, list_bounds
from parsers.model import Document

# "应符合下列要求：", "必须满足以下各项要求。": a lead-in that makes every item after it a requirement. Not
# "应符合下列规定" (a 规定 may permit as well as require: its items say "可用于…" beside "应…"), nor
# "一般应符合下列要求", which leaves room for exceptions.
_REQUIRED_ITEMS = regex.compile(
    r"(?<!一般|原则上|通常|一般情况下)(?:应|必须|须)(?:分别|同时|全部)?(?:符合|满足|遵守|遵循|达到)"
    r"(?:下列|以下|如下)(?:各项|所有|全部)?(?:要求|条件)[：:。]?\s*$"
)


def lead_in(document: Document, position: int, line: str, modal: Modal) -> list[Evidence]:
    """The lead-in that binds this item's actor to every item of its list ("柜门应符合下列要求：" before
    "b) 柜门应能自动锁闭", or a sub-clause under "7.1 … 必须满足以下各项要求。"): the same actor bound to
    this very provision as a requirement, so a weakened item contradicts it. Unless another item already
    recommends (宜): then the document's own list shows that the lead-in is not meant for every item."""
    section = document.sections[position]
    if LIST_ITEM.match(line):
        if not heads_its_item(line, modal):
            return []
        lead = lead_in_line(section, line).strip()
        found = _REQUIRED_ITEMS.search(lead)
        if found is None or _recommends(_list_of(section.text.split("\n"), line)):
            return []
        return [Evidence(LEAD_IN, _lead_words(lead, found.start()), "本条")]
    parent = next((s for s in reversed(document.sections[:position]) if s.level < section.level), None)
    if parent is None or parent.level != section.level - 1 or parent.kind != section.kind:
        return []
    last = next((x.strip() for x in reversed(parent.text.split("\n")) if x.strip()), "")
    found = _REQUIRED_ITEMS.search(last)
    if found is None or _recommends(_sub_clauses(document, document.sections.index(parent))):
        return []
    return [Evidence(LEAD_IN, _lead_words(last, found.start()), place(parent.number))]


def _list_of(lines: list[str], line: str) -> list[str]:
    """The items of the list `line` belongs to (consecutive list-item lines around it)."""
    at = lines.index(line) if line in lines else 0
    first, last = list_bounds(lines, at)
    return lines[first : last + 1]


def _sub_clauses(document: Document, parent: int) -> list[str]:
    """The text of every clause directly or indirectly under the section at `parent`."""
    level = document.sections[parent].level
    out = []
    for s in document.sections[parent + 1 :]:
        if s.level <= level:
            break
        out.extend(s.text.split("\n"))
    return out


def _recommends(lines: list[str]) -> bool:
    return any(m.force == RECOMMENDATION for x in lines for m in modal_verbs(x))


def _lead_words(line: str, at: int) -> str:
    """The lead-in's own clause, from its subject to 要求 ("柜门应符合下列要求")."""
    a = at
    while a > 0 and line[a - 1] not in "，,；;。：:":
        a -= 1
    words = line[a:].rstrip("：:。 ")
    return words if len(words) <= 30 else shorten(words, 30)
