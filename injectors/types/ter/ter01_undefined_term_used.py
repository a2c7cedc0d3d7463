"""TER-01 使用未定义术语 (Undefined term used)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

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
    failure,
    term_still_undefined,
    terms_context,
    text_replacement,
)
from injectors.language.noun_phrases import head_noun, noun_phrases
from injectors.language.patterns import CITATION
from injectors.language.quotations import protected, protected_spans
from injectors.language.terms import (
    BODY_KINDS,
    JOIN,
    DefinedTerm,
    compact_key,
    defined_terms,
    document_text,
    entry_sections,
    modal_verbs,
    occurrences,
    prose_lines,
    tagged,
    terms_chapter,
    words,
)
from injectors.types.ter.abbreviation_entries import AbbreviationEntry, abbreviation_entries
from injectors.types.ter.abbreviation_expansions import SpelledOut, spelled_out
from injectors.types.ter.editing import (
    COMMON_WORDS,
    TerminologyInjector,
    at_home,
    chapter_name,
    clean_term,
    vocabulary,
)
from injectors.types.ter.entry_removal import RemovedEntry, removable_entries
from injectors.types.ter.lexicon import term_like
from injectors.types.ter.owners import may_write

ERROR_TYPE = ErrorType(
    "TER-01",
    "TER",
    "使用未定义术语",
    "Undefined term used",
    "GB/T 1.1—2020 8.7",
    "GB/T 1.1—2009 6.3.2",
    "L",
    "S / J",
    ("E-TM-01",),
    located_at_element=True,
    # an abbreviation is explained under 符号和缩略语 (2009: 符号、代号和缩略语), an element with a clause of
    # its own in both editions
    forms=(
        ("abbreviation_removed", "GB/T 1.1—2020 8.8", "GB/T 1.1—2009 6.3.3"),
        ("expansion_removed", "GB/T 1.1—2020 8.8", "GB/T 1.1—2009 6.3.3"),
    ),
)


# ---------------------------------------------------------------------------------------------------
# TER-01 Undefined term used
# ---------------------------------------------------------------------------------------------------
# Parts of speech around a bare head noun between which a qualifier reads naturally
# ("该周期的数据上传" → "该周期的冻结数据上传"): after 的, punctuation, a preposition, conjunction or
# pronoun; before punctuation, 的, a verb, preposition, conjunction or adverb. A verb or noun before the
# head would make a new compound ("开车时间" → "开车连续驾驶时间"), so it is refused.
_BEFORE_HEAD = ("uj", "x", "p", "c", "r")


# How far from the head its qualifier may be said → what may stand before the head at that reach.
_REACHES = {"line": _BEFORE_HEAD, "section": ("x", "p", "c", "r"), "body": ("x", "p", "c", "r")}


_AFTER_HEAD = ("uj", "x", "p", "c", "v", "d", "ul")


# One-character verbs that may follow a noun; any other (e.g. jieba's "符" in "对象符") is a suffix.
_SHORT_VERBS = frozenset("是为有应可宜将由在经按被会能需须")


# First words that make a noun phrase a description rather than a name ("部分工序", "规定颜色").
_VAGUE_START = regex.compile(
    r"^(?:部分|规定|相应|相关|对应|代表性|一般|其他|有关|全部|主要|按|依|某|各|书写|标明)|(?:实际|标称|条数)$"
)


@dataclass(frozen=True)
class ForeignTerm:
    """A term another corpus document defines, to be written into this one where its head noun stands."""

    start: int
    head: str
    term: str
    origin: str = ""  # the number of the entry in whose definition the term stands ("" when borrowed)


_NOTE_OR_EXAMPLE = regex.compile(r"\s*(注|示例)")


class UndefinedTermUsed(TerminologyInjector):
    """TER-01: the body uses a technical term or abbreviation that chapter 3 / 缩略语 never defines.

    The undefined term an expert accepts is a specific technical compound of the
    document's own body that recurs. (1) A defined term the body uses in several clauses loses its entry
    (`entry_removal`: "探测分区" used in 4.2.1–4.2.3, its entry gone, the entries after it renumbered), or
    (2) an abbreviation the body uses loses its line in 缩略语 (`abbreviation_entries`): the body stays as
    written, or (2b) an abbreviation spelled out where the body first uses it loses its name there
    (`abbreviation_expansions`: "通过虚拟专用网络（VPN）" → "通过VPN"). A document offering several of these
    offers each (three alternatives, a long terms chapter drawn no more often than the other forms), so
    that the corpus-wide choice can take the form other documents left behind. (3) Only where none
    exists, a term-like phrase of the document's world (`lexicon.term_like`: never "综合系统" or
    "数据资源") replaces its head noun where that noun stands bare in a prose line that already says its
    qualifier ("该周期的数据上传" → "…冻结数据上传"): a noun phrase of its own definitions that the body
    never uses, or a term a document of its narrow field defines (`at_home`); each term goes to one
    document of the release only (`owners.may_write`). Where none fits, no instance: made-up initials
    ("CCC") would give it away.
    """

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "d256b6835c9a2831"
    forms = ("entry_removed", "abbreviation_removed", "expansion_removed", "own_concept", "field_term")
    alternatives = 3  # one per form of (1)–(2b), where the document has it
    FOREIGN_TERMS = (
        40  # the borrowed terms most related to the document (their qualifier is checked per site)
    )

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        # the forms that leave the body as written first: a defined term the body uses in several clauses
        # loses its entry (`entry_removal`), a used abbreviation its line in 缩略语 (`abbreviation_entries`)
        removals = [Site(position, (entry,)) for position, entry in removable_entries(document)]
        # one site per 缩略语 list, whichever of its abbreviations: the form is one slip among the others,
        # however long the list (a list of twenty would otherwise outweigh every entry of chapter 3)
        listed: dict[int, list[AbbreviationEntry]] = {}
        for position, abbreviation in abbreviation_entries(document):
            listed.setdefault(position, []).append(abbreviation)
        others = [Site(position, tuple(entries)) for position, entries in listed.items()]
        others.extend(Site(position, (name,)) for position, name in spelled_out(document))
        if others and len(removals) > len(others):
            # a chapter of forty entries would otherwise outweigh the document's other slips: its
            # removals are drawn no more often than they, spread through the chapter
            step = len(removals) / len(others)
            removals = [removals[int(k * step)] for k in range(len(others))]
        if sites := [*removals, *others]:
            return sites
        # else a term-like phrase of the document's world written for a bare head noun whose qualifier the
        # same line already says: it narrows the sentence's meaning at times ("对软件实施管控" → "对服务端
        # 软件…"), so only where no entry or abbreviation can go
        entries = defined_terms(document)
        heads, origins = self._foreign_heads(document, context, entries, document_text(document))
        covered: dict[int, list[tuple[int, int]]] = {}
        for o in occurrences(document, entries):
            covered.setdefault(o.position, []).append((o.start, o.start + len(o.form)))
        for position, section in enumerate(document.sections):
            if section.kind in BODY_KINDS and (
                terms := tuple(
                    self._foreign_options(section, heads, covered.get(position, []), "line", "", origins)
                )
            ):
                sites.append(Site(position, terms))
        return sites

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """Why nothing can be left undefined: a terms chapter that brings in other documents' terms (a
        reader could not tell an entry taken out is defined nowhere), or no term of the document's world
        that names what a body sentence already says (made-up initials, "CCC" for 集中充电柜, would be a
        surface give-away, so the type is skipped instead)."""
        found = terms_chapter(document)
        if found is not None and entry_sections(document) and CITATION.search(found[1].text):
            return "terms_from_cited_documents"
        return "no_natural_term"

    @classmethod
    def _foreign_heads(
        cls, document: Document, context: InjectionContext, entries: Sequence[DefinedTerm], whole: str
    ) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
        """Head noun → the term-like phrases with that head that this document neither defines nor uses
        (`lexicon.term_like`: "电池单体" for head "单体", never "综合系统"): terms of documents of its
        narrow field (`at_home`), and noun phrases of its own definitions (→ the entry they stand in)."""
        own = {v for e in entries for v in e.variants}
        own_heads = {words(e.term)[-1] for e in entries if e.term}  # a bare 记录仪 may mean our 行驶记录仪
        vocab = vocabulary(document)
        scored: dict[str, float] = {}
        for corpus_term in context.terms_for(document):
            term = corpus_term.entry.term
            if not clean_term(term) or term in own or term in scored or compact_key(term) in whole:
                continue
            if not may_write(context, document.doc_id, term):
                continue
            parts = words(term)
            if len(parts) < 2 or parts[-1] in own_heads or modal_verbs(term) or not term_like(term):
                continue
            score = at_home(document, corpus_term, vocab)
            if score is not None:
                scored[term] = score
        best = sorted(scored, key=lambda t: (-scored[t], t))[: cls.FOREIGN_TERMS]
        heads: dict[str, list[str]] = {}
        for term in sorted(best):
            heads.setdefault(words(term)[-1], []).append(term)
        body = JOIN.join(
            s.title + "\n" + s.text for s in document.sections if s.kind in (*BODY_KINDS, "scope")
        )
        phrases = cls._own_phrases(entries, compact_key(body), own, own_heads)
        mine = [p for p in phrases if may_write(context, document.doc_id, p)]
        for term in mine[: cls.FOREIGN_TERMS]:
            heads.setdefault(head_noun(term), []).append(term)
        found = {head: tuple(dict.fromkeys(terms)) for head, terms in sorted(heads.items())}
        return found, {p: phrases[p] for p in mine[: cls.FOREIGN_TERMS] if p not in scored}

    @staticmethod
    def _own_phrases(
        entries: Sequence[DefinedTerm], body: str, own: set[str], own_heads: set[str]
    ) -> dict[str, str]:
        """Noun phrases of this document's own definitions that its body never uses ("电池管理系统" in
        the definition of 储能舱) → the entry's number: concepts of its own world, written into the body
        undefined; only term-like ones (a general compound such as "数据资源" nobody defines)."""
        out: dict[str, str] = {}
        for entry in entries:
            for phrase in noun_phrases(entry.definition):
                head = head_noun(phrase)
                modifier = words(phrase)[0]
                if (
                    phrase in body
                    or modifier in COMMON_WORDS
                    or _VAGUE_START.match(phrase)
                    or not clean_term(phrase)
                    or head == phrase
                    or head in own_heads
                    or len(head) < 2
                    or any(v in phrase for v in own)
                    or modal_verbs(phrase)
                    or not term_like(phrase, COMMON_WORDS)
                ):
                    continue
                out.setdefault(phrase, entry.number)
        return out

    @staticmethod
    def _foreign_options(
        section: Section,
        heads: dict[str, tuple[str, ...]],
        covered: Sequence[tuple[int, int]],
        reach: str = "line",
        body: str = "",
        origins: dict[str, str] | None = None,
    ) -> Iterator[ForeignTerm]:
        """Where a term can stand for a bare head noun; its qualifier must be said outside the head itself
        within `reach` (the line, the section or the body), with fewer words allowed before the head the
        further it reaches. Never inside a quotation, a cited document's title or a heading line: the
        drafter does not own those words ("提示“信息以广播为准”" is a display text, not a term use)."""
        guarded = protected_spans(section.text)
        for offset, line in prose_lines(section.text, section.table_lines()):
            if _NOTE_OR_EXAMPLE.match(line) or "\t" in line or not _prose(line):
                continue
            tokens = tagged(line)
            at = 0
            spans = []
            for word, flag in tokens:
                spans.append((at, word, flag))
                at += len(word)
            for k, (start, word, _) in enumerate(spans):
                if word not in heads:
                    continue
                before = spans[k - 1][2] if k else "x"
                after_word, after = (spans[k + 1][1], spans[k + 1][2]) if k + 1 < len(spans) else ("", "x")
                if before not in _REACHES[reach] or after not in _AFTER_HEAD:
                    continue
                if after == "v" and len(after_word) == 1 and after_word not in _SHORT_VERBS:
                    continue
                absolute = offset + start
                if any(a <= absolute < b for a, b in covered):
                    continue
                if protected(section.text, absolute, absolute + len(word), guarded):
                    continue
                here = offset + start
                rest = {
                    "line": line[:start] + "\n" + line[start + len(word) :],
                    "section": section.text[:here] + "\n" + section.text[here + len(word) :],
                }.get(reach, body)
                for term in heads[word]:
                    if _said_in(term[: -len(word)], rest):
                        yield ForeignTerm(absolute, word, term, (origins or {}).get(term, ""))

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        options: tuple[ForeignTerm | AbbreviationEntry | RemovedEntry | SpelledOut, ...] = site.detail
        choice = rng.choice(options)
        chapter = chapter_name(document)
        if isinstance(choice, RemovedEntry):
            uses = "、".join(choice.used_in[:3])
            shifted = "，并相应调整其后各条目的编号" if choice.renames else ""
            return Proposal(
                Edit("remove", site.target, renames=choice.renames),
                error=(
                    f"正文多处（{uses}等）使用了本文件的专用术语“{choice.term}”，读者需要其定义才能确定所指，"
                    f"但{chapter}未界定该术语，正文中也未说明其含义"
                ),
                fix=f"在{chapter}中增加术语条目“{choice.term}”并给出其定义{shifted}",
                generator="rule-template",
                form="entry_removed",
            )
        if isinstance(choice, SpelledOut):
            return _spelled_out(document, site.target, choice)
        if isinstance(choice, AbbreviationEntry):
            symbols = document.sections[site.target]
            title = f"“{symbols.title or '缩略语'}”"
            where = f"第{symbols.number}章{title}" if symbols.number.isdigit() else title
            return Proposal(
                Edit("modify", site.target, (Replacement("text", choice.start, choice.line, ""),)),
                error=(
                    f"正文（如{choice.used_in}）使用了缩略语“{choice.abbreviation}”，"
                    f"但{where}未列出该缩略语，正文中也未给出其全称"
                ),
                fix=f"在{where}中补充“{choice.abbreviation}：{choice.full}”",
                generator="rule-template",
                form="abbreviation_removed",
            )
        edit = Edit("modify", site.target, (Replacement("text", choice.start, choice.head, choice.term),))
        if choice.origin:
            why = f"是本文件特有的技术概念（第{choice.origin}条的定义中提到，但未单独界定）"
        else:
            why = "是本领域的专用术语，所指比通用的“" + choice.head + "”更窄"
        return Proposal(
            edit,
            error=(
                f"正文将“{choice.head}”写作“{choice.term}”，“{choice.term}”{why}，"
                f"读者需要其定义才能确定所指，但{chapter}未界定该术语，正文中也未说明其含义"
            ),
            fix=f"在{chapter}中界定“{choice.term}”，或改回通用表述“{choice.head}”",
            generator="rule-template",
            form="own_concept" if choice.origin else "field_term",
        )


def _spelled_out(document: Document, target: int, choice: SpelledOut) -> Proposal:
    """The abbreviation written bare where its name stood: undefined at that clause."""
    number = document.sections[target].number
    listed = any(s.kind == "symbols" for s in document.sections)
    nowhere = "文件的缩略语中也未列出该缩略语" if listed else "文件也未列出缩略语"
    return Proposal(
        Edit("modify", target, (Replacement("text", choice.start, choice.old, choice.abbreviation),)),
        error=(
            f"第{number}条（“{choice.before}{choice.abbreviation}”）直接使用了缩略语“{choice.abbreviation}”，"
            f"文件中没有给出其全称，{nowhere}"
        ),
        fix=f"在“{choice.abbreviation}”首次出现处写出全称，改为“{choice.old}”",
        generator="rule-template",
        form="expansion_removed",
    )


def _prose(line: str) -> bool:
    """A sentence, not a table's group label ("数采仪（参数）"): a term written there is no use of it."""
    return len(line.strip()) >= 12 and regex.search(r"[。；，;,]", line) is not None


