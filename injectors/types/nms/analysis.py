"""Checkers of the NMS dimension (modal verbs), and the lexicon telling a modal 应/宜/可 from 响应/适宜/可能.

The lexical helpers here are shared with this dimension's injectors: an injector may only choose a site that
these functions read the same way as the checker does, so an injected error is always detected.
GB/T 1.1—2020 annex C: requirement 应/不应, recommendation 宜/不宜, permission 可/不必. 2009 documents
(本标准, 规范性附录) still use 不得 legitimately; engineering codes with a 本规范用词说明 use 必须/严禁/不得.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

import regex

from injectors.checking import Violation
from injectors.edition import edition
from injectors.language.modal_diff import STRENGTH, modal_changes
from injectors.language.modals import (
    FORCE_ZH,
    PERMISSION,
    REQUIREMENT,
    Modal,
    clause_span,
    modal_verbs,
)
from injectors.language.patterns import CAPTION, EXAMPLE, NOTE
from parsers.entries import definition_line
from parsers.model import Document, Section

_FOREWORD_BOILERPLATE = regex.compile(
    r"起草单位|起草人|提出|归口|代替|历次版本|首次发布|专利|按照GB/T\s*1\.1|本(?:文件|标准)(?:的)?附录"
)


# --- documents ---------------------------------------------------------------------------------------
def generation(document: Document) -> str:
    """ "2020" or "2009": the edition the document is held to (`injectors.edition`)."""
    return edition(document)[-4:]


def informative_annexes(document: Document) -> frozenset[str]:
    """Letters of the annexes marked （资料性） or （资料性附录）."""
    return frozenset(
        s.number[-1] for s in document.sections if s.number.startswith("附录") and "资料性" in s.annex_marker
    )


def annex_letter_of(section: Section) -> str | None:
    if section.kind != "annex":
        return None
    return section.number[-1] if section.number.startswith("附录") else section.number[:1]


def place(number: str) -> str:
    """How a reviewer names a section: 第5章, 第5.2.1条, 附录A, A.2, 前言."""
    if number[:1].isdigit():
        return f"第{number}章" if "." not in number else f"第{number}条"
    return number


def is_table_row(line: str) -> bool:
    return " | " in line or line.lstrip().startswith("|") or "<td" in line or "<tr" in line


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line) for every line of a section text."""
    offset = 0
    for line in text.split("\n"):
        yield offset, line
        offset += len(line) + 1


def is_note_or_example(line: str) -> bool:
    return NOTE.match(line) is not None or EXAMPLE.match(line) is not None


def body_lines(section: Section) -> Iterator[tuple[int, str]]:
    """Lines that state provisions: not notes, examples, table rows (by the section's table structure
    where it has one: a full-width row has no " | ") or captions."""
    in_tables = section.table_lines()
    for k, (offset, line) in enumerate(text_lines(section.text)):
        if (
            line.strip()
            and k not in in_tables
            and not is_note_or_example(line)
            and not is_table_row(line)
            and not CAPTION.match(line)
        ):
            yield offset, line


def is_normative_body(section: Section, informative: frozenset[str]) -> bool:
    """A body clause or a clause of a normative annex (where 应/宜/可 belong)."""
    if section.kind == "clause":
        return True
    letter = annex_letter_of(section)
    return letter is not None and letter not in informative


def definition_offset(section: Section) -> int | None:
    """Offset of the definition line of a term entry (TER-04 owns provisions there)."""
    offset, _ = definition_line(section.text)
    return offset if offset >= 0 else None


def is_foreword_boilerplate(line: str) -> bool:
    """Foreword lines that name organisations, people, replaced editions or list changes (quoting words)."""
    stripped = line.strip()
    if _FOREWORD_BOILERPLATE.search(stripped):
        return True
    return stripped.startswith(("——", "—", "a)", "b)", "c)")) and ("了" in stripped or "（见" in stripped)


_EXPLAINS = regex.compile(r"是指|指|表示|意味")


# --- the checkers ------------------------------------------------------------------------------------
def lintable(section: Section) -> bool:
    return section.kind in ("scope", "clause", "symbols", "annex")


def provisions_in_informative_places(document: Document) -> Iterator[tuple[Section, str, Modal, str]]:
    """(section, place name, modal, line) for every provision in a 注, 示例, 前言 or informative annex.

    The scope (SCP-01) and term definitions (TER-04) belong to other types; in an informative annex
    only requirements (应/不应) are reported, since ISO/IEC rules allow recommendations there, and in an
    example only requirements and recommendations (an example "可以命名为" illustrates, it permits nothing).
    """
    informative = informative_annexes(document)
    for section in document.sections:
        yield from section_provisions(informative, section)


def section_provisions(
    informative: frozenset[str], section: Section
) -> Iterator[tuple[Section, str, Modal, str]]:
    """`provisions_in_informative_places` in one section, given the letters of the informative annexes."""
    if section.kind in ("scope", "introduction", "bibliography", "index", "normative_references"):
        return
    letter = annex_letter_of(section)
    in_informative_annex = letter is not None and letter in informative
    definition = definition_offset(section) if section.kind == "terms" and section.level > 1 else None
    for offset, line in text_lines(section.text):
        if not line.strip() or is_table_row(line) or offset == definition:
            continue
        if section.kind == "foreword":
            if is_foreword_boilerplate(line):
                continue
            where = "前言"
        elif NOTE.match(line):
            where = "注"
        elif EXAMPLE.match(line):
            where = "示例"
        elif in_informative_annex:
            where = "资料性附录"
        else:
            continue
        for modal in modal_verbs(line):
            if where == "资料性附录" and modal.force != REQUIREMENT:
                continue
            if where == "示例" and modal.force == PERMISSION:
                continue  # "……可以命名为：" illustrates, it grants nothing
            a, _ = clause_span(line, modal.start, modal.end)
            if modal.force == PERMISSION and _EXPLAINS.search(line[a : modal.start]):
                continue  # "……是指一个词类可以包含……": explains a figure
            yield section, where, modal, line


def _aligned(original: Document, corrupted: Document) -> Iterator[tuple[Section, Section]]:
    """Pairs of sections at the same place: by position, or (after removals, moves or insertions) by
    matching the sequences of (kind, title), so that renumbering never pairs unrelated sections."""
    if len(original.sections) == len(corrupted.sections):
        yield from zip(original.sections, corrupted.sections, strict=True)
        return
    keys_a = [(s.kind, s.title) for s in original.sections]
    keys_b = [(s.kind, s.title) for s in corrupted.sections]
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            yield from zip(original.sections[i1:i2], corrupted.sections[j1:j2], strict=True)


def modal_diff(original: Document, corrupted: Document, weaker: bool) -> Iterator[Violation]:
    for before, after in _aligned(original, corrupted):
        if before.text == after.text:
            continue
        for old_word, old_force, new_word, new_force, _ in modal_changes(before.text, after.text):
            delta = STRENGTH[new_force] - STRENGTH[old_force]
            if weaker and delta < 0:
                yield Violation(
                    after.number,
                    "NMS-01",
                    f"{place(after.number)}的{FORCE_ZH[old_force]}“{old_word}”被弱化为"
                    f"{FORCE_ZH[new_force]}“{new_word}”",
                )
            elif not weaker and delta > 0:
                yield Violation(
                    after.number,
                    "NMS-02",
                    f"{place(after.number)}的{FORCE_ZH[old_force]}“{old_word}”被强化为"
                    f"{FORCE_ZH[new_force]}“{new_word}”",
                )
