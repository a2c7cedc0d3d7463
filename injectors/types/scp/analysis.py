"""Checkers of the scope dimension (SCP): provisions inside 范围 and a broken scope formula, with the lexical
helpers (sentences, provision finder, scope phrases) that the scope injectors share.

GB/T 1.1—2020: the Scope (范围) is statements only — "本文件规定了/确立了/给出了……" and "本文件适用于……"
(2009 documents say 本标准, multi-part ones 本部分). The checkers are written for standard authors too, so
they report only what a reviewer would certainly flag: compounds such as 响应/相应/可靠/适宜 are not modal
verbs, a modal verb reported as content ("规定了……应具备的功能") is not a provision, and applicability
phrasing ("也可参照使用") is a statement about the document.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex

from injectors.language.patterns import NOTE_LINE
from injectors.language.words import tokens
from parsers.model import Document, Section

# A private tokenizer: other modules may add words to jieba's global dictionary, which must not change ours.


# How a document names itself in its scope, by generation and kind.
SELF_REFERENCE = regex.compile(r"本(?:指导性技术文件|技术规范|文件|标准|部分|规范|规程|指南|导则)")


# "本文件适用于……" (also 仅适用于, 适用范围为……); "不适用于" is the exclusion, not the boundary.
APPLICABILITY = regex.compile(r"(?<!不)(?<!不仅)适用(?:于|(?:范围|对象)(?:为|是|包括))")


EXCLUSION = regex.compile(r"不适用于")


# Provision words (GB/T 1.1—2020 annex C and the non-standard forms of NMS-03) as jieba tokens.
MODAL_TOKENS = frozenset(
    {
        "应",
        "应当",
        "应该",
        "不应",
        "不应该",
        "宜",
        "不宜",
        "可",
        "可以",
        "不必",
        "必须",
        "须",
        "不得",
        "严禁",
        "禁止",
        "不可",
        "务必",
        "不准",
        "无须",
    }
)


# Words of jieba's dictionary that glue a modal verb to its neighbour, with the modal verb they hold.
GLUED_MODALS = {
    **dict.fromkeys(("应为", "应予", "应从", "应有", "应选", "应得", "应立即", "应摊", "应留", "应持"), "应"),
    **dict.fromkeys(("应适当", "内应", "理应"), "应"),
    "宜于": "宜",
    "时宜": "宜",
    "方可": "可",
    "可不": "可",
    **dict.fromkeys(("须要", "务须", "仍须", "亟须"), "须"),
    "不须": "不须",
}


# Where the tokenizer leaves 应/宜/可/须 alone although it belongs to a word: the word with the character
# before it (响应, 认可, 适宜 …), or the few words it starts that are never a modal verb plus a verb (可能 …).
# Pairs such as 应收/可配/可行 are not listed: "应收集", "可配置", "可行驶" are modal verbs, and jieba's
# dictionary already keeps 应收款, 可行性 together.
COMPOUNDS_BEFORE = frozenset({
    "响应", "反应", "相应", "适应", "供应", "对应", "效应", "感应", "回应", "呼应", "照应",
    "顺应", "答应", "因应", "报应", "接应", "认可", "许可", "宁可", "即可", "尽可", "适宜",
    "便宜", "事宜", "相宜", "权宜", "合宜", "胡须", "触须", "根须",
})  # fmt: skip


COMPOUNDS_AFTER = frozenset({"可能", "可靠", "可信", "须知", "须臾", "宜居"})


# After 可/可以, these words make it a statement about using the document ("也可参照使用", "可供……参考").
_APPLICABILITY_AFTER = ("参照", "参考", "供", "用于", "作为", "配合")


_REFER = regex.compile(r"参照|参考|借鉴")


# Before a modal in the same clause, these make it reported content ("规定了……应具备的功能").
_CONTENT_VERB = regex.compile(r"规定了|确立了|给出了|描述了|界定了|提出了|明确了|包括|包含|涉及")


_LIST_START = regex.compile(r"^\s*(?:——|—|[a-z][)）]|\d{1,2}[)）])")


_CLAUSE_SPLIT = regex.compile(r"[，；：,;:]")


@dataclass(frozen=True)
class Sentence:
    """A sentence of a section's text: offsets into that text, `end` after its terminal punctuation."""

    start: int
    end: int
    text: str

    @property
    def is_note(self) -> bool:
        return bool(NOTE_LINE.match(self.text))


@dataclass(frozen=True)
class Provision:
    """A modal verb used as one: its offset in the sentence and the word."""

    start: int
    word: str


