"""Evidence that the document states the same provision again elsewhere (the same whole sentence, under
the same headings but for a grade) with the modal verb kept: changed in one place, the document states one
provision two ways.

For a recommendation only a later statement counts, for a requirement only an earlier one: a document that
states one provision grade by grade ("第二级…可…", "第三级…可…") may require at a higher grade what a lower
one only recommends, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.modals import Modal, clause_span, modal_verbs, sentence_span
from injectors.types.nms.analysis import is_table_row, place
from injectors.types.nms.evidence import RESTATED, Evidence
from injectors.types.nms.provision_parts import LIST_ITEM, excerpt, fold, lead_in_line
from parsers.model import Document, Section

_MIN_KEY_HAN = 12  # "宜采用A" alone recurs by chance; a whole sentence with its actor and object does not


def _restatement_key(section: Section, line: str, modal: Modal) -> str | None:
    """The provision a modal verb makes, as the same wording would read anywhere else: its whole sentence
    (condition, actor, object, less a list marker) without the modal verb itself, and for a list item the
    list's lead-in (which gives the items their actor); full-width forms and punctuation folded. None when
    too short to be told apart."""
    a, b = sentence_span(line, modal.start, modal.end)
    before = LIST_ITEM.sub("", line[a : modal.start])
    after = line[modal.end : b]
    if len(regex.findall(r"\p{Han}", after)) < 3:
        return None
    key = fold(before) + "|" + fold(after)
    if len(regex.findall(r"\p{Han}", key)) < _MIN_KEY_HAN:
        return None
    return fold(lead_in_line(section, line)) + "|" + key if LIST_ITEM.match(line) else key


@dataclass(frozen=True)
class Statement:
    """A provision as the document states it: where (its section's position), the line, the modal verb."""

    position: int
    number: str
    line: str
    modal: Modal


@lru_cache(maxsize=64)
def _statements(document: Document) -> dict[str, tuple[Statement, ...]]:
    """Every provision of the document by its `_restatement_key` (body, notes, annexes; no table rows)."""
    out: dict[str, list[Statement]] = {}
    for position, section in enumerate(document.sections):
        for line in section.text.split("\n"):
            if not line.strip() or is_table_row(line):
                continue
            for modal in modal_verbs(line):
                key = _restatement_key(section, line, modal)
                if key is not None:
                    out.setdefault(key, []).append(Statement(position, section.number, line, modal))
    return {k: tuple(v) for k, v in out.items()}


def restatement(document: Document, position: int, line: str, modal: Modal, later: bool) -> list[Evidence]:
    """The same provision stated in another section with the same force, after this one (`later`) or
    before it: changed here, the document states one provision two ways. Never a statement of the same
    section (a line a parser repeated is no second statement)."""
    key = _restatement_key(document.sections[position], line, modal)
    if key is None:
        return []
    number = document.sections[position].number
    for other in _statements(document).get(key, ()):
        if other.modal.force != modal.force or other.modal.negative != modal.negative:
            continue
        if (other.position > position) != later or other.number == number:
            continue
        if _context(document, other.position) != _context(document, position):
            continue
        words = _quotable(other.line, other.modal)
        if words:
            return [Evidence(RESTATED, words, place(other.number))]
    return []


_GRADE = regex.compile(r"第?[一二三四五六七八九十\d]+级")


def _context(document: Document, position: int) -> tuple[str, ...]:
    """What a section is about: its own title and its ancestors', a grade ("第三级") left out. The same
    sentence under "取水口信息编码" and under "排水口信息编码" binds two subjects; under "第二级安全要求"
    and "第三级安全要求" it binds one subject at two grades."""
    section = document.sections[position]
    chain = [section.title]
    level = section.level
    for s in reversed(document.sections[:position]):
        if s.level < level:
            chain.append(s.title)
            level = s.level
        if level <= 1:
            break
    return tuple(_GRADE.sub("", t).strip() for t in chain)


def _quotable(line: str, modal: Modal) -> str:
    """The other statement's words around its modal verb, up to a quotation mark (a description's quote
    holds none): the phrase of `excerpt`, or from the clause before it when the phrase is too short."""
    stop = regex.search(r"[“”\"「」‘’]", line[modal.end :])
    end = modal.end + stop.start() if stop else len(line)
    words = excerpt(line[:end], modal.start, modal.end).strip()
    if len(words) >= 6:
        return words
    a, _ = clause_span(line, modal.start, modal.end)
    a, _ = clause_span(line, a - 1, a - 1) if a > 0 else (a, a)
    words = line[a:end].strip().rstrip("，,")
    return words if 6 <= len(words) <= 40 else ""
