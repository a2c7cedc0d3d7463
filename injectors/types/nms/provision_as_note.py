"""NMS-05's second form: a real provision of a clause written as a 注 ("…应每天自检一次。⏎注：标定周期不应
超过30 d。"). The document's own sentence moves into an informative element, as drafters do when they
demote a requirement they are unsure of; nothing is invented and no stock sentence is added.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import regex

from injectors.edit import Replacement
from injectors.language.modals import FORCE_ZH, describes, modal_verbs
from injectors.language.patterns import CAPTION, CITATION, EXAMPLE, NOTE
from injectors.language.punctuation import match_style
from injectors.types.nms.analysis import is_table_row, text_lines
from parsers.model import Section

# A line that is a list item, a lead-in or a formula: moving it into a note would break the list.
# An example written inline ("例如：……可仅使用……") is informative already: as a note it is no error.
# A numbered item of an engineering code ("3 在煤壁开孔的钻孔，……") or a heading read as text ("10.7 …")
# is no paragraph of its own either.
_NOT_PROSE = regex.compile(
    r"^\s*(?:[a-z][)）]|\d+[)）]|——|—|[（(]\d+[)）]|[A-Z]\.\d|式|where|其中|例如|比如|示例|如[:：]"
    r"|\d{1,3}(?:[.．]\d+)*\s)"
)


_SENTENCE_END = ("。", "；", ";", "！", "？")


@dataclass(frozen=True)
class NoteMove:
    """The provision `sentence` at `start` of the section text becomes a note (`prefix` is written
    before it: "注：" at a line start, "\\n注：" inside a paragraph)."""

    start: int
    sentence: str
    prefix: str
    force: str  # what kind of provision it is (要求, 推荐, 允许)

    def replacement(self) -> Replacement:
        return Replacement("text", self.start, "", self.prefix)


def note_moves(section: Section) -> Iterator[NoteMove]:
    """The last provision of a clause that has something before it, as a note: the whole last paragraph,
    or the last sentence of a paragraph of several. Clauses that already have notes or examples are left
    alone (their numbering would change)."""
    if section.kind != "clause" or not section.text.strip():
        return
    lines = [(o, line) for o, line in text_lines(section.text) if line.strip()]
    if any(NOTE.match(line) or EXAMPLE.match(line) for _, line in lines):
        return
    note = match_style("注：", section.text)
    offset, last = lines[-1]
    if is_table_row(last) or CAPTION.match(last) or _NOT_PROSE.match(last):
        return
    sentences = [m for m in regex.finditer(r"[^。]+。", last)]
    if not sentences or "".join(m.group(0) for m in sentences) != last.strip():
        return
    final = sentences[-1]
    sentence = final.group(0).strip()
    force = _force(sentence)
    if force is None or not 8 <= len(sentence) <= 90:
        return
    if len(sentences) >= 2:
        before = last[: final.start()]
        if before.rstrip().endswith(("：", ":")):
            return
        yield NoteMove(offset + final.start(), sentence, "\n" + note, force)
    elif len(lines) >= 2 and lines[-2][1].rstrip().endswith(_SENTENCE_END):
        # a paragraph of its own: the line before ends a sentence (not a line wrapped mid-sentence, whose
        # tail "（km），行驶里程…" would make a broken note)
        lead = len(last) - len(last.lstrip())
        yield NoteMove(offset + lead, sentence, note, force)


def _force(sentence: str) -> str | None:
    """The kind of provision a sentence states, when it states exactly one (and cites no document, whose
    citation would then become informative: NREF's business)."""
    if CITATION.search(sentence):
        return None
    found = modal_verbs(sentence)
    if any(describes(sentence, m) for m in found):
        return None  # "且可被辅助工具访问到", "可分为位置隐私保护…": they describe, they permit nothing
    forces = {m.force for m in found}
    return FORCE_ZH[forces.pop()] if len(forces) == 1 else None
