"""SCP-03 正文超出范围 (Body exceeds the Scope)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace

import regex

from injectors.authoring import (
    Answer,
    Attempt,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    Injector,
    LLMSpec,
    Original,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Rewriter,
    Section,
    Site,
    TypeDefinition,
    failure,
    has_provision,
    new_sentences,
    outside_scope,
    quoted_in,
    scope_text,
    text_replacement,
)
from injectors.language.punctuation import match_style
from injectors.language.sentences import provisions, sentences
from injectors.language.words import tagged, words
from injectors.types.scp.analysis import (
    APPLICABILITY,
    EXCLUSION,
    scope_chapter,
    self_reference,
    statement_sentences,
)
from injectors.types.scp.editing import (
    ACT,
    ALL_HAN,
    applicability_qualifiers,
    body_sections,
    cite,
    is_plain,
    paragraph_spans,
    plain_subject,
)
from injectors.types.scp.kinds import can_join, same_kind

ERROR_TYPE = ErrorType(
    "SCP-03",
    "SCP",
    "正文超出范围",
    "Body exceeds the Scope",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "L",
    "J",
    ("E-SC-01",),
)


def _clause_name(section: Section) -> str:
    return cite(section.number)


def scope_objects(text: str) -> list[str]:
    """Objects a scope covers: what follows 规定了/确立了/给出了 up to 的, and the head of 适用于."""
    out = []
    m = regex.search(r"(?:规定了|确立了|给出了)([^，。、；的]{2,24})的", text)
    named = regex.sub(r"[（(][^）)]*[）)]", "", m.group(1)) if m else ""  # "（以下简称终端）"
    if len(named) >= 2 and ALL_HAN.match(named):
        out.append(named)
    for sentence in statement_sentences(text):
        for begin, qualifier in applicability_qualifiers(sentence.text):
            rest = sentence.text[begin + len(qualifier) :]
            head = regex.split(r"[，。；]|的(?:" + ACT + ")", rest, maxsplit=1)[0]
            head = regex.sub(r"^(?:各类|各种|各级|相关|所有)|[（(][^）)]*[）)]", "", head)
            if 3 <= len(head) <= 16 and ALL_HAN.match(head) and "的" not in head:
                out.append(head)
    return list(dict.fromkeys(out))


# What an exclusion names after its object: the activities or the aspect, not a second object.
_EXCLUDED_TAIL = regex.compile(rf"的(?:描述|表示|(?:{ACT})(?:[与和及、](?:{ACT}))*)$")


def excluded_objects(text: str) -> list[str]:
    """What a scope's "……不适用于……" sentences exclude, one item per coordinated object."""
    out = []
    for sentence in statement_sentences(text):
        for m in EXCLUSION.finditer(sentence.text):
            rest = regex.split(r"[，。；]", sentence.text[m.end() :], maxsplit=1)[0]
            for item in regex.split(r"以及|和|、", rest):
                item = _EXCLUDED_TAIL.sub("", item.strip())
                if (
                    3 <= len(item) <= 30
                    and ALL_HAN.match(item.replace("的", ""))
                    and "过程中" not in item
                    and not _EXCLUDED_TAIL.search(item)
                ):
                    out.append(item)
    return list(dict.fromkeys(out))


# "塑料大棚中使用的环境监测系统参照使用", "蒸青绿茶的加工参照使用": objects only referred to the document.
_BY_REFERENCE = regex.compile(
    r"([^，。；]{3,30}?)(?:的(?:" + ACT + r"))?(?:，其[^，。；]{1,12})?参照(?:使用|执行)"
)


def referred_objects(text: str) -> list[str]:
    """Objects a scope only lets use the document by reference (not its own objects)."""
    out = []
    for sentence in statement_sentences(text):
        for m in _BY_REFERENCE.finditer(sentence.text):
            item = m.group(1).strip()
            if ALL_HAN.match(item.replace("的", "")) and not item.startswith(("其", "本", "该")):
                out.append(item)
    return list(dict.fromkeys(out))


# "适用于……非涉密对象", "给出了非涉及国家秘密的等级保护对象的……": the scope keeps the X-kind of its object
# out by its own words (not 并非/除非/无非, nor a coordinated "银行业金融机构和非银行支付机构", which is in).
_NEGATED = regex.compile(
    r"(?<![并除若无是和及与、或])非(\p{Han}{2,12}?的)?"
    r"(\p{Han}{0,8}?(?:对象|系统|设备|产品|数据|信息|单位|机构|企业|车辆|终端|平台|场所|人员|项目|网络|应用))"
)


