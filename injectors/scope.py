"""Injectors of the scope dimension (SCP): a provision put into 范围, a broken scope formula, a body clause
that reaches beyond the scope, a scope promise the body never keeps, and a vague or contradicted boundary.

All five edit one span each; the four that edit 范围 touch different sentences (or insertion points), so
several of them can share chapter 1 in one document. Material is real: body requirements and titles of the
same document, objects from the scopes of other corpus documents, a small lexicon of scope aspects.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass

import regex

from injectors.base import Injector, Proposal, Site, register
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from parsers.entries import split_term
from parsers.model import Document, Section
from validation.rules.scope import (
    APPLICABILITY,
    EXCLUSION,
    SELF_REFERENCE,
    Sentence,
    provision_in_scope,
    provisions,
    scope_chapter,
    scope_formula,
    self_reference,
    sentences,
    statement_sentences,
    states_applicability,
    tokens,
)

_NOTE_OR_LIST = regex.compile(
    r"^\s*(?:注\s*\d*\s*[：:]|示例|——|—|[a-z][)）]|\d{1,2}[)）]|续?表\s*\d|图\s*\d)"
)
# Words a borrowed sentence must not carry into its new place (other checkers' words, cross references).
_BORROW_BANNED = regex.compile(
    r"GB|ISO|IEC|[A-Z]{2}/T|表|图|附录|公式|本章|本条|本文件|本标准|本部分|下列|以下|如下|见|第|\d+\.\d+|："
    r"|必须|须|不得|禁止|严禁|务必|应当|应该|尽量|尽可能|一般|适当|原则上|最好"
    r"|[“”\"'（）()]"
)
_SUBJECT = regex.compile(r"^[\p{Han}A-Za-z0-9]{2,14}$")
_VAGUE_SUBJECT = regex.compile(
    r"^(?:其|该|此|这|上述|前述|所述|各|每|上|下|同|对|在|当|若|如)|[还也则亦又才就]$"
)
_WHEN_SUBJECT = regex.compile(r"[时后前中内]$")  # "线缆穿越电池区时应……": it already says when
_ACTIVITIES_TEXT = """
    设计 制造 生产 安装 验收 检验 检测 集成 改造 开发 测试 运行 维护 运维 使用 建设
    管理 选型 施工 采购 评价 评估 应用 认证 工作 活动 保存 创建 交换 整合 审查 监测
    传输 处理 服务 运营 规划 实施 操作 控制 检查 维修 调试 监理 通信 定级 识别 防护
    计量 采集 分析 存储 加工 贮存 运输 销售 回收 处置 编制 著录 升级 监督
    """
_ACTIVITIES = tuple(dict.fromkeys(_ACTIVITIES_TEXT.split()))
_ACT = "|".join(sorted(_ACTIVITIES, key=len, reverse=True))
# "的设计、制造、安装和验收" at the end of an 适用于 clause: the activities, not the object.
_ACTIVITY_TAIL = regex.compile(rf"的(?:(?:(?!的)[\p{{Han}}]){{0,6}}(?:{_ACT})(?:[、和及与]|以及)?)+$")
_ACTIVITY_LIST = regex.compile(rf"(?:(?:{_ACT})(?:[、和及与]|以及)?)+")
_QUALIFIER_TAIL = regex.compile(rf"的(?:{_ACT})")
# Where an 适用于 clause ends when a comma introduces something else.
_CLAUSE_CUT = regex.compile(
    r"[。；\n]|，(?=规定|确立|给出|描述|界定|本|也|以及|并|但|且|其|同时|还|参照|可|不适用|另)"
)
# What a body title or term must end with to name an object (a thing the body regulates).
_OBJECT_SUFFIXES_TEXT = """
    设备 装置 系统 终端 容器 仪表 记录仪 探测器 传感器 控制器 显示屏 柜 箱 板 模块 单元
    接口 平台 软件 材料 标签 电池 主站 部件 组件 元件 线缆 电缆 管道 车辆 设施 车间
    场所 工具 机械 网关 集中器 报警器 面板 芯材 鲜叶 在制品 样品 数据库 证书 密钥 二维码 标识
    报文 数据帧 元数据
    """
_OBJECT_SUFFIXES = tuple(dict.fromkeys(_OBJECT_SUFFIXES_TEXT.split()))
_ALL_HAN = regex.compile(r"^[\p{Han}A-Za-z0-9（）]+$")


@dataclass(frozen=True)
class ScopeAspect:
    """An aspect a scope may promise, the words that show a body treats it, and its list forms."""

    name: str  # 安装
    keywords: tuple[str, ...]  # any of these anywhere in the body means the aspect is covered

    def item(self, as_requirement: bool) -> str:
        return f"{self.name}要求" if as_requirement else self.name


# Aspects that a real scope lists and a document of another kind often lacks (no 应/宜/可 inside).
SCOPE_ASPECTS = (
    ScopeAspect("安装", ("安装",)),
    ScopeAspect("维护保养", ("维护", "保养", "维修", "检修")),
    ScopeAspect("人员培训", ("培训",)),
    ScopeAspect("报废处置", ("报废", "废弃", "处置")),
    ScopeAspect("售后服务", ("售后",)),
    ScopeAspect("档案管理", ("档案", "归档")),
    ScopeAspect("节能", ("节能", "能耗", "能效")),
    ScopeAspect("环境保护", ("环境保护", "环保", "污染")),
    ScopeAspect("职业健康防护", ("职业健康", "劳动保护", "个人防护")),
    ScopeAspect("包装、运输和贮存", ("包装", "运输", "贮存", "储存")),
    ScopeAspect("标志和标签", ("标志", "标签", "标识")),
    ScopeAspect("使用说明", ("使用说明", "说明书")),
)


# --- shared helpers ------------------------------------------------------------------------------------


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each non-empty line of a section's text."""
    out = []
    start = 0
    for line in text.split("\n"):
        if line.strip():
            out.append((start, start + len(line)))
        start += len(line) + 1
    return out


