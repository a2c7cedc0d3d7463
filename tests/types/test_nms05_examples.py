"""NMS-05's note form never turns an inline example into a note: "例如：……可……" is informative already, so
"注：例如：……" is no error an expert would accept (a sampled real-standard instance did this)."""

from __future__ import annotations

import pytest

from injectors.types.nms.provision_as_note import note_moves
from parsers.model import Section

LEAD = "在使用支持以下文本样式属性的标记语言实现的内容中，不会丢失任何内容或功能。\n"


@pytest.mark.parametrize("opener", ["例如：", "比如，", "示例：", "如："])
def test_an_inline_example_is_not_moved_into_a_note(opener: str) -> None:
    text = LEAD + f"{opener}不使用这些文本样式属性的通用语言和脚本可仅使用该语言存在的属性。"
    assert list(note_moves(Section("5.1.2.6", "文本间距", text, 4, "clause"))) == []


def test_a_provision_paragraph_still_moves() -> None:
    text = LEAD + "不使用这些文本样式属性的通用语言和脚本可仅使用该语言存在的属性。"
    (move,) = note_moves(Section("5.1.2.6", "文本间距", text, 4, "clause"))
    assert move.sentence.startswith("不使用") and move.prefix == "注："
