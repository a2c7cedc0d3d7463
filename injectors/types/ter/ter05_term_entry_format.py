"""TER-05 术语条目或引导语格式错误 (Term-entry or lead-in format error)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import regex

from injectors.authoring import (
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Proposal,
    Replacement,
    Section,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.language.terms import (
    DefinedTerm,
    compact_key,
    defined_terms,
    entry_sections,
    terms_chapter,
)
from injectors.types.ter.editing import TerminologyInjector, clean_term

ERROR_TYPE = ErrorType(
    "TER-05",
    "TER",
    "术语条目或引导语格式错误",
    "Term-entry or lead-in format error",
    "GB/T 1.1—2020 8.7",
    "GB/T 1.1—2009 6.3.2",
    "R",
    "D",
    ("E-TM-05",),
)


# Signs that the parser lost entry headings: a bare entry number, or a "术语 english" line inside a text.
_LOST_HEADING = regex.compile(r"^(\d+(\.\d+)+|[\p{Han}（）()、/]{2,24}[ \u3000]+[A-Za-z][A-Za-z \-]*)$")


# ---------------------------------------------------------------------------------------------------
# The lead-in sentence of chapter 3.
# ---------------------------------------------------------------------------------------------------
# The "no terms" lead-in (GB/T 1.1—2020 8.5.2), and the paraphrases of it a drafter writes: each says
# that the chapter defines nothing, which the entries after it contradict.
NONE_FORMS = (
    "没有需要界定的术语和定义",
    "不另行界定术语",
    "所用术语均无须单独界定",
    "未设专门的术语条目",
)


LEAD_NONE = regex.compile(r"本(?:文件|标准)(?:" + "|".join(NONE_FORMS) + ")")


# Lead-ins of older editions or of no edition that drafters copy from old templates ("本标准采用下列定义。"):
# the rules prescribe the lead-in sentences, and these are none of them.
OLD_FORMS = ("{this}采用下列术语和定义。", "{this}采用下列定义。", "下列定义适用于{this}。")


LEAD_OLD = regex.compile(r"^(?:本(?:文件|标准)采用下列(?:术语和)?定义|下列定义适用于本(?:文件|标准))")


LEAD_LIST = regex.compile(r"^下列术语和定义适用于本(?:文件|标准)。?$")


LEAD_REF = regex.compile(r"^(?P<refs>.+?)界定的(?P<also>以及下列)?术语和定义适用于本(?:文件|标准)。?")


LEAD_THIS = regex.compile(r"适用于(?P<this>本标准|本文件)")


def lead_in(chapter: Section) -> tuple[int, str]:
    """The offset and text of the first line of the terms chapter (its lead-in); (-1, "") when empty."""
    offset = 0
    for line in chapter.text.split("\n"):
        if line.strip():
            return offset, line
        offset += len(line) + 1
    return -1, ""


def _last_part(number: str) -> int | None:
    tail = number.rsplit(".", 1)[-1]
    return int(tail) if tail.isdigit() else None


def numbering_readable(document: Document) -> bool:
    """False when entry headings were read as text (a bare "3.99" line, a "术语 english" line inside an
    entry): the numbers seen are then the parser's, not the author's, and are not judged."""
    found = terms_chapter(document)
    if found is None:
        return False
    sections = [found[1], *(s for _, s in entry_sections(document))]
    return not any(_LOST_HEADING.match(line.strip()) for s in sections for line in s.text.split("\n"))


def numbering_defects(document: Document) -> Iterator[Violation]:
    """Entries of one level numbered 1, 2, 3 … under their parent: a gap or a repeat is an error."""
    if not numbering_readable(document):
        return
    last: dict[str, str] = {}  # parent number → number of the previous sibling
    for _, s in entry_sections(document):
        parent, _, _ = s.number.rpartition(".")
        n = _last_part(s.number)
        if not parent or n is None:
            continue
        previous = last.get(parent)
        p = _last_part(previous) if previous else 0
        last[parent] = s.number
        if p is None:
            continue
        if previous == s.number:
            yield Violation(s.number, "TER-05", f"术语条目编号“{s.number}”重复")
        elif n > p + 1:
            after = f"{previous}之后" if previous else "首个条目"
            message = f"术语条目编号不连续：{after}为{s.number}，应为{parent}.{p + 1}"
            yield Violation(s.number, "TER-05", message)
        elif n <= p:
            yield Violation(s.number, "TER-05", f"术语条目编号顺序错误：{previous}之后为{s.number}")


def english_defects(document: Document) -> Iterator[Violation]:
    """An entry without the English equivalent that the document's other entries all carry."""
    entries = defined_terms(document)
    with_english = [e for e in entries if e.english]
    if len(with_english) < 2 or len(with_english) * 2 <= len(entries):
        return
    for e in entries:
        if not e.english and not regex.match(r"^\s*[A-Za-z]", e.line):
            yield Violation(e.number, "TER-05", f"第{e.number}条术语“{e.term}”缺少英文对应词")


