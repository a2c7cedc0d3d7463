"""NMS-05 条款位于非条款位置 (Provision in a non-provision place)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import regex

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    Injector,
    LLMSpec,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Section,
    SectionCheck,
    Site,
    TypeDefinition,
    Violation,
    failure,
    informative_place,
    text_replacement,
)
from injectors.language.modals import (
    COMPARATIVES,
    FORCE_ZH,
    PERMISSION,
    RECOMMENDATION,
    REQUIREMENT,
    lexicon,
    modal_verbs,
    nonstandard_modals,
    snippet,
)
from injectors.language.patterns import CAPTION, CITATION, EXAMPLE, NOTE
from injectors.language.words import tagged
from injectors.types.nms.analysis import (
    annex_letter_of,
    definition_offset,
    informative_annexes,
    is_table_row,
    place,
    section_provisions,
    text_lines,
)
from injectors.types.nms.editing import flagged, quote
from injectors.types.nms.provision_as_note import NoteMove, note_moves

ERROR_TYPE = ErrorType(
    "NMS-05",
    "NMS",
    "条款位于非条款位置",
    "Provision in a non-provision place",
    "GB/T 1.1—2020 9.2",
    "GB/T 1.1—2009 7",  # 要素的表述, where the edition treats notes and examples (no requirement)
    "R+L",
    "D",
    (),
    # each informative place has its own clause: the foreword's, the informative annex's, the definition's
    forms=(
        ("前言", "GB/T 1.1—2020 8.3", "GB/T 1.1—2009 6.1.3"),
        ("资料性附录", "GB/T 1.1—2020 9.2", "GB/T 1.1—2009 6.4.1"),
        ("定义", "GB/T 1.1—2020 8.7", "GB/T 1.1—2009 6.3.2"),
    ),
)


def _host(section: Section, where: str) -> str:
    if where == "前言":
        return "前言"
    if where == "资料性附录":
        return f"{place(section.number)}（资料性附录）"
    return f"{place(section.number)}的{where}"


def _section_provisions(informative: frozenset[str], section: Section) -> Iterator[Violation]:
    for _, where, modal, line in section_provisions(informative, section):
        kind = FORCE_ZH[modal.force]
        yield Violation(
            section.number,
            "NMS-05",
            f"{_host(section, where)}中含有{kind}型条款“{snippet(line, modal.start, modal.end, 10)}”，"
            f"{where}不应包含条款",
        )


# 应/宜/可 provisions in 注, 示例, 前言 or (requirements) in an informative annex.
provision_in_informative_place = SectionCheck(informative_annexes, _section_provisions)


# --- NMS-05 -------------------------------------------------------------------------------------------
# Verbs before which a statement becomes a provision by adding 应 / 宜 / 可 ("数据完整率以百分数表示" →
# "数据完整率应以百分数表示").
_ANCHORS = frozenset(
    lexicon(
        "按 按照 采用 使用 选用 以 为 由 在 包括 包含 具有 符合 满足 保持 进行 设置 设为 取 覆盖 经 通过 不"
        " 计入 记入 保存 存储 显示 上传 上报 发送"
    )
)


_KE_ANCHORS = frozenset({"按", "按照", "采用", "使用", "选用", "由", "在", "通过", "设置", "进行", "包括"})


_PREFIX_END = "的地得了和与或及并且而但若如当把被将对向从给让使多常均都也还亦仍已则就才又再只即到至成"


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


@dataclass(frozen=True)
class Statement:
    """A place in an informative line where a modal verb turns a statement into a provision."""

    line_offset: int
    line: str
    start: int  # in the line: where `old` is
    old: str  # the anchor word (or 通常, replaced)
    modals: tuple[str, ...]  # what may be written there
    where: str  # 注, 示例, 资料性附录
    form: str = ""  # the form recorded, where it is not `where` (a term entry's note)


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
            for at, clause in _clauses(sentence):
                found = _anchor_in(clause)
                if found is not None:
                    return a + at + found[0], found[1], found[2]
        a = b + 1
    return None


def _clauses(sentence: str) -> list[tuple[int, str]]:
    """The sentence, then each later comma clause with a subject of its own ("X是HTTP的标准字段，此处按照
    其原意使用": the first clause explains, the second states what is done): (offset, text)."""
    out = [(0, sentence)]
    for m in regex.finditer(r"[，,]", sentence):
        out.append((m.end(), sentence[m.end() :]))
    return out


def _anchor_in(sentence: str) -> tuple[int, str, bool] | None:
    """The first anchor verb of a plain "subject + verb" statement; None when the sentence is not one."""
    position = 0
    words = tagged(sentence, hmm=True)
    for k, (word, _) in enumerate(words):
        if word in _MAIN_VERBS or regex.search(r"[，,：:、（(]", word):
            return None
        if word in _ANCHORS or word == "通常":
            if k == 0 or not _subject(words[:k]) or _conditional(sentence, position):
                return None
            nxt = words[k + 1][0] if k + 1 < len(words) else ""
            if _ASPECT.search(_clause_after(sentence, position)):
                return None  # "在关联中都扮演着某种角色": a description of what happens
            if word == "通常":
                return (position, word, True) if nxt in _ANCHORS and nxt != "不" else None
            if word == "不":
                return (position, word, False) if COMPARATIVES.match(sentence[position + 1 :]) else None
            if nxt in ("了", "过", "着") or not regex.match(r"[\p{Han}A-Za-z0-9]", nxt or " "):
                return None
            if word == "在" and (nxt == "于" or "是" in _clause_after(sentence, position)):
                return None  # "在元数据实体中是唯一的": where something is, no act to require
            if word == "为" and "的" in _clause_after(sentence, position):
                return None  # "含水率为75%的鲜叶": a relative clause, not a predicate
            if _HEAD_NOUN.search(_clause_after(sentence, position)):
                return None  # "…和允许对该值进行有效操作的规定": a noun phrase, not a statement
            if (word in ("在", "以", "为") and words[k - 1][1][:1] == "v") or nxt in _UNDER_WAY:
                return None  # "体现在…", "填以0", "应用在不断深化": part of a verb, or a process under way
            return position, word, False
        position += len(word)
    return None


_ACTS = frozenset(lexicon("保证 确保 判定 判断 认定 规定 要求 使 令 根据 依据 为了 以便"))
# "…进行有效操作的规定": the verb phrase names a kind of rule (not "采用统一的表格": an object)
_HEAD_NOUN = regex.compile(r"的(?:规定|要求|方法|过程|情况|能力|原则|定义|描述|说明)$")
_UNDER_WAY = frozenset(lexicon("不断 逐步 逐渐 持续"))
_ASPECT = regex.compile(r"着(?![手重急])|(?<![为除])了(?![解])")


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
        and first[0] not in _ACTS  # "判定速度状态为异常", "保证规约具有…": an act, not a subject
        and not any(t[:1] == "p" for _, t in words)  # "系统向收件人发送…": 应 goes before 向, not here
        and _SELF.search(stripped) is None
        # "注：主要包括…": an adverb alone is no subject (应 after it reads "主要应包括", a broken order)
        and any(t[:1] not in ("a", "b", "d") for w, t in words if w.strip())
    )


