"""Abbreviations the body spells out where it first uses them (TER-01's third form).

A document without the abbreviation in its 缩略语 list may still define it where it is first used:
"构建虚拟专用网络（VPN）". A drafter who already thinks in the abbreviation writes "构建VPN" there instead,
and the reader meets an abbreviation that nothing in the document explains. Taking the spelled-out name
away makes exactly that slip: the clause keeps its meaning for whoever knows the abbreviation, and the
abbreviation now stands undefined at that clause, where a reviewer points.

Only where the words before the bracket are the abbreviation's own name: as many words as the abbreviation
has letters ("虚拟/专用/网络" for VPN), after a word that ends a phrase (a verb, a preposition, 的 or
punctuation, never a measure word: "16位循环冗余码（CRC16）"), and never a kind of thing named by its
bracket ("附件服务器端口（TCP）" is a TCP port, not the name of TCP). Never where the document explains the
abbreviation elsewhere (its 缩略语 list, another bracket, "MAC——…"), nor inside a quotation or a cited
title, nor for a hexadecimal value ("FAH") or a placeholder ("XX"), nor for an abbreviation the general
language writes without expansion ("便携式文档格式（PDF）" → "PDF" leaves nothing a reader looks up). A name
holds no modal or clause verb: "宜采用射频识别（RFID）" at a line's start is a clause, not a name.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import regex

from injectors.language.quotations import protected, protected_spans
from injectors.language.terms import BODY_KINDS, abbreviations, prose_lines, tagged
from injectors.types.ter.abbreviation_entries import EVERYDAY_ABBREVIATIONS, introduced, used
from parsers.model import Document

_BRACKETED = regex.compile(r"[（(](?P<abbr>[A-Z][A-Z0-9\-]{1,11})[）)]")

# What may stand before the spelled-out name: the words after which a noun phrase begins (的,
# punctuation, a preposition, conjunction, pronoun, verb, adjective or adverb), or the line's start.
_BEFORE_NAME = ("uj", "x", "p", "c", "r", "v", "vn", "a", "d")

# Heads that name a kind of thing the bracket specifies, not the abbreviation's own name.
_KINDS = "端口 接口 方式 模式 格式 类型 型号 版本 标准 技术 字段 标志字 代码 编号 报文 命令 指令 信号 芯片"
_KIND_HEADS = frozenset(_KINDS.split())

# Parts of speech no word of a name has: prepositions, conjunctions, pronouns, particles, adverbs,
# numerals, measure words, punctuation.
_FUNCTION_WORDS = frozenset("pcrudmqx")

# Verbs that introduce what a clause uses: when jieba joins two words of a name into one, the word
# count reaches back to them ("采用/统一/建模语言" for UML), and they are never the start of a name.
_VERBS = "采用 使用 利用 应用 通过 基于 构建 建立 支持 提供 实现 进行 具有 包括 包含 选用 配置 部署"
_CLAUSE_VERBS = frozenset(_VERBS.split())

_HEXADECIMAL = regex.compile(r"[0-9A-F]+H")

# Words that make a clause, never a name: the modal verbs, whatever jieba tags them.
_MODAL_WORDS = "应 宜 可 须 能 应当 应该 可以 必须 不应 不宜 不得 不可 需要"
_MODALS = frozenset(_MODAL_WORDS.split())


@dataclass(frozen=True)
class SpelledOut:
    """ "虚拟专用网络（VPN）" at `start` of the section's text (`old`): its `name` and bracket give way
    to the bare `abbreviation`."""

    start: int
    old: str
    abbreviation: str
    name: str
    # the words before the name, quoted with the abbreviation ("构建VPN"; a one-character word with the
    # words before it, "命名空间的URI", not "的URI"); "" after punctuation or at a line's start
    before: str


def _letters(abbreviation: str) -> int:
    return sum(c.isalpha() for c in abbreviation)


def spelled_out(document: Document) -> Iterator[tuple[int, SpelledOut]]:
    """(position, site) of each abbreviation the body spells out once, at its first use, and explains
    nowhere else."""
    listed = set(abbreviations(document))
    terms_text = "\n".join(s.title + "\n" + s.text for s in document.sections if s.kind == "terms")
    body = [(p, s) for p, s in enumerate(document.sections) if s.kind in BODY_KINDS]
    whole = "\n".join(s.text for _, s in body)
    for position, section in body:
        guarded = protected_spans(section.text)
        for offset, line in prose_lines(section.text, section.table_lines()):
            for m in _BRACKETED.finditer(line):
                abbreviation = m.group("abbr")
                if (
                    abbreviation in listed
                    or abbreviation in terms_text
                    or _HEXADECIMAL.fullmatch(abbreviation)
                    or len(set(abbreviation)) == 1
                    or _letters(abbreviation) < 2
                    or abbreviation in EVERYDAY_ABBREVIATIONS
                    or whole.count(f"（{abbreviation}）") + whole.count(f"({abbreviation})") != 1
                ):
                    continue
                found = _name(line[: m.start()], _letters(abbreviation))
                if found is None:
                    continue
                name, before = found
                start = offset + m.start() - len(name)
                if protected(section.text, start, offset + m.end(), guarded):
                    continue
                rest = whole.replace(line[m.start() - len(name) : m.end()], abbreviation, 1)
                if introduced(abbreviation, rest) or used(abbreviation, _before(document, position, start)):
                    continue  # explained elsewhere, or used before: the bracket is no first use
                yield position, SpelledOut(start, name + m.group(0), abbreviation, name, before)


def _before(document: Document, position: int, start: int) -> str:
    """What a reader has read before `start` of the section at `position`: every heading and text."""
    earlier = (s.title + "\n" + s.text for s in document.sections[:position])
    return "\n".join((*earlier, document.sections[position].title, document.sections[position].text[:start]))


def _name(head: str, count: int) -> tuple[str, str] | None:
    """The last words of `head` when they read as a name of their own (all Chinese, four characters or
    more, not a kind of thing), with the word before them (→ (name, word before)): as many words as the
    abbreviation has letters, or one fewer where jieba joins two of them ("统一/建模语言" for UML) and a
    clause word clearly ends the phrase before them ("采用", "以", punctuation)."""
    tokens = tagged(head)
    for n, joined in ((count, False), (count - 1, True)):
        if n < 2 or len(tokens) < n:
            continue
        parts = tokens[len(tokens) - n :]
        name = "".join(w for w, _ in parts)
        if len(name) < 4 or not regex.fullmatch(r"\p{Han}+", name) or parts[-1][0] in _KIND_HEADS:
            return None
        if (
            any(flag[:1] in _FUNCTION_WORDS or word in _MODALS | _CLAUSE_VERBS for word, flag in parts)
            or parts[0][0] in _CLAUSE_VERBS
        ):
            continue  # "以离子束沉积", "采用统一建模语言": the clause's own words are no part of a name
        if len(tokens) == n:
            return name, ""
        word, flag = tokens[len(tokens) - n - 1]
        if joined:
            ends = word in _CLAUSE_VERBS or flag[:1] in "pcux"
        else:  # a one-character word may be the name's own first character ("可/扩展/标记/语言" for XML)
            ends = flag in _BEFORE_NAME and (len(word) > 1 or flag[:1] in "pcux")
        if ends:
            return name, _lead(tokens[: len(tokens) - n])
        return None
    return None


# How long the clause before a one-character word may be to be quoted whole with it ("命名空间的URI").
_QUOTED_STRETCH = 12


def _lead(tokens: Sequence[tuple[str, str]]) -> str:
    """The words a quote of the abbreviation's place starts with: the word before the name ("构建"); where
    that is one character ("的", "与"), the clause's words since its last punctuation where they are few
    ("命名空间的", "系统宜与"), else the words before it up to three characters; "" right after
    punctuation or at a line's start."""
    if not tokens or not regex.fullmatch(r"\p{Han}+", tokens[-1][0]):
        return ""
    if len(tokens[-1][0]) > 1:
        return tokens[-1][0]
    stretch = ""
    for word, _ in reversed(tokens):
        if not regex.fullmatch(r"\p{Han}+", word):
            break
        stretch = word + stretch
    if len(stretch) <= _QUOTED_STRETCH:
        return stretch
    lead = ""
    for word, _ in reversed(tokens):
        lead = word + lead
        if len(lead) >= 3:
            break
    return lead
