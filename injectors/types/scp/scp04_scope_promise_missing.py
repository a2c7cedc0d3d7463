"""SCP-04 范围承诺内容缺失 (Scope promises missing content)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

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
    Site,
    TypeDefinition,
    body_text,
    failure,
    quoted_in,
    text_replacement,
)
from injectors.language.novelty import stock_ngrams
from injectors.language.punctuation import match_style
from injectors.language.sentences import Sentence
from injectors.language.words import tokens, word_aligned, words
from injectors.types.scp.analysis import SELF_REFERENCE, scope_chapter, statement_sentences
from injectors.types.scp.editing import (
    SCOPE_ASPECTS,
    family_of,
    named_families,
    scope_name,
    uncovered_aspects,
)
from injectors.types.scp.spread import own_group

ERROR_TYPE = ErrorType(
    "SCP-04",
    "SCP",
    "范围承诺内容缺失",
    "Scope promises missing content",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "R+L",
    "S",
    ("E-SC-02",),
)


def _interleaved() -> tuple[tuple[str, str], ...]:
    """(aspect, name) for every name of every aspect, the kinds of document taking turns (hardware,
    information, process …), so that each document's stretch of the lexicon (`spread`) holds every kind."""
    by_kind: dict[frozenset[str], list[tuple[str, str]]] = {}
    for a in SCOPE_ASPECTS:
        by_kind.setdefault(a.kinds, []).extend((a.name, n) for n in a.names)
    queues = [list(v) for _, v in sorted(by_kind.items(), key=lambda kv: sorted(kv[0]))]
    out: list[tuple[str, str]] = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return tuple(out)


ASPECT_OF_NAME, ALL_NAMES = (tuple(x) for x in zip(*_interleaved(), strict=True))


# The verb of a "本文件规定了……" sentence (also 本标准还规定了), where a scope lists what the document covers.
_SCOPE_VERB = regex.compile(rf"(?<={SELF_REFERENCE.pattern}(?:还|也)?)(?:规定了|确立了|给出了)")


# Where the list after a scope verb ends: a clause or sentence mark in either width ("安全要求," too).
_LIST_END = regex.compile(r"[，,；;。.]")


def _aspect_insertions(text: str, sentence: Sentence, verb_end: int) -> list[tuple[int, str, str, bool]]:
    """Where a new item can join the list after a scope verb: (offset, before, after, ends with 要求).

    Mid-list, after any "、" or before the last top-level conjunction ("……、{item}和运行维护要求"), taking
    the form of its neighbour (with or without 要求); where the list cannot be split, at its end
    ("……和{item}要求", "……，以及{item}要求").
    """
    cut = _LIST_END.search(text, verb_end, sentence.end)
    end = cut.start() if cut else sentence.end
    region = text[verb_end:end]
    words = list(tokens(region))  # jieba: 和 inside 总和/和谐 or 及 inside 及时/及其 is no conjunction
    conjunctions = [at for w, at in words if w == "以及"] or [at for w, at in words if w in ("和", "及")]
    conj = conjunctions[-1] if conjunctions else -1
    out = []
    if conj > 0 and "的" not in region[conj:]:  # "A、B和C的格式": the list modifies a noun, keep it whole
        before = region[:conj]
        if not before.endswith(("、", "的", ",", "，", " ")):
            out.append((verb_end + conj, "、", "", before.endswith("要求")))
        for w, at in words:
            following = regex.split(r"以及|[、和及]", region[at + 1 :], maxsplit=1)[0]
            if w == "、" and at < conj and following:
                out.append((verb_end + at + 1, "", "、", following.endswith("要求")))
    if out:
        return out
    more = regex.match(r"[，,]包括", text[end:])
    if not conjunctions and more:  # "规定了……安全体系，包括A、B和C等方面": the list is the one after 包括
        return _aspect_insertions(text, sentence, end + more.end())
    closing = text[verb_end:end].endswith("等")
    if closing:  # "……及其功能组成等": the new item goes before 等, not after it
        end -= 1
    if not conjunctions:
        plain = [(end, "和", "", False), (end, "、", "", False)] if closing else []  # "和X等", not "要求等"
        # not "框架及其功能组成及X要求": a second 及 after 及其 reads as one garbled list
        also = [] if "及" in region else [(end, "及", "", True)]
        return [(end, "和", "", True), *also, *plain]
    if text.startswith(("，以及", ",以及"), end):
        return [(end, "、", "", True)]
    return [(end, "，以及", "", True), (end, "及", "", True)]


