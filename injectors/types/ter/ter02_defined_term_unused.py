"""TER-02 定义的术语未使用 (Defined term never used)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    LLMSpec,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Section,
    Site,
    TypeDefinition,
    Violation,
    defined_term_list,
    failure,
)
from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.citations import find_cited
from injectors.language.punctuation import match_style
from injectors.language.terms import (
    DefinedTerm,
    abbreviations,
    compact_key,
    compact_section,
    defined_terms,
    definition_defects,
    document_text,
    entry_sections,
    first_sentence,
    modal_verbs,
    terms_chapter,
    words,
)
from injectors.types.ter.editing import (
    TerminologyInjector,
    at_home,
    chapter_name,
    clean_term,
    vocabulary,
    word_synonyms,
)
from parsers.entries import split_term

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


_TITLE_ABBREVIATION = regex.compile(r"[；;]\s*(?P<abbr>[A-Z][A-Za-z0-9\-]{1,11})\s*$")
_OPEN_BRACKET = regex.compile(r"[（(]")


def term_aliases(document: Document, entry: DefinedTerm) -> tuple[str, ...]:
    """Other names under which a term is used: 简称…, an abbreviation after "；", its 缩略语 entry."""
    section = document.sections[entry.position]
    named = _named(tuple(abbreviations(document).items()))
    return _aliases(section.title, section.text, entry.variants, named)


# Every lint of a candidate asks again for every entry's aliases and names, of mostly unchanged sections.
@lru_cache(maxsize=LINE_CACHE)
def _aliases(
    title: str, text: str, variants: tuple[str, ...], named: tuple[tuple[str, str], ...]
) -> tuple[str, ...]:
    out = [m.group("alias") for m in _ALIAS.finditer(text)]
    m = _TITLE_ABBREVIATION.search(title)
    if m:
        out.append(m.group("abbr"))
    out.extend(abbr for abbr, name in named if name in variants)
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=256)
def _named(abbreviated: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(abbreviation, the compact name it abbreviates) of a 缩略语 chapter's entries ("" when none)."""
    out = []
    for abbr, full in abbreviated:
        name = _OPEN_BRACKET.split(full, maxsplit=1)[0].strip()
        out.append((abbr, compact_key(name) if name else ""))
    return tuple(out)


@lru_cache(maxsize=LINE_CACHE)
def _names(variants: tuple[str, ...], aliases: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in (*variants, *(compact_key(a) for a in aliases)) if n)


@lru_cache(maxsize=LINE_CACHE)
def _latin_word(needle: str) -> regex.Pattern[str]:
    return regex.compile(rf"(?<![A-Za-z]){regex.escape(needle)}(?![A-Za-z])")


def _count(haystack: str, needle: str) -> int:
    """Occurrences; an ASCII needle (an abbreviation) must not be part of a longer Latin word."""
    if not needle.isascii():
        return haystack.count(needle)
    return len(_latin_word(needle).findall(haystack))


def term_is_used(document: Document, entry: DefinedTerm, whole: str | None = None) -> bool:
    """Used anywhere outside its own entry, under any of its forms or aliases (lenient on purpose)."""
    whole = document_text(document) if whole is None else whole
    own = compact_section(document.sections[entry.position])
    names = _names(entry.variants, term_aliases(document, entry))
    return any(_count(whole, name) > _count(own, name) for name in names)


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


@dataclass(frozen=True)
class Placement:
    """Where a new entry goes: after section `after`, numbered `number`; the entries it precedes move
    down by one (`renames`, prefixes, so that their sub-entries follow)."""

    after: int
    number: str
    renames: tuple[tuple[str, str], ...]


def referenced_numbers(document: Document) -> set[str]:
    """Clause numbers the text points at ("见3.4", "按3.2界定"): entries a renumbering must not move.
    Lines citing another document ("[来源：GB/T …，3.4]") are left out: their numbers are not ours."""
    out: set[str] = set()
    for section in document.sections:
        for line in section.text.split("\n"):
            if "来源" in line or find_cited(line):
                continue
            out.update(m.group(0) for m in _NUMBER.finditer(line))
    return out


