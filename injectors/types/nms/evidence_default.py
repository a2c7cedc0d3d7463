"""Evidence against requiring a setting: a permission to set something (可自定义, 可设置, 可调整 …) whose
value the document gives a default for elsewhere (缺省超时, 默认值). A required setting has no default.
"""

from __future__ import annotations

import regex

from injectors.language.modals import PERMISSION, Modal, lexicon, next_word
from injectors.language.patterns import HAN_WORD
from injectors.types.nms.analysis import place
from injectors.types.nms.evidence import DEFAULT, Evidence
from injectors.types.nms.provision_parts import actor, excerpt
from parsers.model import Document

_SETTING_VERBS = frozenset(lexicon("自定义 自行定义 设置 设定 修改 调整 配置 扩充 扩展 更改"))


def default_value(document: Document, position: int, line: str, modal: Modal) -> list[Evidence]:
    """A permission to set what the document gives a default for ("超时时间…可自定义" and "缺省超时及重发次数
    定义如表1"): where a default stands, not setting it is an option, so a required setting contradicts it.
    The default must name the provision's own actor (its first word)."""
    if modal.force != PERMISSION or next_word(line, modal.end) not in _SETTING_VERBS:
        return []
    bound = actor(line, modal)
    first = regex.search(r"\p{Han}", bound)  # past a bullet a PDF kept ("\uf06c 超时时间…")
    head = next_word(bound, first.start()) if first is not None else ""
    if len(head) < 2 or not HAN_WORD.fullmatch(head):
        return []
    pattern = regex.compile(rf"(?:缺省|默认)(?:的|值)?{regex.escape(head)}")
    for other in document.sections:
        for other_line in other.text.split("\n"):
            found = pattern.search(other_line) if head in other_line and other_line != line else None
            if found is not None:
                words = excerpt(other_line, found.start(), found.end())
                words = regex.split(r"[“”\"「」‘’《》（(]", words)[0].strip()
                if len(words) >= 4:
                    return [Evidence(DEFAULT, words, place(other.number))]
    return []