# The words that join list items in any scope: a new n-gram of these alone ("要求及", "，以及") would be the
# same in many documents; one that takes in this document's own words ("定级方法、") is its own.
# The list items most scopes share (检验规则, 试验方法, 标志, 包装 …) count as such joining words too.
_JOINING_TEXT = """
    要求 和 及 以及 与 等 的 方面 内容 还 并
    检验 规则 试验 方法 标志 标签 包装 运输 贮存 技术 分类 术语 定义
    """


_JOINING = frozenset(_JOINING_TEXT.split())


_LETTER = regex.compile(r"\p{Han}|[A-Za-z]")


def _shared_edges() -> frozenset[str]:
    """The words that begin, or end, the names of two aspects or more (数据字典, 数据迁移, 数据销毁; 接地方式,
    安装方式): with the list's separator they make the same n-gram ("、数据", "方式要求") whichever aspect
    is promised, so they are joining words, never an aspect's own."""
    edges: dict[tuple[int, str], set[str]] = {}
    for aspect in SCOPE_ASPECTS:
        for name in aspect.names:
            ws = words(name)
            edges.setdefault((0, ws[0]), set()).add(aspect.name)
            edges.setdefault((-1, ws[-1]), set()).add(aspect.name)
    return frozenset(w for (_, w), aspects in edges.items() if len(aspects) > 1)


_SHARED_EDGES = _shared_edges()


