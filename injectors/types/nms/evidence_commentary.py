"""Evidence from the document's explanation of a recommendation: a 条文说明 section titled by the clause's
number ("5.1.1条") that recommends or permits the same act on the same object ("推荐…采用X",
"也可以采用其他…") is the drafter's own reading of the clause.

Not where the clause lists options ("宜采用A、B、C等"): recommending one of them says nothing of whether
choosing among them is required.
"""

from __future__ import annotations

import regex

from injectors.language.modals import PERMISSION, RECOMMENDATION, Modal, clause_span, modal_verbs, next_word
from injectors.language.patterns import HAN_WORD
from injectors.language.quotes import shorten
from injectors.types.nms.analysis import place
from injectors.types.nms.evidence import COMMENTARY, Evidence
from injectors.types.nms.provision_parts import OPTIONS, fold, provision_after
from parsers.model import Document, Section

_RECOMMENDING = regex.compile(r"(?<!不)(?:推荐|建议)")
_DISCOURAGING = regex.compile(r"不推荐|不建议")
# "编码格式", "通信协议" are anyone's; "紧凑二进制", "RS-485", "Modbus-RTU" name the object
_MIN_SHARED, _MIN_SHARED_LATIN = 5, 4


def _commentaries(document: Document, position: int) -> list[Section]:
    """The sections that explain this clause by naming its number as their title ("5.1.1条", "第5.1.1条",
    "6.2.2 报文帧控制字符定义" in a 条文说明): never the clause itself or a clause under it."""
    number = document.sections[position].number
    if not number[:1].isdigit() or "." not in number:
        return []
    titled = regex.compile(rf"^第?{regex.escape(number)}(?:条|[ \u3000]|$)")
    return [
        s
        for i, s in enumerate(document.sections)
        if i != position
        and s.number != number
        and not s.number.startswith(number + ".")
        and titled.match(s.title.strip())
    ]


def _shared(a: str, b: str) -> bool:
    """Whether two texts share a name: a run of `_MIN_SHARED` characters, or `_MIN_SHARED_LATIN` holding
    a Latin letter or digit (spaces and punctuation folded)."""
    a, b = fold(a), fold(b)
    for size in (_MIN_SHARED_LATIN, _MIN_SHARED):
        runs = (a[i : i + size] for i in range(len(a) - size + 1))
        if any(r in b and (size == _MIN_SHARED or regex.search(r"[A-Za-z0-9]", r)) for r in runs):
            return True
    return False


def _recommending(sentence: str, negative: bool) -> list[int]:
    """Where a sentence recommends or permits (推荐, 建议, 宜, 可, 可以; 不推荐, 不建议, 不宜 for a
    negative provision)."""
    words = _DISCOURAGING if negative else _RECOMMENDING
    found = [m.start() for m in words.finditer(sentence)]
    found += [
        m.start
        for m in modal_verbs(sentence)
        if m.force in (RECOMMENDATION, PERMISSION) and m.negative == negative and m.word != "不必"
    ]
    return sorted(found)


def commentary(document: Document, position: int, line: str, modal: Modal) -> list[Evidence]:
    """The document's explanation of this clause recommends or permits what the clause provides: the same
    verb after 推荐/建议/宜/可 in one sentence, on an object sharing a name with the clause's ("且推荐传感器
    采用RS-485接口" for "传感器宜采用RS-485接口"). Strengthened, the clause requires what its own
    explanation only recommends."""
    verb = next_word(line, modal.end)
    if len(verb) < 2 or not HAN_WORD.fullmatch(verb):
        return []
    thing = provision_after(line, modal)[len(verb) :]
    if OPTIONS.search(thing) or "等" in thing or len(fold(thing)) < _MIN_SHARED:
        return []  # "宜采用A、B或C等": a commentary preferring A leaves the choice among them open
    out = []
    for other in _commentaries(document, position):
        for found in regex.finditer(r"[^。；;\n]+", other.text):
            sentence = found.group()
            for at in _recommending(sentence, modal.negative):
                act = sentence.find(verb, at)
                if act < 0 or act - at > 16 or not _shared(thing, sentence[act + len(verb) :]):
                    continue
                _, b = clause_span(sentence, act, act + len(verb))
                while b < len(sentence) and not _shared(thing, sentence[act + len(verb) : b]):
                    _, b = clause_span(sentence, b + 1, b + 1)
                words = shorten(sentence[at:b].strip(), 40)
                out.append(Evidence(COMMENTARY, words, place(other.number)))
                break
    # a sentence that names the recommendation (推荐, 建议) says more than one that permits (可以)
    out.sort(key=lambda e: _RECOMMENDING.match(e.words) is None and _DISCOURAGING.match(e.words) is None)
    return out[:1]
