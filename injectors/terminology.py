"""Injectors of the terminology dimension (TER-01…TER-05): terms used undefined, defined unused, spelled
inconsistently, badly defined, or introduced by a wrong entry number, title or lead-in.

Every edit is built offline from the document itself and from terms and references of other corpus
documents (`InjectionContext`), with jieba word boundaries so that no edit ever cuts a word in two.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import regex

from injectors.base import Injector, Proposal, Site, register
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from parsers.model import Document, Section
from validation.rules.terminology import (
    BODY_KINDS,
    LEAD_LIST,
    LEAD_REF,
    DefinedTerm,
    Occurrence,
    abbreviations,
    compact_key,
    defined_terms,
    definition_defects,
    document_text,
    entry_sections,
    first_sentence,
    lead_in,
    modal_verbs,
    numbering_readable,
    occurrences,
    prose_lines,
    tagged,
    terms_chapter,
    words,
)


def _clean_term(term: str) -> bool:
    """A term simple enough to write into another text: Chinese, no alternatives or brackets."""
    return (
        2 <= len(term) <= 12
        and regex.fullmatch(r"[\p{Han}A-Za-z0-9]+", term) is not None
        and regex.search(r"\p{Han}", term) is not None
    )


def chapter_name(document: Document) -> str:
    """How a description names the terms chapter: "第3章" (HJ and garbled documents may number it else)."""
    found = terms_chapter(document)
    return f"第{found[1].number}章" if found else "术语和定义一章"


# A term must be used this often in the body before one use may be rewritten (TER-01 abbreviation,
# TER-03): even if both types hit the same term, it stays in use and no unlabelled TER-02 appears.
MIN_USES = 3


def _body_counts(found: Sequence[Occurrence]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for o in found:
        counts[o.entry.term] = counts.get(o.entry.term, 0) + 1
    return counts


# Words too common to say that a borrowed term belongs to this document's field.
_COMMON = """
进行 使用 以及 或者 其他 相关 一定 规定 要求 用于 包括 通过 之间 一个 不同 以上 以下 所有 具有 能够 可以 应用
方式 过程 情况 状态 时间 方法 信息 数据 系统 设备 装置 功能 部分 条件 作用 组成 对象 范围 内容 形式 结果 一种
单位 基本 特定 规则 实现 处理 提供 产生 发生 完成 按照 由于 根据
"""
_COMMON_WORDS = frozenset(_COMMON.split())


def vocabulary(document: Document) -> frozenset[str]:
    """The body's distinctive words: what a borrowed term's definition should share to look at home."""
    out: set[str] = set()
    for s in document.sections:
        if s.kind in (*BODY_KINDS, "scope", "terms"):
            out.update(w for w in words(s.title + "\n" + s.text) if len(w) >= 2 and w not in _COMMON_WORDS)
    return frozenset(out)


def relatedness(term: str, definition: str, vocab: frozenset[str]) -> float:
    """Share of a foreign term's (and its definition's) distinctive words that this document uses."""
    ws = {w for w in words(term + "，" + definition) if len(w) >= 2 and w not in _COMMON_WORDS}
    return len(ws & vocab) / len(ws) if ws else 0.0


class TerminologyInjector(Injector):
    """What the five TER injectors share (the base class rejects an edit that other checkers see)."""

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        return self.draft(document, site, rng, context)

    @abstractmethod
    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        """The edit at one site."""


# ---------------------------------------------------------------------------------------------------
# TER-01 Undefined term used
# ---------------------------------------------------------------------------------------------------
# Parts of speech around a bare head noun between which a qualifier reads naturally
# ("该周期的数据上传" → "该周期的冻结数据上传"): after 的, punctuation, a preposition, conjunction or
# pronoun; before punctuation, 的, a verb, preposition, conjunction or adverb. A verb or noun before the
# head would make a new compound ("开车时间" → "开车连续驾驶时间"), so it is refused.
_BEFORE_HEAD = ("uj", "x", "p", "c", "r")
_AFTER_HEAD = ("uj", "x", "p", "c", "v", "d", "ul")
# One-character verbs that may follow a noun; any other (e.g. jieba's "符" in "对象符") is a suffix.
_SHORT_VERBS = frozenset("是为有应可宜将由在经按被会能需须")
_STOPWORDS = frozenset({"of", "and", "for", "the", "a", "an", "to", "in", "on", "by", "with", "or"})
# Initials that already mean something else to every reader: never coin these.
_KNOWN = "API CPU GPS GSM LED LCD PDF SQL TCP UDP USB XML URL DNS RAM ROM SIM PIN ATM CEO ISO IEC"
WELL_KNOWN = frozenset(_KNOWN.split())


@dataclass(frozen=True)
class ForeignTerm:
    """A term another corpus document defines, to be written into this one where its head noun stands."""

    start: int
    head: str
    term: str


@dataclass(frozen=True)
class Abbreviation:
    """A defined term's occurrence to be replaced by an abbreviation nobody defines."""

    start: int
    form: str
    abbreviation: str
    term: str