def lead_in_defects(document: Document) -> Iterator[Violation]:
    """The lead-in must agree with what follows (GB/T 1.1—2020 8.5.2).

    A lead-in that cites a document chapter 2 does not list is left to NREF-01 (cited normatively but
    not listed, reported at "2"): reporting it here as well would give one defect two labels, and every
    NREF-01 instance that deletes a document the lead-in cites would carry an unlabelled TER-05.
    """
    found = terms_chapter(document)
    if found is None:
        return
    _, chapter = found
    _, line = lead_in(chapter)
    line = compact_key(line)  # PDFs break "适 用于" apart
    has_entries = bool(entry_sections(document))
    where = chapter.number
    if not line:
        if has_entries and numbering_readable(document):
            yield Violation(where, "TER-05", "术语和定义一章没有引导语，术语条目前未说明其适用于本文件")
        return
    if LEAD_NONE.search(line) and has_entries:
        yield Violation(where, "TER-05", f"引导语为“{line}”，但其后列出了术语条目")
    if LEAD_OLD.match(line) and has_entries:
        yield Violation(where, "TER-05", f"引导语“{line}”不是规定的引导语形式")
    ref = LEAD_REF.match(line)
    if ref and not ref.group("also") and has_entries:
        yield Violation(
            where, "TER-05", "引导语仅称引用文件界定的术语和定义适用，未写“以及下列”，但其后列出了术语条目"
        )
    this = LEAD_THIS.search(line)
    if this and this.group("this") == "本标准" and document.drafting_rules == "GB/T 1.1—2020":
        yield Violation(where, "TER-05", "按GB/T 1.1—2020起草的文件，引导语应称“适用于本文件”而非“本标准”")
    if LEAD_LIST.match(line) and not has_entries and "\n" not in chapter.text.strip():
        yield Violation(where, "TER-05", "引导语称“下列术语和定义适用于本文件”，但其后没有术语条目")


def term_entry_format(document: Document) -> Iterator[Violation]:
    """Entry numbers, English equivalents and the lead-in sentence of the terms chapter."""
    yield from numbering_defects(document)
    yield from english_defects(document)
    yield from lead_in_defects(document)


# ---------------------------------------------------------------------------------------------------
# TER-05 Term-entry or lead-in format error
# ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EntryChange:
    kind: str  # english | gap | duplicate
    entry: DefinedTerm | None = None
    renames: tuple[tuple[str, str], ...] = ()
    shown: str = ""  # the number the reader now sees
    previous: str = ""  # the entry's own number before the edit
    before: str = ""  # the number of the entry before it ("" for the first entry)
    span: int = 1  # sections from the entry to the end of the chapter: all of them are renumbered


@dataclass(frozen=True)
class LeadInChange:
    kind: str  # none | only-ref | generation | missing
    start: int
    old: str
    new: str


