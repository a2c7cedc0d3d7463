"""How a scope sentence's applicability qualifiers are read: what a qualifier restricts, whether the
document shows that restriction lost once the qualifier is dropped, and what still bounds the object then.

A dropped qualifier is an error only where the boundary really widens, and only the corrupted document can
show it (the title, the other scope sentences, reference clauses, the body, defined terms, exclusions);
weighing that evidence is separate from making the edit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from injectors.language.words import boundaries, words
from injectors.types.scp.analysis import EXCLUSION, self_reference, statement_sentences
from injectors.types.scp.editing import ALL_HAN, body_sections, cite
from injectors.types.scp.scope_objects import referred_objects
from parsers.entries import split_term
from parsers.model import Document, Section

# Words of a qualifier too general to show a restriction ("开展……的", "各类……的").
_GENERIC_TEXT = """
    各类 各种 各级 相关 有关 开展 进行 指导 用于 从事 一般 通用 所有 其他 以及 领域 方面 工作 活动
    技术 系统 信息 要求 使用 应用 范围 对象 设置 安装 布置 配置 位于
    """


_GENERIC = frozenset(_GENERIC_TEXT.split())


def _shared_run(qualifier: str, other: str, keep: Callable[[str], bool] = lambda run: True) -> str:
    """The longest run of four or more Chinese characters the qualifier shares with `other` that `keep`
    accepts, whole words at both ends of the qualifier's segmentation ("证券期货业", "非涉及国家秘密"), or
    ""."""
    edges = boundaries(qualifier)
    best = ""
    for i in sorted(edges):
        for j in sorted(edges, reverse=True):
            if j - i < max(4, len(best) + 1):
                break
            run = qualifier[i:j].removesuffix("的")
            if len(run) >= 4 and ALL_HAN.match(run) and run in other and run not in _GENERIC and keep(run):
                best = run
                break
    return best


def _standing(document: Document, section: Section, sentence: str, qualifier: str) -> str:
    """What still bounds the scope once the qualifier is dropped: the title, the shortened sentence and the
    scope's other statements (its exclusions are read by `still_bounded`)."""
    others = [
        o.text
        for o in statement_sentences(section.text)
        if o.text != sentence and not EXCLUSION.search(o.text)
    ]
    return "\n".join((document.title, sentence.replace(qualifier, "", 1), *others))


def lost_words(document: Document, section: Section, sentence: str, qualifier: str) -> set[str]:
    """The words of the qualifier that nothing left in the scope or the title says: none, and the same
    restriction still stands ("本文件规定了证券期货业……" after "证券期货业的" is dropped), so the
    boundary does not widen."""
    standing = _standing(document, section, sentence, qualifier)
    # "指导网络运营者开展非涉密……的": who does the work is no restriction of what the document covers
    restricting = _ACTIVITY.split(qualifier)[-1]
    return {w for w in _content_words(restricting) if w not in standing}


_ACTIVITY = re.compile(r"开展|从事|进行")


def _referred_inside(section: Section, sentence: str, qualifier: str) -> str | None:
    """An object the scope only lets use the document by reference ("塑料大棚中使用的环境监测系统参照
    使用") that the boundary takes in once the qualifier is dropped: it ends with the bare head noun
    ("环境监测系统") the qualifier restricted. A "不适用于" exception to a general boundary is ordinary
    drafting; an object both inside the boundary and only referred to is a contradiction."""
    at = sentence.find(qualifier)
    rest = sentence[at + len(qualifier) :]
    head = re.split(r"[，。；]|的", rest, maxsplit=1)[0]
    parts = [p for p in re.split(r"及其|以及|[和与及、]", head) if len(p) >= 4]
    for referred in referred_objects(section.text):
        if any(referred.endswith(p) and referred != p and qualifier not in referred for p in parts):
            return referred
    return None


# "……，其他类型的终端可参照执行": an object the scope lets use the document by reference, as other than
# what the boundary names.
_OTHER_REFERRED = re.compile(r"其他[^，。；]{1,30}?(?:参照|参考)[^，。；]*")