def _is_plain(line: str) -> bool:
    """A running-text paragraph: not a note, example, list item, table row or caption."""
    return " | " not in line and not _NOTE_OR_LIST.match(line)


def _cite(number: str) -> str:
    """第5章 / 第5.2.1条: the form the planner renumbers when other errors renumber the document."""
    return f"第{number}条" if "." in number else f"第{number}章"


def _clause_name(section: Section) -> str:
    return _cite(section.number)


def _scope_name(section: Section) -> str:
    return f"第{section.number}章“{section.title or '范围'}”"


def _body(document: Document) -> list[tuple[int, Section]]:
    """Normative body clauses (chapters after 术语/符号), where requirements live."""
    return [(i, s) for i, s in enumerate(document.sections) if s.kind == "clause"]


@functools.lru_cache(maxsize=16)
def _requirement_paragraph_ends(section: Section) -> tuple[int, ...]:
    """Ends of plain paragraphs whose last sentence is a 应/不应 requirement ending with 。."""
    out = []
    for start, end in _paragraphs(section.text):
        line = section.text[start:end]
        if not _is_plain(line) or not line.endswith("。"):
            continue
        last = sentences(line)[-1].text
        if any(p.word in ("应", "不应") for p in provisions(last)):
            out.append(end)
    return tuple(out)


def _statement_paragraph_ends(text: str) -> list[int]:
    """Ends of scope paragraphs that close a statement sentence (insertion points for a new sentence)."""
    out = []
    for start, end in _paragraphs(text):
        line = text[start:end]
        if line.endswith("。") and statement_sentences(line):
            out.append(end)
    return out


@dataclass(frozen=True)
class BorrowedRequirement:
    """A short body requirement "X应Y。" that can be restated elsewhere."""

    clause: str
    text: str
    subject: str


