"""Injectors of the NMS dimension (modal verbs): weaken, strengthen, mis-word, blur or misplace a provision.

Every edit is one small replacement inside one body line, chosen only where the lexicon of
`validation.rules.modality` reads the changed word exactly as intended, so that the checker (D types) or
the diff rule (D∆ types) sees the error and nothing else changes. Sentences that cite a standard or an
annex are left alone: changing their modal verb would also change what the references chapter or the
annex marker must say, which belongs to other types.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import regex

from injectors.base import Injector, Proposal, Site, register
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from parsers.model import Document, Section
from validation.linter import Violation
from validation.rules.modality import (
    CAPTION,
    CITATION,
    COMPARATIVES,
    ENGINEERING_WORDS,
    EXAMPLE,
    KE_COMPOUND_NEXT,
    NOTE,
    PERMISSION,
    RECOMMENDATION,
    REQUIREMENT,
    SHIDANG_NEXT,
    YI_COMPOUND_NEXT,
    YIBAN_NEXT,
    Modal,
    annex_letter_of,
    body_lines,
    definition_offset,
    generation,
    informative_annexes,
    is_engineering_code,
    is_foreword_boilerplate,
    is_normative_body,
    is_table_row,
    jieba_words,
    lexicon,
    modal_verbs,
    next_word,
    next_word_tag,
    nonstandard_modal_wording,
    nonstandard_modals,
    place,
    provision_in_informative_place,
    sentence_span,
    text_lines,
    vague_wording,
    vague_words,
)


@dataclass(frozen=True)
class BodyModal:
    """A modal verb in a body line: where the line starts in the section text, the line, the modal."""

    line_offset: int
    line: str
    modal: Modal


def body_modals(section: Section, informative: frozenset[str]) -> Iterator[BodyModal]:
    """Modal verbs of a normative section's provisions, outside sentences citing documents or annexes."""
    if not is_normative_body(section, informative):
        return
    for offset, line in body_lines(section):
        for modal in modal_verbs(line):
            a, b = sentence_span(line, modal.start, modal.end)
            if not CITATION.search(line[a:b]) and not relative_clause(line, modal.end):
                yield BodyModal(offset, line, modal)


_OBJECT_VERBS = frozenset(
    lexicon("符合 满足 采用 使用 按 按照 为 是 有 具有 包括 包含 大于 小于 低于 高于 少于 多于 超过")
    + lexicon("不 在 以 与 对 由 将 达到 保持 设置 记录")
)


def relative_clause(line: str, end: int) -> bool:
    """The modal opens a relative clause ("应支持的运维要求", "可用于炼焦的烟煤"), not a provision."""
    word = next_word(line, end)
    if line[end + len(word) : end + len(word) + 1] == "的":
        return True
    return word not in _OBJECT_VERBS and regex.match(r"^\p{Han}{1,5}的", line[end:]) is not None


def flagged(document: Document, check: Callable[[Document], Iterable[Violation]]) -> frozenset[str]:
    """Locations where one of our checkers already fires on the original (pre-existing: never a site)."""
    return frozenset(v.location for v in check(document))


def modal_sites(
    document: Document, wanted: Callable[[BodyModal], bool], skip: frozenset[str] = frozenset()
) -> Iterator[Site]:
    """One site per body section that holds at least one modal verb `wanted` accepts."""
    informative = informative_annexes(document)
    for position, section in enumerate(document.sections):
        if section.number in skip:
            continue
        found = tuple(m for m in body_modals(section, informative) if wanted(m))
        if found:
            yield Site(position, found)


def quote(line: str, start: int, end: int, after: int = 6) -> str:
    """The changed words and a few characters after them, stopping at the clause end."""
    stop = end
    while stop < len(line) and stop < end + after and line[stop] not in "，,；;。！？：:\n":
        stop += 1
    return line[start:stop]


def rewrite(found: BodyModal, old: str, new: str, at: int | None = None) -> tuple[str, int]:
    """The line with `old` (at the modal, or at `at`) replaced by `new`, and where `new` starts."""
    start = found.modal.start if at is None else at
    line = found.line
    assert line[start : start + len(old)] == old
    return line[:start] + new + line[start + len(old) :], start


def modify(position: int, found: BodyModal, start: int, old: str, new: str) -> Edit:
    return Edit("modify", position, (Replacement("text", found.line_offset + start, old, new),))