def _said_in(qualifier: str, line: str) -> bool:
    """Whether every word of a term's qualifier already stands in the line: the term then names what the
    sentence says ("记录" of "数据记录…的间隔" → "记录间隔") instead of narrowing its meaning."""
    parts = words(qualifier)
    return bool(parts) and all(p in line for p in parts)


def _undefined_term(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None or not r.new.strip() or r.new in r.old:
        return None
    return {"term": r.new, "replaces": r.old}


def _ter01(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.language.terms import compact_key, document_text

    term = case.material["term"]
    if term not in answer.rewritten_text or term in case.section.text:
        return failure("condition", f"正文中没有用上术语“{term}”", "the undefined term is not used")
    if compact_key(term) in document_text(case.document):
        return failure(
            "condition", f"“{term}”在文件中已经出现或已界定", "the term already appears in the document"
        )
    return None


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _undefined_term,
        lambda m: (
            f"在本条正文中使用术语“{m['term']}”（替换或修饰原文“{m['replaces']}”处的表述），"
            f"“{m['term']}”没有在术语和定义或缩略语中界定（已界定的术语见<terms>），使正文使用了未定义的术语。"
        ),
        terms_context,
    ),
    budget=Budget(30, 0.35, 0.8, 1.6),
    condition=_ter01,
)


DEFINITION = TypeDefinition(ERROR_TYPE, UndefinedTermUsed, llm=LLM, premise=term_still_undefined)
