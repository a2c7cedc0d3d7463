"""Body requirements ("S应P。") whose subject is the scope's own object, or the head noun of a "非X"
qualifier: the places where another object can be coordinated into the subject.

Only plain prose counts (never a table row, a note or a list marker), and only a subject a drafter would
extend; finding these sentences and where their head ends is separate from what gets coordinated there.
Besides the 应 sentences, a sentence that applies the document itself to the head noun ("……的等级保护对象，
其网络运营者依据本标准组织……") counts for a "非X" head: a guide states its procedure without a modal,
and naming the document there puts whatever the sentence names inside the document's reach.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

import regex

from injectors.language.sentences import provisions, sentences
from injectors.types.scp.analysis import SELF_REFERENCE
from injectors.types.scp.editing import is_plain, paragraph_spans, plain_subject
from injectors.types.scp.scope_objects import object_heads
from parsers.model import Section


@dataclass(frozen=True)
class ScopedRequirement:
    """A body requirement "S应P。" whose subject S is, or starts with, the object the scope covers."""

    start: int  # offset of the sentence in the section text
    subject: str
    head: str  # the scope's object within the subject, after which another object can be coordinated
    sentence: str
    applies: bool = False  # no 应: the sentence applies the document itself to the subject ("依据本标准")


# How a body names the scope's object without repeating it: "产品应……" in a product standard.
SELF_SUBJECTS = ("产品",)


@functools.lru_cache(maxsize=16)
def scoped_requirements(section: Section, objects: tuple[str, ...]) -> tuple[ScopedRequirement, ...]:
    """Requirements of a body clause about the scope's own object: where another object can join in."""
    heads = object_heads(objects)
    out = []
    for at, subject, text in requirement_sentences(section):
        if not plain_subject(subject.replace("的", "")):
            continue
        head = next((h for h in heads if subject.endswith(h) or h + "的" in subject), None)
        if head is None and subject in SELF_SUBJECTS:
            head = subject
        if head:
            out.append(ScopedRequirement(at, subject, head, text))
    return tuple(out)


def _prose_sentences(section: Section) -> Iterator[tuple[int, str]]:
    """(offset, sentence) of each whole sentence (ending in 。) of the clause's plain prose (never a table
    row: the section's tables say which lines are rows, a full-width note row included)."""
    rows = section.table_lines()
    for start, end in paragraph_spans(section.text):
        line = section.text[start:end]
        if section.text.count("\n", 0, start) in rows or not is_plain(line):
            continue
        for sentence in sentences(line):
            if sentence.text.endswith("。"):
                yield start + sentence.start, sentence.text


def _shall(text: str) -> int | None:
    """Where the sentence's first provision is an 应/不应 (None: it has none, or another first)."""
    found = provisions(text)
    return found[0].start if found and found[0].word in ("应", "不应") else None


def requirement_sentences(section: Section) -> Iterator[tuple[int, str, str]]:
    """(offset, words before the modal, sentence) of each 应/不应 sentence of the clause's plain prose."""
    for at, text in _prose_sentences(section):
        modal = _shall(text)
        if modal is not None:
            yield at, text[:modal], text


def head_end(subject: str, head: str) -> int | None:
    """Where another object can be coordinated after `head` in the part of a sentence before its modal:
    after the last head followed by 的, a comma or nothing ("……的等级保护对象，应……"), not after "非"."""
    for m in reversed(list(regex.finditer(regex.escape(head), subject))):
        after = subject[m.end() : m.end() + 1]
        if after in ("", "的", "，", ",") and subject[m.start() - 1 : m.start()] != "非":
            return m.end()
    return None


# "依据本标准", "按照本文件": the sentence applies the document itself to what it names before.
_APPLYING = regex.compile(rf"(?:依据|依照|按照|根据|按)(?:{SELF_REFERENCE.pattern})")


def applying_sentences(section: Section) -> Iterator[tuple[int, str, str]]:
    """(offset, words before "依据本标准", sentence) of each plain-prose sentence without 应/不应 that applies
    the document itself to what it names first ("……的等级保护对象，其网络运营者依据本标准组织……")."""
    for at, text in _prose_sentences(section):
        m = _APPLYING.search(text)
        if m and _shall(text) is None:
            yield at, text[: m.start()], text


@functools.lru_cache(maxsize=16)
def negated_requirements(section: Section, head: str) -> tuple[ScopedRequirement, ...]:
    """Requirements of a body clause that name the head noun of a "非X" scope qualifier before their 应
    ("对于……的等级保护对象，应……"), or before the words that apply the document to it ("……的等级保护对象，
    其网络运营者依据本标准……"): where the object the qualifier leaves out can join in."""
    shall = [(at, subject, text, False) for at, subject, text in requirement_sentences(section)]
    applying = [(at, subject, text, True) for at, subject, text in applying_sentences(section)]
    return tuple(
        ScopedRequirement(at, subject, head, text, applies)
        for at, subject, text, applies in shall + applying
        if len(subject) <= 40 and head_end(subject, head) is not None
    )