def negated_objects(text: str) -> list[tuple[str, str, str]]:
    """(object left out, head noun it shares with the scope's own object, the scope's words), from the
    "非X的Y" / "非XY" qualifiers of a scope: "非涉密对象" → ("涉密对象", "对象", "非涉密对象")."""
    out = []
    for sentence in statement_sentences(text):
        for m in _NEGATED.finditer(sentence.text):
            qualifier, noun = m.group(1) or "", m.group(2)
            name = qualifier + noun
            head = noun if qualifier else words(noun)[-1]
            if len(head) >= 2 and len(name) > len(head) and ALL_HAN.match(name.replace("的", "")):
                out.append((name, head, m.group(0)))
    return list(dict.fromkeys(out))


# A cited standard's code ("GB/T 19392-2003", "［1］JT/T 794", "GM/T0028"), and the genre that ends a
# product standard's title ("……车载终端技术要求"): what remains is the product it standardizes (not an
# interface specification's "证书应用综合服务接口规范": a service, no product).
_REFERENCE_CODE = regex.compile(r"^\s*(?:[［\[]\d+[］\]])?\s*[A-Z][A-Z/]*\s*\d[\d.]*(?:\s*[—–-]\s*\d{4})?\s*")
_GENRE = regex.compile(
    r"(?:技术要求(?:[和及与]试验方法)?|通用技术条件|技术条件|通用规范|技术规范|安全要求|试验方法|检验方法|检测方法)$"
)
_LATIN_GAP = regex.compile(r"(?<=[A-Za-z0-9])\s+(?=\p{Han})|(?<=\p{Han})\s+(?=[A-Za-z0-9])")


def referenced_products(document: Document) -> list[str]:
    """Products that the standards this document cites (normative references, bibliography) are about:
    "JT/T 794 道路运输车辆卫星定位系统车载终端技术要求" → "道路运输车辆卫星定位系统车载终端". Only titles
    that end with a product standard's genre (技术要求, 通用规范 …) name one."""
    out = []
    for section in document.sections:
        if section.kind not in ("normative_references", "bibliography"):
            continue
        for line in section.text.split("\n"):
            m = _REFERENCE_CODE.match(line)
            if m is None:
                continue
            title = _LATIN_GAP.sub("", regex.sub(r"[（(][^）)]*[）)]", "", line[m.end() :]).strip())
            elements = [e for e in regex.split(r"[\s:：]+", title) if e]
            while elements and _GENRE.fullmatch(elements[-1]):  # "……预警系统 技术要求和试验方法"
                elements.pop()
                if elements:
                    elements[-1] += "技术要求"
            if not elements:
                continue
            name = _GENRE.sub("", elements[-1])
            if name != elements[-1] and 4 <= len(name) <= 20 and ALL_HAN.match(name):
                out.append(name)
    return list(dict.fromkeys(out))


# Where a name begins in running text: after a line start, a non-Han character or a coordinator.
_NAME_START = r"(?:^|(?<=[^\p{Han}A-Za-z0-9])|(?<=[或和与及、]))"
# Nouns that count or point instead of naming a kind ("部分系统", "相关服务器").
_NOT_A_MODIFIER = (
    *("部分", "全部", "整个", "其他", "其它", "相关"),
    *("有关", "上述", "各类", "各种", "所有", "单位"),
)
# A table or figure caption ("表A.28 单位记录仪……"): its words label data, they name no product.
_CAPTION = regex.compile(r"^\s*续?(?:表|图)\s*[A-Z]?[\d.]+\s*$")
# Sections that name things without regulating them: definitions and their notes, the introduction,
# annexes. Not the foreword (its drafting units are companies), not the references (read by
# `referenced_products`), not the body (a thing the body names it treats, or its object works with).
_NAMING_KINDS = ("terms", "introduction", "annex")


def _is_short_name(name: str, objects: tuple[str, ...]) -> bool:
    """Whether `name` is a scope object shortened ("签名服务器" for "签名验签服务器"): its characters
    in order within the object's."""
    for o in objects:
        it = iter(o)
        if all(c in it for c in name):
            return True
    return False


