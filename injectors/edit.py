"""Machine-applicable edits: the exact replacements an injected error made, and how to apply or replay them.

An `Edit` addresses sections by their position in the original document, so all of a document's edits
can be applied together whatever their order. Structural edits (remove, move, insert) and renumbering
(`renames`) are applied after the in-section replacements, and the clause and chapter references of every
section follow the renumbering of the structural edits (as a word processor's cross-references do);
locations are then read from the result. A modify edit's renames are a numbering error itself (STR-04,
TER-05: a heading carries a wrong number): the heading takes it, the references to it stay as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.crossrefs import section_following, section_unfollowed
from parsers.model import Document, Section

FIELDS = ("number", "title", "text", "annex_marker")
OPS = ("modify", "remove", "insert", "move")


@dataclass(frozen=True)
class Replacement:
    """`old` at `start` in one field of the target section becomes `new`."""

    field: str
    start: int
    old: str
    new: str


@dataclass(frozen=True)
class Edit:
    op: str  # modify | remove | insert | move
    target: int  # original position of the section (insert: the section after which the new one goes)
    replacements: tuple[Replacement, ...] = ()
    span: int = 1  # remove / move: the section and its sub-clauses
    inserted: Section | None = None  # insert: the new section
    before: int | None = None  # move: original position of the section it now precedes (None: the end)
    renames: tuple[tuple[str, str], ...] = ()  # number prefixes renamed in the whole document, old → new

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown edit operation {self.op!r}: expected one of {', '.join(OPS)}")

    def __getstate__(self) -> dict[str, Any]:
        """What pickle and copy keep: the fields, not the footprint kept by `footprint` (the work cache's
        keys are the pickled bytes, which must not depend on whether it was computed)."""
        return {k: v for k, v in self.__dict__.items() if k != _FOOTPRINT}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "target": self.target,
            "replacements": [dict(vars(r)) for r in self.replacements],
            "span": self.span,
            "inserted": None if self.inserted is None else _section_dict(self.inserted),
            "before": self.before,
            "renames": [list(r) for r in self.renames],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edit:
        return cls(
            op=data["op"],
            target=data["target"],
            replacements=tuple(Replacement(**r) for r in data["replacements"]),
            span=data["span"],
            inserted=None if data["inserted"] is None else Section(**data["inserted"]),
            before=data["before"],
            renames=tuple((a, b) for a, b in data["renames"]),
        )


def _section_dict(s: Section) -> dict[str, Any]:
    return {
        "number": s.number,
        "title": s.title,
        "text": s.text,
        "level": s.level,
        "kind": s.kind,
        "annex_marker": s.annex_marker,
    }


def section_dict(s: Section | None) -> dict[str, Any] | None:
    return None if s is None else _section_dict(s)


class EditConflict(ValueError):
    """Two edits touch the same span, or a replacement does not match the text it claims to replace."""


def apply_replacements(section: Section, replacements: Sequence[Replacement]) -> Section:
    """Apply spans right to left per field so earlier offsets stay valid."""
    values = {f: getattr(section, f) for f in FIELDS}
    for field in FIELDS:
        spans = sorted((r for r in replacements if r.field == field), key=lambda r: r.start, reverse=True)
        value = values[field]
        end = len(value) + 1
        for r in spans:
            if value[r.start : r.start + len(r.old)] != r.old or r.start + len(r.old) > end:
                raise EditConflict(f"{section.number}: {field}[{r.start}] is not {r.old!r}")
            value = value[: r.start] + r.new + value[r.start + len(r.old) :]
            end = r.start
        values[field] = value
    return replace(section, **values)


def rename_number(number: str, renames: Sequence[tuple[str, str]]) -> str:
    """Apply prefix renames ("5.3" → "5.4" also renames 5.3.1); clause renames before chapter renames."""
    for old, new in sorted(renames, key=lambda r: -r[0].count(".")):
        if number == old or number.startswith(old + "."):
            return new + number[len(old) :]
    return number


def rename_all(number: str, renames: Sequence[tuple[str, str]]) -> str:
    """A number after all renames: clause-level renames first, then chapter renames."""
    return _rename_all(number, tuple(renames))


@lru_cache(maxsize=LINE_CACHE)  # every section's number, each time the choice re-assembles a document
def _rename_all(number: str, renames: tuple[tuple[str, str], ...]) -> str:
    deep = [r for r in renames if "." in r[0]]
    chapters = [r for r in renames if "." not in r[0]]
    return rename_number(rename_number(number, deep), chapters)


def followed_renames(edits: Iterable[Edit]) -> tuple[tuple[str, str], ...]:
    """The renames cross-references follow: those of structural edits (remove, move, insert), which
    renumber to keep the document consistent; never a modify edit's, whose wrong number is the error."""
    return tuple(r for e in edits if e.op != "modify" for r in e.renames)


