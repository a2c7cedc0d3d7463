"""Evidence from a sibling: another item of the same list, or a parallel clause of the same sentence, that
keeps the modal verb and binds the same actor to the same object (`same_provision`). Only then does its
strength say what this clause's must be: two subjects or two objects may legitimately carry different
strengths ("a) 开启角度应…；b) 柜门宜…", "下级平台应通过主链路…，上级平台可以通过从链路…").
"""

from __future__ import annotations

import regex

from injectors.language.modals import Modal, modal_verbs, next_word, sentence_span
from injectors.types.nms.evidence import SIBLING, Evidence
from injectors.types.nms.provision_parts import (
    LIST_ITEM,
    actor,
    excerpt,
    heads_its_item,
    list_bounds,
    object_of,
)
from parsers.model import Section

_EXAMPLES = regex.compile(r"(?:^|[，,：:（(、])(?:例如|比如|如)(?![果何下图表此])")


def same_provision(line: str, modal: Modal, other_line: str, other: Modal) -> bool:
    """Whether two modal verbs bind the same actor to the same object (a subject left out is the
    sentence's or the list lead's, and so the same): only then does the other one's strength say what this
    one's must be."""
    if actor(line, modal) != actor(other_line, other):
        return False
    mine, theirs = object_of(line, modal), object_of(other_line, other)
    return bool(mine) and mine == theirs


def list_siblings(
    section: Section, line_offset: int, force: str, modal: Modal | None = None
) -> list[Evidence]:
    """Items of the same list (a) b) c), ——) that keep a modal verb of `force` (given `modal`, only those
    that bind its actor to its object: `same_provision`)."""
    lines = section.text.split("\n")
    at = section.text.count("\n", 0, line_offset)
    if not LIST_ITEM.match(lines[at]):
        return []
    first, last = list_bounds(lines, at)
    out = []
    for i in range(first, last + 1):
        if i == at:
            continue
        found = next((m for m in modal_verbs(lines[i]) if m.force == force), None)
        if found is None or not heads_its_item(lines[i], found):
            continue
        if modal is not None and not same_provision(lines[at], modal, lines[i], found):
            continue
        out.append(Evidence(SIBLING, excerpt(lines[i], found.start, found.end), "同一列项"))
    return out


def sentence_siblings(
    line: str, modal: Modal, same_verb: bool = True, same_actor: bool = False
) -> list[Evidence]:
    """Parallel clauses of the same sentence keeping the same modal verb ("长度宜为…，宽度宜为…",
    "箱体不应破裂，盖体不应脱开"): a list written in one sentence (with `same_actor`, only clauses that
    bind the same actor to the same object: `same_provision`)."""
    a, b = sentence_span(line, modal.start, modal.end)
    if _EXAMPLES.search(line[a:b]):
        return []  # "如按钮可点击、复选框可改变状态": examples, not a list of provisions
    nxt = next_word(line, modal.end)
    out = []
    for other in modal_verbs(line[:b]):
        if other.start < a or other.start == modal.start or other.word != modal.word:
            continue
        if line[other.start - 1 : other.start] == "除":
            continue  # "除应由厂商进行的操作外": names the exception, no parallel provision
        if same_actor and not same_provision(line, modal, line, other):
            continue
        if modal.negative or not same_verb or next_word(line, other.end) == nxt:
            out.append(Evidence(SIBLING, excerpt(line, other.start, other.end, avoid=modal), "同一句"))
    return out