def _product_head(obj: str) -> str:
    """The scope object's last word when it names a product (服务器, 记录仪, 分析仪), else "": a generic
    two-character head (系统, 数据, 技术) is shared by things of every kind."""
    head = words(obj)[-1] if obj else ""
    return head if len(head) >= 3 and ALL_HAN.match(head) else ""


def named_siblings(document: Document, objects: tuple[str, ...]) -> list[str]:
    """Products with the scope object's own head word that the document names in its definitions,
    introduction or annexes ("CRL或OCSP服务器无法连接" beside "签名验签服务器"), written as a name: nouns
    only, begun where a name begins, sharing no more than the head with the object (else a kind of the
    object: "温度记录仪" in "冷藏型温度记录仪"), and not the object shortened."""
    heads = {h for h in map(_product_head, objects) if h}
    out = []
    for section in document.sections:
        if section.kind not in _NAMING_KINDS:
            continue
        for head in heads:
            pattern = _NAME_START + r"([A-Za-z0-9\p{Han}]{2,10}?" + regex.escape(head) + ")"
            for m in regex.finditer(pattern, section.text, flags=regex.M):
                name = m.group(1)
                line_start = section.text.rfind("\n", 0, m.start()) + 1
                if _CAPTION.match(section.text[line_start : m.start()]):
                    continue
                modifier = name[: -len(head)]
                tags = tagged(modifier)
                if (
                    not tags
                    or not all(t.startswith("n") or t == "eng" for _, t in tags)
                    or any(w in _NOT_A_MODIFIER for w, _ in tags)
                    or any(o.endswith(modifier[-1] + head) for o in objects)
                    or _is_short_name(name, objects)
                ):
                    continue
                out.append(name)
    return list(dict.fromkeys(out))


def sibling_objects(document: Document, objects: tuple[str, ...], scope: str, body: str) -> list[str]:
    """Products of the scope object's kind that the document's own references name and that neither its
    scope nor its body treats: "汽车GPS导航系统" beside "汽车行驶记录仪". Not a class the scope object
    belongs to (服务器 for 签名验签服务器), nor a kind of the scope object itself, nor one of a kind the
    scope takes in as a whole ("亦适用于其他水利监测系统")."""
    heads = _heads(objects)
    out = []
    named = {_product_head(o) for o in objects} - {""}
    for name in dict.fromkeys([*referenced_products(document), *named_siblings(document, objects)]):
        # nor one the body names by its head ("充电连接装置" for "……传导充电用连接装置"): a part of the object
        if name in scope or name[-4:] in body or not any(same_kind(name, o) for o in objects):
            continue
        if any(h.endswith(name) or (name.endswith(h) and h not in named) for h in heads):
            continue
        if regex.search(rf"(?:其他|其它|各类|各种|所有)[^，。；]{{0,12}}{regex.escape(name[-2:])}", scope):
            continue
        out.append(name)
    return out


_NUMERALS = "一二三四五六七八九"
# "第一级到第四级等级保护对象": a scope that bounds its object by a range of levels, with the object named.
_LEVEL_RANGE = regex.compile(
    rf"第([{_NUMERALS}])级(?:到|至|～|~|—)第([{_NUMERALS}])级(?:的)?([\p{{Han}}]{{2,8}}?(?:对象|系统|产品|设备|单位))"
)


@dataclass(frozen=True)
class LevelBound:
    """A scope's range of levels ("第一级到第四级等级保护对象"), its top level and the next level up, which
    the document names elsewhere (a table of levels, a definition) and the scope leaves out."""

    words: str  # the scope's words: "第一级到第四级等级保护对象"
    top: str  # 第四级
    beyond: str  # 第五级


@functools.lru_cache(maxsize=16)
def level_bound(document: Document) -> LevelBound | None:
    """The scope's range of levels, where the document itself names the level above its top outside the
    scope: a body clause about the top level can then take in that level, named as the document names
    its levels. None where the scope gives no range, or the document never names a level beyond it."""
    found = scope_chapter(document)
    if found is None:
        return None
    m = _LEVEL_RANGE.search(found[1].text)
    if m is None or _NUMERALS.index(m.group(2)) + 1 >= len(_NUMERALS):
        return None
    top, beyond = f"第{m.group(2)}级", f"第{_NUMERALS[_NUMERALS.index(m.group(2)) + 1]}级"
    rest = "\n".join(s.text for s in document.sections if s.kind != "scope")
    return LevelBound(m.group(0), top, beyond) if beyond in rest else None