def unfollowed(document: Document, edit: Edit) -> tuple[str, ...]:
    """The numbers a structural edit renumbers that the document writes where references do not follow
    (`crossrefs.unfollowed_numbers`), in the sections that stay: such an edit would leave them pointing at
    the old numbers, a slip the error did not mean to make. A modify edit's renames are its error."""
    if edit.op == "modify" or not edit.renames:
        return ()
    gone = range(edit.target, edit.target + edit.span) if edit.op == "remove" else range(0)
    found = (
        n
        for position, section in enumerate(document.sections)
        if position not in gone
        for n in section_unfollowed(section, edit.renames, rename_all)
    )
    return tuple(dict.fromkeys(found))


def replay(
    edit: Edit,
    original: Section | None,
    renames: Sequence[tuple[str, str]] = (),
    followed: Sequence[tuple[str, str]] | None = None,
) -> Section | None:
    """The target section after this edit (and the document's renumbering): what a reviewer sees.

    `renames` renumber the headings, `followed` (by default `renames`) the references in the text; a
    modify edit's own renames are never followed (see `followed_renames`)."""
    if edit.op == "remove":
        return None
    if edit.op == "insert":
        section = edit.inserted
    else:
        assert original is not None
        section = apply_replacements(original, edit.replacements)
    assert section is not None
    own = set(edit.renames)
    every = [*renames, *edit.renames]
    follow = [*(renames if followed is None else followed)]
    if edit.op == "modify":  # its renames are the numbering error: the references stay as written
        follow = [r for r in follow if r not in own]
    else:
        follow.extend(edit.renames)
    if edit.op == "insert":  # numbered as it will stand: its own renames only make room for it
        every = [r for r in renames if r not in own]
        follow = [r for r in follow if r not in own]
    return section_following(replace(section, number=rename_all(section.number, every)), follow, rename_all)


@dataclass(frozen=True)
class Applied:
    """A corrupted document and where each edit's target ended up."""

    document: Document
    locations: tuple[str, ...]  # per edit: the number a reviewer must point at
    sections: tuple[Section | None, ...]  # per edit: the target as it now stands (None when removed)
    renames: tuple[tuple[str, str], ...]
    numbers: dict[str, str | None]  # original number → number in the corrupted document (None: removed)
    followed: tuple[tuple[str, str], ...] = ()  # the renames references followed (`followed_renames`)


def claimed_spans(edit: Edit) -> list[tuple[int, str, int, int]]:
    """What an edit occupies: (position, field, start, end); a whole section is field "*"."""
    if edit.op == "insert":
        return []
    if edit.op in ("remove", "move") or not edit.replacements:
        return [(p, "*", 0, 0) for p in range(edit.target, edit.target + edit.span)]
    return [(edit.target, r.field, r.start, r.start + len(r.old)) for r in edit.replacements]


def _renamed_numbers(edit: Edit) -> set[str]:
    return {n for pair in edit.renames for n in pair}


def overlaps(a: Edit, b: Edit) -> bool:
    """Whether two edits cannot both be applied: shared spans, or renames that involve the same numbers."""
    return clash(footprint(a), footprint(b))


@dataclass(frozen=True)
class Footprint:
    """What an edit occupies (`claimed_spans`, the numbers it renames), read once: the planner compares
    every candidate with every pick, pass after pass."""

    numbers: frozenset[str]
    spans: tuple[tuple[int, str, int, int], ...]
    positions: frozenset[int]  # of the spans
    whole: frozenset[int]  # positions claimed whole or in their number ("*", "number")
    sections: frozenset[int]  # `base.occupied`: the spans' positions, and the section an insertion follows


_FOOTPRINT = "_footprint"  # where an edit keeps its footprint once read


def footprint(edit: Edit) -> Footprint:
    """Computed once per edit and kept on it: the corpus-wide choice's trades compare the same candidates'
    edits pairwise again and again."""
    known: Footprint | None = edit.__dict__.get(_FOOTPRINT)
    if known is None:
        spans = tuple(claimed_spans(edit))
        positions = frozenset(p for p, *_ in spans)
        whole = frozenset(p for p, f, *_ in spans if f in ("*", "number"))
        sections = positions | ({edit.target} if edit.op == "insert" else frozenset())
        known = Footprint(frozenset(_renamed_numbers(edit)), spans, positions, whole, sections)
        object.__setattr__(edit, _FOOTPRINT, known)
    return known


def clash(a: Footprint, b: Footprint) -> bool:
    """`overlaps`, on footprints: the numbers renamed by both, a section one claims whole (or its number)
    and the other touches, or touching spans of one field."""
    if a.numbers & b.numbers or a.whole & b.positions or b.whole & a.positions:
        return True
    shared = a.positions & b.positions
    return bool(shared) and any(
        pa == pb and fa == fb and sa <= eb and sb <= ea
        for pa, fa, sa, ea in a.spans
        if pa in shared
        for pb, fb, sb, eb in b.spans
    )


