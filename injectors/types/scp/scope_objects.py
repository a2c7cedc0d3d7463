"""The objects a scope's own words name: those it covers, and those it puts outside (不适用于, 参照使用,
a "非X" qualifier).

Several scope types read them (a provision about the scope's object, a body that reaches past it, a boundary
that loses a qualifier); they are facts about the scope sentence, not about any one error type.
"""

from __future__ import annotations

import regex

from injectors.language.words import words
from injectors.types.scp.analysis import EXCLUSION, statement_sentences
from injectors.types.scp.editing import ACT, ALL_HAN, applicability_qualifiers


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


def object_heads(objects: tuple[str, ...]) -> list[str]:
    """The scope's objects, each coordinated part of them ("智能水表及其远程抄表系统"), and their trailing
    parts of three characters or more, longest first."""
    parts = {p for o in objects for p in regex.split(r"及其|以及|[和与及、]", o) if len(p) >= 3}
    out = {p[k:] for p in parts | set(objects) for k in range(len(p) - 2)}
    return sorted(out, key=len, reverse=True)