@functools.lru_cache(maxsize=16)
def borrowable_requirements(document: Document) -> tuple[BorrowedRequirement, ...]:
    """Body sentences with one 应, a plain noun subject and nothing that ties them to their place."""
    out = []
    for _, section in _body(document):
        for start, end in _paragraphs(section.text):
            line = section.text[start:end]
            if not _is_plain(line):
                continue
            for sentence in sentences(line):
                text = sentence.text
                if not text.endswith("。") or not 8 <= len(text) <= 40 or _BORROW_BANNED.search(text):
                    continue
                found = provisions(text)
                if len(found) != 1 or found[0].word != "应":
                    continue
                subject = text[: found[0].start]
                if _SUBJECT.match(subject) and not _VAGUE_SUBJECT.search(subject):
                    out.append(BorrowedRequirement(section.number, text, subject))
    return tuple(out)


def applicability_qualifiers(sentence: str) -> list[tuple[int, str]]:
    """Qualifiers right after "适用于" that can be dropped leaving a grammatical, vaguer boundary.

    "适用于额定电压不大于1 kV的户内开关柜的设计" → [(offset, "额定电压不大于1 kV的")]: each candidate
    ends with a 的 followed by the object's head noun (not by the list of activities, not by "、").
    """
    m = APPLICABILITY.search(sentence)
    if m is None or not m.group(0).endswith("于"):
        return []
    begin = m.end()
    cut = _CLAUSE_CUT.search(sentence, begin)
    core = sentence[begin : cut.start() if cut else len(sentence)]
    tail = _ACTIVITY_TAIL.search(core)
    stem = core[: tail.start()] if tail else core
    out = []
    for word, k in tokens(stem):
        if word != "的":  # jieba: not the 的 of 目的, 的确
            continue
        qualifier = stem[: k + 1]
        if stem[k + 1 : k + 2] == "，":
            qualifier += "，"
        rest = stem[len(qualifier) :]
        head = regex.split(r"[的，]", rest, maxsplit=1)[0]
        if (
            len(qualifier.rstrip("，")) < 5
            or rest.startswith("、")
            or len(head) < 3
            or "、" in head
            or _ACTIVITY_LIST.fullmatch(head)
            or "以及" in qualifier
            or _QUALIFIER_TAIL.search(qualifier)
        ):
            continue
        out.append((begin, qualifier))
    return out


def scope_objects(text: str) -> list[str]:
    """Objects a scope covers: what follows 规定了/确立了/给出了 up to 的, and the head of 适用于."""
    out = []
    m = regex.search(r"(?:规定了|确立了|给出了)([^，。、；的]{2,16})的", text)
    if m and _ALL_HAN.match(m.group(1)):
        out.append(m.group(1))
    for sentence in statement_sentences(text):
        for begin, qualifier in applicability_qualifiers(sentence.text):
            rest = sentence.text[begin + len(qualifier) :]
            head = regex.split(r"[，。；]|的(?:" + _ACT + ")", rest, maxsplit=1)[0]
            head = regex.sub(r"^(?:各类|各种|各级|相关|所有)|[（(][^）)]*[）)]", "", head)
            if 5 <= len(head) <= 16 and _ALL_HAN.match(head) and "的" not in head:
                out.append(head)
    return list(dict.fromkeys(out))


def excluded_objects(text: str) -> list[str]:
    """What a scope's "……不适用于……" sentences exclude, one item per coordinated object."""
    out = []
    for sentence in statement_sentences(text):
        for m in EXCLUSION.finditer(sentence.text):
            rest = regex.split(r"[，。；]", sentence.text[m.end() :], maxsplit=1)[0]
            for item in regex.split(r"以及|和|、", rest):
                item = item.strip()
                if 3 <= len(item) <= 30 and _ALL_HAN.match(item.replace("的", "")):
                    out.append(item)
    return list(dict.fromkeys(out))