def sentences(text: str) -> list[Sentence]:
    """Split at 。！？ and at line ends closing a paragraph; a soft wrap inside a sentence (PDF) is kept."""
    out: list[Sentence] = []
    start = 0
    for i, char in enumerate(text):
        boundary = char in "。！？"
        if char == "\n":
            line = text[text.rfind("\n", 0, i) + 1 : i]
            following = text.find("\n", i + 1)
            after = text[i + 1 : following if following >= 0 else len(text)]
            before = line.rstrip()[-1:]
            boundary = before in ("", "。", "！", "？", "；", "：", ";", ":") or any(
                p.match(x) for p in (NOTE_LINE, _LIST_START) for x in (line, after)
            )
        if boundary:
            _add(out, text, start, i + 1 if char != "\n" else i)
            start = i + 1
    _add(out, text, start, len(text))
    return out


def _add(out: list[Sentence], text: str, start: int, end: int) -> None:
    while start < end and text[start] in " \t\n\u3000":
        start += 1
    while end > start and text[end - 1] in " \t\n\u3000":
        end -= 1
    if end > start:
        out.append(Sentence(start, end, text[start:end]))


def modal_verbs(text: str) -> list[Provision]:
    """Every modal verb used as one in `text` (应/宜/可 inside compounds excluded)."""
    return list(_modal_verbs(text))


@functools.lru_cache(maxsize=65536)
def _modal_verbs(text: str) -> tuple[Provision, ...]:
    """Cached: the linter and the injectors' verification tokenize the same sentences again and again."""
    out = []
    for word, start in tokens(text):
        if word == "应对":  # "应对审计记录进行保护" is 应 + 对; "应对突发事件" is "to cope with"
            if _should_treat(text, start):
                out.append(Provision(start, "应"))
            continue
        if word in MODAL_TOKENS:
            modal, at = word, start
        elif word in GLUED_MODALS:  # a dictionary word holding a modal verb and a neighbour: 应为, 内应, 时宜
            modal, at = GLUED_MODALS[word], start + word.index(GLUED_MODALS[word])
        else:
            continue  # any other word holding 应/宜/可/须 is a compound: 响应, 可靠性, 供应商, 必不可少
        core = at + len(modal) - 1  # the 应/宜/可 of 不应, 不宜, 不可
        if text[core : core + 2] in COMPOUNDS_AFTER or (
            len(modal) == 1 and core > 0 and text[core - 1 : core + 1] in COMPOUNDS_BEFORE
        ):
            continue
        out.append(Provision(at, modal))
    return tuple(out)


_TREAT_VERB = regex.compile(
    r"进行|实施|采取|予以|加以|开展|做出|作出|提供|设置|配置|验证|审查|检查"
    r"|保护|管理|记录|审计|评估|处理|标识|控制|加密|备份|限制"
)


_COPE_NOUN = ("措施", "策略", "能力", "预案", "方案", "机制", "流程", "计划", "处置", "突发", "风险")


def _should_treat(text: str, start: int) -> bool:
    """Whether 应对 is 应 + 对 ("X应对Y进行……"), not the verb "to cope with" (以应对, 应对措施)."""
    if text.startswith(("对准", "对齐", "对接", "对中", "对照", "对称"), start + 1):
        return True
    if start == 0 or text[start - 1] in "以为和及与、的并来，；：" or text.startswith(_COPE_NOUN, start + 2):
        return False
    clause = regex.split(r"[，；。]", text[start + 2 :], maxsplit=1)[0]
    return bool(_TREAT_VERB.search(clause))


def provisions(sentence: str) -> list[Provision]:
    """Modal verbs that make `sentence` a provision, not a statement (see the module docstring)."""
    out = []
    for hit in modal_verbs(sentence):
        clause_start = max((m.end() for m in _CLAUSE_SPLIT.finditer(sentence, 0, hit.start)), default=0)
        if _CONTENT_VERB.search(sentence, clause_start, hit.start):
            continue
        after = sentence[hit.start + len(hit.word) :].lstrip()
        if hit.word in ("可", "可以") and after.startswith(_APPLICABILITY_AFTER):
            continue
        if hit.word in ("可", "可以", "宜") and _REFER.search(_CLAUSE_SPLIT.split(after, maxsplit=1)[0]):
            continue  # "其他……可根据实际情况参照执行": how far the document applies, not a provision
        out.append(hit)
    return out


def scope_chapter(document: Document) -> tuple[int, Section] | None:
    """The scope chapter to edit: the first with text (LLM extractions may keep an empty 目次 copy)."""
    chapters = [(i, s) for i, s in enumerate(document.sections) if s.kind == "scope" and s.level == 1]
    with_text = [(i, s) for i, s in chapters if s.text.strip()]
    return with_text[0] if with_text else None


def self_reference(document: Document) -> str:
    """How the document names itself: the word its scope uses, else 本标准 (2009) or 本文件 (2020)."""
    found = scope_chapter(document)
    if found:
        m = SELF_REFERENCE.search(found[1].text)
        if m:
            return m.group(0)
    return "本标准" if document.drafting_rules == "GB/T 1.1—2009" else "本文件"


def statement_sentences(text: str) -> list[Sentence]:
    """The sentences of a scope text that are not notes."""
    return [s for s in sentences(text) if not s.is_note]