def _orphaned_other(section: Section, sentence: str, qualifier: str) -> str | None:
    """The scope's "其他……可参照执行" clause that contrasts with what the qualifier named: once it is dropped,
    the boundary names no kind for "其他" to be other than."""
    tail = sentence[sentence.find(qualifier) + len(qualifier) :]
    later = [o.text for o in statement_sentences(section.text) if o.text.startswith("其他")]
    for text in (tail, *later):
        m = _OTHER_REFERRED.search(text)
        if m:
            return m.group(0)
    return None


def qualifier_evidence(document: Document, section: Section, sentence: str, qualifier: str) -> str | None:
    """Where the document shows that the boundary widened once the qualifier is dropped: the scope's own
    reference clauses, or the body (a clause title, or the text of two clauses or more) still restricted
    to a phrase of four characters or more of the qualifier that neither the scope nor the title says any
    more. A restriction the title or another scope sentence still states is no loss (the remaining text
    bounds the subject the same way); without evidence a shorter boundary reads as a plausible one."""
    lost = lost_words(document, section, sentence, qualifier)
    if not lost:
        return None
    referred = _referred_inside(section, sentence, qualifier)
    if referred:
        word = self_reference(document)
        return f"范围中只允许参照使用{word}的“{referred}”也落入了这一界限，范围自相矛盾"
    other = _orphaned_other(section, sentence, qualifier)
    if other:
        return f"范围中“{other}”的“其他”已无所指，界限不再说明直接适用于哪些对象"
    standing = _standing(document, section, sentence, qualifier)

    def gone(run: str) -> bool:
        return run not in standing and bool(_content_words(run) & lost)

    body = body_sections(document)
    for _, clause in body:
        run = _shared_run(qualifier, clause.title, gone)
        if run:
            return f"正文{cite(clause.number)}“{clause.title}”仍限于“{run}”"
    runs = [(_shared_run(qualifier, clause.text, gone), clause) for _, clause in body]
    for run in dict.fromkeys(r for r, _ in runs if r):
        clauses = [c.number for r, c in runs if r == run]
        if len(clauses) >= 2:
            where = "、".join(cite(n) for n in clauses[:3])
            return f"正文{where}的规定仍针对“{run}”"
    return None


# "智能制造人机交互系统（以下简称人机交互系统）": a short name the scope defines by its full name.
_SHORT_NAME = re.compile(r"([^，。；、（(]{2,40})[（(]以下简称[“\"]?([^）)”\"]{2,12})[”\"]?[）)]")


def _content_words(text: str) -> set[str]:
    """Words of two characters or more that say something (not 各类, 相关, 技术 …)."""
    return {w for w in words(text) if len(w) >= 2 and ALL_HAN.match(w) and w not in _GENERIC}


def still_bounded(document: Document, section: Section, sentence: str, qualifier: str) -> str | None:
    """What still bounds the boundary once the qualifier is dropped, or None when it really widens: a
    defined term for the object (a term entry, or a short name the scope gives: "以下简称……") whose term
    or definition says what the qualifier said (it decides what the object covers), or a "不适用于"
    sentence of the scope that excludes on the qualifier's own words (非涉密 and "不适用于涉密……": the
    exclusion still keeps the rest out)."""
    at = sentence.find(qualifier)
    rest = sentence[at + len(qualifier) :]
    head = re.split(r"[，。；、]|的", rest, maxsplit=1)[0]
    said = _content_words(qualifier.removeprefix("非")) | _content_words(qualifier)
    if not said:
        return None
    for term_section in document.sections:
        if term_section.kind != "terms" or term_section.level < 2:
            continue
        term, _ = split_term(term_section.title)
        names_head = len(term) >= 2 and (head.endswith(term) or term.endswith(head))
        if names_head and said & (_content_words(term) | _content_words(term_section.text)):
            return f"术语“{term}”"
    for m in _SHORT_NAME.finditer(section.text):  # "智能制造人机交互系统（以下简称人机交互系统）"
        if m.group(2) in head and said & _content_words(m.group(1)):
            return f"简称“{m.group(2)}”"
    for other in statement_sentences(section.text):
        if EXCLUSION.search(other.text) and said & _content_words(other.text):
            return f"排除陈述“{other.text}”"
    return None