@dataclass(frozen=True)
class LevelRequirement:
    """A body requirement that names the scope's top level before a noun ("应为第四级业务应用系统……")."""

    start: int  # offset of the sentence in the section text
    at: int  # offset, within the sentence, right after the top level
    sentence: str


# After the top level: the thing of that level, not a range ("及以上", "以下") nor the level itself.
_AFTER_TOP = regex.compile(r"(?!及?以[上下]|安全要求)(?:的)?\p{Han}{2}")


@functools.lru_cache(maxsize=16)
def level_requirements(section: Section, bound: LevelBound) -> tuple[LevelRequirement, ...]:
    """Requirements (应/不应, a list item's too) of a body clause that name the top level of the scope's
    range before the thing they regulate, and not already the level beyond it."""
    rows = section.table_lines()
    out = []
    for start, end in paragraph_spans(section.text):
        if section.text.count("\n", 0, start) in rows:
            continue
        line = section.text[start:end]
        for sentence in sentences(line):
            text = sentence.text
            found = provisions(text)
            if not found or found[0].word not in ("应", "不应") or bound.beyond in text:
                continue
            for m in regex.finditer(regex.escape(bound.top), text):
                if _AFTER_TOP.match(text, m.end()) and not text.startswith(("注", "示例")):
                    out.append(LevelRequirement(start + sentence.start, m.end(), text))
                    break
    return tuple(out)


@dataclass(frozen=True)
class ScopedRequirement:
    """A body requirement "S应P。" whose subject S is, or starts with, the object the scope covers."""

    start: int  # offset of the sentence in the section text
    subject: str
    head: str  # the scope's object within the subject, after which another object can be coordinated
    sentence: str


def _heads(objects: tuple[str, ...]) -> list[str]:
    """The scope's objects, each coordinated part of them ("智能水表及其远程抄表系统"), and their trailing
    parts of three characters or more, longest first."""
    parts = {p for o in objects for p in regex.split(r"及其|以及|[和与及、]", o) if len(p) >= 3}
    out = {p[k:] for p in parts | set(objects) for k in range(len(p) - 2)}
    return sorted(out, key=len, reverse=True)


# How a body names the scope's object without repeating it: "产品应……" in a product standard.
_SELF_SUBJECTS = ("产品",)


@functools.lru_cache(maxsize=16)
def scoped_requirements(section: Section, objects: tuple[str, ...]) -> tuple[ScopedRequirement, ...]:
    """Requirements of a body clause about the scope's own object: where another object can join in."""
    heads = _heads(objects)
    out = []
    for at, subject, text in _requirements(section):
        if not plain_subject(subject.replace("的", "")):
            continue
        head = next((h for h in heads if subject.endswith(h) or h + "的" in subject), None)
        if head is None and subject in _SELF_SUBJECTS:
            head = subject
        if head:
            out.append(ScopedRequirement(at, subject, head, text))
    return tuple(out)


def _requirements(section: Section) -> Iterator[tuple[int, str, str]]:
    """(offset, words before the modal, sentence) of each 应/不应 sentence of the clause's plain prose (never
    a table row: the section's tables say which lines are rows, a full-width note row included)."""
    rows = section.table_lines()
    for start, end in paragraph_spans(section.text):
        line = section.text[start:end]
        if section.text.count("\n", 0, start) in rows or not is_plain(line):
            continue
        for sentence in sentences(line):
            found = provisions(sentence.text)
            if sentence.text.endswith("。") and found and found[0].word in ("应", "不应"):
                yield start + sentence.start, sentence.text[: found[0].start], sentence.text


def _head_end(subject: str, head: str) -> int | None:
    """Where another object can be coordinated after `head` in the part of a sentence before its modal:
    after the last head followed by 的, a comma or nothing ("……的等级保护对象，应……"), not after "非"."""
    for m in reversed(list(regex.finditer(regex.escape(head), subject))):
        after = subject[m.end() : m.end() + 1]
        if after in ("", "的", "，", ",") and subject[m.start() - 1 : m.start()] != "非":
            return m.end()
    return None