_NUMBER = regex.compile(r"(?<![\d.A-Za-z])\d+(?:\.\d+)+(?![\d])")


def placements(document: Document) -> list[Placement]:
    """Every place a drafter could add an entry to a flat terms chapter: before any entry (those after it
    renumbered by one, when no text refers to them by number) or after the last; only after the last in
    a chapter with group headings or irregular numbers."""
    found = terms_chapter(document)
    entries = entry_sections(document)
    if found is None or not entries:
        return []
    chapter = found[1]
    top = [(p, s) for p, s in entries if s.number.startswith(chapter.number + ".") and s.level == 2]
    tails = [s.number.rsplit(".", 1)[1] for _, s in top]
    if not top or not all(t.isdigit() for t in tails):
        return []
    numbers = [int(t) for t in tails]
    out = [Placement(entries[-1][0], f"{chapter.number}.{max(numbers) + 1}", ())]
    flat = all(s.level == 2 for _, s in entries) and numbers == list(range(1, len(numbers) + 1))
    if not flat:
        return out
    referenced = referenced_numbers(document)
    for k in range(len(top) - 1, -1, -1):
        moved = [s.number for _, s in top[k:]]
        if any(r == m or r.startswith(m + ".") for r in referenced for m in moved):
            break
        renames = tuple((m, f"{chapter.number}.{int(m.rsplit('.', 1)[1]) + 1}") for m in moved)
        out.append(Placement(top[k][0] - 1, top[k][1].number, renames))
    return out


@lru_cache(maxsize=1 << 14)  # asked of every entry of the corpus, for every document
def borrowable(entry: DefinedTerm) -> bool:
    """A foreign entry whose definition can be copied as it stands: clean, self-contained, one sentence."""
    definition = entry.definition
    return (
        clean_term(entry.term)
        and (not entry.english or regex.fullmatch(r"[\x20-\x7e]+", entry.english) is not None)
        and 8 <= len(definition) <= 120
        and definition.endswith("。")
        and first_sentence(definition) == definition
        and not regex.search(r"[（(]\s*\d+(\.\d+)+\s*[)）]|本文件|本标准|见|注", definition)
        and not modal_verbs(definition)
        and not definition_defects(entry)
    )


def _entry_style(document: Document) -> tuple[bool, str, bool]:
    """How this chapter writes its entries: whether they give an English equivalent (most do), what
    separates term and English in the title, and whether definitions end with "。"."""
    entries = defined_terms(document)
    with_english = [e for e in entries if e.english]
    english = 2 * len(with_english) >= len(entries) > 0
    gap = " "
    for e in with_english:
        title = document.sections[e.position].title
        at = title.find(e.english)
        if at > 0 and title[:at].strip() == e.term:
            gap = title[len(title[:at].rstrip()) : at] or " "
            break
    full_stop = sum(e.definition.endswith("。") for e in entries) * 2 >= len(entries)
    return english, gap, full_stop


@dataclass(frozen=True)
class RenamedEntry:
    """An entry of the document whose term is written in a near-synonym form that the text never uses
    ("记录间隔" → "记录周期"): the body keeps the old form, so the defined term is used nowhere."""

    entry: DefinedTerm
    new: str


def renamed_entries(document: Document, whole: str) -> Iterator[RenamedEntry]:
    """Entries whose head noun has a near-synonym (`NEAR_SYNONYMS`) giving a form found nowhere in the
    document; the term must be used in the body, or the original already shows the defect."""
    entries = defined_terms(document)
    taken = {e.term for e in entries}
    for entry in entries:
        section = document.sections[entry.position]
        if not section.title.startswith(entry.term) or not term_is_used(document, entry, whole):
            continue
        parts = words(entry.term)
        if len(parts) < 2:
            continue
        for synonym in word_synonyms(parts, len(parts) - 1):
            new = "".join(parts[:-1]) + synonym
            if regex.search(r"(\p{Han})\1", new) or new in taken or compact_key(new) in whole:
                continue
            if set(synonym) & set(parts[-2]):
                continue  # "保护间隔间距": the synonym repeats the word before it
            if any(t in new for t in taken if t not in entry.term):
                continue
            yield RenamedEntry(entry, new)
            break