# --- NMS-01 -------------------------------------------------------------------------------------------
@register
class RequirementWeakened(Injector):
    """应 → 宜 / 可, 不应 → 不宜 in a body requirement: the clause reads as a mere recommendation or
    permission. Only clean replacements: never 应能 → 可能 or 应用-like compounds (the diff rule reads
    the new word as the intended modal verb)."""

    error_type = "NMS-01"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        return modal_sites(document, lambda m: m.modal.word in ("应", "不应"))

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        found: BodyModal = rng.choice(site.detail)
        modal = found.modal
        ying = modal.end - 1  # position of 应 in the line
        options = _weaker(found.line, ying, modal.negative)
        if not options:
            return None
        new_char = rng.choice(options)
        line, _ = rewrite(found, "应", new_char, at=ying)
        old_words = quote(found.line, modal.start, modal.end)
        new_words = quote(line, modal.start, modal.end)
        number = document.sections[site.target].number
        force = "推荐" if new_char == "宜" else "允许"
        return Proposal(
            modify(site.target, found, ying, "应", new_char),
            f"{place(number)}将要求“{old_words}”弱化为{force}“{new_words}”，该条款是必须满足的要求",
            f"将“{modal.word[:-1]}{new_char}”改回“{modal.word}”，恢复为要求型条款",
        )


def _weaker(line: str, ying: int, negative: bool) -> list[str]:
    """Replacements of 应 that the lexicon reads as 宜 / 可 at the same place."""
    after = line[ying + 1 : ying + 3]
    options = []
    if not after.startswith(YI_COMPOUND_NEXT):
        options.append("宜")
    if not negative and after[:1] not in KE_COMPOUND_NEXT and after[:1] not in ("以", "用", "行", "不", "该"):
        options.append("可")
    wanted = {"宜": RECOMMENDATION, "可": PERMISSION}
    start = ying - 1 if negative else ying
    return [
        c
        for c in options
        if any(
            m.start == start and m.force == wanted[c] for m in modal_verbs(line[:ying] + c + line[ying + 1 :])
        )
    ]


# --- NMS-02 -------------------------------------------------------------------------------------------
_NO_STRENGTHEN_BEFORE = ("均", "皆", "都", "方", "才", "即", "尚")


@register
class RecommendationStrengthened(Injector):
    """宜 → 应, 不宜 → 不应, 可 / 可以 → 应 in a body clause: an option becomes an obligation. Not after
    均/方/才 ("……均可", "审批后方可……"), where 应 would not read as a sentence."""

    error_type = "NMS-02"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        return modal_sites(document, _strengthenable)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        found: BodyModal = rng.choice(site.detail)
        modal = found.modal
        old = modal.word[1:] if modal.negative else modal.word  # 宜, 可, 可以
        at = modal.start + 1 if modal.negative else modal.start
        line, _ = rewrite(found, old, "应", at=at)
        if not any(m.start == modal.start and m.force == REQUIREMENT for m in modal_verbs(line)):
            return None
        new_word = "不应" if modal.negative else "应"
        number = document.sections[site.target].number
        kind = "推荐" if modal.force == RECOMMENDATION else "允许"
        old_words = quote(found.line, modal.start, modal.end)
        new_words = quote(line, modal.start, modal.start + len(new_word))
        return Proposal(
            modify(site.target, found, at, old, "应"),
            f"{place(number)}将{kind}“{old_words}”强化为要求“{new_words}”，把可选做法变成了必须满足的要求",
            f"将“{new_word}”改回“{modal.word}”",
        )


def _strengthenable(found: BodyModal) -> bool:
    modal = found.modal
    if modal.word not in ("宜", "不宜", "可", "可以"):
        return False
    before = found.line[modal.start - 1 : modal.start] if modal.start else ""
    after = found.line[modal.end : modal.end + 1]
    return before not in _NO_STRENGTHEN_BEFORE and after not in ("不", "")


# --- NMS-03 -------------------------------------------------------------------------------------------
_NOT_AN_ACTION = frozenset(lexicon("有 是 为 出现 发生 产生 存在 影响 改变 重复 含有 包含 带有 低 高"))


@register
class NonstandardModal(Injector):
    """应 → 必须 / 应当 / 须 / 务必, 不应 → 不得 / 禁止 / 严禁 / 不可: forms GB/T 1.1—2020 table C.1 does not
    allow. 不得 only in 2020-style documents (2009 allowed it); 禁止 / 严禁 only before an action verb
    ("禁止以明文方式传输", not "禁止大于1 s"); 务必 only before a verb."""

    error_type = "NMS-03"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        skip = flagged(document, nonstandard_modal_wording)
        return modal_sites(document, lambda m: m.modal.word in ("应", "不应"), skip)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        found: BodyModal = rng.choice(site.detail)
        modal = found.modal
        options = _nonstandard_options(document, found)
        if not options:
            return None
        new = rng.choice(options)
        number = document.sections[site.target].number
        old_words = quote(found.line, modal.start, modal.end)
        line, _ = rewrite(found, modal.word, new)
        new_words = quote(line, modal.start, modal.start + len(new))
        return Proposal(
            modify(site.target, found, modal.start, modal.word, new),
            f"{place(number)}将“{old_words}”写作“{new_words}”，“{new}”不是GB/T 1.1规定的能愿动词",
            f"将“{new}”改为“{modal.word}”",
        )


