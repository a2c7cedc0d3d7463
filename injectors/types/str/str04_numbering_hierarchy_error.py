"""STR-04 编号或层次错误 (Numbering / hierarchy error)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

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
from injectors.language.crossrefs import references_into
from injectors.language.punctuation import match_style
from injectors.types.str.analysis import document_family, structure_checkable
from injectors.types.str.editing import block_end, spread_per_form

ERROR_TYPE = ErrorType(
    "STR-04",
    "STR",
    "编号或层次错误",
    "Numbering / hierarchy error",
    "GB/T 1.1—2020 7.2～7.4",
    "GB/T 1.1—2009 5.2",
    "R",
    "D",
    ("E-S-06",),
)


_BODY_NUMBER = regex.compile(r"^[1-9]\d*(?:\.\d+)*$")


_ANNEX_NUMBER = regex.compile(r"^[A-Z](?:\.\d+)+$")


_ANNEX_HEADING = regex.compile(r"^附录([A-Z])$")


Key = tuple[int | str, ...]


MAX_CLAUSE_LEVELS = 5  # 条 may be subdivided down to the fifth level (5.1.1.1.1.1, A.1.1.1.1.1)


@lru_cache(maxsize=1 << 14)  # every section number, read again by each candidate's lint
def number_key(number: str) -> Key | None:
    """ "5.2.1" → (5, 2, 1); "附录B" → ("B",); "B.2" → ("B", 2); 前言, 参考文献 … → None."""
    if _BODY_NUMBER.match(number):
        return tuple(int(p) for p in number.split("."))
    if m := _ANNEX_HEADING.match(number):
        return (m.group(1),)
    if _ANNEX_NUMBER.match(number):
        head, *rest = number.split(".")
        return (head, *(int(p) for p in rest))
    return None


def key_number(key: Key) -> str:
    """The printed number of a key: (5, 2) → "5.2"; ("B",) → "附录B"; ("B", 1) → "B.1"."""
    if len(key) == 1 and isinstance(key[0], str):
        return f"附录{key[0]}"
    return ".".join(str(p) for p in key)


def is_term_entry(section: Section) -> bool:
    """Entries of 术语和定义 (3.1, 3.2 …) are numbered like clauses but are not 条: TER-05 checks them."""
    return section.kind == "terms" and "." in section.number


@dataclass(frozen=True)
class Numbered:
    """A numbered section that takes part in the clause hierarchy."""

    position: int
    key: Key
    section: Section


def numbered_sections(document: Document) -> list[Numbered]:
    return _numbered(document.sections)


def _numbered(sections: Sequence[Section]) -> list[Numbered]:
    return [
        Numbered(i, key, s)
        for i, s in enumerate(sections)
        if (key := number_key(s.number)) is not None and not is_term_entry(s)
    ]


def children_of(items: Sequence[Numbered]) -> dict[Key, list[Numbered]]:
    """Immediate children by number (5.2 → 5.2.1, 5.2.2 …), in document order."""
    out: dict[Key, list[Numbered]] = {}
    for item in items:
        if len(item.key) > 1:
            out.setdefault(item.key[:-1], []).append(item)
    return out


_PAGE_FURNITURE = regex.compile(r"^\s*([IVXⅠ-Ⅻ]+|\d{1,3}|[A-Z]{1,4}(/[TZ])?\s*[\d.]+\s*[—–-]\s*\d{4})\s*$")


def has_hanging_text(section: Section) -> bool:
    """Body text between a heading and its first sub-clause (page furniture from PDFs is ignored)."""
    return any(line.strip() and not _PAGE_FURNITURE.match(line) for line in section.text.split("\n"))


def numbering_violations(document: Document) -> list[Violation]:
    """Sequence, parent, duplicate, depth, lone sub-clause and 悬置段 checks over all numbered sections."""
    found, parents = _outline_violations(tuple((s.number, s.kind) for s in document.sections))
    out = list(found)
    for position, first in parents:
        s = document.sections[position]
        if s.kind != "terms" and has_hanging_text(s):
            message = f"“{s.number}”的标题与其第一个子条“{first}”之间有悬置段"
            out.append(Violation(s.number, "STR-04", message))
    return out


@lru_cache(maxsize=256)  # an outline is a few kilobytes; a document has few
def _outline_violations(
    outline: tuple[tuple[str, str], ...],
) -> tuple[tuple[Violation, ...], tuple[tuple[int, str], ...]]:
    """The checks that read only the sections' numbers and kinds (every candidate's lint asks them, and
    most edits change neither), and the parents with the number of their first sub-clause (their 悬置段
    depends on their text)."""
    items = _numbered([Section(number, "", "", 0, kind) for number, kind in outline])
    walk = _Walk()
    for item in items:
        if item.key in walk.seen:
            walk.out.append(Violation(item.section.number, "STR-04", f"编号“{item.section.number}”重复"))
        elif len(item.key) == 1:
            walk.top_level(item)
        else:
            walk.clause(item)
    children = children_of(items)
    parents = tuple((i.position, children[i.key][0].section.number) for i in items if i.key in children)
    return (*walk.out, *_lone_children(items, children)), parents


@dataclass
class _Walk:
    """The outline read in document order: the numbers seen, the open path of levels, the last number
    under each parent, and what was found wrong so far."""

    out: list[Violation] = field(default_factory=list)
    seen: set[Key] = field(default_factory=set)
    path: list[Key] = field(default_factory=list)
    last_child: dict[Key, int] = field(default_factory=dict)
    last_chapter: int = 0
    last_annex: str = ""

    def top_level(self, item: Numbered) -> None:
        """A chapter (continuous from 1) or an annex (continuous from A)."""
        key, number = item.key, item.section.number
        self.seen.add(key)
        self.path = [key]
        if isinstance(key[0], int):
            n, last = key[0], self.last_chapter
            if n > last + 1:
                missing = "、".join(str(k) for k in range(last + 1, n))
                message = f"章编号不连续：第{last}章之后为第{n}章，缺少第{missing}章"
                self.out.append(Violation(number, "STR-04", message))
            elif n <= last:
                self.out.append(Violation(number, "STR-04", f"章编号顺序错误：第{n}章位于第{last}章之后"))
            self.last_chapter = max(last, n)
            return
        letter = str(key[0])
        expected = chr(ord(self.last_annex) + 1) if self.last_annex else "A"
        if letter > expected:
            message = f"附录编号不连续：应为“附录{expected}”，而为“{number}”"
            self.out.append(Violation(number, "STR-04", message))
        self.last_annex = max(self.last_annex, letter)

    def clause(self, item: Numbered) -> None:
        """A 条: at most five levels, under the level above it, continuous among its siblings."""
        key, number = item.key, item.section.number
        self.seen.add(key)
        parent, depth = key[:-1], len(key) - 1
        if depth > MAX_CLAUSE_LEVELS:  # 5.1 and A.1 are the first level of 条
            self.out.append(Violation(number, "STR-04", f"条“{number}”超过了五个层次"))
        if len(self.path) >= depth and self.path[depth - 1] == parent:
            self._sibling(key, number)
            self.path = [*self.path[:depth], key]
            return
        if len(self.path) >= depth:
            where = f"位于“{key_number(self.path[depth - 1])}”之下，与其上一层次“{key_number(parent)}”不符"
            self.path = [*self.path[:depth], key]
        else:  # a skipped level: 5.1.1.1 right after 5.1
            above = f"（位于“{key_number(self.path[-1])}”之下）" if self.path else ""
            where = f"缺少上一层次“{key_number(parent)}”{above}"
            self.path = [key[: i + 1] for i in range(len(key))]
            self.last_child[parent] = int(key[-1])  # the missing level is taken as open: 5.1.1.2 follows
        self.out.append(Violation(number, "STR-04", f"层次错误：条“{number}”{where}"))

    def _sibling(self, key: Key, number: str) -> None:
        """A clause under the open parent: numbered right after the last one there."""
        parent, n = key[:-1], int(key[-1])
        last = self.last_child.get(parent, 0)
        if n > last + 1:
            prev = key_number((*parent, last)) if last else key_number(parent)
            gap = key_number((*parent, last + 1))
            where = f"“{prev}”之后" if last else f"“{prev}”下的第一个条"
            self.out.append(Violation(number, "STR-04", f"条编号不连续：{where}为“{number}”，缺少“{gap}”"))
        elif n <= last:
            message = f"条编号顺序错误：“{number}”位于“{key_number((*parent, last))}”之后"
            self.out.append(Violation(number, "STR-04", message))
        self.last_child[parent] = max(last, n)


def _lone_children(items: Sequence[Numbered], children: dict[Key, list[Numbered]]) -> list[Violation]:
    """A level with a single clause: 5.2.1 alone under 5.2."""
    by_key = {item.key: item for item in items}
    out = []
    for parent, kids in children.items():
        if len({k.key for k in kids}) == 1 and parent in by_key:
            only = kids[0].section.number
            message = f"“{key_number(parent)}”下只有一个子条“{only}”：只有一个条的层次不应设条"
            out.append(Violation(only, "STR-04", message))
    return out


def numbering_and_hierarchy(document: Document) -> list[Violation]:
    """GB/T 1.1—2020 7.3: continuous numbers, right parents, no lone sub-clause, ≤ 5 levels, no 悬置段."""
    if not structure_checkable(document):
        return []
    return numbering_violations(document)


def _label(key: Key) -> str:
    number = key_number(key)
    if len(key) == 1:
        return number if number.startswith("附录") else f"第{number}章"
    return f"第{number}条"  # quoted like this, it follows a renumbering that another error makes


def hanging_paragraph(section: Section, kids: Sequence[Numbered], rng: random.Random) -> str:
    """A lead paragraph drafters put under a heading, in one of the forms they use ("本章规定了…。",
    "…应符合4.1～4.3的规定。", "…包括…。"), built from the heading and its sub-clauses' own titles so
    that no one wording marks the type."""
    unit = "章" if "." not in section.number else "条"
    title = section.title
    first, last = kids[0].section.number, kids[-1].section.number
    span = f"{first}～{last}" if len(kids) > 2 else f"{first}和{last}" if len(kids) == 2 else first
    if title.endswith(("要求", "方法", "规则", "程序", "流程", "条件", "指标", "内容", "原则", "规定")):
        templates = [f"本{unit}规定了{title}。", f"{title}应符合{span}的规定。"]
    else:
        templates = [f"本{unit}规定了{title}的有关要求。", f"{title}应符合{span}的规定。"]
    titles = [k.section.title for k in kids]
    if 2 <= len(titles) <= 6 and all(titles) and all(len(t) <= 16 for t in titles):
        listed = "、".join(titles[:-1]) + "和" + titles[-1]
        templates.append(f"本{unit}从{'、'.join(titles)}{len(titles)}个方面作出规定。")
        templates.append(f"{title}包括{listed}。")
        templates.append(f"{title}分为{listed}，分别见{span}。")
    context = "\n".join(k.section.text for k in kids)
    return match_style(rng.choice(templates), context)  # the punctuation the clauses below it use


class NumberingHierarchyError(Injector):
    """Why: GB/T 1.1—2020 7.3 wants continuous numbers, each clause under its own parent, no level with a
    single clause, and no 悬置段. How (one per site): rename the last clause of a level so that 5.2 is
    followed by 5.4 (gap), or takes its previous sibling's number (duplicate), or continues the previous
    parent's numbering (6.3 → 5.5 under chapter 6); number the last chapter of the body one too high, with
    its clauses (a chapter dropped in revision and the rest not renumbered: chapter); lift the second of
    two sub-clauses to the level above when their parent is the last of its level (5.2.2 → 5.3, leaving
    5.2.1 alone under 5.2: lone); or put a lead paragraph between a heading and its first sub-clause
    (悬置段). Only the last clause or chapter of a level is renamed, so the later numbers stay valid; a
    renamed chapter or a lifted clause is one the rest of the document does not refer to, so no
    cross-reference is left pointing at a number that is gone. Each form offers one site (of those in
    the document, the one in the middle), so that the forms are drawn about evenly.
    """

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "9990bba1c604c0ef"
    forms = ("gap", "duplicate", "parent", "hanging", "chapter", "lone")

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        items = numbered_sections(document)
        keys = {item.key for item in items}
        kids = children_of(items)
        out = []
        for item in items:
            key = item.key
            if (
                key in kids
                and not item.section.text.strip()
                and item.section.title
                and item.section.kind == "clause"
            ):
                out.append(Site(item.position, ("hanging",)))
            if len(key) < 2 or not isinstance(key[-1], int):
                continue
            parent = key[:-1]
            siblings = kids.get(parent, [])
            if siblings[-1].key != key or key[-1] < 2 or len({s.key for s in siblings}) != len(siblings):
                continue
            if (*parent, key[-1] + 1) not in keys:
                out.append(Site(item.position, ("gap", (*parent, key[-1] + 1))))
            if key not in kids and (*parent, key[-1] - 1) in keys:
                out.append(Site(item.position, ("duplicate", (*parent, key[-1] - 1))))
            uncle = _previous_sibling(parent)
            if uncle is not None and uncle in keys and len(siblings) >= 3 and len(kids.get(uncle, [])) >= 2:
                last = max(int(k.key[-1]) for k in kids[uncle])
                new = (*uncle, last + 1)
                if new not in keys:
                    out.append(Site(item.position, ("parent", new)))
        out.extend(_last_chapter_sites(document, items))
        out.extend(_lone_sites(document, items, kids))
        return spread_per_form(out, 1)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        mode = site.detail[0]
        old = section.number
        if mode == "hanging":
            items = numbered_sections(document)
            key = number_key(old)
            kids = children_of(items).get(key, []) if key is not None else []
            if not kids:
                return None
            assert key is not None
            paragraph = hanging_paragraph(section, kids, rng)
            first = kids[0].section.number
            return Proposal(
                Edit("modify", site.target, (Replacement("text", 0, "", paragraph),)),
                f"{_label(key)}标题与其第一个子条“{first}”之间设有悬置段“{paragraph}”",
                # "第5.9.1条" follows another error's renumbering; "“5.9.1 概述”" would not, being no heading
                # of the original document
                f"删除该悬置段，或将其内容作为一个编号的条（如第{first}条“概述”）并相应调整后续条的编号",
                form=mode,
            )
        if mode == "lone":
            return _lone_proposal(document, site)
        new_key: Key = site.detail[1]
        new = key_number(new_key)
        key = number_key(old)
        assert key is not None
        below = _below(document, site.target)
        if mode == "chapter":
            fix = f"将第{new}章改为第{old}章"
            if below:
                carried = f"{_each(below)}{_quoted(below, old, new)}"
                fix = f"将第{new}章及其下{carried}依次改为第{old}章及{_quoted(below)}"
            return Proposal(
                Edit("modify", site.target, renames=((old, new),)),
                f"章编号不连续：第{int(old) - 1}章之后为第{new}章“{section.title}”，缺少第{old}章",
                fix,
                form=mode,
            )
        parent = _label(key[:-1])
        edit = Edit("modify", site.target, renames=((old, new),))
        # the rename carries the clause's sub-clauses along: the fix that renumbers the clause alone would
        # leave them under the wrong number, so both parts name them
        carried = f"（其下{_each(below)}随之编为{_quoted(below, old, new)}）" if below else ""
        if mode == "gap":
            previous = key_number((*key[:-1], int(key[-1]) - 1))
            error = f"{parent}下的条编号不连续：“{previous}”之后为“{new}”{carried}，缺少“{old}”"
            fix = _renumber_fix(below, old, new)
        elif mode == "duplicate":
            error = f"条编号“{new}”重复：{parent}下最后一条（原“{old}”）与前一条同为“{new}”"
            fix = f"将第二个“{new}”改为“{old}”"
        else:
            error = (
                f"条“{new}”{carried}位于{parent}之下，编号与其所属上一层次不符"
                f"（接续了{_label(new_key[:-1])}的编号）"
            )
            fix = _renumber_fix(below, old, new)
        return Proposal(edit, error, fix, form=mode)


def _below(document: Document, position: int) -> list[str]:
    """The numbers of the sub-clauses under a section, in document order (a rename carries them along)."""
    return [s.number for s in document.sections[position + 1 : block_end(document, position)]]


def _quoted(numbers: Sequence[str], old: str = "", new: str = "") -> str:
    """Sub-clause numbers as a description quotes them, with their prefix `old` read as `new`: "“5.4.1”",
    "“5.4.1”“5.4.2”", "“5.4.1”～“5.4.6”" (each quoted, so that it follows another error's renumbering)."""
    shown = [new + n[len(old) :] if old else n for n in numbers]
    if len(shown) > 2:
        return f"“{shown[0]}”～“{shown[-1]}”"
    return "".join(f"“{n}”" for n in shown)


def _renumber_fix(below: Sequence[str], old: str, new: str) -> str:
    """Renumber the clause back, and its sub-clauses with it."""
    if not below:
        return f"将“{new}”改为“{old}”"
    return f"将“{new}”及其下{_each(below)}{_quoted(below, old, new)}依次改为“{old}”{_quoted(below)}"


def _each(below: Sequence[str]) -> str:
    return "的条" if len(below) == 1 else "各条"


def _last_chapter_sites(document: Document, items: Sequence[Numbered]) -> list[Site]:
    """The last chapter of the body, numbered one too high with its clauses: where no other section
    refers into it (its clauses would keep their old numbers in the references)."""
    chapters = [i for i in items if len(i.key) == 1 and isinstance(i.key[0], int)]
    if len(chapters) < 4:
        return []
    last = chapters[-1]
    if last.section.kind != "clause" or last.key[0] != len(chapters) or not last.section.title:
        return []
    inside = range(last.position, block_end(document, last.position))
    numbers = frozenset(document.sections[p].number for p in inside)
    if references_into(document, numbers, inside):
        return []
    return [Site(last.position, ("chapter", (int(last.key[0]) + 1,)))]


def _lone_sites(document: Document, items: Sequence[Numbered], kids: dict[Key, list[Numbered]]) -> list[Site]:
    """Parents with exactly two sub-clauses, themselves the last of their level, whose second sub-clause
    has none of its own and is not referred to: it can be lifted to the level above."""
    keys = {item.key for item in items}
    out = []
    for parent, children in kids.items():
        if len(parent) < 2 or len(children) != 2 or children[1].key in kids:
            continue
        uncle = (*parent[:-1], int(parent[-1]) + 1)
        second = children[1]
        if (
            uncle in keys
            or children[0].key[-1] != 1
            or second.key[-1] != 2
            or not (children[0].section.title and second.section.title)
            or references_into(
                document, frozenset({second.section.number}), range(second.position, second.position + 1)
            )
        ):
            continue
        out.append(Site(children[0].position, ("lone", second.position, key_number(uncle))))
    return out


def _lone_proposal(document: Document, site: Site) -> Proposal:
    _, position, new = site.detail
    only = document.sections[site.target]
    lifted = document.sections[position]
    parent = only.number.rsplit(".", 1)[0]
    return Proposal(
        Edit("modify", site.target, renames=((lifted.number, new),)),
        f"第{parent}条下只有一个子条“{only.number} {only.title}”：原与其并列的“{lifted.title}”"
        f"被编为上一层次的“{new}”，只有一个条的层次不应设条",
        f"将“{new} {lifted.title}”改回“{lifted.number}”，与“{only.number}”并列置于第{parent}条之下",
        form="lone",
    )


def _previous_sibling(key: Key) -> Key | None:
    last = key[-1]
    if isinstance(last, int):
        return (*key[:-1], last - 1) if last >= 2 else None
    return (chr(ord(last) - 1),) if last > "A" else None


DEFINITION = TypeDefinition(ERROR_TYPE, NumberingHierarchyError, checks=(numbering_and_hierarchy,))
