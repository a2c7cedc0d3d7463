"""Evidence in a recommendation's own clause that what it recommends is optional: its sentence (or the next
one) offers an alternative (也可 …) or hedges it (条件允许时, 如有可能), or a later sentence of the clause
presupposes that the option may not be taken ("可设置旁路阀。设置旁路阀时，……": once it is required, the
condition is empty) or says what applies when the other way is taken.

"优先" and "尽可能" are no evidence: "应优先采用", "应尽可能减少" are ordinary requirements.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from injectors.language.modals import Modal, next_word, sentence_span
from injectors.language.patterns import HAN_WORD
from injectors.types.nms.evidence import ALTERNATIVE, FALLBACK, HEDGE, PRESUPPOSED, Evidence
from injectors.types.nms.provision_parts import OPTIONS
from parsers.model import Section

_ALTERNATIVE = regex.compile(r"也可以|也可|亦可|或可|还可以|还可|也宜")
# a hedge that contradicts a requirement; not 优先 / 尽可能 ("应优先采用", "应尽可能减少" are requirements)
_HEDGE = regex.compile(r"在条件允许|条件允许时|条件具备时|有条件的|如有可能|如果可能")
_FALLBACK = regex.compile(
    r"(?:无法|不能|难以|未能|不)(?:满足|达到|实现|做到)(?:时|的)|(?:超过|超出|低于|高于|大于|小于|不足)(?:时|的情况下)"
    r"|确有困难|条件不具备"
)


def _sentence_after(line: str, modal: Modal) -> str:
    _, b = sentence_span(line, modal.start, modal.end)
    return line[modal.end : b]


def clause_options(section: Section, line_offset: int, line: str, modal: Modal) -> list[Evidence]:
    """Everything in the recommendation's own clause that shows it optional: an alternative, a fallback
    and a hedge in its sentence (or the next), then the later sentences that presuppose or foresee
    another way."""
    rest = _sentence_after(line, modal)
    out = [Evidence(ALTERNATIVE, m.group(), "本条") for m in _ALTERNATIVE.finditer(rest)][:1]
    _, end = sentence_span(line, modal.start, modal.end)
    nxt = _ALTERNATIVE.match(line, end) if not out else None
    if nxt is not None and next_word(line, nxt.end()) == next_word(line, modal.end):
        out.append(Evidence(ALTERNATIVE, line[nxt.start() : nxt.end()], "本条"))  # "可A。也可采用B。"
    _, end = sentence_span(line, end, end) if end < len(line) else (end, end)  # and the next sentence
    fallback = _FALLBACK.search(line, modal.end, end)
    if fallback is not None:
        out.append(Evidence(FALLBACK, fallback.group(), "本条"))
    a, b = sentence_span(line, modal.start, modal.end)
    hedge = _HEDGE.search(line[a:b])
    if hedge is not None:
        out.append(Evidence(HEDGE, hedge.group(), "本条"))
    out.extend(presupposed_option(section, line_offset, line, modal))
    out.extend(foreseen_alternative(section, line_offset, line, modal))
    return out


_CONDITION_OPENER = r"(?:当|如|若|如果|如需|对于|对)"
_CONDITION_CLOSER = r"(?:时|的情况下|后)[，,]"


@lru_cache(maxsize=1024)
def _condition_on(verb: str, thing: str) -> regex.Pattern[str]:
    """A condition made of doing `verb` … `thing` ("设置防雷装置时，", "当采用…时，")."""
    act = rf"{regex.escape(verb)}[^。；;，,\n]{{0,6}}?{regex.escape(thing)}"
    return regex.compile(
        rf"{_CONDITION_OPENER}[^。；;，,\n]{{0,8}}?{act}[^。；;，,\n]{{0,10}}?{_CONDITION_CLOSER}"
        rf"|(?:^|[。；;\n]){act}[^。；;，,\n]{{0,10}}?{_CONDITION_CLOSER}"
    )


def presupposed_option(section: Section, line_offset: int, line: str, modal: Modal) -> list[Evidence]:
    """A later sentence of the same clause made conditional on doing what the modal only recommends or
    permits ("宜设置防雷装置。……设置防雷装置时，应……"): strengthened, the condition no longer selects."""
    verb = next_word(line, modal.end)
    if len(verb) < 2 or not HAN_WORD.fullmatch(verb):
        return []
    thing = next_word(line, modal.end + len(verb))
    if len(thing) < 2 or not HAN_WORD.fullmatch(thing):
        return []
    _, end = sentence_span(line, modal.start, modal.end)
    if OPTIONS.search(line[modal.end : end]):
        return []  # "宜采用A、B或C。采用A时，……": the condition chooses among the options, still needed
    later = section.text[line_offset + end :]
    if verb not in later or thing not in later:  # both are in any condition that repeats the act
        return []
    found = _condition_on(verb, thing).search(later)
    if found is None:
        return []
    words = found.group().lstrip("。；;\n").rstrip("，,")
    return [Evidence(PRESUPPOSED, words, "本条")]


@lru_cache(maxsize=1024)
def _other_way(verb: str) -> regex.Pattern[str]:
    """A condition made of doing `verb` another way ("设置在舱内时，", "当采用有线方式时，")."""
    return regex.compile(
        rf"(?:^|[。；;，,\n]){_CONDITION_OPENER}?[^。；;，,\n]{{0,8}}?{regex.escape(verb)}"
        rf"(?P<how>[在于为成用][^。；;，,\n]{{1,20}}?){_CONDITION_CLOSER}"
    )


def foreseen_alternative(section: Section, line_offset: int, line: str, modal: Modal) -> list[Evidence]:
    """A later sentence of the clause says what applies when the recommended way is not taken ("宜设置
    在舱外控制柜中；设置在舱内时，应……"): the document foresees the other way, so it was an option."""
    verb = next_word(line, modal.end)
    if len(verb) < 2 or not HAN_WORD.fullmatch(verb):
        return []
    _, end = sentence_span(line, modal.start, modal.end)
    mine = line[modal.end + len(verb) : end]
    later = section.text[line_offset + end :]
    found = _other_way(verb).search(later) if verb in later else None
    if found is None or found.group("how") in mine:
        return []  # the same way again is a condition on the option itself (`presupposed_option`)
    return [Evidence(FALLBACK, found.group().lstrip("。；;，,\n").rstrip("，,"), "本条")]
