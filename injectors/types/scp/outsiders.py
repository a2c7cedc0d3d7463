"""Outsiders: objects a scope puts outside its boundary, how a clause names one, and whether one can be
coordinated with a body requirement's subject.

An outsider comes from the scope's own words (不适用于, 参照使用, "非X") or from a sibling product the
document names; the scope's participles are dropped as a clause would drop them, and only things of one kind
are coordinated. Gathering them for a document is one concept, shared by the sites and the proposals.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import regex

from injectors.language.words import words
from injectors.types.scp.analysis import scope_chapter
from injectors.types.scp.editing import ALL_HAN, body_sections
from injectors.types.scp.kinds import can_join, same_kind
from injectors.types.scp.requirements import SELF_SUBJECTS, ScopedRequirement, head_end
from injectors.types.scp.scope_objects import (
    excluded_objects,
    negated_objects,
    referred_objects,
    scope_objects,
)
from injectors.types.scp.siblings import sibling_objects
from parsers.model import Document

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
def objects_and_outsiders(document: Document) -> tuple[tuple[str, ...], tuple[Outsider, ...]]:
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


def can_coordinate(
    outsider: Outsider, requirement: ScopedRequirement, own_heads: list[str], objects: tuple[str, ...]
) -> bool:
    """Whether the outsider can be coordinated with the requirement's subject: a negated one with a subject
    of its head noun ("等级保护对象" + "涉密对象"), the others with one of the scope's own objects, and
    only where the two read as things of one kind (`kinds`: not "报警系统和电池室均应……")."""
    at = head_end(requirement.subject, requirement.head)
    if at is None:
        return False
    if outsider.negated:
        fits = requirement.head.endswith(outsider.head) and outsider.name not in requirement.subject
    else:
        own = requirement.head in own_heads or requirement.head in SELF_SUBJECTS
        fits = own and requirement.head not in outsider.word
    heads = objects if requirement.head in SELF_SUBJECTS else ()
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
