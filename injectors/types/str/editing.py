"""Injectors of the structure dimension (STR): elements removed, moved or mistitled; numbering; annexes.

Every edit here is deterministic (generator "rule"): it removes, moves or renumbers whole sections, or
rewrites a heading, an annex marker, a caption number or one template paragraph. Renumbering uses the
edit's `renames` so that printed numbers stay consistent where the error is not about numbering.
"""

from __future__ import annotations

import regex

from injectors.base import Site
from parsers.model import Document

# a table or figure numbered within its chapter ("表5-2", "图 6－1"): renumbering the chapter leaves it behind
_CHAPTER_CAPTION = regex.compile(r"(?m)^\s*[表图]\s?(?P<chapter>[1-9]\d?)\s?[-－]\s?\d+")


def block_end(document: Document, position: int) -> int:
    """The position after a section and all its sub-clauses (term entries of chapter 3, A.1 of 附录A …)."""
    number = document.sections[position].number
    prefix = f"{number[-1]}." if number.startswith("附录") else f"{number}."
    end = position + 1
    while end < len(document.sections) and document.sections[end].number.startswith(prefix):
        end += 1
    return end


def chapter_at(document: Document, number: str, kind: str) -> int | None:
    """Position of chapter `number` when it is the element of this kind (where GB/T 1.1 puts it)."""
    return next(
        (
            i
            for i, s in enumerate(document.sections)
            if s.number == number and s.kind == kind and s.level == 1
        ),
        None,
    )


def spread_per_form(sites: list[Site], per_form: int) -> list[Site]:
    """At most `per_form` sites of each form (`site.detail[0]`), spread through the document: a form with
    a site at every last clause would otherwise be drawn far more often than one with a single site (the
    last chapter, a second annex), and a type's forms are meant to be drawn about evenly."""
    by_form: dict[str, list[Site]] = {}
    for site in sites:
        by_form.setdefault(site.detail[0], []).append(site)
    out = []
    for found in by_form.values():
        step = len(found) / per_form
        out.extend(found if step <= 1 else [found[int((k + 0.5) * step)] for k in range(per_form)])
    return out


def numbers_captions_by_chapter(document: Document, chapters: set[str]) -> bool:
    """Whether any of `chapters` numbers its tables or figures by chapter ("表5-2" in chapter 5): an edit
    that renumbers such a chapter would leave chapter 4 holding 表5-2, a slip of its own the error did not
    mean to make, so it renumbers no such chapter."""
    for section in document.sections:
        chapter = section.number.split(".", 1)[0]
        if chapter in chapters and any(
            m.group("chapter") == chapter for m in _CHAPTER_CAPTION.finditer(section.text)
        ):
            return True
    return False
