"""Position bias: where a type puts its errors, so that "look at the last entry" is not a strategy.

Per instance, the relative position (0 first … 1 last) of its location among the corrupted document's
sections of the same kind, and whether it is the last one there (not counted where it is the only one).
For an inserted section "last" means last among its siblings (same parent, same level); for an edit that
adds whole lines to a section (a reference list, a term entry) it means the added line is the section's
last line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from statistics import mean

from parsers.model import Document
from validation.audit.release import AuditInstance, Release


@dataclass(frozen=True)
class Placement:
    relative: float | None  # None when the document has only one section of that kind
    last: bool | None  # None when there is nothing to be last among (a lone scope edited in place)


@dataclass(frozen=True)
class TypePosition:
    error_type: str
    instances: int
    mean_relative: float | None
    share_last: float | None


def _parent(number: str) -> str:
    return number.rsplit(".", 1)[0] if "." in number else ""


def _added_line_last(instance: AuditInstance) -> bool | None:
    """Whether an edit that adds whole lines added the section's last line (None: it adds no line)."""
    section = instance.corrupted_section
    if section is None or instance.edit.op != "modify":
        return None
    added = [r.new.strip("\n") for r in instance.edit.replacements if r.field == "text" and "\n" in r.new]
    added = [a.splitlines()[-1] for a in added if a.strip()]
    if not added:
        return None
    lines = [line for line in section.text.splitlines() if line.strip()]
    return bool(lines) and lines[-1].strip() in {a.strip() for a in added}


def placement(instance: AuditInstance, corrupted: Document, original: Document) -> Placement | None:
    """Where the instance sits; None when its location cannot be found."""
    document = original if instance.edit.op == "remove" else corrupted
    section = document.section(instance.location)
    if section is None:
        return None
    same_kind = [s.number for s in document.sections if s.kind == section.kind]
    index = same_kind.index(section.number)
    relative = round(index / (len(same_kind) - 1), 4) if len(same_kind) > 1 else None
    last: bool | None = index == len(same_kind) - 1 if len(same_kind) > 1 else None
    if instance.edit.op == "insert":
        siblings = [
            s.number
            for s in document.sections
            if _parent(s.number) == _parent(section.number) and s.level == section.level
        ]
        last = siblings[-1] == section.number if len(siblings) > 1 else None
    else:
        line_last = _added_line_last(instance)
        if line_last is not None:
            last = line_last
    return Placement(relative, last)


def audit_positions(release: Release, types: Iterable[str]) -> dict[str, TypePosition]:
    found: dict[str, list[Placement]] = {t: [] for t in types}
    for d in release.documents:
        for i in d.instances:
            p = placement(i, d.corrupted, d.original)
            if p is not None:
                found.setdefault(i.error_type, []).append(p)
    out = {}
    for t, places in found.items():
        relative = [p.relative for p in places if p.relative is not None]
        lasts = [p.last for p in places if p.last is not None]
        out[t] = TypePosition(
            t,
            len(places),
            round(mean(relative), 3) if relative else None,
            round(sum(lasts) / len(lasts), 3) if lasts else None,
        )
    return out
