"""NREF-04 引用文件排列顺序错误 (List order violated)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from injectors.authoring import (
    Document,
    Edit,
    ErrorInstance,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Replacement,
    Section,
    Site,
    TypeDefinition,
    Violation,
    replay,
)
from injectors.language.citations import find_cited
from injectors.types.nref.analysis import analyse, list_items, order_problem, place_name
from injectors.types.nref.editing import list_reason, list_section

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
    version = "5"
    digest = "f620f9c4234824a2"

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
                if any(a.impossible(c) for c in entries[i : j + 1]):  # the description quotes them all
                    continue
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
        corrupted = replay(edit, section)
        assert corrupted is not None
        told = order_told(section, corrupted, edit)
        if told is None:
            return None
        form = "categories" if first.cited.category != second.cited.category else "numbers"
        return Proposal(edit, *told, form=form)


def _written(section: Section) -> list[str]:
    """The list's numbers as the list writes them, so that the quotes match the text a reviewer sees."""
    return [section.text[i.cited.start : i.cited.end].strip() for i in list_items(section)]


def _moved(edit: Edit) -> tuple[str, str] | None:
    """The numbers of the entry the edit moved up and of the one it moved down."""
    found = [list(find_cited(r.new)) for r in edit.replacements[:2]]
    if len(found) < 2 or not all(found):
        return None
    (up, *_), (down, *_) = found
    a, b = edit.replacements[0].new, edit.replacements[1].new
    return a[up.start : up.end].strip(), b[down.start : down.end].strip()


def order_told(original: Section, final: Section, edit: Edit) -> tuple[str, str] | None:
    """(error, fix) as the list finally reads: the entries from the one moved up to the one moved down,
    and the order they belong in (their order in the original list, which was in order). "Move X before
    Y" is right only for neighbours; a swap across other entries leaves them between, out of order."""
    moved = _moved(edit)
    before, now = _written(original), _written(final)
    if moved is None or not set(moved) <= set(now):
        return None
    up, down = moved
    p, q = now.index(up), now.index(down)
    affected = [w for w in now[p : q + 1] if w in before]  # an entry another error added is its own
    right = sorted(affected, key=before.index)
    if p > q or right == affected:
        return None
    where = f"{place_name(final.number)}规范性引用文件清单中“{up}”被排在“{down}”之前"
    if len(affected) == 2:
        return f"{where}，不符合{ORDER_RULE}的规则", f"将“{down}”移至“{up}”之前"
    listed = "".join(f"“{w}”" for w in affected)
    ordered = "".join(f"“{w}”" for w in right)
    return (
        f"{where}（现依次为{listed}），不符合{ORDER_RULE}的规则",
        f"将这{len(affected)}项文件调整为{ordered}的顺序",
    )


def told_finally(instance: ErrorInstance, original: Document, final: Document) -> tuple[str, str] | None:
    """The description on the assembled document: its list as the other errors left it."""
    section = final.section(instance.location)
    if section is None or instance.original_section is None:
        return None
    return order_told(instance.original_section, section, instance.edit)


DEFINITION = TypeDefinition(
    ERROR_TYPE, ReferenceListOutOfOrder, checks=(list_out_of_order,), redescribe=told_finally
)