def _bigrams(text: str) -> set[str]:
    """Han character pairs: a cheap measure of how close two scopes' fields are."""
    return {text[i : i + 2] for i in range(len(text) - 1) if _ALL_HAN.match(text[i : i + 2])}


def _full_text(document: Document) -> str:
    return "\n".join(f"{s.title}\n{s.text}" for s in document.sections)


def _self_sentence_start(sentence: str) -> str:
    m = SELF_REFERENCE.match(sentence)
    return m.group(0) if m else ""


# --- SCP-01 --------------------------------------------------------------------------------------------


_SCOPE_PREFIXES = ("使用{w}时，", "按{w}实施时，", "在{w}的适用范围内，")


@register
class ProvisionInScope(Injector):
    """SCP-01. Why: 范围 is made of statements (GB/T 1.1—2020); a requirement there is outside the body
    where provisions are numbered and cited. How: a short body requirement "X应Y。" is restated as a scope
    sentence ("使用本文件时，X应Y。") appended to a scope paragraph; without one, a generic "……应按照本文件
    规定的要求组织实施。" is used."""

    error_type = "SCP-01"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or provision_in_scope(document):
            return []
        target, section = found
        return [Site(target, end) for end in _statement_paragraph_ends(section.text)]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        word = self_reference(document)
        borrowed = borrowable_requirements(document)
        if borrowed:
            source = rng.choice(borrowed)
            prefixes = _SCOPE_PREFIXES[-1:] if _WHEN_SUBJECT.search(source.subject) else _SCOPE_PREFIXES
            sentence = rng.choice(prefixes).format(w=word) + source.text
            origin = f"（正文{_cite(source.clause)}已有此要求）"
        else:
            sentence = f"使用{word}的单位应按照{word}规定的要求组织实施。"
            origin = ""
        edit = Edit("modify", site.target, (Replacement("text", site.detail, "", sentence),))
        return Proposal(
            edit,
            error=f"{_scope_name(section)}中加入了要求型条款“{sentence}”（能愿动词“应”），范围中不应含有要求",
            fix=f"删除该句，范围只陈述文件的对象和适用界限；要求在正文相应条款中表述{origin}",
            generator="rule-template",
        )


# --- SCP-02 --------------------------------------------------------------------------------------------


_VERB_SWAPS = {
    "规定了": ("主要介绍了", "阐述了", "讲述了"),
    "确立了": ("阐述了", "介绍了"),
    "给出了": ("介绍了", "讲述了"),
}
# The verb of a "本文件规定了……" sentence (also 本标准还规定了), where a scope lists what the document covers.
_SCOPE_VERB = regex.compile(rf"(?<={SELF_REFERENCE.pattern}(?:还|也)?)(?:规定了|确立了|给出了)")
_SWAPPABLE = regex.compile(
    rf"(?:(?<={SELF_REFERENCE.pattern}(?:还|也)?)|(?<=[，；]))(?:规定了|确立了|给出了)"
)


