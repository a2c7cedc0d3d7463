"""NMS-05's note form never turns an inline example into a note: "例如：……可……" is informative already, so
"注：例如：……" is no error an expert would accept (a sampled real-standard instance did this)."""

from __future__ import annotations

import pytest

from injectors.types.nms.provision_as_note import note_moves
from parsers.model import Section

LEAD = "显示屏在字号放大一倍后，页面上的文字和按钮均应完整可见。\n"


@pytest.mark.parametrize("opener", ["例如：", "比如，", "示例：", "如："])
def test_an_inline_example_is_not_moved_into_a_note(opener: str) -> None:
    text = LEAD + f"{opener}只显示数字的小屏幕可仅放大数字本身。"
    assert list(note_moves(Section("5.3", "字号", text, 4, "clause"))) == []


def test_a_provision_paragraph_still_moves() -> None:
    text = LEAD + "只显示数字的小屏幕可仅放大数字本身。"
    (move,) = note_moves(Section("5.3", "字号", text, 4, "clause"))
    assert move.sentence.startswith("只显示") and move.prefix == "注："
