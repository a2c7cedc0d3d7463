"""Products of the scope object's own kind that a document names without covering them: in the titles of
the standards it cites, or in its definitions, introduction and annexes.

Where a scope puts nothing outside in its own words, such a sibling is the one outsider that the document
itself shows to lie beyond its boundary; reading it takes the reference lists and the naming sections apart,
which is a concept of its own.
"""

from __future__ import annotations

import regex

from injectors.language.words import tagged, words
from injectors.types.scp.editing import ALL_HAN
from injectors.types.scp.kinds import same_kind
from injectors.types.scp.scope_objects import object_heads
from parsers.model import Document

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
    heads = object_heads(objects)
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