@register
class ScopeFormulaBroken(Injector):
    """SCP-02. Why: GB/T 1.1—2020 fixes the scope formula "本文件规定了……"/"本文件适用于……"; readers
    look for the applicability statement, and the verb says what kind of document it is. How: either the
    only "……适用于……" sentence is deleted, or 规定了/确立了/给出了 becomes 主要介绍了/阐述了/讲述了."""

    error_type = "SCP-02"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or scope_formula(document):
            return []
        target, section = found
        out = []
        statements = statement_sentences(section.text)
        applicable = [s for s in statements if states_applicability(s.text)]
        if (
            len(applicable) == 1
            and len(statements) > 1
            and not any(v in applicable[0].text for v in ("规定了", "确立了", "给出了"))
        ):
            out.append(Site(target, ("remove", applicable[0])))
        for sentence in statements:
            for m in _SWAPPABLE.finditer(sentence.text):
                out.append(Site(target, ("verb", sentence.start + m.start(), m.group(0))))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        text = section.text
        if site.detail[0] == "verb":
            _, start, verb = site.detail
            new = rng.choice(_VERB_SWAPS[verb])
            subject = regex.search(
                rf"(?:{SELF_REFERENCE.pattern}(?:还|也)?)$", text[max(0, start - 12) : start]
            )
            before = subject.group(0) if subject else ""
            after = regex.match(r"[^，。；、\n]{0,8}", text[start + len(verb) :]).group(0)
            edit = Edit("modify", site.target, (Replacement("text", start, verb, new),))
            return Proposal(
                edit,
                error=f"{_scope_name(section)}将“{before}{verb}{after}……”写成了“{before}{new}{after}……”，"
                f"“{new}”不是范围的规范表述（是教材、报告的用语）",
                fix=f"改回“{before}{verb}”（范围用“规定了”“确立了”“给出了”等陈述文件的内容）",
                generator="rule",
            )
        sentence: Sentence = site.detail[1]
        start, end = sentence.start, sentence.end
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end) if "\n" in text[end:] else len(text)
        if text[line_start:start].strip() == "" and text[end:line_end].strip() == "":
            start, end = line_start, line_end  # the sentence is a whole paragraph: remove the line
            if start > 0:
                start -= 1
            elif end < len(text):
                end += 1
        edit = Edit("modify", site.target, (Replacement("text", start, text[start:end], ""),))
        word = _self_sentence_start(sentence.text) or self_reference(document)
        return Proposal(
            edit,
            error=f"{_scope_name(section)}删去了适用界限的陈述“{sentence.text}”，范围中没有“{word}适用于……”",
            fix=f"补回适用界限的陈述：“{sentence.text}”",
            generator="rule",
        )


# --- SCP-03 --------------------------------------------------------------------------------------------


_NEAREST = 4  # foreign objects are drawn from the scopes closest to this document's field
_BEYOND_TEMPLATES = (
    "{o}也应符合{here}的规定。",
    "{o}也应按{here}的要求执行。",
    "对{o}，也应满足{here}的要求。",
)