def _nonstandard_options(document: Document, found: BodyModal) -> list[str]:
    modal = found.modal
    line = found.line
    rest = line[modal.end :]
    word, tag = next_word_tag(line, modal.end)
    action = tag[:1] == "v" and word not in _NOT_AN_ACTION and not COMPARATIVES.match(rest)
    if modal.negative:
        options = ["不可"]
        if generation(document) == "2020":
            options.append("不得")
        if action:
            options += ["禁止", "严禁"]
    else:
        options = ["必须", "应当", "须"]
        if action:
            options.append("务必")
    if is_engineering_code(document):
        options = [o for o in options if o not in ENGINEERING_WORDS]
    valid = []
    for option in options:
        new_line, start = rewrite(found, modal.word, option)
        if any(h.start == start and h.word == option for h in nonstandard_modals(new_line)):
            valid.append(option)
    return valid


# --- NMS-04 -------------------------------------------------------------------------------------------
@register
class VagueWording(Injector):
    """应 / 宜 / 可 → 尽量, 最好, 一般, 原则上, 适当 (不应 → 一般不 …): the clause no longer says whether it
    is a requirement, a recommendation or a permission. Each word only where it reads naturally: 一般 before
    采用/设置/不超过…, 适当 before 增加/缩短/调整…, 尽量/最好 before an action."""

    error_type = "NMS-04"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        skip = flagged(document, vague_wording)
        wanted = ("应", "不应", "宜", "不宜", "可")
        return modal_sites(document, lambda m: m.modal.word in wanted, skip)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        found: BodyModal = rng.choice(site.detail)
        modal = found.modal
        options = _vague_options(found)
        if not options:
            return None
        new = rng.choice(options)
        number = document.sections[site.target].number
        old_words = quote(found.line, modal.start, modal.end)
        line, _ = rewrite(found, modal.word, new)
        word = new[:-1] if modal.negative else new
        new_words = quote(line, modal.start, modal.start + len(new))
        return Proposal(
            modify(site.target, found, modal.start, modal.word, new),
            f"{place(number)}将“{old_words}”改为含糊表述“{new_words}”，“{word}”不是能愿动词，条款的性质不明确",
            f"删除“{word}”，按原意用“{modal.word}”明确表述",
        )


def _vague_options(found: BodyModal) -> list[str]:
    modal = found.modal
    line = found.line
    rest = line[modal.end :]
    word, tag = next_word_tag(line, modal.end)
    candidates = ["原则上"]
    if tag[:1] == "v" and word not in ("为", "是", "有", "能", "能够", "具有"):
        candidates += ["尽量", "最好"]
    check = ("不" + rest) if modal.negative else rest
    if YIBAN_NEXT.match(check):
        candidates.append("一般")
    if not modal.negative and SHIDANG_NEXT.match(rest):
        candidates.append("适当")
    valid = []
    for word_ in candidates:
        new = word_ + "不" if modal.negative else word_
        new_line, start = rewrite(found, modal.word, new)
        if any(h.start == start and h.word == word_ for h in vague_words(new_line)):
            valid.append(new)
    return valid


