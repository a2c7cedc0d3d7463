"""The reference finder and the clause numbers it leaves to others, on sentences written for these tests."""

from __future__ import annotations

from injectors.edit import rename_all
from injectors.language.crossrefs import find_crossrefs, follow_renames, unfollowed_numbers

CHAPTER_GONE = (("5", "4"), ("6", "5"), ("7", "6"))  # chapter 4 deleted: the later ones move up


def clauses(text: str) -> list[str]:
    return [r.target for r in find_crossrefs(text) if r.kind == "clause"]


def test_every_item_of_a_list_joined_by_a_conjunction_is_a_reference() -> None:
    text = "依次重复 6.3.1、6.3.2和 6.3.3的操作，直至读数稳定。"
    assert clauses(text) == ["6.3.1", "6.3.2", "6.3.3"]
    assert (
        follow_renames(text, CHAPTER_GONE, rename_all)
        == "依次重复 5.3.1、5.3.2和 5.3.3的操作，直至读数稳定。"
    )


def test_a_list_of_values_or_of_another_documents_clauses_is_no_reference() -> None:
    assert clauses("溶液的 pH 6.5和 7.5之间") == ["7.5"]  # the item after 和 as before, never the pH value
    assert clauses("按GB/T 9999.2—2020的5.2和5.3进行") == []
    assert clauses("取1.5规定值和2.5倍") == []
    assert clauses("应符合表 6.2.1 的规定，图B.1给出了示例，表A.1和表A.2") == []


def test_a_clause_named_by_what_it_lays_down_is_a_reference() -> None:
    assert clauses("施加5.2.2规定的电压，核对6.1所列的项目，遵循7.1、7.2的要求") == [
        "5.2.2",
        "6.1",
        "7.1",
        "7.2",
    ]


def test_a_unit_on_the_next_line_does_not_make_a_clause_a_value() -> None:
    assert clauses("编码规则见6.2.3\nAB 为地址码") == ["6.2.3"]
    assert clauses("长度为6.2 m") == []


def test_numbers_written_outside_references_are_the_ones_a_renumbering_leaves_behind() -> None:
    table = "表 2 试验项目\n| 外观 | 目测 | 6.3.1 |\n| 耐压 | ±0.5 kV以内 | 6.3.2 |"
    assert unfollowed_numbers(table, CHAPTER_GONE, rename_all) == ["6.3.1", "6.3.2"]
    assert unfollowed_numbers("标志应符合“7 标志和包装”的规定。", CHAPTER_GONE, rename_all) == ["7"]
    assert unfollowed_numbers("按第 6项试验检验。", CHAPTER_GONE, rename_all) == ["6"]
    assert unfollowed_numbers("5.1 示例器具 sample device\n用于演示的器具。", CHAPTER_GONE, rename_all) == [
        "5.1"
    ]


def test_values_followed_references_and_other_documents_numbers_are_not_left_behind() -> None:
    text = (
        "溶液 pH 6.5，读数为 5.5 以上；见6.3.1和6.3.2；【6.3 试验】\n"
        "[来源：GB/T 9999.2—2020，6.3.1]；2019年版的6.3.2、6.3.3；标识符 6.2.156.3001.1.1。\n"
        "6.5 以上为合格。"
    )
    assert unfollowed_numbers(text, CHAPTER_GONE, rename_all) == []
    # the same table, but no renamed chapter in it: nothing to leave behind
    assert unfollowed_numbers("| 外观 | 目测 | 3.3.1 |", CHAPTER_GONE, rename_all) == []