class UnusedTermDefined(TerminologyInjector):
    """TER-02: a plausible entry is added to chapter 3 and the term is used nowhere else.

    The entry (term, definition, English equivalent when this chapter gives them) is copied from another
    corpus document: of the same field, or of another whose entry is made of this document's own words
    (`at_home`), never the term itself; with neither, no site. It goes anywhere in the list, as a
    drafter adds an entry: the entries after it are renumbered (and their numbers in other descriptions
    with them), unless the text refers to one by number.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "1721272a52a5cd03"
    forms = ("added_entry", "renamed_entry")
    MAX_CANDIDATES = 6  # the borrowed entries most related to the document

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = terms_chapter(document)
        if found is None:
            return []
        whole = document_text(document)
        own = {v for e in defined_terms(document) for v in e.variants}
        vocab = vocabulary(document)
        english, _, _ = _entry_style(document)
        scored: dict[str, tuple[float, BorrowedEntry]] = {}
        for corpus_term in context.terms_for(document) if placements(document) else ():
            e = corpus_term.entry
            entry = DefinedTerm(-1, e.number, e.term, e.english, e.definition, 0, e.definition)
            if e.term in scored or e.term in own or compact_key(e.term) in whole or not borrowable(entry):
                continue
            if english and not e.english:
                continue
            score = at_home(document, corpus_term, vocab)
            if score is None:
                continue
            scored[e.term] = (score, BorrowedEntry(e.term, e.english if english else "", e.definition))
        ranked = sorted(scored.values(), key=lambda se: (-se[0], se[1].term))
        sites = [Site(found[0], b) for _, b in ranked[: self.MAX_CANDIDATES]]
        sites.extend(Site(r.entry.position, r) for r in renamed_entries(document, whole))
        return sites

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No terms chapter or no entry; else no used entry whose term has a near-synonym the text never
        writes, and no entry of a document of its narrow field to add."""
        if terms_chapter(document) is None:
            return "no_terms_chapter"
        if not defined_terms(document):
            return "no_entries"
        return "no_variant_nor_entry_of_its_field"

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        if isinstance(site.detail, RenamedEntry):
            return _renamed(document, site.detail)
        options = placements(document)
        if not options:
            return None
        where = rng.choice(options)
        borrowed: BorrowedEntry = site.detail
        _, gap, full_stop = _entry_style(document)
        style = "".join(s.text for _, s in entry_sections(document))
        definition = match_style(borrowed.definition, style)
        if not full_stop:
            definition = definition.rstrip("。.")
        title = f"{borrowed.term}{gap}{borrowed.english}" if borrowed.english else borrowed.term
        section = Section(number=where.number, title=title, text=definition, level=2, kind="terms")
        return Proposal(
            Edit("insert", where.after, inserted=section, renames=where.renames),
            error=f"{chapter_name(document)}增加了术语条目“{borrowed.term}”，但该术语在文件其他部分均未使用",
            fix=f"删除术语条目“{borrowed.term}”，或在正文中按界定的含义使用该术语",
            form="added_entry",
        )


def _renamed(document: Document, renamed: RenamedEntry) -> Proposal:
    entry = renamed.entry
    return Proposal(
        Edit("modify", entry.position, (Replacement("title", 0, entry.term, renamed.new),)),
        error=(
            f"第{entry.number}条界定的术语“{renamed.new}”在文件其他部分均未使用（正文使用的是“{entry.term}”）"
        ),
        fix=f"将术语条目改回正文使用的“{entry.term}”，或在正文中统一使用“{renamed.new}”",
        form="renamed_entry",
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
            f"这是新加在术语和定义一章中的术语条目“{m['term']}”的定义。把定义改写得符合本文件的领域"
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