@functools.lru_cache(maxsize=16)
def out_of_scope_objects(
    document: Document, context: InjectionContext
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Objects this scope does not cover: the ones it excludes, and those of the closest other scopes."""
    found = scope_chapter(document)
    own = excluded_objects(found[1].text) if found else []
    everything = _full_text(document)
    mine = _bigrams(document.title + (found[1].text if found else ""))
    scopes = sorted(context.scopes_for(document), key=lambda c: -len(mine & _bigrams(c.text)))
    foreign = [o for scope in scopes for o in scope_objects(scope.text) if o not in everything]
    return tuple(own), tuple(dict.fromkeys(foreign))[:_NEAREST]


@register
class BodyBeyondScope(Injector):
    """SCP-03. Why: every provision of the body lies inside the boundary that 范围 draws (GB/T 1.1—2020);
    a clause that also regulates another object silently widens the document. How: after a body
    requirement, a sentence extends it to an object the scope does not cover — one this scope explicitly
    excludes, or the object of another corpus document's scope ("移动式储能车也应符合本条的规定。")."""

    error_type = "SCP-03"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if scope_chapter(document) is None or not any(out_of_scope_objects(document, context)):
            return []
        return [Site(i, end) for i, s in _body(document) for end in _requirement_paragraph_ends(s)]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        own, foreign = out_of_scope_objects(document, context)
        use_own = bool(own) and (not foreign or rng.random() < 0.5)
        obj = rng.choice(own if use_own else foreign)
        here = "本章" if section.level == 1 else "本条"
        sentence = rng.choice(_BEYOND_TEMPLATES).format(o=obj, here=here)
        edit = Edit("modify", site.target, (Replacement("text", site.detail, "", sentence),))
        why = "范围明确排除的" if use_own else "范围未涵盖的"
        return Proposal(
            edit,
            error=f"{_clause_name(section)}增加了“{sentence}”，对{why}“{obj}”提出了要求，正文超出了范围的界限",
            fix=f"删除该句；如确需规定“{obj}”，先修改范围使其涵盖该对象",
            generator="rule-template",
        )


# --- SCP-04 --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def uncovered_aspects(document: Document) -> tuple[ScopeAspect, ...]:
    """Aspects that neither the scope nor any body chapter (title or text) mentions."""
    body = "\n".join(
        f"{s.title}\n{s.text}"
        for s in document.sections
        if s.kind not in ("foreword", "introduction", "scope", "normative_references", "bibliography")
    )
    scope = "\n".join(s.text for s in document.sections if s.kind == "scope")
    return tuple(
        a
        for a in SCOPE_ASPECTS
        if not any(k in body for k in a.keywords) and not any(k in scope for k in a.keywords)
    )


def _aspect_insertion(text: str, sentence: Sentence, verb_end: int) -> tuple[int, str, bool]:
    """Where a new item joins the list after a scope verb: (offset, connector, items end with 要求).

    Mid-list before the last top-level conjunction ("……、{item}和运行维护要求") when the neighbouring items
    have the same form; otherwise at the end of the list ("……和{item}要求", "……，以及{item}要求").
    """
    cut = regex.compile(r"[，；。]").search(text, verb_end, sentence.end)
    end = cut.start() if cut else sentence.end
    region = text[verb_end:end]
    items = [i for i in regex.split(r"以及|[、和及]", region) if i]
    as_requirement = sum(i.endswith("要求") for i in items) * 2 >= len(items) > 1
    words = list(tokens(region))  # jieba: 和 inside 总和/和谐 or 及 inside 及时/及其 is no conjunction
    conjunctions = [at for w, at in words if w == "以及"] or [at for w, at in words if w in ("和", "及")]
    conj = conjunctions[-1] if conjunctions else -1
    if conj > 0:
        before = region[:conj]
        modifier = "的" in region[conj:]  # "A、B和C的格式": the list modifies a noun, do not split it
        if before.endswith("要求") == as_requirement and not before.endswith(("、", "的")) and not modifier:
            return verb_end + conj, "、", as_requirement
    if not conjunctions:
        return end, "和", True
    return end, ("、" if text.startswith("，以及", end) else "，以及"), True


@register
class ScopePromiseMissing(Injector):
    """SCP-04. Why: what the Scope says the document specifies must be found in the body (GB/T 1.1—2020);
    a promised aspect with no chapter misleads users. How: an aspect from a small lexicon that no chapter
    title or text mentions ("安装", "人员培训", "维护保养" …) is added to the list after 规定了/确立了/给出了,
    before its last conjunction ("……、人员培训要求和运行维护要求") or at its end ("……，以及人员培训要求")."""

    error_type = "SCP-04"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or not uncovered_aspects(document):
            return []
        target, section = found
        return [
            Site(target, (sentence, sentence.start + m.end()))
            for sentence in statement_sentences(section.text)
            for m in _SCOPE_VERB.finditer(sentence.text)
        ]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        sentence, verb_end = site.detail
        offset, connector, as_requirement = _aspect_insertion(section.text, sentence, verb_end)
        aspects = list(uncovered_aspects(document))
        if connector != "，以及":
            aspects = [a for a in aspects if "和" not in a.name and "、" not in a.name]
        if not aspects:
            return None
        aspect = rng.choice(aspects)
        item = aspect.item(as_requirement)
        edit = Edit("modify", site.target, (Replacement("text", offset, "", connector + item),))
        return Proposal(
            edit,
            error=f"{_scope_name(section)}列出了“{item}”，但正文没有任何章条涉及{aspect.name}，范围承诺的内容缺失",
            fix=f"删除范围中的“{item}”，或在正文中补充{aspect.name}的技术内容",
            generator="rule-template",
        )


# --- SCP-05 --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def regulated_objects(document: Document) -> tuple[tuple[str, str], ...]:
    """(object, clause) pairs: objects the body regulates, from clause titles and defined terms."""
    out: list[tuple[str, str]] = []
    body = _body(document)
    for _, s in body:
        title = s.title
        if (
            s.level >= 2
            and 3 <= len(title) <= 14
            and _ALL_HAN.match(title)
            and title.endswith(_OBJECT_SUFFIXES)
            and any(provisions(st.text) for st in sentences(s.text))
        ):
            out.append((title, s.number))
    for s in document.sections:
        if s.kind != "terms" or s.level < 2:
            continue
        term, _ = split_term(s.title)
        if not (3 <= len(term) <= 14 and _ALL_HAN.match(term) and term.endswith(_OBJECT_SUFFIXES)):
            continue
        clause = next(
            (
                b.number
                for _, b in body
                for st in sentences(b.text)
                if term in st.text and provisions(st.text)
            ),
            None,
        )
        if clause:
            out.append((term, clause))
    seen: dict[str, str] = {}
    for obj, clause in out:
        seen.setdefault(obj, clause)
    return tuple(seen.items())


@register
class ScopeBoundaryVague(Injector):
    """SCP-05. Why: the boundary of 范围 decides who must comply (GB/T 1.1—2020); without its qualifiers
    it claims more than the body was written for, and an exclusion that the body contradicts leaves users with
    two answers. How: a qualifier right after "适用于" is dropped ("额定电压不大于1 kV的"), or a sentence
    "本文件不适用于X。" is added where X is an object a body clause regulates (a clause title or a term)."""

    error_type = "SCP-05"

    def _exclusions(self, document: Document, section: Section) -> list[tuple[str, str]]:
        """Regulated objects the scope does not name yet (nor their head noun: 协作工作单元 ~ 工作单元)."""
        return [(o, c) for o, c in regulated_objects(document) if o[-4:] not in section.text]

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None:
            return []
        target, section = found
        out = [
            Site(target, ("qualifier", sentence.start, begin, qualifier))
            for sentence in statement_sentences(section.text)
            for begin, qualifier in applicability_qualifiers(sentence.text)
        ]
        ends = [
            s.end
            for s in statement_sentences(section.text)
            if APPLICABILITY.search(s.text) or EXCLUSION.search(s.text)
        ]
        if ends and self._exclusions(document, section):
            line_end = section.text.find("\n", ends[-1])
            out.append(Site(target, ("exclusion", len(section.text) if line_end < 0 else line_end)))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        text = section.text
        if site.detail[0] == "qualifier":
            _, sentence_start, begin, qualifier = site.detail
            start = sentence_start + begin
            sentence = next(s for s in statement_sentences(text) if s.start == sentence_start)
            after = sentence.text[:begin] + sentence.text[begin + len(qualifier) :]
            edit = Edit("modify", site.target, (Replacement("text", start, qualifier, ""),))
            return Proposal(
                edit,
                error=f"{_scope_name(section)}的适用界限删去了限定语“{qualifier.rstrip('，')}”，"
                f"成为“{after}”，适用对象的边界变得模糊",
                fix=f"恢复限定语“{qualifier.rstrip('，')}”，明确适用界限",
                generator="rule-template",
            )
        obj, clause = rng.choice(self._exclusions(document, section))
        word = self_reference(document)
        also = "也" if EXCLUSION.search(text) else ""
        sentence = f"{word}{also}不适用于{obj}。"
        edit = Edit("modify", site.target, (Replacement("text", site.detail[1], "", "\n" + sentence),))
        return Proposal(
            edit,
            error=f"{_scope_name(section)}增加了排除陈述“{sentence}”，而正文{_cite(clause)}对{obj}规定了要求，"
            "范围与正文矛盾",
            fix=f"删除该排除陈述，或同时删去正文{_cite(clause)}中关于{obj}的要求",
            generator="rule-template",
        )