def initials(english: str) -> str:
    """ "greenhouse environment monitoring system" → "GEMS"; "" when there are too few content words."""
    content = [w for w in regex.split(r"[\s\-—/]+", english) if w and w.lower() not in _STOPWORDS]
    if len(content) < 2 or not all(w[:1].isascii() and w[:1].isalpha() for w in content):
        return ""
    return "".join(w[0].upper() for w in content)[:5]


@register
class UndefinedTermUsed(TerminologyInjector):
    """TER-01: the body uses a technical term or abbreviation that chapter 3 / 缩略语 never defines.

    Two rule templates. (1) A term defined by ANOTHER corpus document replaces its own head noun where
    that noun stands bare in a body sentence ("该周期的数据" → "该周期的冻结数据"): the sentence stays
    grammatical and now leans on an undefined term. (2) One occurrence of a defined term (used at least
    three times) becomes the initials of its English equivalent ("GEMS"), an abbreviation 缩略语 never lists.
    """

    error_type = "TER-01"
    FOREIGN_TERMS = 10  # the borrowed terms most related to the document, so that they read naturally

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        entries = defined_terms(document)
        found = occurrences(document, entries)
        whole = document_text(document)
        heads = self._foreign_heads(document, context, entries, whole)
        defined_abbreviations = set(abbreviations(document))
        counts = _body_counts(found)
        covered: dict[int, list[tuple[int, int]]] = {}
        for o in found:
            covered.setdefault(o.position, []).append((o.start, o.start + len(o.form)))
        for position, section in enumerate(document.sections):
            if section.kind not in BODY_KINDS:
                continue
            options: list[ForeignTerm | Abbreviation] = []
            options.extend(self._foreign_options(section, heads, covered.get(position, [])))
            for o in found:
                if o.position != position or counts[o.entry.term] < MIN_USES or not _clean_term(o.form):
                    continue
                abbr = initials(o.entry.english)
                if len(abbr) < 3 or abbr in WELL_KNOWN or abbr in defined_abbreviations or abbr in whole:
                    continue
                text = section.text
                end = o.start + len(o.form)
                neighbours = text[o.start - 1 : o.start] + text[end : end + 1]
                if regex.search(r"[A-Za-z0-9]", neighbours):
                    continue
                options.append(Abbreviation(o.start, o.form, abbr, o.entry.term))
            if options:
                yield Site(position, tuple(options))

    @classmethod
    def _foreign_heads(
        cls, document: Document, context: InjectionContext, entries: Sequence[DefinedTerm], whole: str
    ) -> dict[str, tuple[str, ...]]:
        """Head noun → the related foreign terms with that head that this document neither defines nor
        uses ("冻结数据" for head "数据")."""
        own = {v for e in entries for v in e.variants}
        own_heads = {words(e.term)[-1] for e in entries if e.term}  # a bare 记录仪 may mean our 行驶记录仪
        vocab = vocabulary(document)
        scored: dict[str, float] = {}
        for corpus_term in context.terms_for(document):
            term = corpus_term.entry.term
            if not _clean_term(term) or term in own or term in scored or compact_key(term) in whole:
                continue
            parts = words(term)
            if len(parts) < 2 or len(parts[-1]) < 2 or parts[-1] in own_heads or modal_verbs(term):
                continue
            scored[term] = relatedness(term, corpus_term.entry.definition, vocab)
        best = sorted(scored, key=lambda t: (-scored[t], t))[: cls.FOREIGN_TERMS]
        heads: dict[str, list[str]] = {}
        for term in sorted(best):
            heads.setdefault(words(term)[-1], []).append(term)
        return {head: tuple(terms) for head, terms in sorted(heads.items())}

    @staticmethod
    def _foreign_options(
        section: Section, heads: dict[str, tuple[str, ...]], covered: Sequence[tuple[int, int]]
    ) -> Iterator[ForeignTerm]:
        for offset, line in prose_lines(section.text):
            if regex.match(r"^\s*(注|示例)", line) or "\t" in line:
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
                if before not in _BEFORE_HEAD or after not in _AFTER_HEAD:
                    continue
                if after == "v" and len(after_word) == 1 and after_word not in _SHORT_VERBS:
                    continue
                absolute = offset + start
                if any(a <= absolute < b for a, b in covered):
                    continue
                for term in heads[word]:
                    yield ForeignTerm(absolute, word, term)

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        options: tuple[ForeignTerm | Abbreviation, ...] = site.detail
        kinds = sorted({type(o).__name__ for o in options})
        kind = rng.choice(kinds)
        choice = rng.choice([o for o in options if type(o).__name__ == kind])
        chapter = chapter_name(document)
        if isinstance(choice, ForeignTerm):
            edit = Edit("modify", site.target, (Replacement("text", choice.start, choice.head, choice.term),))
            return Proposal(
                edit,
                error=f"正文将“{choice.head}”写作“{choice.term}”，使用了{chapter}未界定的术语“{choice.term}”",
                fix=f"在{chapter}中界定“{choice.term}”，或改回通用表述“{choice.head}”",
                generator="rule-template",
            )
        edit = Edit(
            "modify", site.target, (Replacement("text", choice.start, choice.form, choice.abbreviation),)
        )
        return Proposal(
            edit,
            error=(
                f"正文将术语“{choice.form}”写作缩略语“{choice.abbreviation}”，该缩略语未在{chapter}或缩略语中定义"
            ),
            fix=f"改回“{choice.form}”，或在缩略语一章中列出“{choice.abbreviation}”",
            generator="rule-template",
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
        _clean_term(entry.term)
        and bool(entry.english)
        and regex.fullmatch(r"[\x20-\x7e]+", entry.english) is not None
        and 8 <= len(definition) <= 120
        and definition.endswith("。")
        and first_sentence(definition) == definition
        and not regex.search(r"[（(]\s*\d+(\.\d+)+\s*[)）]|本文件|本标准|见|注", definition)
        and not modal_verbs(definition)
        and not definition_defects(entry)
    )