@functools.lru_cache(maxsize=16)
def negated_requirements(section: Section, head: str) -> tuple[ScopedRequirement, ...]:
    """Requirements of a body clause that name the head noun of a "非X" scope qualifier before their 应
    ("对于……的等级保护对象，应……"): where the object the qualifier leaves out can join in."""
    return tuple(
        ScopedRequirement(at, subject, head, text)
        for at, subject, text in _requirements(section)
        if len(subject) <= 40 and _head_end(subject, head) is not None
    )


def _connectors(document: Document, follows: str) -> tuple[list[str], list[str]]:
    """Coordinators, and "all" adverbs the document itself writes before the words that follow the subject
    ("均应能" where the clause goes on with 应能): an adverb the document never writes there would be the
    same new phrase in every instance that took it."""
    body = "\n".join(s.text for _, s in body_sections(document))
    joins = [c for c in ("和", "及", "与", "以及", "、") if c in body] or ["和"]
    alls = [""] + [a for a in ("均", "都") if f"{a}{follows}" in body]
    return joins, alls


_LONGEST_OBJECT = 28  # a longer excluded object makes a coordinated subject no drafter would write


@dataclass(frozen=True)
class Outsider:
    """An object outside the scope and the scope's own words that put it there."""

    name: str
    excluded: bool  # True: "不适用于"; False: only "参照使用"
    negated: str = ""  # the scope's "非X" qualifier that leaves the object out ("非涉密对象")
    head: str = ""  # for a negated one: the noun it shares with the scope's object ("对象")
    sibling: str = ""  # for a product its references name: the scope's own objects it stands beside
    written: str = ""  # how a clause names it, where shorter than the scope's words ("换电柜")

    @property
    def word(self) -> str:
        """The name a clause takes in: the short name where there is one, else the scope's words."""
        return self.written or self.name


# A participle a scope writes between where an object is used and the object ("塑料大棚中使用的……",
# "建筑物内设置的……"); a clause names the object without it ("塑料大棚环境监测系统").
_PARTICIPLE = regex.compile(r"(?:中)?(?:使用|设置|安装|配置|所用)的|(?<=[内外上])的")


def clause_name(name: str, objects: tuple[str, ...], body: str) -> str:
    """How a drafter names an outsider in a clause: the scope's "塑料大棚中使用的环境监测系统" is a
    塑料大棚环境监测系统 there (the participle dropped), and its "用于电池租赁的换电柜" a 换电柜 (the head
    after the last 的, where it is a name of its own: three characters or more, sharing no word with the
    scope's objects, so never a part of them: "旅客信息显示设备" of a 旅客信息显示系统). "" where neither is
    shorter, or the body already uses the short name (the clause would then take in what it treats)."""
    if "的" not in name:
        return ""
    short = _PARTICIPLE.sub("", name)
    if "的" in short:
        head = name.rsplit("的", 1)[1]
        kind = words(head)[:-1]
        own = (
            len(head) >= 3
            and not any(o.endswith(head) or head in o for o in objects)
            and not any(len(w) >= 2 and w in o for w in kind for o in objects)
        )
        short = head if own else name
    if short == name or short in body or not ALL_HAN.match(short):
        return ""
    return short


def _of_its_kind(name: str, objects: tuple[str, ...]) -> str:
    """The scope's objects of the sibling's kind, as the description names them ("汽车行驶记录仪")."""
    kin = [regex.sub(r"[（(][^）)]*[）)]", "", o) for o in objects if same_kind(name, o)]
    return "、".join(dict.fromkeys(kin))


@functools.lru_cache(maxsize=16)
def _material(document: Document) -> tuple[tuple[str, ...], tuple[Outsider, ...]]:
    """(objects the scope covers, objects it puts outside); both from this document's own scope."""
    found = scope_chapter(document)
    if found is None:
        return (), ()
    text = found[1].text
    body = "\n".join(s.text for _, s in body_sections(document))
    outside = [Outsider(z, True) for z in excluded_objects(text)]
    outside += [Outsider(z, False) for z in referred_objects(text)]
    outside += [Outsider(z, True, own, head) for z, head, own in negated_objects(text)]
    objects = tuple(scope_objects(text))
    if objects:
        outside += [
            Outsider(z, False, sibling=_of_its_kind(z, objects))
            for z in sibling_objects(document, objects, text, body)
        ]
    usable = tuple(
        replace(o, written=clause_name(o.name, objects, body)) if not (o.negated or o.sibling) else o
        for o in outside
        if len(o.name) <= _LONGEST_OBJECT and o.name not in body
    )
    return objects, usable


