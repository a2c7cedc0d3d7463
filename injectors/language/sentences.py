"""Sentences and the provisions in them: where a sentence ends, and whether it requires, recommends or
permits something or only states a fact about the document ("规定了……应具备的功能", "也可参照使用").
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from injectors.language.modals import provision_words
from injectors.language.patterns import NOTE_LINE

# After 可/可以, these words make it a statement about using the document ("也可参照使用", "可供……参考").
_APPLICABILITY_AFTER = ("参照", "参考", "供", "用于", "作为", "配合")


_REFER = regex.compile(r"参照|参考|借鉴")


# Before a modal in the same clause, these make it reported content ("规定了……应具备的功能").
_CONTENT_VERB = regex.compile(r"规定了|确立了|给出了|描述了|界定了|提出了|明确了|包括|包含|涉及")


CLAUSE_SPLIT = regex.compile(r"[，；：,;:]")


_LIST_START = regex.compile(r"^\s*(?:——|—|[a-z][)）]|\d{1,2}[)）])")


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
        clause_start = max((m.end() for m in CLAUSE_SPLIT.finditer(sentence, 0, hit.start)), default=0)
        if _CONTENT_VERB.search(sentence, clause_start, hit.start):
            continue
        after = sentence[hit.start + len(hit.word) :].lstrip()
        if hit.word in ("可", "可以") and after.startswith(_APPLICABILITY_AFTER):
            continue
        if hit.word in ("可", "可以", "宜") and _REFER.search(CLAUSE_SPLIT.split(after, maxsplit=1)[0]):
            continue  # "其他……可根据实际情况参照执行": how far the document applies, not a provision
        out.append(hit)
    return out
