"""Tests of injectors.types.nms.provision_as_note: NMS-05's second form, a provision of a clause written as
a 注."""

from __future__ import annotations

from dataclasses import replace

import pytest

from injectors.checking import lint
from injectors.edit import apply_replacements
from injectors.types.nms.provision_as_note import note_moves
from parsers.model import Section
from tests.injectors.types.nms.nms_documents import standard


def test_a_provision_moved_into_a_note_keeps_its_words() -> None:
    doc = standard("柜门应具有防夹功能。柜体外壳应可靠接地。")
    position = next(i for i, s in enumerate(doc.sections) if "柜门" in s.text)
    moves = list(note_moves(doc.sections[position]))
    assert [m.sentence for m in moves] == ["柜体外壳应可靠接地。"]
    corrupted = apply_replacements(doc.sections[position], [moves[0].replacement()])
    assert corrupted.text.endswith("柜门应具有防夹功能。\n注：柜体外壳应可靠接地。")
    assert [
        (v.error_type)
        for v in lint(
            replace(
                doc, sections=tuple(corrupted if i == position else s for i, s in enumerate(doc.sections))
            ),
            ["NMS-05"],
        )
    ] == ["NMS-05"]


def test_a_line_wrapped_mid_sentence_never_becomes_a_note() -> None:
    """A PDF line break inside a sentence ("…单位为千米⏎（km），…应…") is no paragraph of its own."""
    doc = standard("记录仪应每天自检一次。\n里程记录单位为千米\n（km），读数精度应不低于0.1 km。")
    position = next(i for i, s in enumerate(doc.sections) if "千米" in s.text)
    assert list(note_moves(doc.sections[position])) == []
    whole = standard("记录仪应每天自检一次。\n里程的读数精度应不低于0.1 km。")
    position = next(i for i, s in enumerate(whole.sections) if "里程" in s.text)
    assert [m.sentence for m in note_moves(whole.sections[position])] == ["里程的读数精度应不低于0.1 km。"]


@pytest.mark.parametrize("item", ["3 检修孔的封堵深度不应小于5 m。", "１０.７ 其他需要说明的安装事项。"])
def test_a_numbered_item_or_a_heading_read_as_text_never_becomes_a_note(item: str) -> None:
    """An engineering code's numbered item ("3 在侧墙开凿的检修孔，封堵深度不应小于5 m") or a heading the
    parser left in the text would read "注：3 …" as a note: it is no paragraph of its own."""
    doc = standard(f"记录仪应每天自检一次。\n{item}")
    position = next(i for i, s in enumerate(doc.sections) if "记录仪" in s.text)
    assert list(note_moves(doc.sections[position])) == []


LEAD = "显示屏在字号放大一倍后，页面上的文字和按钮均应完整可见。\n"


@pytest.mark.parametrize("opener", ["例如：", "比如，", "示例：", "如："])
def test_an_inline_example_is_not_moved_into_a_note(opener: str) -> None:
    text = LEAD + f"{opener}只显示数字的小屏幕可仅放大数字本身。"
    assert list(note_moves(Section("5.3", "字号", text, 4, "clause"))) == []


def test_a_provision_paragraph_still_moves() -> None:
    text = LEAD + "只显示数字的小屏幕可仅放大数字本身。"
    (move,) = note_moves(Section("5.3", "字号", text, 4, "clause"))
    assert move.sentence.startswith("只显示") and move.prefix == "注："


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
