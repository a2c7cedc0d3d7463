"""moved from ter."""

from __future__ import annotations

from injectors.types.nms.provision_as_note import note_moves
from parsers.model import Section


def test_nms05_never_reads_kebei_as_a_permission() -> None:
    """Class 8: "可被" is a passive (what can be done to a thing) and "可分为" a classification, not the
    permission 可: a last sentence whose only modal is such a 可 is no provision, so it is never written
    as a note and called 允许型."""
    lead = "显示屏在字号放大一倍后，页面上的文字和按钮均应完整可见。\n"
    passive = lead + "图片中的文字提供替代文本，且可被读屏软件读出。"
    assert list(note_moves(Section("5.3", "字号", passive, 4, "clause"))) == []
    kinds = lead + "按显示内容的不同，放大方式可分为整体放大和局部放大等。"
    assert list(note_moves(Section("5.3", "字号", kinds, 4, "clause"))) == []
    permitted = lead + "只显示数字的小屏幕可仅放大数字本身。"
    (move,) = note_moves(Section("5.3", "字号", permitted, 4, "clause"))
    assert move.force == "允许"
    required = lead + "放大后的文字不应被按钮遮挡。"
    (move,) = note_moves(Section("5.3", "字号", required, 4, "clause"))
    assert move.force == "要求"
