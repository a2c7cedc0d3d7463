"""Which edition of GB/T 1.1 a document is held to: the one place that decides it for every type.

A document that declares its edition (the foreword's "按照GB/T 1.1—2020…起草") is held to that one. A
document that declares none (an HJ or HJ/T standard, a draft without its foreword sentence) is still
written one way or the other, and a reviewer reads it by that writing: annexes marked
"（规范性附录）/（资料性附录）" and a text calling itself 本标准 are the 2009 edition's ways,
"（规范性）/（资料性）" and 本文件 the 2020 edition's. Every description of one document must cite
clauses of one edition, so the choice is made here once and not by each type from its own clue.
"""

from __future__ import annotations

from injectors.error_type import EDITION_2009, EDITION_2020
from parsers.model import Document

EDITIONS = (EDITION_2009, EDITION_2020)

# where a document names itself (本标准 / 本文件) in the way its drafters were taught
_FRONT_KINDS = ("foreword", "introduction", "scope")


def marks_2009_annexes(document: Document) -> bool:
    """Whether the annexes carry the 2009 markers: "规范性附录"/"资料性附录" rather than "规范性"/"资料性"."""
    markers = [s.annex_marker for s in document.sections if s.kind == "annex" and s.annex_marker]
    return bool(markers) and all(m.endswith("附录") for m in markers)


def marks_2020_annexes(document: Document) -> bool:
    markers = [s.annex_marker for s in document.sections if s.kind == "annex" and s.annex_marker]
    return bool(markers) and not any(m.endswith("附录") for m in markers)


def edition(document: Document) -> str:
    """The declared edition; for a document that declares none, the edition its annex markers follow,
    else the one its self-reference follows (本标准 more often than 本文件 in the foreword, introduction
    and scope: 2009), else the current one."""
    if document.drafting_rules in EDITIONS:
        return document.drafting_rules
    if marks_2009_annexes(document):
        return EDITION_2009
    if marks_2020_annexes(document):
        return EDITION_2020
    front = "".join(s.text for s in document.sections if s.kind in _FRONT_KINDS)
    return EDITION_2009 if front.count("本标准") > front.count("本文件") else EDITION_2020
