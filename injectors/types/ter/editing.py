"""Injectors of the terminology dimension (TER-01…TER-05): terms used undefined, defined unused, spelled
inconsistently, badly defined, or introduced by a wrong entry number, title or lead-in.

Every edit is built offline from the document itself and from terms and references of other corpus
documents (`InjectionContext`), with jieba word boundaries so that no edit ever cuts a word in two.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from functools import lru_cache

import regex

from injectors.base import Injector, Proposal, Site
from injectors.context import CorpusTerm, InjectionContext
from injectors.language.patterns import HAN
from injectors.language.terms import (
    BODY_KINDS,
    Occurrence,
    first_sentence,
    modal_verbs,
    terms_chapter,
    words,
)
from injectors.types.ter.lexicon import (
    GENERIC_HEADS,
    GENERIC_QUALIFIERS,
    same_lexicon,
    term_like,
)
from parsers.model import Document

_PLAIN = regex.compile(r"[\p{Han}A-Za-z0-9]+")


@lru_cache(maxsize=1 << 16)  # asked of every term of the corpus, for every document
def clean_term(term: str) -> bool:
    """A term simple enough to write into another text: Chinese, no alternatives or brackets."""
    return 2 <= len(term) <= 12 and _PLAIN.fullmatch(term) is not None and HAN.search(term) is not None


def chapter_name(document: Document) -> str:
    """How a description names the terms chapter: "第3章" (HJ and garbled documents may number it else)."""
    found = terms_chapter(document)
    return f"第{found[1].number}章" if found else "术语和定义一章"


# A term must be used this often in the body before one use may be rewritten (TER-01 abbreviation,
# TER-03): even if both types hit the same term, it stays in use and no unlabelled TER-02 appears.
MIN_USES = 3


def body_counts(found: Sequence[Occurrence]) -> dict[str, int]:
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


COMMON_WORDS = frozenset(_COMMON.split())


@lru_cache(maxsize=8)  # TER-01 and TER-02 both read it
def vocabulary(document: Document) -> frozenset[str]:
    """The body's distinctive words: what a borrowed term's definition should share to look at home."""
    out: set[str] = set()
    for s in document.sections:
        if s.kind in (*BODY_KINDS, "scope", "terms"):
            for line in (s.title, *s.text.split("\n")):  # by line: the segmentations other readers keep
                out.update(w for w in words(line) if len(w) >= 2 and w not in COMMON_WORDS)
    return frozenset(out)


def relatedness(term: str, definition: str, vocab: frozenset[str]) -> float:
    """Share of a foreign term's (and its definition's) distinctive words that this document uses."""
    ws = {w for w in words(term + "，" + definition) if len(w) >= 2 and w not in COMMON_WORDS}
    return len(ws & vocab) / len(ws) if ws else 0.0


# Share of a borrowed term's distinctive words (with its definition's) this document must use: even a
# term of its own narrow field must read as belonging ("对等网络" is no term of a semantic library).
AT_HOME = 0.5


def at_home(document: Document, corpus_term: CorpusTerm, vocab: frozenset[str]) -> float | None:
    """How well a term another corpus document defines fits this document (`relatedness`), or None when
    it must not be written into it. Only a document of the same narrow field lends terms
    (`lexicon.same_lexicon`: an ICS group as broad as 35 holds ledgers and environmental data alike);
    the term must be term-like (`lexicon.term_like`: not "标准问", "数据资源"), each of its words a word
    of this document, at least one of them distinctive (not only generic or one-character words), and
    most of its definition's words this document's too."""
    entry = corpus_term.entry
    cover = document.cover
    if not same_lexicon(cover.ics, cover.ccs, corpus_term.ics, corpus_term.ccs):
        return None  # first: most of a corpus's terms fail here, before their words are read
    parts = words(entry.term)
    if not term_like(entry.term, COMMON_WORDS) or any(len(w) < 2 for w in parts):
        return None
    if not all(w in vocab or w in COMMON_WORDS for w in parts):
        return None
    if not any(w in vocab and w not in GENERIC_QUALIFIERS and w not in GENERIC_HEADS for w in parts):
        return None
    score = relatedness(entry.term, entry.definition, vocab)
    return score if score >= AT_HOME else None


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


_STOPWORDS = frozenset({"of", "and", "for", "the", "a", "an", "to", "in", "on", "by", "with", "or"})


def initials(english: str) -> str:
    """ "greenhouse environment monitoring system" → "GEMS"; "" when there are too few content words."""
    content = [w for w in regex.split(r"[\s\-—/]+", english) if w and w.lower() not in _STOPWORDS]
    if len(content) < 2 or not all(w[:1].isascii() and w[:1].isalpha() for w in content):
        return ""
    return "".join(w[0].upper() for w in content)[:5]


# ---------------------------------------------------------------------------------------------------
# TER-03 Inconsistent term use
# ---------------------------------------------------------------------------------------------------
# Near-synonyms of a word inside a term: what authors write when they do not stick to the defined form.
# Only words a reader takes for the same thing (系统/平台, 检测/检验, 采集/采样, 监测/监控 name different
# concepts in standards, and 温度值 is an artificial form: they are not here).
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
    "周期": ("间隔",),
    "间隔": ("周期",),
    "时延": ("延迟",),
    "延时": ("延迟",),
    "阈值": ("门限值",),
    "元素": ("要素",),
    "修饰词": ("限定词",),
    "序号": ("编号",),
    "编号": ("序号",),
    "距离": ("间距",),
    "速度": ("速率",),
    "空间": ("区域",),
    "报警": ("告警",),
    "告警": ("报警",),
    "粘结": ("粘接",),
    "粘接": ("粘结",),
    "工作": ("作业",),
    "芯材": ("芯板",),
    "面板": ("饰面板",),
    "二维码": ("二维条码",),
    "监测点": ("测点",),
    "识别": ("辨识",),
    "服务商": ("服务提供商",),
    "提供者": ("提供方",),
    "使用者": ("使用方",),
    "协调者": ("协调方",),
    "代码": ("编码",),
    "类别": ("类型",),
    "类型": ("类别",),
    "采样": ("取样",),
    "时间": ("时刻",),
}


# Words whose near-synonym names the same thing only after certain words: a start or end "时间" is a
# moment ("行驶开始时间" → "行驶开始时刻"), while "响应时间" or "运行时间" is a duration, never a 时刻.
_ONLY_AFTER: dict[str, frozenset[str]] = {"时间": frozenset(("开始", "结束", "起始", "终止"))}


def word_synonyms(parts: Sequence[str], k: int) -> tuple[str, ...]:
    """The near-synonyms of the word at `k` of a term's words, where its neighbour allows them."""
    allowed = _ONLY_AFTER.get(parts[k])
    if allowed is not None and (k == 0 or parts[k - 1] not in allowed):
        return ()
    return NEAR_SYNONYMS.get(parts[k], ())


