"""NREF-04 引用文件排列顺序错误 (List order violated)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from injectors.base import Injector, Proposal, Site
from injectors.checking import Violation
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from injectors.types.nref.analysis import analyse, order_problem, place_name
from injectors.types.nref.editing import list_reason, list_section
from parsers.model import Document

ERROR_TYPE = ErrorType(
    "NREF-04",
    "NREF",
    "引用文件排列顺序错误",
    "List order violated",
    "GB/T 1.1—2020 8.6",
    "GB/T 1.1—2009 6.2.3",
    "R",
    "D",
    ("E-R-04",),
)


CATEGORY_NAMES = ("国家标准", "行业标准", "地方标准", "团体标准", "ISO、ISO/IEC或IEC标准", "其他文件")


ORDER_RULE = (
    "国家标准、行业标准、地方标准、团体标准、ISO、ISO/IEC或IEC标准、其他文件的顺序，同类按代号和顺序号排列"
)


def list_out_of_order(document: Document) -> list[Violation]:
    """Chapter 2 lists national, industry, local, group, ISO/IEC, then other documents, each by number."""
    a = analyse(document)
    if a.list_target is None:
        return []
    entries = [item.cited for item in a.items]
    problem = order_problem(entries)
    if problem is None:
        return []
    first, second = entries[problem[0]], entries[problem[1]]
    why = (
        f"{CATEGORY_NAMES[second.category]}应排在{CATEGORY_NAMES[first.category]}之前"
        if first.category != second.category
        else "未按文件代号和顺序号排列"
    )
    return [
        Violation(
            document.sections[a.list_target].number,
            "NREF-04",
            f"规范性引用文件清单中“{first.ident}”排在“{second.ident}”之前，{why}",
        )
    ]


class ReferenceListOutOfOrder(Injector):
    """NREF-04: swap two entries of an ordered list so that the GB/T 1.1—2020 8.4 order breaks.

    Why: the list order (national, industry, local, group, ISO/IEC, others; by code and number) lets a
    reader find an entry. Sites are the pairs of entries whose swap breaks the order under every accepted
    convention; the edit exchanges their two spans.
    """

    error_type = ERROR_TYPE.id

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        a = analyse(document)
        if len(a.items) == 1:
            return "one_entry"
        return list_reason(document, a, bool(list_out_of_order(document)), "no_swap_breaks_order")

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
        section = list_section(document, a)
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
            form="categories" if first.cited.category != second.cited.category else "numbers",
        )


DEFINITION = TypeDefinition(ERROR_TYPE, ReferenceListOutOfOrder, checks=(list_out_of_order,))