def _sibling_entries(document: Document) -> list[tuple[int, Section]]:
    """The level-2 entries of chapter 3 when they are numbered 3.1, 3.2 … without a break."""
    found = terms_chapter(document)
    if found is None:
        return []
    chapter = found[1]
    top = [(i, s) for i, s in entry_sections(document) if s.level == 2]
    expected = [f"{chapter.number}.{k}" for k in range(1, len(top) + 1)]
    return top if [s.number for _, s in top] == expected else []


class TermEntryFormat(TerminologyInjector):
    """TER-05: an entry number gap or duplicate, an English equivalent removed, a lead-in sentence that
    contradicts the entries (本文件没有需要界定的术语和定义 / only "X界定的" without 以及下列) or the
    document's drafting rules ("适用于本标准" in a GB/T 1.1—2020 document), an old template's wording
    ("本标准采用下列定义。"), or no lead-in at all (the drafter went straight to the entries). A lead-in
    citing a
    document chapter 2 does not list is NREF-01's (cited normatively but not listed), not injected here.

    Numbers change through `Edit.renames` on the entry and the entries after it, so the rest of the
    chapter stays consecutive and only one break is visible; `span` claims every renumbered entry, so
    no other error is placed on an entry whose number this edit changes.
    """

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "817d6a1aabad34ab"
    forms = ("english", "gap", "duplicate", "none", "only-ref", "generation", "missing", "wording")

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        yield from self._entry_sites(document)
        yield from self._lead_in_sites(document, context)

    def _entry_sites(self, document: Document) -> Iterator[Site]:
        """One entry for the English form (which one depends on the document) and two for each numbering
        form (middle, last), so that the lead-in forms get a fair share of the shuffled sites."""
        entries = defined_terms(document)
        with_english = [e for e in entries if e.english]
        if len(with_english) - 1 >= 2 and (len(with_english) - 1) * 2 > len(entries):
            english = [
                e
                for e in with_english
                if document.sections[e.position].title.endswith(e.english)
                and clean_term(e.term)
                and not regex.search(r"[；;]", e.english)  # "…identifier；MID": the abbreviation would go too
            ]
            if english:  # one entry, the middle one, as each lead-in form has one site: a form's share
                # follows its sites, and three English sites outweighed every lead-in form
                e = english[len(english) // 2]
                yield Site(e.position, EntryChange("english", e))
        top = _sibling_entries(document)
        if len(top) < 2 or not numbering_readable(document):
            return
        parent = top[0][1].number.rsplit(".", 1)[0]
        numbers = [s.number for _, s in top]
        end = entry_sections(document)[-1][0] + 1
        for k in sorted({len(top) // 2, len(top) - 1}):
            position, section = top[k]
            later = numbers[k:]
            gap = tuple((n, f"{parent}.{int(n.rsplit('.', 1)[1]) + 1}") for n in later)
            yield Site(
                position,
                EntryChange(
                    "gap",
                    renames=gap,
                    shown=gap[0][1],
                    previous=section.number,
                    before=numbers[k - 1] if k else "",
                    span=end - position,
                ),
            )
            if k >= 1:
                dup = tuple((n, f"{parent}.{int(n.rsplit('.', 1)[1]) - 1}") for n in later)
                change = EntryChange(
                    "duplicate", renames=dup, shown=dup[0][1], previous=section.number, span=end - position
                )
                yield Site(position, change)

    def _lead_in_sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        found = terms_chapter(document)
        if found is None or not entry_sections(document):
            return
        position, chapter = found
        offset, raw = lead_in(chapter)
        line = raw.strip()
        if offset < 0 or not (LEAD_LIST.match(line) or LEAD_REF.match(line)):
            return
        start = offset + raw.index(line)
        line = line[: line.index("。") + 1] if "。" in line else line  # the lead-in sentence only
        this = "本标准" if "本标准" in line else "本文件"
        yield Site(position, LeadInChange("none", start, line, f"{this}没有需要界定的术语和定义。"))
        if LEAD_LIST.match(line):  # an old template's wording ("本标准采用下列定义。")
            yield Site(position, LeadInChange("wording", start, line, OLD_FORMS[0].format(this=this)))
        if LEAD_LIST.match(line) and chapter.text.strip() == line:
            yield Site(position, LeadInChange("missing", start, line, ""))  # the drafter went to the entries
        also = line.find("以及下列")
        if LEAD_REF.match(line) and also >= 0:
            yield Site(position, LeadInChange("only-ref", start + also, "以及下列", ""))
        at = line.find("适用于本文件")
        if at >= 0 and document.drafting_rules == "GB/T 1.1—2020":
            yield Site(position, LeadInChange("generation", start + at + 3, "本文件", "本标准"))

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        change = site.detail
        if isinstance(change, LeadInChange):
            this = "本标准" if "本标准" in change.old else "本文件"
            if change.kind == "none":  # not always the one stock sentence
                change = replace(change, new=f"{this}{rng.choice(NONE_FORMS)}。")
            if change.kind == "wording":
                change = replace(change, new=rng.choice(OLD_FORMS).format(this=this))
            return self._lead_in_proposal(document, site.target, change)
        if change.kind == "english":
            entry: DefinedTerm = change.entry
            title = document.sections[entry.position].title
            cut = len(title[: -len(entry.english)].rstrip())
            return Proposal(
                Edit("modify", site.target, (Replacement("title", cut, title[cut:], ""),)),
                error=f"术语条目“{entry.term}”缺少英文对应词",
                fix=f"在术语“{entry.term}”后补充英文对应词“{entry.english}”",
                form=change.kind,
            )
        edit = Edit("modify", site.target, span=change.span, renames=change.renames)
        # the later entries moved with it: the fix moves them back; the last entry has none after it
        rest = "依次前移" if change.kind == "gap" else "依次后移"
        rest = f"，其后条目编号{rest}" if len(change.renames) > 1 else ""
        if change.kind == "gap":
            where = f"第{change.before}条之后的条目" if change.before else "第一个术语条目"
            return Proposal(
                edit,
                error=f"术语条目编号不连续：{where}编为“{change.shown}”，缺少“{change.previous}”",
                fix=f"将“{change.shown}”改为“{change.previous}”{rest}",
                form=change.kind,
            )
        return Proposal(
            edit,
            error=f"术语条目编号重复：第{change.shown}条之后的条目也编为“{change.shown}”",
            fix=f"将第二个“{change.shown}”改为“{change.previous}”{rest}",
            form=change.kind,
        )

    @staticmethod
    def _lead_in_proposal(document: Document, target: int, change: LeadInChange) -> Proposal:
        edit = Edit("modify", target, (Replacement("text", change.start, change.old, change.new),))
        if change.kind == "none":
            return Proposal(
                edit,
                error=f"术语和定义的引导语写作“{change.new}”，但其后列出了术语条目",
                fix=f"将引导语改为“{change.old}”",
                form=change.kind,
            )
        if change.kind == "wording":
            return Proposal(
                edit,
                error=f"术语和定义的引导语写作“{change.new}”，不是规定的引导语形式",
                fix=f"将引导语改为“{change.old}”",
                form=change.kind,
            )
        if change.kind == "missing":
            return Proposal(
                edit,
                error="术语和定义一章缺少引导语，术语条目前没有说明其适用范围的引导语",
                fix=f"在术语条目前补充引导语“{change.old}”",
                form=change.kind,
            )
        if change.kind == "only-ref":
            return Proposal(
                edit,
                error="术语和定义的引导语删去了“以及下列”，只称引用文件界定的术语适用，与其后列出的术语条目矛盾",
                fix="在引导语“界定的”之后补上“以及下列”",
                form=change.kind,
            )
        return Proposal(
            edit,
            error="按GB/T 1.1—2020起草的文件，术语和定义的引导语写作“适用于本标准”",
            fix="将“本标准”改为“本文件”",
            form=change.kind,
        )


DEFINITION = TypeDefinition(ERROR_TYPE, TermEntryFormat, checks=(term_entry_format,))
