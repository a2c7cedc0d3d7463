"""TER-01's most natural form: a term the body uses again and again loses its entry in chapter 3.

The undefined term an expert accepts is a specific, technical compound of the document's own
body that recurs, and that a reader expects to find defined. The terms its drafter defined and then used
in several clauses are exactly that; taking one entry out of chapter 3 (the entries after it move up by
one, so that no numbering gap gives it away) leaves the body as written, leaning on a term that nothing
defines. Nothing is invented, no wording is added.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import regex

from injectors.language.patterns import CITATION
from injectors.language.terms import (
    BODY_KINDS,
    DefinedTerm,
    defined_terms,
    entry_sections,
    occurrences,
    terms_chapter,
    words,
)
from injectors.language.words import tokenizer
from injectors.types.ter.editing import COMMON_WORDS, clean_term
from injectors.types.ter.lexicon import GENERIC_HEADS, GENERIC_QUALIFIERS, term_like
from injectors.types.ter.ter02_defined_term_unused import referenced_numbers
from parsers.model import Document

# How often the body must use a term before its entry may go: once could be a passing mention, the
# term recurs in a reader's way through the document only when it is used in two clauses or more.
MIN_SECTIONS = 2


@dataclass(frozen=True)
class RemovedEntry:
    """The entry at `number` defining `term` is taken out; the body uses it in `used_in` (section
    numbers, in order); the entries after it are renumbered one up (`renames`)."""

    term: str
    number: str
    used_in: tuple[str, ...]
    renames: tuple[tuple[str, str], ...]


def technical(term: str) -> bool:
    """A term a reader expects to be defined: term-like when it is a compound ("电池单体"), a word of three
    characters or more that is no general word when it is one ("记录仪", not "数据")."""
    if not clean_term(term) or regex.fullmatch(r"[A-Za-z0-9]+", term):
        return False
    parts = words(term)
    general = COMMON_WORDS | GENERIC_QUALIFIERS
    if len(parts) == 1:
        return len(term) >= 3 and term not in general | GENERIC_HEADS
    if term_like(term, COMMON_WORDS):
        return True
    lead, head = parts[0], parts[-1]
    # a long compound led by a word of its field ("生态环境大数据使用者"): the general words inside it
    # ("大", "数据") do not make it a phrase of the general language
    field_led = len(lead) >= 2 and lead not in general and lead not in GENERIC_HEADS
    if len(parts) >= 3 and len(term) >= 6 and len(head) >= 2 and field_led:
        return True
    # jieba may cut a rare qualifier into characters ("伴/热/管线"): a term all the same
    return len(term) >= 4 and len(head) >= 2 and not any(w in general for w in parts[:-1])


# How often jieba's dictionary must count a one-word term before it is a word of the general language
# ("一致性", "保密性", "随机数"), whose meaning a reader knows without a definition; a field's own words
# ("访问控制", "宿主机") the dictionary barely counts.
GENERAL_WORD_COUNT = 25


def self_explanatory(entry: DefinedTerm) -> bool:
    """A term a reader understands from its words alone, so that its missing entry shows no error: a
    compound whose definition only restates its own words ("隐私保护: 为保护隐私而采取的措施"), or one
    word that the general language uses ("一致性")."""
    parts = words(entry.term)
    if len(parts) >= 2:
        return all(p in entry.definition for p in parts)
    return int(tokenizer().FREQ.get(entry.term, 0)) >= GENERAL_WORD_COUNT


def removable_entries(document: Document) -> Iterator[tuple[int, RemovedEntry]]:
    """(position, entry) of the entries of a flat, consecutively numbered terms chapter of three entries
    or more (of another chapter, its last entry only) whose technical term (not `self_explanatory`) the
    body uses in several clauses, and that no text refers to by number (nor the entries after it, which
    move up). A chapter whose lead-in brings in another document's
    terms is left alone: a reader could not tell that the term is not defined there."""
    found = terms_chapter(document)
    entries = entry_sections(document)
    if found is None or len(entries) < 3 or CITATION.search(found[1].text):
        return
    chapter = found[1]
    tails = [s.number.rsplit(".", 1)[-1] for _, s in entries]
    flat = all(s.level == 2 and s.number.startswith(chapter.number + ".") for _, s in entries)
    if not flat or tails != [str(k) for k in range(1, len(entries) + 1)]:
        # entries grouped under headings, or numbered with a break: only the last entry may go, which
        # renumbers nothing ("3.2.1 … 3.5": 3.5 taken out leaves 3.1 to 3.4 as they were)
        position, last = entries[-1]
        if last.level == 2 and last.number.startswith(chapter.number + ".") and tails[-1].isdigit():
            entries = [(position, last)]
        else:
            return
    defined = {e.position: e for e in defined_terms(document)}
    uses = _uses(document, tuple(defined.values()))
    referenced = referenced_numbers(document)
    for k, (position, section) in enumerate(entries):
        moved = [s.number for _, s in entries[k:]]
        if any(r == m or r.startswith(m + ".") for r in referenced for m in moved):
            continue
        entry = defined.get(position)
        if entry is None or not technical(entry.term) or self_explanatory(entry):
            continue
        used_in = uses.get(entry.number, ())
        if len(used_in) < MIN_SECTIONS:
            continue
        renames = tuple((m, f"{chapter.number}.{int(m.rsplit('.', 1)[1]) - 1}") for m in moved[1:])
        yield position, RemovedEntry(entry.term, section.number, used_in, renames)


def _uses(document: Document, entries: tuple[DefinedTerm, ...]) -> dict[str, tuple[str, ...]]:
    """Entry number → the body sections (numbers, in order) that use the term in prose."""
    out: dict[str, list[str]] = {}
    for o in occurrences(document, entries):
        section = document.sections[o.position]
        if section.kind in BODY_KINDS and section.number:
            seen = out.setdefault(o.entry.number, [])
            if section.number not in seen:
                seen.append(section.number)
    return {number: tuple(found) for number, found in out.items()}