def _joining_only(grams: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    return {g for g in grams if all(w in _JOINING or w in _SHARED_EDGES or not _LETTER.search(w) for w in g)}


# The closing chapters of a product standard, in the order GB/T 1.1 lists them: a scope names its technical
# aspects before 试验方法, never between 试验方法 and 检验规则 ("试验方法、日常维护、检验规则").
_CLOSING = ("试验方法", "检验方法", "测试方法", "检验规则", "标志", "标签", "包装", "运输", "贮存", "储存")


# Commercial matters: a product standard may promise them, a safety standard (its title says 安全) never does.
_COMMERCIAL = frozenset({"售后服务", "计费结算"})


def _after_the_closing_chapters(before: str, rest: str) -> bool:
    """Whether an item put between `before` and `rest` would follow a closing item (试验方法, 检验规则 …)
    while another list item still comes after it: out of the order the body's chapters have."""
    previous = regex.split(r"以及|[、，,和及了]", before.rstrip("、，, "))[-1]
    following = regex.match(r"[、和及]|以及", rest.lstrip()) is not None or rest[:1] not in "，,；;。."
    return previous.endswith(_CLOSING) and following


@lru_cache(maxsize=64)  # the sites ask, then the proposal at the chosen site asks again
def _fresh_items(
    document: Document, text: str, sentence: Sentence, verb_end: int
) -> tuple[tuple[int, str, str, str], ...]:
    """(offset, item, name, added) for each untreated aspect and place in the list after a scope verb
    where the name reads as itself and every new n-gram carries the aspect's or the document's own words
    (a joining phrase the document never writes, "要求及", would recur from one instance to the next)."""
    line_start = text.rfind("\n", 0, sentence.start) + 1
    line_end = text.find("\n", sentence.end) if "\n" in text[sentence.end :] else len(text)
    fresh: list[tuple[int, str, str, str]] = []
    for offset, before, after, as_requirement in _aspect_insertions(text, sentence, verb_end):
        if _after_the_closing_chapters(text[verb_end:offset], text[offset : sentence.end]):
            continue
        if "包括" in text[verb_end:offset] and "方面" not in text[offset : sentence.end]:
            continue  # "通讯协议，包括协议基础、消息定义……" lists the object's parts: an aspect stands out
        for aspect in uncovered_aspects(document):
            if aspect.name in _COMMERCIAL and "安全" in document.title:
                continue  # a safety standard promising 保修期要求 reads as planted
            for name in aspect.names:
                if before != "，以及" and ("和" in name or "、" in name):
                    continue
                item = aspect.item(as_requirement, name)
                added = match_style(before + item + after, text)
                line = text[line_start:offset] + added + text[offset:line_end]
                at = offset - line_start + added.index(name)
                if not word_aligned(line, at, at + len(name)):
                    continue  # "要求及时钟同步": the name would not read as itself
                own = set(words(name)) - _SHARED_EDGES  # "、数据" is no aspect's own wording
                if not _joining_only(stock_ngrams(line, document, own)):
                    fresh.append((offset, item, name, added))
    return tuple(fresh)


class ScopePromiseMissing(Injector):
    """SCP-04. Why: what the Scope says the document specifies must be found in the body (GB/T 1.1—2020);
    a promised aspect with no chapter misleads users. How: an aspect the scope could list, from what the body
    covers (`editing.uncovered_aspects`): of a family of aspects the body's own clause titles deal with (a
    body with 备份和恢复 and 日志管理 may be promised 容量规划; a naming rule is promised no 负载均衡) and of
    the kind of what the document standardizes (a device whose data protocol fills its text is still a
    device; only a system, platform or server is deployed), that no chapter title or text mentions ("防雷",
    "日志审计", "产品追溯" …), taken from the group of the lexicon that is this document's own in the release
    (`spread`: no two documents promise the same aspect while others are free), is added to the list
    after 规定了/确立了/给出了, before its last conjunction ("……、人员培训要求和运行维护要求") or at its
    end ("……，以及人员培训要求")."""

    error_type = ERROR_TYPE.id
    version = "4"
    digest = "08c1304a8197d548"

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No scope chapter; no aspect of this kind of document that the body leaves untreated; or no
        list after 规定了/确立了/给出了 where one reads naturally."""
        found = scope_chapter(document)
        if found is None:
            return "no_scope"
        if not uncovered_aspects(document):
            return "no_untreated_aspect"
        return "no_scope_list"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or not uncovered_aspects(document):
            return []
        target, section = found
        return [  # only lists where an aspect reads naturally (else the document has no site at all)
            Site(target, (sentence, sentence.start + m.end()))
            for sentence in statement_sentences(section.text)
            for m in _SCOPE_VERB.finditer(sentence.text)
            if _fresh_items(document, section.text, sentence, sentence.start + m.end())
        ]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        sentence, verb_end = site.detail
        text = section.text
        fresh = _fresh_items(document, text, sentence, verb_end)
        # the group of names this document draws from, so that the documents of a release differ; within
        # it, or else within this document's own stretch of the lexicon, an aspect of a family the list
        # already names first: "……身份管理、隐私保护、运维要求等方面" reads on with 等级测评 or 容量规划,
        # not with 数据字典
        listed = named_families(sentence.text)
        kin = frozenset(c[2] for c in fresh if family_of(ASPECT_OF_NAME[ALL_NAMES.index(c[2])]) in listed)
        mine = own_group(ALL_NAMES, ASPECT_OF_NAME, frozenset(c[2] for c in fresh), document, context)
        if not kin & set(mine):
            own = own_group(ALL_NAMES, ASPECT_OF_NAME, kin, document, context, borrow=False)
            mine = own or mine
        choices = [c for c in fresh if c[2] in mine and (c[2] in kin or not kin & set(mine))]
        if not choices:
            return None
        offset, item, name, added = rng.choice(choices)
        edit = Edit("modify", site.target, (Replacement("text", offset, "", added),))
        return Proposal(
            edit,
            error=f"{scope_name(section)}列出了“{item}”，但正文没有任何章条涉及{name}，范围承诺的内容缺失",
            fix=f"删除范围中的“{item}”，或在正文中补充{name}的技术内容",
            generator="rule-template",
            form=ASPECT_OF_NAME[ALL_NAMES.index(name)],
        )


def _promised_aspect(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None or i.template is None:
        return None
    item = quoted_in(i.template, r.new)
    return {"aspect": item} if item else None


def _scp04(case: RewriteCase, answer: Answer) -> Failure | None:
    aspect = case.material["aspect"]
    name = aspect.removesuffix("要求")
    if answer.rewritten_text.count(name) <= case.section.text.count(name):
        return failure("condition", f"范围中没有加入“{aspect}”", "the promised aspect was not added")
    if name in body_text(case.document):
        return failure("condition", f"正文已经涉及“{name}”", "the body already treats the aspect")
    return None


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _promised_aspect,
        lambda m: (
            f"在范围列举的内容中加入“{m['aspect']}”（原样写出这几个字），而正文没有任何章条涉及它，"
            "使范围承诺了正文缺失的内容。"
        ),
    ),
    budget=Budget(60, 0.45, 0.9, 2.0),
    condition=_scp04,
)


DEFINITION = TypeDefinition(ERROR_TYPE, ScopePromiseMissing, llm=LLM)