def _joins(
    outsider: Outsider, requirement: ScopedRequirement, own_heads: list[str], objects: tuple[str, ...]
) -> bool:
    """Whether the outsider can be coordinated with the requirement's subject: a negated one with a subject
    of its head noun ("等级保护对象" + "涉密对象"), the others with one of the scope's own objects, and
    only where the two read as things of one kind (`kinds`: not "报警系统和电池室均应……")."""
    at = _head_end(requirement.subject, requirement.head)
    if at is None:
        return False
    if outsider.negated:
        fits = requirement.head.endswith(outsider.head) and outsider.name not in requirement.subject
    else:
        own = requirement.head in own_heads or requirement.head in _SELF_SUBJECTS
        fits = own and requirement.head not in outsider.word
    heads = objects if requirement.head in _SELF_SUBJECTS else ()
    return (
        fits
        and can_join(outsider.word, requirement.subject, at, heads)
        and not _speaks_of(outsider, requirement)
    )


def _speaks_of(outsider: Outsider, requirement: ScopedRequirement) -> bool:
    """Whether a sibling's own words already stand in the clause as something the object works with
    ("……应支持OCSP连接配置功能" for "OCSP服务器"): the sibling cannot also be the clause's subject."""
    if not outsider.sibling:
        return False
    own = {
        w
        for w in words(outsider.name)
        if len(w) >= 2 and not any(w in o for o in outsider.sibling.split("、"))
    }
    return any(w in requirement.sentence for w in own)


# What the instances already placed in the document being injected added (the planner's `taken`), for
# the duration of one `inject` call: a second instance names another outsider, or none.
_ADDED: ContextVar[tuple[str, ...]] = ContextVar("scp03_added", default=())


