"""Checkers of the scope dimension (SCP): provisions inside 范围 and a broken scope formula, with the lexical
helpers (sentences, provision finder, scope phrases) that the scope injectors share.

GB/T 1.1—2020: the Scope (范围) is statements only — "本文件规定了/确立了/给出了……" and "本文件适用于……"
(2009 documents say 本标准, multi-part ones 本部分). The checkers are written for standard authors too, so
they report only what a reviewer would certainly flag: compounds such as 响应/相应/可靠/适宜 are not modal
verbs, a modal verb reported as content ("规定了……应具备的功能") is not a provision, and applicability
phrasing ("也可参照使用") is a statement about the document.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from injectors.language.modals import provision_words
from injectors.language.patterns import NOTE_LINE
from parsers.model import Document, Section

# A private tokenizer: other modules may add words to jieba's global dictionary, which must not change ours.


# How a document names itself in its scope, by generation and kind.
SELF_REFERENCE = regex.compile(r"本(?:指导性技术文件|技术规范|文件|标准|部分|规范|规程|指南|导则)")


# "本文件适用于……" (also 仅适用于, 适用范围为……); "不适用于" is the exclusion, not the boundary.
APPLICABILITY = regex.compile(r"(?<!不)(?<!不仅)适用(?:于|(?:范围|对象)(?:为|是|包括))")


EXCLUSION = regex.compile(r"不适用于")


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
    """Every modal verb used as one in `text` (应/宜/可 inside compounds excluded), standard or not."""
    return [Provision(h.start, h.word) for h in provision_words(text)]


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