# "为此本标准对通信协议进行规定": the document telling what it does; 应 there makes no provision, only
# nonsense ("本标准对…应进行规定")
_SELF = regex.compile(r"本(?:标准|文件|部分|规范|指南|规程|指导性技术文件)")


def _marker_end(line: str) -> int:
    m = NOTE.match(line) or EXAMPLE.match(line)
    return m.end() if m else 0


class ProvisionInInformativePlace(Injector):
    """A provision where GB/T 1.1 allows none: 应/宜/可 added to a statement of a 注 or 示例 ("注：数据完整率
    以百分数表示" → "注：数据完整率应以百分数表示"), 应 to a statement of an informative annex, or a real
    provision of a clause written as its 注 (`provision_as_note`); a term entry's 注 is a form of its own
    (`TERM_NOTE`). No stock sentence is ever added (a template 前言 sentence was a give-away). Never in
    the scope (SCP-01) or a term definition (TER-04), which have their own types.

    A clause's own provision can become a note almost anywhere, a statement of a 注, 示例 or informative
    annex only where the document has one: where it has, the clauses offered as notes are no more than
    half as many as the other places (one beside a single place; spread through the document), so that "a
    provision written as 注：" does not mark the type."""

    error_type = ERROR_TYPE.id
    version = "7"
    digest = "e83bf502bf285e27"
    forms = ("注", "术语条目的注", "示例", "资料性附录", "条文改为注")
    alternatives = 3

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        skip = flagged(document, provision_in_informative_place)
        informative = informative_annexes(document)
        statements: list[Site] = []
        moves: list[Site] = []
        for position, section in enumerate(document.sections):
            if section.number in skip:
                continue
            if section.kind in ("foreword", "scope", "introduction", "bibliography", "index"):
                continue
            if section.kind == "normative_references":
                continue
            in_annex = annex_letter_of(section) in informative
            if found := tuple(_statements(section, in_annex)):
                statements.append(Site(position, found))
            if moved := tuple(note_moves(section)):
                moves.append(Site(position, moved))
        if statements and len(moves) > len(statements) // 2:
            # the document's own informative places first: a clause written as a note is the form every
            # document offers, and where it is drawn as often as the others it becomes the type's mark
            keep = max(1, len(statements) // 2)
            step = len(moves) / keep
            moves = [moves[int(k * step)] for k in range(keep)]
        return sorted([*statements, *moves], key=lambda s: s.target)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        kinds = sorted({type(o).__name__ for o in site.detail})
        kind = rng.choice(kinds)
        chosen = rng.choice([o for o in site.detail if type(o).__name__ == kind])
        if isinstance(chosen, NoteMove):
            return _note_proposal(site.target, section, chosen)
        statement: Statement = chosen
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
        if statement.form == TERM_NOTE:
            # "第…条": the number follows the renumbering other errors make
            host = f"第{section.number}条术语条目的注"
        elif where != "资料性附录":
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
            form=statement.form or where,
        )


