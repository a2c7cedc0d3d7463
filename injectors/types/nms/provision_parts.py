"""How the evidence finders read a provision: who it binds, what it acts on, the list it stands in, and the
words to quote from it.

Several kinds of evidence compare one provision with another (a sibling, a restatement, a declared name);
they read a clause through these functions so that all of them read it alike.
"""

from __future__ import annotations

import unicodedata

import regex

from injectors.language.modals import Modal, clause_span, modal_verbs, next_word
from injectors.language.quotes import shorten
from parsers.model import Section

LIST_ITEM = regex.compile(r"^\s*(?:[a-z]\)|[a-z]）|\d{1,2}\)|\d{1,2}）|——|—)")
OPTIONS = regex.compile(r"[、或]")  # "A、B或C": options listed after the verb
_KEY_NOISE = regex.compile(r"[\s\p{P}\p{S}]+")


def fold(text: str) -> str:
    """The text as two wordings of one name compare: full-width forms, spaces and punctuation folded."""
    return _KEY_NOISE.sub("", unicodedata.normalize("NFKC", text))


def excerpt(line: str, at: int, end: int, avoid: Modal | None = None) -> str:
    """The comma-delimited phrase of `line` around [at, end), whole words, shortened when long; never
    holding `avoid` (the modal verb an error changes: its sibling is quoted as the corrupted text reads,
    not "并列的“可采用A或可采用B”" where the first 可 became 应)."""
    a = at
    while a > 0 and line[a - 1] not in "，,；;。：:|":
        a -= 1
    b = end
    while b < len(line) and line[b] not in "，,；;。|":
        b += 1
    if avoid is not None and a <= avoid.start < b:
        a, b = (max(a, avoid.end), b) if avoid.start < at else (a, min(b, avoid.start))
        a = max(a, at) if avoid.start < at else a
    phrase = line[a:b].strip().rstrip("或和及与、并且而也还")
    return phrase if len(phrase) <= 30 else shorten(phrase, 30)


def provision_after(line: str, modal: Modal) -> str:
    """What the modal verb governs: its comma clause after it, up to the next modal verb."""
    _, b = clause_span(line, modal.start, modal.end)
    following = [m.start for m in modal_verbs(line) if m.start >= modal.end]
    return line[modal.end : min([b, *following])]


def actor(line: str, modal: Modal) -> str:
    """Who the provision binds: the words before the modal verb in its clause ("" when the clause has
    none of its own and inherits the sentence's or the list's subject)."""
    a, _ = clause_span(line, modal.start, modal.end)
    before = LIST_ITEM.sub("", line[a : modal.start]) if a == 0 else line[a : modal.start]
    return before.strip(" \t，,：:；;")


def object_of(line: str, modal: Modal) -> str:
    """What the provision acts on: its clause after the modal verb and the verb that follows it."""
    verb = next_word(line, modal.end)
    return provision_after(line, modal)[len(verb) :].strip(" \t，,。；;")


def list_bounds(lines: list[str], at: int) -> tuple[int, int]:
    """The first and last line of the run of list items around the item at line `at`."""
    first, last = at, at
    while first > 0 and LIST_ITEM.match(lines[first - 1]):
        first -= 1
    while last + 1 < len(lines) and LIST_ITEM.match(lines[last + 1]):
        last += 1
    return first, last


def lead_in_line(section: Section, line: str) -> str:
    """The line that introduces the list `line` is an item of ("" when there is none)."""
    lines = section.text.split("\n")
    at = lines.index(line) if line in lines else 0
    while at > 0 and (LIST_ITEM.match(lines[at]) or not lines[at].strip()):
        at -= 1
    return "" if LIST_ITEM.match(lines[at]) else lines[at]


_NOT_HEADING = regex.compile(r"保证|确保|使|以便|即|才|从而|是指|表示|意味")


def heads_its_item(line: str, modal: Modal) -> bool:
    """The modal verb makes the item's provision: not "……才可发送", "保证客户可以……", "即用户可……"."""
    before = line[: modal.start]
    if before[-1:] in ("才", "方", "均", "都", "也", "亦", "即"):
        return False
    return _NOT_HEADING.search(before) is None