# --- NMS-05 -------------------------------------------------------------------------------------------
# Verbs before which a statement becomes a provision by adding 应 / 宜 / 可 ("数据完整率以百分数表示" →
# "数据完整率应以百分数表示").
_ANCHORS = frozenset(
    lexicon(
        "按 按照 采用 使用 选用 以 为 由 在 包括 包含 具有 符合 满足 保持 进行 设置 设为 取 覆盖 经 通过 不"
    )
)
_KE_ANCHORS = frozenset({"按", "按照", "采用", "使用", "选用", "由", "在", "通过", "设置", "进行", "包括"})
_PREFIX_END = "的地得了和与或及并且而但若如当把被将对向从给让使多常均都也还亦仍已则就才又再只即"
# A statement whose main verb comes before the anchor is not "subject + anchor verb"
_MAIN_VERBS = frozenset(
    lexicon("代表 表示 是 指 称 称为 分为 需要 认为 说明 意味着 给出 列出 见 参见")
    + lexicon("留作 作为 用作 视为 记为 称作 定义为 分成")
)
_CONDITIONAL_START = lexicon(
    "本 按 以 对 将 把 从 向 由 经 用 据 依 如 若 当 对于 在 为了 由于 因为 根据 按照 通过 除 凡"
)
_FORCE = {"应": REQUIREMENT, "宜": RECOMMENDATION, "可": PERMISSION}
_KIND = {"应": "要求", "宜": "推荐", "可": "允许"}
_FOREWORD_TEMPLATES = (
    ("执行{doc}时，还应符合国家现行有关法律法规的规定。", "应"),
    ("{doc}实施后，各有关单位宜结合实际情况制定相应的实施细则。", "宜"),
    ("使用{doc}时，可结合具体应用场景对{doc}规定的技术指标进行细化。", "可"),
    ("{doc}的使用者应关注{doc}修改单的发布情况，并及时执行修改后的内容。", "应"),
)


@dataclass(frozen=True)
class Statement:
    """A place in an informative line where a modal verb turns a statement into a provision."""

    line_offset: int
    line: str
    start: int  # in the line: where `old` is
    old: str  # the anchor word (or 通常, replaced)
    modals: tuple[str, ...]  # what may be written there
    where: str  # 注, 示例, 资料性附录


def statement_anchor(line: str, begin: int) -> tuple[int, str, bool] | None:
    """(position, anchor word, replaces 通常) of the first statement verb that can take a modal, or None."""
    a = begin
    while a < len(line):
        b = a
        while b < len(line) and line[b] not in "。；;！？":
            b += 1
        sentence = line[a:b]
        plain = not CITATION.search(sentence) and not regex.search(r"[“”\"]", sentence)
        if sentence and plain and not modal_verbs(sentence) and not nonstandard_modals(sentence):
            found = _anchor_in(sentence)
            if found is not None:
                return a + found[0], found[1], found[2]
        a = b + 1
    return None


def _anchor_in(sentence: str) -> tuple[int, str, bool] | None:
    """The first anchor verb of a plain "subject + verb" statement; None when the sentence is not one."""
    position = 0
    words = jieba_words(sentence)
    for k, (word, _) in enumerate(words):
        if word in _MAIN_VERBS or regex.search(r"[，,：:、（(]", word):
            return None
        if word in _ANCHORS or word == "通常":
            if k == 0 or not _subject(words[:k]) or _conditional(sentence, position):
                return None
            nxt = words[k + 1][0] if k + 1 < len(words) else ""
            if word == "通常":
                return (position, word, True) if nxt in _ANCHORS and nxt != "不" else None
            if word == "不":
                return (position, word, False) if COMPARATIVES.match(sentence[position + 1 :]) else None
            if nxt in ("了", "过", "着") or not regex.match(r"[\p{Han}A-Za-z0-9]", nxt or " "):
                return None
            if word == "在" and nxt == "于":
                return None
            if word == "为" and "的" in _clause_after(sentence, position):
                return None  # "含水率为75%的鲜叶": a relative clause, not a predicate
            return position, word, False
        position += len(word)
    return None


def _clause_after(sentence: str, position: int) -> str:
    end = position
    while end < len(sentence) and sentence[end] not in "，,；;。：:":
        end += 1
    return sentence[position:end]


def _conditional(sentence: str, position: int) -> bool:
    """The anchor's clause is an adverbial one: "岩棉板为保温芯材时，……"."""
    return _clause_after(sentence, position).rstrip().endswith(("时", "后", "前", "中", "下", "时候"))


def _subject(words: tuple[tuple[str, str], ...]) -> bool:
    """A short noun subject before the verb, not an adverbial or prepositional phrase ("当…时", "按…")."""
    stripped = "".join(w for w, _ in words).strip()
    first = next(((w, t) for w, t in words if w.strip()), ("", ""))
    return (
        2 <= len(stripped) <= 20
        and regex.search(r"\p{Han}", stripped) is not None
        and stripped[-1] not in _PREFIX_END
        and not stripped.startswith(_CONDITIONAL_START)
        and first[1][:1] not in ("p", "c", "u", "d")
    )


def _marker_end(line: str) -> int:
    m = NOTE.match(line) or EXAMPLE.match(line)
    return m.end() if m else 0


