"""SCP-01 范围中含有要求 (Provision inside the Scope)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass

import regex

from injectors.base import Injector, Proposal, Site
from injectors.checking import Violation
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from injectors.language.connectives import without_leading_connective
from injectors.language.novelty import stock_ngrams
from injectors.language.punctuation import match_style
from injectors.language.quotes import shorten
from injectors.language.sentences import CLAUSE_SPLIT, provisions, sentences
from injectors.language.words import words
from injectors.llm.constraints import (
    Answer,
    Budget,
    Failure,
    RewriteCase,
    failure,
    has_provision,
    new_sentences,
)
from injectors.llm.prompts import (
    PromptSpec,
    no_material,
)
from injectors.llm.spec import LLMSpec
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from injectors.types.scp.analysis import scope_chapter, self_reference, statement_sentences
from injectors.types.scp.editing import body_sections, cite, is_plain, paragraph_spans, scope_name
from parsers.model import Document, Section

ERROR_TYPE = ErrorType(
    "SCP-01",
    "SCP",
    "范围中含有要求",
    "Provision inside the Scope",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "R+L",
    "D",
    ("E-SC-03",),
)


def scope_sections(document: Document) -> list[Section]:
    """The 范围 chapter(s) and any sub-clauses of it."""
    return [s for s in document.sections if s.kind == "scope"]


def _quote(text: str, limit: int = 60) -> str:
    return shorten(text, limit)


def _clause_around(sentence: str, at: int) -> str:
    """The comma-delimited clause at offset `at`: what a message quotes (stable under edits elsewhere)."""
    start = max((m.end() for m in CLAUSE_SPLIT.finditer(sentence, 0, at)), default=0)
    end = CLAUSE_SPLIT.search(sentence, at)
    return sentence[start : end.start() if end else len(sentence)].rstrip("。")


def provision_in_scope(document: Document) -> list[Violation]:
    """A 应/宜/可 (or 必须/不得 …) provision in 范围: the scope states, it does not require."""
    out = []
    for section in scope_sections(document):
        for sentence in statement_sentences(section.text):
            found = provisions(sentence.text)
            if found:
                words = "、".join(dict.fromkeys(p.word for p in found))
                clause = _clause_around(sentence.text, found[0].start)
                out.append(
                    Violation(
                        section.number,
                        "SCP-01",
                        f"范围中含有条款（能愿动词“{words}”）：“{_quote(clause)}”；"
                        "范围只陈述文件的对象和适用界限，要求应写入正文",
                    )
                )
    return out


# Words a borrowed sentence must not carry into its new place (other checkers' words, cross references).
_BORROW_BANNED = regex.compile(
    r"GB|ISO|IEC|[A-Z]{2}/T|表|图|附录|公式|本章|本条|本文件|本标准|本部分|下列|以下|如下|见|第|\d+\.\d+|："
    r"|必须|须|不得|禁止|严禁|务必|应当|应该|尽量|尽可能|一般|适当|原则上|最好"
    r"|[“”\"'（）()]"
)


_SUBJECT = regex.compile(r"^[\p{Han}A-Za-z0-9]{2,14}$")


_VAGUE_SUBJECT = regex.compile(
    r"^(?:其|该|此|这|上述|前述|所述|各|每|上|下|同|对|在|当|若|如)|[还也则亦又才就]$"
)


_WHEN_SUBJECT = regex.compile(r"[时后前中内]$")  # "线缆穿越电池区时应……": it already says when


def _statement_paragraph_ends(text: str) -> list[int]:
    """Ends of scope paragraphs that close a statement sentence (insertion points for a new sentence)."""
    out = []
    for start, end in paragraph_spans(text):
        line = text[start:end]
        if line.endswith("。") and statement_sentences(line):
            out.append(end)
    return out


_LONGEST_BORROWED = 60  # a longer requirement would not pass for a scope sentence


@dataclass(frozen=True)
class BorrowedRequirement:
    """A short body requirement "X应Y。" that can be restated elsewhere."""

    clause: str
    text: str
    subject: str


@functools.lru_cache(maxsize=16)
def borrowable_requirements(document: Document) -> tuple[BorrowedRequirement, ...]:
    """Body sentences with one 应, a plain noun subject and nothing that ties them to their place."""
    out = []
    for _, section in body_sections(document):
        for start, end in paragraph_spans(section.text):
            line = section.text[start:end]
            if not is_plain(line):
                continue
            for sentence in sentences(line):
                text = without_leading_connective(sentence.text)  # "同时，X应……": 同时 stays behind
                if (
                    not text.endswith("。")
                    or not 8 <= len(text) <= _LONGEST_BORROWED
                    or _BORROW_BANNED.search(text)
                ):
                    continue
                found = provisions(text)
                if len(found) != 1 or found[0].word != "应":
                    continue
                subject = text[: found[0].start]
                if _SUBJECT.match(subject) and not _VAGUE_SUBJECT.search(subject):
                    out.append(BorrowedRequirement(section.number, text, subject))
    return tuple(out)


# Lead-ins a drafter writes before a requirement that has slipped into the scope; most often none at all.
_SCOPE_PREFIXES = (
    *("",) * 8,
    "使用{w}时，",
    "按{w}实施时，",
    "在{w}的适用范围内，",
    "执行{w}时，",
    "采用{w}时，",
)  # no connective (其中/此外/为此 …): in the scope it would point at neighbours the sentence never had


class ProvisionInScope(Injector):
    """SCP-01. Why: 范围 is made of statements (GB/T 1.1—2020); a requirement there is outside the body
    where provisions are numbered and cited. How: a short body requirement "X应Y。" is restated as a scope
    sentence appended to a scope paragraph, mostly as it stands, sometimes after a lead-in a drafter
    would write ("使用本文件时，" …), never after a connective that pointed at its old neighbours (其中，
    此外，…). A document with no such requirement is skipped (no site)."""

    error_type = ERROR_TYPE.id

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or provision_in_scope(document) or not borrowable_requirements(document):
            return []  # no body requirement to move: a made-up one would be the same in every document
        target, section = found
        return [Site(target, end) for end in _statement_paragraph_ends(section.text)]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        word = self_reference(document)
        source = rng.choice(borrowable_requirements(document))
        prefixes = (
            [p for p in _SCOPE_PREFIXES if "时" not in p]
            if _WHEN_SUBJECT.search(source.subject)
            else _SCOPE_PREFIXES
        )
        text = section.text
        line_start = text.rfind("\n", 0, site.detail) + 1
        own = words(source.text)
        allowed = []
        for prefix in prefixes:  # a lead-in the document never wrote would be the same in every instance
            candidate = match_style(prefix.format(w=word), text) + source.text
            if not stock_ngrams(text[line_start : site.detail] + candidate, document, own):
                allowed.append(candidate)
        sentence = rng.choice(allowed) if allowed else source.text
        origin = f"（正文{cite(source.clause)}已有此要求）"
        edit = Edit("modify", site.target, (Replacement("text", site.detail, "", sentence),))
        return Proposal(
            edit,
            error=f"{scope_name(section)}中加入了要求型条款“{sentence}”（能愿动词“应”），范围中不应含有要求",
            fix=f"删除该句，范围只陈述文件的对象和适用界限；要求在正文相应条款中表述{origin}",
            generator="rule-template",
        )


def _scp01(case: RewriteCase, answer: Answer) -> Failure | None:
    if has_provision(new_sentences(case.section.text, answer.rewritten_text)):
        return None
    return failure(
        "condition", "范围中没有出现新的要求型条款（含“应”的句子）", "no new provision in the scope"
    )


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        no_material,
        lambda m: (
            "在范围中加入一句要求型条款（含“应”的句子，例如把正文的一项要求写进范围），使范围中含有要求。"
        ),
        works_without_template=True,
    ),
    budget=Budget(120, 0.7, 0.9, 3.0),
    condition=_scp01,
)


DEFINITION = TypeDefinition(ERROR_TYPE, ProvisionInScope, checks=(provision_in_scope,), llm=LLM)
