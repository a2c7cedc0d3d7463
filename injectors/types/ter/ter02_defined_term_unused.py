"""TER-02 定义的术语未使用 (Defined term never used)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import regex

from injectors.base import Proposal, Site
from injectors.checking import Violation
from injectors.context import InjectionContext
from injectors.edit import Edit
from injectors.language.terms import (
    JOIN,
    DefinedTerm,
    abbreviations,
    compact_key,
    defined_terms,
    definition_defects,
    document_text,
    entry_sections,
    first_sentence,
    modal_verbs,
    terms_chapter,
)
from injectors.llm.constraints import (
    Answer,
    Budget,
    Failure,
    RewriteCase,
    failure,
)
from injectors.llm.prompts import (
    PromptInput,
    PromptSpec,
    defined_term_list,
)
from injectors.llm.spec import LLMSpec
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from injectors.types.ter.editing import (
    TerminologyInjector,
    chapter_name,
    clean_term,
    relatedness,
    vocabulary,
)
from parsers.entries import split_term
from parsers.model import Document, Section

ERROR_TYPE = ErrorType(
    "TER-02",
    "TER",
    "定义的术语未使用",
    "Defined term never used",
    "GB/T 1.1—2020 8.7",
    "GB/T 1.1—2009 6.3.2",
    "R+L",
    "D",
    ("E-TM-02",),
)


_ALIAS = regex.compile(r"简称[为作]?[“\"「]?(?P<alias>[\p{Han}A-Za-z0-9]{2,12}?)[”\"」]?(?=[。，；）)]|$)")


def term_aliases(document: Document, entry: DefinedTerm) -> tuple[str, ...]:
    """Other names under which a term is used: 简称…, an abbreviation after "；", its 缩略语 entry."""
    section = document.sections[entry.position]
    out = [m.group("alias") for m in _ALIAS.finditer(section.text)]
    m = regex.search(r"[；;]\s*(?P<abbr>[A-Z][A-Za-z0-9\-]{1,11})\s*$", section.title)
    if m:
        out.append(m.group("abbr"))
    for abbr, full in abbreviations(document).items():
        name = regex.split(r"[（(]", full, maxsplit=1)[0].strip()
        if name and compact_key(name) in entry.variants:
            out.append(abbr)
    return tuple(dict.fromkeys(out))


def _count(haystack: str, needle: str) -> int:
    """Occurrences; an ASCII needle (an abbreviation) must not be part of a longer Latin word."""
    if not needle.isascii():
        return haystack.count(needle)
    return len(regex.findall(rf"(?<![A-Za-z]){regex.escape(needle)}(?![A-Za-z])", haystack))


def term_is_used(document: Document, entry: DefinedTerm, whole: str | None = None) -> bool:
    """Used anywhere outside its own entry, under any of its forms or aliases (lenient on purpose)."""
    whole = document_text(document) if whole is None else whole
    own_section = document.sections[entry.position]
    own = compact_key(JOIN.join((own_section.title, own_section.text)))
    names = [*entry.variants, *(compact_key(a) for a in term_aliases(document, entry))]
    return any(_count(whole, name) > _count(own, name) for name in names if name)


# ---------------------------------------------------------------------------------------------------
# Checkers.
# ---------------------------------------------------------------------------------------------------
def defined_term_never_used(document: Document) -> Iterator[Violation]:
    """A term is defined only to be used: an entry whose term appears nowhere else is a defect."""
    whole = document_text(document)
    for entry in defined_terms(document):
        if not term_is_used(document, entry, whole):
            yield Violation(
                entry.number, "TER-02", f"第{entry.number}条界定的术语“{entry.term}”在文件其他部分均未使用"
            )


# ---------------------------------------------------------------------------------------------------
# TER-02 Defined term never used
# ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BorrowedEntry:
    term: str
    english: str
    definition: str


def _next_entry_number(document: Document) -> tuple[int, str, int] | None:
    """Where a new entry goes: (position of the chapter's last section, next number, level)."""
    found = terms_chapter(document)
    entries = entry_sections(document)
    if found is None or not entries:
        return None
    chapter = found[1]
    top = [s for _, s in entries if s.number.startswith(chapter.number + ".") and s.level == 2]
    tails = [s.number.rsplit(".", 1)[1] for s in top]
    if not top or not all(t.isdigit() for t in tails):
        return None
    return entries[-1][0], f"{chapter.number}.{max(int(t) for t in tails) + 1}", 2


def borrowable(entry: DefinedTerm) -> bool:
    """A foreign entry whose definition can be copied as it stands: clean, self-contained, one sentence."""
    definition = entry.definition
    return (
        clean_term(entry.term)
        and bool(entry.english)
        and regex.fullmatch(r"[\x20-\x7e]+", entry.english) is not None
        and 8 <= len(definition) <= 120
        and definition.endswith("。")
        and first_sentence(definition) == definition
        and not regex.search(r"[（(]\s*\d+(\.\d+)+\s*[)）]|本文件|本标准|见|注", definition)
        and not modal_verbs(definition)
        and not definition_defects(entry)
    )


class UnusedTermDefined(TerminologyInjector):
    """TER-02: a plausible entry is added at the end of chapter 3 and the term is used nowhere else.

    The entry (term, English equivalent, definition) is copied from another corpus document, choosing
    terms whose words already occur in this document (so the entry looks at home) but never the term
    itself. The site is the terms chapter (the new entry has no pre-existing violation to skip for).
    """

    error_type = ERROR_TYPE.id
    MAX_CANDIDATES = 6  # the borrowed entries most related to the document

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = terms_chapter(document)
        if found is None or _next_entry_number(document) is None:
            return []
        whole = document_text(document)
        own = {v for e in defined_terms(document) for v in e.variants}
        vocab = vocabulary(document)
        scored: dict[str, tuple[float, BorrowedEntry]] = {}
        for corpus_term in context.terms_for(document):
            e = corpus_term.entry
            entry = DefinedTerm(-1, e.number, e.term, e.english, e.definition, 0, e.definition)
            if e.term in scored or e.term in own or compact_key(e.term) in whole or not borrowable(entry):
                continue
            score = relatedness(e.term, e.definition, vocab)
            scored[e.term] = (score, BorrowedEntry(e.term, e.english, e.definition))
        ranked = sorted(scored.values(), key=lambda se: (-se[0], se[1].term))
        return [Site(found[0], b) for _, b in ranked[: self.MAX_CANDIDATES]]

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        where = _next_entry_number(document)
        if where is None:
            return None
        after, number, level = where
        borrowed: BorrowedEntry = site.detail
        section = Section(
            number=number,
            title=f"{borrowed.term} {borrowed.english}",
            text=borrowed.definition,
            level=level,
            kind="terms",
        )
        return Proposal(
            Edit("insert", after, inserted=section),
            error=f"{chapter_name(document)}增加了术语条目“{borrowed.term}”，但该术语在文件其他部分均未使用",
            fix=f"删除术语条目“{borrowed.term}”，或在正文中按界定的含义使用该术语",
        )


def _new_entry(i: PromptInput) -> dict[str, str] | None:
    if i.template is None or i.template.edit.op != "insert" or i.template.edit.inserted is None:
        return None
    term, english = split_term(i.template.edit.inserted.title)
    return {"term": term, "english": english} if term else None


def _entry_context(i: PromptInput, m: Mapping[str, str]) -> dict[str, str]:
    return {"title": i.document.title, "terms": defined_term_list(i.document)}


def _ter02(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.language.terms import compact_key, document_text

    term = case.material["term"]
    if compact_key(term) in document_text(case.document):
        return failure("condition", f"术语“{term}”在文件其他部分出现了", "the new term is used elsewhere")
    if term in answer.rewritten_text:
        return failure("condition", f"定义中重复了术语“{term}”", "the definition repeats the term")
    return None


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _new_entry,
        lambda m: (
            f"这是新加在术语和定义一章末尾的术语条目“{m['term']}”的定义。把定义改写得符合本文件的领域"
            f"（见<title>），仍是一句能直接替换术语的定义：不以“是指”“指”开头，不含“应”“宜”“可”，"
            f"不出现“{m['term']}”本身；文件其他部分不使用该术语。"
        ),
        _entry_context,
        rewrites_insertion=True,
    ),
    budget=Budget(300, 1.0, 0.3, 3.0),
    condition=_ter02,
)


DEFINITION = TypeDefinition(ERROR_TYPE, UnusedTermDefined, checks=(defined_term_never_used,), llm=LLM)