# Words whose near-synonym names the same thing wherever they stand in a term (spelling variants and
# true synonyms); the others (周期/间隔, 距离/间距, 空间/区域, 工作/作业 …) only as the term's head noun,
# where the term names what the word does ("记录间隔" → "记录周期", never "保护间隔距离" → "保护周期距离").
ANYWHERE_SYNONYMS = frozenset(
    ("设备", "装置", "仪器", "仪表", "报警", "告警", "粘结", "粘接", "二维码", "元素", "要素", "时延", "延时")
)


def near_synonyms(term: str, taken: set[str]) -> tuple[str, ...]:
    """Forms a careless author might write for `term`: one word swapped for a near-synonym, or the
    leading qualifier dropped from a long term ("温室环境监测系统" → "环境监测系统")."""
    parts = words(term)
    out: list[str] = []
    for k in range(len(parts) - 1, -1, -1):  # the head noun first
        if k < len(parts) - 1 and parts[k] not in ANYWHERE_SYNONYMS:
            continue  # "保护间隔距离" → "保护周期距离": 间隔 is a spacing there, not a time interval
        for synonym in word_synonyms(parts, k):
            if k and set(synonym) & set(parts[k - 1]):
                continue  # "保护间隔间距": the synonym repeats the word before it
            out.append("".join((*parts[:k], synonym, *parts[k + 1 :])))
    rest = "".join(parts[1:])
    # the leading qualifier dropped: whole words only, never "出样时间" → "样时间"; and a compound left, not
    # one general word ("检票口显示屏" → "显示屏" names the kind of thing, which nobody reads as a slip)
    if len(parts) >= 3 and len(parts[0]) >= 2 and len(parts[1]) >= 2 and len(rest) >= 3:
        out.append(rest)
    # another defined term inside the new form would make it a different concept, unless the term itself
    # is built on it ("元数据元素" → "元数据要素" still rests on the defined "元数据")
    others = {t for t in taken - {term} if t not in term}
    return tuple(
        dict.fromkeys(
            s
            for s in out
            if s != term and s not in taken and not any(t in s for t in others) and not modal_verbs(s)
        )
    )


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