def apply_edits(document: Document, edits: Sequence[Edit]) -> Applied:
    """All of a document's edits together; edits must not overlap (see `overlaps`)."""
    prints = [footprint(e) for e in edits]  # `overlaps` on each pair, each edit's spans read once
    for i, mine in enumerate(prints):
        if any(clash(mine, other) for other in prints[i + 1 :]):
            raise EditConflict(f"two edits touch section {document.sections[edits[i].target].number}")
    items: list[tuple[object, Section]] = list(enumerate(document.sections))
    by_target: dict[int, list[Replacement]] = {}
    for edit in edits:
        if edit.op == "modify":
            by_target.setdefault(edit.target, []).extend(edit.replacements)
    for target, replacements in by_target.items():
        items[target] = (target, apply_replacements(document.sections[target], replacements))
    for n, edit in enumerate(edits):
        if edit.op == "insert":
            assert edit.inserted is not None
            at = next(k for k, (key, _) in enumerate(items) if key == edit.target) + 1
            while at < len(items) and isinstance(items[at][0], tuple):  # after earlier inserts at this place
                at += 1
            items.insert(at, (("insert", n), edit.inserted))
    for edit in edits:
        if edit.op == "move":
            block_keys = set(range(edit.target, edit.target + edit.span))
            block = [it for it in items if it[0] in block_keys]
            items = [it for it in items if it[0] not in block_keys]
            at = (
                len(items)
                if edit.before is None
                else next(k for k, it in enumerate(items) if it[0] == edit.before)
            )
            items[at:at] = block
    removed = {p for e in edits if e.op == "remove" for p in range(e.target, e.target + e.span)}
    items = [it for it in items if it[0] not in removed]
    renames = tuple(r for e in edits for r in e.renames)
    followed = followed_renames(edits)
    final = [(key, _renumbered(key, s, edits, renames, followed)) for key, s in items] if renames else items
    by_key = dict(final)
    locations: list[str] = []
    sections: list[Section | None] = []
    for n, edit in enumerate(edits):
        if edit.op == "remove":
            locations.append(_removed_location(document, edit.target, by_key))
            sections.append(None)
            continue
        section = by_key[("insert", n) if edit.op == "insert" else edit.target]
        locations.append(section.number)
        sections.append(section)
    numbers: dict[str, str | None] = {}
    final_numbers = {key: s.number for key, s in final}
    for i, s in enumerate(document.sections):
        numbers.setdefault(s.number, final_numbers.get(i))
    corrupted = replace(document, sections=tuple(s for _, s in final))
    return Applied(corrupted, tuple(locations), tuple(sections), renames, numbers, followed)


def _removed_location(document: Document, target: int, by_key: Mapping[object, Section]) -> str:
    """Where a reviewer points at a removed section: a removed element (前言, chapter 2) by its own
    number; a removed sub-clause (a term entry) by the element that now lacks it, as that element is
    numbered in the result, since its own number is gone or now names the next one."""
    number = document.sections[target].number
    if "." not in number:
        return number
    parent = number.rsplit(".", 1)[0]
    above = next((p for p in range(target - 1, -1, -1) if document.sections[p].number == parent), None)
    if above is None or above not in by_key:
        return number
    return by_key[above].number


def _renumbered(
    key: object,
    section: Section,
    edits: Sequence[Edit],
    renames: tuple[tuple[str, str], ...],
    followed: tuple[tuple[str, str], ...],
) -> Section:
    """One item's section after the renumbering: its heading renamed, its references following (the
    same object when neither changes it: most sections of a renumbered document stay as they were)."""
    number = rename_all(section.number, _renames_for(key, edits, renames))
    if number != section.number:
        section = replace(section, number=number)
    return section_following(section, _renames_for(key, edits, followed), rename_all)


def _renames_for(
    key: object, edits: Sequence[Edit], renames: tuple[tuple[str, str], ...]
) -> list[tuple[str, str]]:
    """The renames that apply to one item: all of them, except an inserted section's own (see `replay`)."""
    if isinstance(key, tuple):
        own = set(edits[key[1]].renames)
        return [r for r in renames if r not in own]
    return list(renames)


def edit_from_row(row: Mapping[str, Any]) -> Edit:
    """The replayable `Edit` back from its typed Parquet row (as `to_pylist()` or `datasets` gives it)."""
    inserted = row["inserted"]
    return Edit(
        op=row["op"],
        target=row["target"],
        replacements=tuple(
            Replacement(r["field"], r["start"], r["old"], r["new"]) for r in row["replacements"]
        ),
        span=row["span"],
        inserted=None if inserted is None else Section(**inserted),
        before=row["before"],
        renames=tuple((r["old"], r["new"]) for r in row["renames"]),
    )
