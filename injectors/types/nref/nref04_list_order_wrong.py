"""NREF-04 引用文件排列顺序错误 (List order violated)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise

from injectors.authoring import (
    EDITION_2009,
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
    edition,
    replay,
)
from injectors.language.citations import Cited, find_cited
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


# The 2009 edition has no 团体标准 and names the international standards as one kind; the order is told
# without the categories it does not have.
ORDER_RULE_2009 = (
    "国家标准、行业标准、地方标准、国际标准（ISO、ISO/IEC、IEC标准）、其他文件的顺序，同类按代号和顺序号排列"
)


def order_rule(document: Document) -> str:
    return ORDER_RULE_2009 if edition(document) == EDITION_2009 else ORDER_RULE


def rule_key(cited: Cited) -> tuple[int, int, str, tuple[int, ...]]:
    """Where the rule puts an entry: its kind (national, industry, local, group, ISO, ISO/IEC, IEC),
    its code as printed (GB before GB/T before GB/Z, HJ before HJ/T: a different code is another
    group), then its number."""
    return (cited.category, _international(cited), cited.code, cited.parts)


def number_key(cited: Cited) -> tuple[int, int, str, tuple[int, ...]]:
    """The other reading of the 2009 edition: national and international standards by number alone,
    GB, GB/T and GB/Z (ISO, ISO/IEC and IEC) interleaved."""
    if cited.category in (0, 4):
        return (cited.category, 0, "", cited.parts)
    return rule_key(cited)


def _international(cited: Cited) -> int:
    if cited.category != 4:
        return 0
    return 1 if cited.code.startswith("ISO/IEC") else 2 if cited.code.startswith("IEC") else 0


Key = Callable[[Cited], tuple[int, int, str, tuple[int, ...]]]


def order_keys(document: Document) -> tuple[Key, ...]:
    """The orders an entry swap must break, and the run it crosses keep: the 2020 rule's; for a 2009
    document both readings of its rule, so that the order a description states holds under either."""
    return (rule_key, number_key) if edition(document) == EDITION_2009 else (rule_key,)


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
    """NREF-04: swap two entries of an ordered list so that the GB/T 1.1—2020 8.6 order breaks.

    Why: the list order (national, industry, local, group, ISO/IEC, others; by code and number) lets a
    reader find an entry. Sites are the pairs of entries of a run of the list that the original keeps in
    the rule's order (`order_keys`), whose swap breaks that order and the checker's; the edit exchanges
    their two spans, and the order the description asks for is both the rule's and the original's.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "15ba23037c848aac"

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
        keys = order_keys(document)
        for i in range(len(entries)):
            for j in range(i + 1, len(entries)):
                if not in_order(entries[j - 1 : j + 1], keys):
                    break  # the run from i is left: an order the document chose, not the rule's
                span = entries[i : j + 1]
                if any(a.impossible(c) for c in span):  # the description quotes them all
                    continue
                if len(keys) > 1 and any(c.category == 3 for c in span):
                    continue  # 团体标准: a kind the 2009 edition does not place
                if any(key(entries[i]) == key(entries[j]) for key in keys):
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
        told = order_told(section, corrupted, edit, order_rule(document))
        if told is None:
            return None
        form = "categories" if first.cited.category != second.cited.category else "numbers"
        return Proposal(edit, *told, form=form)


def in_order(entries: Sequence[Cited], keys: Sequence[Key]) -> bool:
    return all(key(a) <= key(b) for key in keys for a, b in pairwise(entries))


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


def order_told(original: Section, final: Section, edit: Edit, rule: str) -> tuple[str, str] | None:
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
        return f"{where}，不符合{rule}的规则", f"将“{down}”移至“{up}”之前"
    listed = "".join(f"“{w}”" for w in affected)
    ordered = "".join(f"“{w}”" for w in right)
    return (
        f"{where}（现依次为{listed}），不符合{rule}的规则",
        f"将这{len(affected)}项文件调整为{ordered}的顺序",
    )


def told_finally(instance: ErrorInstance, original: Document, final: Document) -> tuple[str, str] | None:
    """The description on the assembled document: its list as the other errors left it."""
    section = final.section(instance.location)
    if section is None or instance.original_section is None:
        return None
    return order_told(instance.original_section, section, instance.edit, order_rule(original))


DEFINITION = TypeDefinition(
    ERROR_TYPE, ReferenceListOutOfOrder, checks=(list_out_of_order,), redescribe=told_finally
)