@register
class UnusedTermDefined(TerminologyInjector):
    """TER-02: a plausible entry is added at the end of chapter 3 and the term is used nowhere else.

    The entry (term, English equivalent, definition) is copied from another corpus document, choosing
    terms whose words already occur in this document (so the entry looks at home) but never the term
    itself. The site is the terms chapter (the new entry has no pre-existing violation to skip for).
    """

    error_type = "TER-02"
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


# ---------------------------------------------------------------------------------------------------
# TER-03 Inconsistent term use
# ---------------------------------------------------------------------------------------------------
# Near-synonyms of a word inside a term: what authors write when they do not stick to the defined form.
NEAR_SYNONYMS: dict[str, tuple[str, ...]] = {
    "设备": ("装置",),
    "装置": ("设备",),
    "仪器": ("仪表",),
    "仪表": ("仪器",),
    "终端": ("终端设备",),
    "记录仪": ("记录器",),
    "显示屏": ("显示器",),
    "柜": ("箱",),
    "仓": ("舱",),
    "系统": ("平台",),
    "周期": ("间隔",),
    "间隔": ("周期",),
    "时延": ("延迟",),
    "延时": ("延迟",),
    "阈值": ("门限值",),
    "元素": ("要素",),
    "修饰词": ("限定词",),
    "帧": ("报文",),
    "序号": ("编号",),
    "编号": ("序号",),
    "距离": ("间距",),
    "速度": ("速率",),
    "空间": ("区域",),
    "报警": ("告警",),
    "告警": ("报警",),
    "监测": ("监控",),
    "监控": ("监测",),
    "采集": ("采样",),
    "粘结": ("粘接",),
    "粘接": ("粘结",),
    "工作": ("作业",),
    "芯材": ("芯板",),
    "面板": ("饰面板",),
    "二维码": ("二维条码",),
    "监测点": ("测点",),
    "检测": ("检验",),
    "识别": ("辨识",),
    "温度": ("温度值",),
}


