"""Tests of injectors.types.nms.provision_parts: how the evidence finders read a provision's actor, object,
list and quotable words."""

from __future__ import annotations

import pytest

from injectors.language.modals import modal_verbs
from injectors.types.nms.provision_parts import (
    actor,
    excerpt,
    fold,
    heads_its_item,
    lead_in_line,
    list_bounds,
    object_of,
)
from tests.injectors.types.nms.nms_documents import evidence_standard, position


def test_each_clause_of_a_sentence_has_its_own_actor_and_object() -> None:
    line = "柜门应采用金属材料制作，显示屏应具有背光功能。"
    first, second = modal_verbs(line)
    assert (actor(line, first), object_of(line, first)) == ("柜门", "金属材料制作")
    assert (actor(line, second), object_of(line, second)) == ("显示屏", "背光功能")


def test_a_list_item_without_a_subject_has_no_actor_of_its_own() -> None:
    """The list marker is no actor: the item inherits the lead-in's subject."""
    line = "a) 柜门应采用金属材料制作；"
    (modal,) = modal_verbs(line)
    assert actor(line, modal) == "柜门"
    line = "b) 应每日检查柜门；"
    (modal,) = modal_verbs(line)
    assert actor(line, modal) == ""


def test_the_lead_in_of_a_list_item_is_the_line_above_the_list() -> None:
    document = evidence_standard("柜门应符合下列要求：\na) 柜门应能自动锁闭；\nb) 柜门应有编号。")
    section = document.sections[position(document, "4.1")]
    assert lead_in_line(section, "b) 柜门应有编号。") == "柜门应符合下列要求："
    assert lead_in_line(section, "柜门应符合下列要求：") == "柜门应符合下列要求："


def test_a_list_runs_over_its_consecutive_items() -> None:
    lines = [
        "柜门应符合下列要求：",
        "a) 柜门应能自动锁闭；",
        "b) 柜门应有编号。",
        "柜体应可靠接地。",
        "——接地线应为黄绿色。",
    ]
    assert list_bounds(lines, 2) == (1, 2)
    assert list_bounds(lines, 1) == (1, 2)
    assert list_bounds(lines, 4) == (4, 4)


def test_an_excerpt_is_its_phrase_and_never_holds_the_changed_modal() -> None:
    """A sibling is quoted as the corrupted text reads: without the modal verb the error changes."""
    line = "柜门可采用电磁锁或可采用电机锁。"
    changed, sibling = modal_verbs(line)
    assert excerpt(line, sibling.start, sibling.end) == "柜门可采用电磁锁或可采用电机锁"
    assert excerpt(line, sibling.start, sibling.end, avoid=changed) == "可采用电机锁"


def test_folding_leaves_only_the_words() -> None:
    assert fold("ＲＳ－４８５ 接口，") == fold("RS-485接口") == "RS485接口"


@pytest.mark.parametrize(
    ("line", "heads"),
    [("b) 柜门可以手动开启；", True), ("b) 保证客户可以取件；", False), ("b) 审批后才可发送；", False)],
)
def test_a_modal_heads_its_item_unless_it_serves_another_verb(line: str, heads: bool) -> None:
    assert heads_its_item(line, modal_verbs(line)[0]) is heads