class BodyBeyondScope(Injector):
    """SCP-03. Why: every provision of the body lies inside the boundary that 范围 draws (GB/T 1.1—2020);
    a clause that also regulates an object the scope excludes silently widens the document. How: a body
    requirement about the scope's own object ("集中充电柜应……", "工作单元的电气设备应……") takes in, as a
    coordinated object, one this scope says it does not apply to (or lets use the document only by
    reference, or keeps out by a "非X" qualifier: "非涉密对象"): "集中充电柜和用于电池租赁的换电柜应……",
    written with the coordinators the document itself
    uses, and named as a clause names a thing, not with the scope's participles ("塑料大棚环境监测系统"
    for the scope's "塑料大棚中使用的环境监测系统", `clause_name`); the error shows only when the clause
    is read against the scope. Only things of one kind are
    coordinated (`kinds`): "报警系统和电池室均应设置主电源" is a sentence no drafter writes; a place may
    join only as a second owner ("报警系统及电池室的设计文件应……"). Where the scope puts nothing
    outside, the outsider may be a product of the scope object's own kind that a standard the document
    cites is about ("汽车GPS导航系统" beside "汽车行驶记录仪") and that neither the scope nor the body
    treats (`sibling_objects`), or a product with the scope object's own head word (服务器, 记录仪: never
    a generic 系统 or 数据) that the document itself names in its definitions, introduction or annexes
    and never in its body ("OCSP服务器" beside "签名验签服务器", `named_siblings`): the scope names its
    one object, so the widened clause shows against it. The evidence rule for both: the corrupted
    document's scope names its object, the added one is not that object (nor a kind of it, nor it
    shortened, nor a class it belongs to), and no body clause treats the added one. Where the scope
    bounds its object by a range of levels ("第一级到第四级等级保护对象") and the document itself names
    the level above it (a table of 定级结果 listing 第五级), a requirement about the top level takes in
    the next one, named as the document names its levels ("应为第四级和第五级业务应用系统……",
    `level_requirements`); never a "第三级及以上", which is no level of its own.
    Other documents are skipped (no site): an object from another document would come from another field,
    and a life-cycle stage the scope does not list ("改造前后均应……") read as padding to the reviewers,
    not as a drafting error."""

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "491693f1fbff3b04"
    forms = ("不适用于", "参照使用", "非X", "同类对象", "范围外等级")
    alternatives = 3  # a document offering two forms (an exclusion, a sibling product) offers both

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """The scope puts nothing outside in its own words (不适用于, 参照使用, 非X), the document names no
        product of its object's kind that it leaves out (in its references, definitions, introduction or
        annexes), and no level above the scope's range of levels: no_outsider_in_scope; or it does, but no
        body requirement has a subject of the outsider's kind, nor one that owns something the outsider
        could own too (an odd coordination is worse than none), nor one about the top level:
        no_subject_of_its_kind."""
        if scope_chapter(document) is None:
            return "no_scope"
        outside = _material(document)[1] or level_bound(document) is not None
        return "no_subject_of_its_kind" if outside else "no_outsider_in_scope"

    def inject(
        self,
        baseline: Original,
        rng: random.Random,
        context: InjectionContext,
        taken: Sequence[Edit] = (),
        seed: int = 0,
        stats: Counter[str] | None = None,
        rewriter: Rewriter | None = None,
    ) -> Attempt:
        """A second instance in one document never names the outsider of the first again: the same
        "和涉密对象" in two clauses is a phrase repeated across the release, a pattern instead of an error
        to find."""
        token = _ADDED.set(tuple(r.new for e in taken for r in e.replacements if r.new))
        try:
            return super().inject(baseline, rng, context, taken, seed, stats, rewriter)
        finally:
            _ADDED.reset(token)

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        bound = level_bound(document)
        levels = (
            [Site(i, r) for i, s in body_sections(document) for r in level_requirements(s, bound)]
            if bound
            else []
        )
        objects, outside = _material(document)
        if not objects:
            return levels
        if not outside:  # nothing the scope puts outside: an extension would have to be invented
            return levels
        nouns = tuple(dict.fromkeys(z.head for z in outside if z.negated))
        own = [Site(i, r) for i, s in body_sections(document) for r in scoped_requirements(s, objects)]
        negated = [
            Site(i, r) for i, s in body_sections(document) for h in nouns for r in negated_requirements(s, h)
        ]
        own_heads = _heads(objects)
        return levels + [  # only where an outsider reads as of the subject's kind (else no site)
            x
            for x in {(x.target, x.detail.start): x for x in own + negated}.values()
            if any(_joins(z, x.detail, own_heads, objects) for z in outside)
        ]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        if isinstance(site.detail, LevelRequirement):
            return _level_proposal(document, site.target, site.detail)
        requirement: ScopedRequirement = site.detail
        objects, outside = _material(document)
        own_heads = _heads(objects)
        before = _ADDED.get()
        candidates = [
            z
            for z in outside
            if _joins(z, requirement, own_heads, objects) and not any(z.word in a for a in before)
        ]
        if not candidates:
            return None
        outsider = rng.choice(candidates)
        obj = outsider.word
        subject = requirement.subject
        at = _head_end(subject, requirement.head)
        assert at is not None
        joins, alls = _connectors(document, requirement.sentence[at : at + 2])
        # not the coordinator the subject already has ("火灾探测与报警系统与……"): it would read as one list;
        # nor, where the document has another, the one an earlier instance here added ("……记录仪以及……"
        # twice is a phrase the two instances share, a pattern instead of two errors)
        usable = [j for j in joins if j not in subject[:at]] or joins
        join = rng.choice([j for j in usable if not any(a.startswith(j) for a in before)] or usable)
        added = match_style(join + obj, section.text)
        every = rng.choice(alls) if at == len(subject) else ""
        new_sentence = subject[:at] + added + every + requirement.sentence[at:]
        edit = Edit(
            "modify",
            site.target,
            (Replacement("text", requirement.start + at, "", added + every),),
        )
        word = self_reference(document)
        if outsider.negated:
            where = f"范围写明{word}适用于“{outsider.negated}”"
        elif outsider.sibling:
            where = f"范围只涉及{outsider.sibling}，未涵盖{obj}"
            bound = _applicability_words(document, outsider.sibling.split("、"))
            if bound:
                where += f"；{word}“{bound}”"
        elif outsider.excluded:
            where = f"范围写明{word}不适用于{outsider.name}"
        else:
            where = f"范围只允许{outsider.name}参照使用{word}"
        return Proposal(
            edit,
            error=f"{_clause_name(section)}“{new_sentence}”把范围之外的“{obj}”也纳入了要求，"
            f"正文超出了范围的界限（{where}）",
            fix=f"删去“{added}”，本条只对{outsider.negated or requirement.head}提出要求；如确需规定“{obj}”，"
            "先修改范围使其涵盖该对象",
            generator="rule-template",
            form=_form(outsider),
        )