def near_synonyms(term: str, taken: set[str]) -> tuple[str, ...]:
    """Forms a careless author might write for `term`: one word swapped for a near-synonym, or the
    leading qualifier dropped from a long term ("温室环境监测系统" → "环境监测系统")."""
    parts = words(term)
    out: list[str] = []
    for k in range(len(parts) - 1, -1, -1):  # the head noun first
        for synonym in NEAR_SYNONYMS.get(parts[k], ()):
            out.append("".join((*parts[:k], synonym, *parts[k + 1 :])))
    rest = "".join(parts[1:])
    if len(parts) >= 2 and len(parts[0]) >= 2 and len(parts[1]) >= 2 and len(rest) >= 3:
        out.append(rest)  # the leading qualifier dropped: whole words only, never "出样时间" → "样时间"
    others = taken - {term}  # another defined term inside the new form would make it a different concept
    return tuple(
        dict.fromkeys(
            s
            for s in out
            if s != term and s not in taken and not any(t in s for t in others) and not modal_verbs(s)
        )
    )


@dataclass(frozen=True)
class Substitution:
    start: int
    form: str
    synonyms: tuple[str, ...]
    term: str


@register
class InconsistentTermUse(TerminologyInjector):
    """TER-03: one body occurrence of a defined term (used 3+ times) becomes a near-synonym.

    The occurrence is word-aligned (jieba boundaries, the longest defined term wins), so "温度记录仪"
    inside "一次性温度记录仪" is never touched; the term stays in use elsewhere, so the document now
    names one concept in two ways.
    """

    error_type = "TER-03"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        entries = defined_terms(document)
        taken = {v for e in entries for v in e.variants}
        found = occurrences(document, entries)
        counts = _body_counts(found)
        by_section: dict[int, list[Substitution]] = {}
        for o in found:
            if counts[o.entry.term] < MIN_USES or o.form != compact_key(o.entry.term):
                continue
            synonyms = near_synonyms(o.form, taken)
            if synonyms:
                by_section.setdefault(o.position, []).append(
                    Substitution(o.start, o.form, synonyms, o.entry.term)
                )
        return [Site(position, tuple(subs)) for position, subs in sorted(by_section.items())]

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        choice: Substitution = rng.choice(site.detail)
        synonym = rng.choice(choice.synonyms)
        edit = Edit("modify", site.target, (Replacement("text", choice.start, choice.form, synonym),))
        return Proposal(
            edit,
            error=f"{chapter_name(document)}界定的术语“{choice.term}”在此处写作“{synonym}”，与全文用语不一致",
            fix=f"将“{synonym}”改为“{choice.term}”，全文统一使用界定的术语",
        )