@register
class ProvisionInInformativePlace(Injector):
    """A provision where GB/T 1.1 allows none: 应/宜/可 added to a statement of a 注 or 示例 ("注：数据完整率
    以百分数表示" → "注：数据完整率应以百分数表示"), 应 to a statement of an informative annex, or a
    template provision sentence added to the 前言 ("执行本文件时，还应符合国家现行有关法律法规的规定。").
    Never in the scope (SCP-01) or a term definition (TER-04), which have their own types."""

    error_type = "NMS-05"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        skip = flagged(document, provision_in_informative_place)
        informative = informative_annexes(document)
        for position, section in enumerate(document.sections):
            if section.number in skip:
                continue
            if section.kind == "foreword":
                if _foreword_insertion(section) is not None:
                    yield Site(position, "前言")
                continue
            if section.kind in ("scope", "introduction", "bibliography", "index", "normative_references"):
                continue
            in_annex = annex_letter_of(section) in informative
            found = tuple(_statements(section, in_annex))
            if found:
                yield Site(position, found)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        if site.detail == "前言":
            return _foreword_proposal(document, site.target, section, rng)
        statement: Statement = rng.choice(site.detail)
        modal = rng.choice(statement.modals)
        if statement.old == "通常":
            new = modal
        elif statement.old == "不":
            new = "不" + modal
        else:
            new = modal + statement.old
        line = (
            statement.line[: statement.start] + new + statement.line[statement.start + len(statement.old) :]
        )
        word = "不" + modal if statement.old == "不" else modal
        if not any(m.start == statement.start and m.force == _FORCE[modal] for m in modal_verbs(line)):
            return None
        old_words = quote(statement.line, statement.start, statement.start + len(statement.old), 8)
        new_words = quote(line, statement.start, statement.start + len(new), 8)
        where = statement.where
        if where != "资料性附录":
            host = f"{place(section.number)}的{where}"
        elif section.number.startswith("附录"):
            host = f"资料性{section.number}"
        else:
            host = f"资料性附录{annex_letter_of(section)}的{section.number}"
        if where == "资料性附录":
            fix = f"删除“{word}”，恢复为陈述“{old_words}”；如确需规定，应将该附录改为规范性附录或移入正文"
        else:
            fix = f"删除{where}中的“{word}”，恢复为陈述“{old_words}”；如确需规定，应将其作为条文写入正文"
        edit = Edit(
            "modify",
            site.target,
            (Replacement("text", statement.line_offset + statement.start, statement.old, new),),
        )
        return Proposal(
            edit,
            f"{host}中写入了{_KIND[modal]}型条款“{new_words}”（原为陈述“{old_words}”），{where}不应包含条款",
            fix,
        )


def _statements(section: Section, in_annex: bool) -> Iterator[Statement]:
    definition = definition_offset(section) if section.kind == "terms" and section.level > 1 else None
    for offset, line in text_lines(section.text):
        if not line.strip() or is_table_row(line) or offset == definition or CAPTION.match(line):
            continue
        if NOTE.match(line):
            where, modals = "注", ("应", "宜", "可")
        elif EXAMPLE.match(line):
            where, modals = "示例", ("应", "宜")
        elif in_annex:
            where, modals = "资料性附录", ("应",)
        else:
            continue
        found = statement_anchor(line, _marker_end(line))
        if found is None:
            continue
        start, old, replaces = found
        if replaces or old == "不" or old not in _KE_ANCHORS:
            modals = tuple(m for m in modals if m != "可")
        if modals:
            yield Statement(offset, line, start, old, modals, where)


def _foreword_insertion(section: Section) -> int | None:
    """Where a new foreword paragraph goes: before the line naming who proposed the document, else the end."""
    if not section.text.strip():
        return None
    for offset, line in text_lines(section.text):
        if regex.match(r"^\s*本(?:文件|标准)(?:由|起草单位|主要起草人)", line):
            return offset
    return len(section.text) + 1


def _foreword_proposal(
    document: Document, target: int, section: Section, rng: random.Random
) -> Proposal | None:
    at = _foreword_insertion(section)
    if at is None:
        return None
    doc = "本标准" if generation(document) == "2009" else "本文件"
    template, modal = rng.choice(_FOREWORD_TEMPLATES)
    sentence = template.format(doc=doc)
    if is_foreword_boilerplate(sentence) or not modal_verbs(sentence):
        return None
    if at > len(section.text):
        replacement = Replacement("text", len(section.text), "", "\n" + sentence)
    else:
        replacement = Replacement("text", at, "", sentence + "\n")
    return Proposal(
        Edit("modify", target, (replacement,)),
        f"前言中加入了{_KIND[modal]}型条款“{sentence}”，前言是资料性要素，不应包含要求、推荐或允许",
        "删除该句；如确需规定，应作为条文写入正文的相应条款",
        "rule-template",
    )