def _level_proposal(document: Document, target: int, requirement: LevelRequirement) -> Proposal | None:
    """ "应为第四级业务应用系统……" → "应为第四级和第五级业务应用系统……" under a scope of 第一级到第四级."""
    bound = level_bound(document)
    if bound is None or any(bound.beyond in a for a in _ADDED.get()):
        return None
    section = document.sections[target]
    joins, _ = _connectors(document, "")
    join = "和" if "和" in joins else joins[0]
    added = join + bound.beyond
    at = requirement.at
    new_sentence = requirement.sentence[:at] + added + requirement.sentence[at:]
    new_sentence = regex.sub(r"^(?:[a-z][)）]|\d{1,2}[)）])\s*", "", new_sentence)
    word = self_reference(document)
    return Proposal(
        Edit("modify", target, (Replacement("text", requirement.start + at, "", added),)),
        error=f"{_clause_name(section)}“{new_sentence}”把范围之外的{bound.beyond}也纳入了要求，"
        f"正文超出了范围的界限（{word}范围只规定了“{bound.words}”的要求）",
        fix=f"删去“{added}”，本条只对{bound.top}提出要求；如确需规定{bound.beyond}，先修改范围使其涵盖该等级",
        generator="rule-template",
        form="范围外等级",
    )


_LONGEST_QUOTE = 40  # past it, the quote ends at the comma after the object


def _applicability_words(document: Document, kin: Sequence[str]) -> str:
    """The scope's own words that bound it to the object ("适用于签名验签服务器的研制和使用"): from its
    适用于 to the end of that sentence, or to the first comma after the object when longer; "" where no
    applicability sentence names the object."""
    found = scope_chapter(document)
    if found is None:
        return ""
    for sentence in statement_sentences(found[1].text):
        m = APPLICABILITY.search(sentence.text)
        if m is None:
            continue
        rest = sentence.text[m.start() :].rstrip("。；;")
        at = min((rest.find(k) for k in kin if k in rest), default=-1)
        if at < 0:
            continue
        if len(rest) > _LONGEST_QUOTE:
            comma = rest.find("，", at)
            rest = rest[:comma] if comma > 0 else rest
        return rest
    return ""


def _form(outsider: Outsider) -> str:
    if outsider.negated:
        return "非X"
    if outsider.sibling:
        return "同类对象"
    return "不适用于" if outsider.excluded else "参照使用"


def _out_of_scope_object(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None or i.template is None:
        return None
    scope = scope_text(i.document)
    obj = quoted_in(i.template, r.new, lambda q: outside_scope(q, scope))
    return {"object": obj} if obj else None


def _scope_context(i: PromptInput, m: Mapping[str, str]) -> dict[str, str]:
    return {"scope": scope_text(i.document)}


def _scp03(case: RewriteCase, answer: Answer) -> Failure | None:
    obj = case.material["object"]
    scope = "\n".join(s.text for s in case.document.sections if s.kind == "scope")
    new = [s for s in new_sentences(case.section.text, answer.rewritten_text) if obj in s]
    if not outside_scope(obj, scope):
        return failure("condition", f"“{obj}”在范围之内", "the object is inside the scope")
    if not new or not has_provision(new):
        return failure(
            "condition",
            f"改写后的句子没有对“{obj}”提出要求（须出现“{obj}”和“应”）",
            "the out-of-scope object is not regulated by a new sentence",
        )
    return None


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _out_of_scope_object,
        lambda m: (
            f"在本条中增加或改写一句，使本条对“{m['object']}”提出要求（须出现“{m['object']}”和“应”）；"
            f"“{m['object']}”不在<scope>所述的范围之内。不要改动范围。"
        ),
        _scope_context,
    ),
    budget=Budget(120, 0.6, 0.9, 3.0),
    condition=_scp03,
)


DEFINITION = TypeDefinition(ERROR_TYPE, BodyBeyondScope, llm=LLM)