# ---------------------------------------------------------------------------------------------------
# TER-04 Definition defect
# ---------------------------------------------------------------------------------------------------
OPENERS = ("是指", "指", "是")
PROVISION_MODALS = ("应", "宜")  # 应 twice as often: a requirement is the usual slip
# Descriptive verbs before which a careless author writes 应 / 宜 ("具有" → "应具有").
PROVISION_VERBS = frozenset(
    (
        "具有",
        "具备",
        "能",
        "能够",
        "由",
        "按",
        "按照",
        "采用",
        "满足",
        "符合",
        "包括",
        "包含",
        "保持",
        "设有",
        "设置",
    )
)


def provision_point(definition: str) -> tuple[int, str] | None:
    """Where 应 / 宜 can go in the definition's first sentence: before its first descriptive verb."""
    at = 0
    for word in words(first_sentence(definition)):
        if word in PROVISION_VERBS and all(
            (at, m) in modal_verbs(definition[:at] + m + definition[at:]) for m in PROVISION_MODALS
        ):  # the inserted word reads as a modal verb, not as part of 相应 / 适宜 …
            return at, word
        at += len(word)
    return None


@register
class DefinitionDefect(TerminologyInjector):
    """TER-04: a definition that can no longer stand in for its term.

    Deterministic variants the checker sees: an opening "是指 / 指 / 是", the term written before the
    definition ("传感终端是……") or after it ("……，称为传感终端。"), or a provision slipped in before a
    descriptive verb ("并具有本地缓存功能" → "并应具有本地缓存功能"). NMS-05 leaves definitions to this type.
    The judgement variant (a rewritten definition that no longer substitutes for the term) is not built:
    TER-04 counts as deterministic, so the base verification and the planner would drop it.
    """

    error_type = "TER-04"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        for entry in defined_terms(document):
            text = document.sections[entry.position].text
            if entry.line_start < 0 or not regex.match(r"\p{Han}", entry.definition):
                continue
            start = text.find(entry.definition, entry.line_start)
            if start >= 0:
                yield Site(entry.position, (entry, start))

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        entry, start = site.detail
        variants = ["opener"]
        if _clean_term(entry.term):
            variants.append("term-first")
            if "。" in first_sentence(entry.definition):
                variants.append("term-last")
        verb = provision_point(entry.definition)
        if verb is not None:
            variants.append("provision")
        variant = rng.choice(variants)
        definition = entry.definition
        head = ""
        for word in words(definition):
            if len(head) >= 5:
                break
            head += word
        if variant == "opener":
            opener = rng.choice(OPENERS)
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, "", opener),)),
                error=f"术语“{entry.term}”的定义以“{opener}”开头（“{opener}{head}……”），不能直接替换术语",
                fix=f"删去定义开头的“{opener}”",
            )
        if variant == "term-first":
            added = f"{entry.term}是"
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, "", added),)),
                error=f"术语“{entry.term}”的定义以被定义的术语开头（“{added}{head}……”），定义中重复了术语",
                fix=f"删去定义开头的“{added}”，使定义能直接替换术语",
            )
        if variant == "provision":
            assert verb is not None
            at, word = verb
            modal = rng.choice(("应", "应", "宜"))
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start + at, "", modal),)),
                error=f"术语“{entry.term}”的定义中写入了能愿动词“{modal}”（“{modal}{word}……”），定义不应包含要求",
                fix=f"删去定义中的“{modal}”，定义只陈述概念",
            )
        end = start + first_sentence(definition).index("。")
        added = f"，称为{entry.term}"
        return Proposal(
            Edit("modify", site.target, (Replacement("text", end, "", added),)),
            error=f"术语“{entry.term}”的定义在句末重复了被定义的术语（“……{added}。”）",
            fix=f"删去定义中的“{added}”",
        )


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
    kind: str  # none | only-ref | generation
    start: int
    old: str
    new: str