# A note of a term entry (chapter 3) is a place of its own: the entry is the definitions element, whose
# notes only add to the definition, and it is where drafters put a usage rule ("注：该值应取…") that belongs
# in the body; its definition line stays TER-04's.
TERM_NOTE = "术语条目的注"


def _statements(section: Section, in_annex: bool) -> Iterator[Statement]:
    definition = definition_offset(section) if section.kind == "terms" and section.level > 1 else None
    modals: tuple[str, ...]
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
            entry = section.kind == "terms" and section.level > 1
            form = TERM_NOTE if where == "注" and entry else ""
            yield Statement(offset, line, start, old, modals, where, form)


def _note_proposal(target: int, section: Section, move: NoteMove) -> Proposal:
    quoted = move.sentence.rstrip("。")
    return Proposal(
        Edit("modify", target, (move.replacement(),)),
        f"{place(section.number)}将{move.force}型条款“{quoted}”写成了注，注是资料性的，不应包含条款",
        f"删除“注：”，将“{quoted}”恢复为{place(section.number)}的条文",
        form="条文改为注",
    )


def _nms05_place(i: PromptInput) -> dict[str, str]:
    r = text_replacement(i.template)
    section = i.document.sections[i.site.target]
    return {"place": informative_place(section, r.start if r else None)}


def _nms05(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.types.nms.analysis import provisions_in_informative_places

    def count(document: Document) -> int:
        number = case.section.number
        return sum(1 for s, *_ in provisions_in_informative_places(document) if s.number == number)

    if count(case.with_text(answer.rewritten_text)) > count(case.document):
        return None
    place = case.material.get("place", "注、示例或前言")
    return failure(
        "condition", f"{place}中没有出现新的“应/宜/可”条款", "no provision added to the informative place"
    )


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _nms05_place,
        lambda m: (
            f"在本章条的{m['place']}中加入能愿动词“应”“宜”或“可”，把一句陈述改为条款（或在{m['place']}中加一句条款），"
            f"使{m['place']}中出现不应有的条款；不要改动其他段落。"
        ),
        works_without_template=True,
    ),
    budget=Budget(90, 0.6, 0.9, 3.0),
    condition=_nms05,
)


DEFINITION = TypeDefinition(
    ERROR_TYPE, ProvisionInInformativePlace, checks=(provision_in_informative_place,), llm=LLM
)