def _spread(items: Sequence[DefinedTerm]) -> list[DefinedTerm]:
    """The first, middle and last item."""
    picks = sorted({0, len(items) // 2, len(items) - 1}) if items else []
    return [items[k] for k in picks]


def _sibling_entries(document: Document) -> list[tuple[int, Section]]:
    """The level-2 entries of chapter 3 when they are numbered 3.1, 3.2 … without a break."""
    found = terms_chapter(document)
    if found is None:
        return []
    chapter = found[1]
    top = [(i, s) for i, s in entry_sections(document) if s.level == 2]
    expected = [f"{chapter.number}.{k}" for k in range(1, len(top) + 1)]
    return top if [s.number for _, s in top] == expected else []


@register
class TermEntryFormat(TerminologyInjector):
    """TER-05: an entry number gap or duplicate, an English equivalent removed, or a lead-in sentence
    that contradicts the entries (本文件没有需要界定的术语和定义 / only "X界定的" without 以及下列) or
    the document's drafting rules ("适用于本标准" in a GB/T 1.1—2020 document). A lead-in citing a
    document chapter 2 does not list is NREF-01's (cited normatively but not listed), not injected here.

    Numbers change through `Edit.renames` on the entry and the entries after it, so the rest of the
    chapter stays consecutive and only one break is visible; `span` claims every renumbered entry, so
    no other error is placed on an entry whose number this edit changes.
    """

    error_type = "TER-05"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        yield from self._entry_sites(document)
        yield from self._lead_in_sites(document, context)

    def _entry_sites(self, document: Document) -> Iterator[Site]:
        """A few entries per variant (English: first, middle, last; numbering: middle, last), so that the
        lead-in variants get a fair share of the shuffled sites."""
        entries = defined_terms(document)
        with_english = [e for e in entries if e.english]
        if len(with_english) - 1 >= 2 and (len(with_english) - 1) * 2 > len(entries):
            english = [
                e
                for e in with_english
                if document.sections[e.position].title.endswith(e.english) and _clean_term(e.term)
            ]
            for e in _spread(english):
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
            return self._lead_in_proposal(document, site.target, change)
        if change.kind == "english":
            entry: DefinedTerm = change.entry
            title = document.sections[entry.position].title
            cut = len(title[: -len(entry.english)].rstrip())
            return Proposal(
                Edit("modify", site.target, (Replacement("title", cut, title[cut:], ""),)),
                error=f"术语条目“{entry.term}”缺少英文对应词",
                fix=f"在术语“{entry.term}”后补充英文对应词“{entry.english}”",
            )
        edit = Edit("modify", site.target, span=change.span, renames=change.renames)
        if change.kind == "gap":
            where = f"第{change.before}条之后的条目" if change.before else "第一个术语条目"
            return Proposal(
                edit,
                error=f"术语条目编号不连续：{where}编为“{change.shown}”，缺少“{change.previous}”",
                fix=f"将“{change.shown}”改为“{change.previous}”，其后条目编号依次前移",
            )
        return Proposal(
            edit,
            error=f"术语条目编号重复：第{change.shown}条之后的条目也编为“{change.shown}”",
            fix=f"将第二个“{change.shown}”改为“{change.previous}”，其后条目编号依次后移",
        )

    @staticmethod
    def _lead_in_proposal(document: Document, target: int, change: LeadInChange) -> Proposal:
        edit = Edit("modify", target, (Replacement("text", change.start, change.old, change.new),))
        if change.kind == "none":
            return Proposal(
                edit,
                error=f"术语和定义的引导语写作“{change.new}”，但其后列出了术语条目",
                fix=f"将引导语改为“{change.old}”",
            )
        if change.kind == "only-ref":
            return Proposal(
                edit,
                error="术语和定义的引导语删去了“以及下列”，只称引用文件界定的术语适用，与其后列出的术语条目矛盾",
                fix="在引导语“界定的”之后补上“以及下列”",
            )
        return Proposal(
            edit,
            error="按GB/T 1.1—2020起草的文件，术语和定义的引导语写作“适用于本标准”",
            fix="将“本标准”改为“本文件”",
        )
