"""Edits: exact spans, structural operations, renumbering, replay and conflicts."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from injectors.edit import (
    Edit,
    EditConflict,
    Replacement,
    apply_edits,
    footprint,
    overlaps,
    rename_number,
    replay,
    unfollowed,
)
from parsers.model import Document, Section
from parsers.text import parse_text
from tests.support.sample_standard import SAMPLE


@pytest.fixture(scope="module")
def doc() -> Document:
    return parse_text(Path("sample.txt"), SAMPLE.encode())


def position(doc: Document, number: str) -> int:
    return next(i for i, s in enumerate(doc.sections) if s.number == number)


def test_modify_replays_exactly(doc: Document) -> None:
    target = position(doc, "5.1.1")
    text = doc.sections[target].text
    start = text.index("应")
    edit = Edit("modify", target, (Replacement("text", start, "应", "宜"),))
    applied = apply_edits(doc, [edit])
    assert applied.locations == ("5.1.1",)
    section = applied.document.section("5.1.1")
    assert section is not None and section.text == text.replace("应", "宜", 1)
    assert replay(edit, doc.sections[target]) == applied.sections[0]
    assert Edit.from_dict(edit.to_dict()) == edit


def test_mismatched_replacement_is_refused(doc: Document) -> None:
    edit = Edit("modify", position(doc, "5.1.1"), (Replacement("text", 0, "不存在", "x"),))
    with pytest.raises(EditConflict):
        apply_edits(doc, [edit])


def test_remove_chapter_and_renumber(doc: Document) -> None:
    target = position(doc, "2")
    renames = tuple((str(n), str(n - 1)) for n in range(3, 7))
    edit = Edit("remove", target, span=1, renames=renames)
    other = Edit("modify", position(doc, "5.1.2"), (Replacement("title", 0, "标志", "标识"),))
    applied = apply_edits(doc, [edit, other])
    numbers = [s.number for s in applied.document.sections]
    assert "规范性引用文件" not in [s.title for s in applied.document.sections]
    assert numbers[:6] == ["前言", "1", "2", "2.1", "2.2", "3"]
    assert applied.locations == ("2", "4.1.2")
    assert applied.sections[0] is None
    assert replay(other, doc.sections[position(doc, "5.1.2")], applied.renames) == applied.sections[1]


def test_move_insert_and_clause_renames(doc: Document) -> None:
    annex = position(doc, "附录B")
    move = Edit("move", annex, span=1, before=None)
    new = Section("3.3", "堆肥 composting", "有机物在受控条件下的生物降解过程。", 2, "terms")
    insert = Edit("insert", position(doc, "3.2"), inserted=new)
    gap = Edit("modify", position(doc, "6.2"), renames=(("6.2", "6.4"),))
    applied = apply_edits(doc, [move, insert, gap])
    numbers = [s.number for s in applied.document.sections]
    assert numbers[-2:] == ["参考文献", "附录B"]
    assert numbers[numbers.index("3.2") + 1] == "3.3"
    assert "6.4" in numbers and "6.2" not in numbers
    assert applied.locations == ("附录B", "3.3", "6.4")


def test_overlap_rules(doc: Document) -> None:
    scope = position(doc, "1")
    a = Edit("modify", scope, (Replacement("text", 0, "本文件", "本标准"),))
    b = Edit("modify", scope, (Replacement("text", 10, "餐", "厨"),))
    c = Edit("modify", scope, (Replacement("text", 2, "件", "x"),))
    assert not overlaps(a, b)
    assert overlaps(a, c)
    assert overlaps(a, Edit("remove", scope))
    with pytest.raises(EditConflict):
        apply_edits(doc, [a, c])


def test_rename_number_prefers_deeper_prefix() -> None:
    renames = [("5", "4"), ("5.3", "5.4")]
    assert rename_number("5.3.1", renames) == "5.4.1"
    assert rename_number("5.1", renames) == "4.1"
    assert rename_number("15.1", renames) == "15.1"


def test_a_footprint_is_read_once_and_never_pickled(doc: Document) -> None:
    """An edit keeps its footprint (the choice's trades compare the same edits again and again), but its
    pickled bytes, the work cache's content address, are the same whether it was read or not."""
    edit = Edit("remove", position(doc, "5.1"), span=3, renames=(("5.2", "5.1"),))
    unread = pickle.dumps(edit, protocol=pickle.HIGHEST_PROTOCOL)
    kept = footprint(edit)
    assert footprint(edit) is kept
    assert kept.positions == frozenset(range(edit.target, edit.target + 3)) and "5.2" in kept.numbers
    assert pickle.dumps(edit, protocol=pickle.HIGHEST_PROTOCOL) == unread
    for again in (pickle.loads(unread), copy.deepcopy(edit)):
        assert again == edit and hash(again) == hash(edit) and footprint(again) == kept


def test_a_renumbering_names_the_numbers_written_where_references_do_not_follow(doc: Document) -> None:
    """The sample's chapter 6 cites 5.1.1 from a table cell once written in: deleting chapter 2 would leave
    it naming the old clause; the same cell in the deleted chapter, or a modify edit's renames, do not."""
    renames = tuple((str(n), str(n - 1)) for n in range(3, 7))
    remove = Edit("remove", position(doc, "2"), span=1, renames=renames)
    assert unfollowed(doc, remove) == ()
    cell = "| 箱体 | 5.1.1 |\n"
    tested = replace_text(doc, "6.2", lambda text: text + "\n" + cell)
    assert unfollowed(tested, remove) == ("5.1.1",)
    in_gone = replace_text(doc, "2", lambda text: text + "\n" + cell)
    assert unfollowed(in_gone, remove) == ()
    numbering_error = Edit("modify", position(doc, "5.1"), renames=(("5.1", "5.3"),))
    assert unfollowed(tested, numbering_error) == ()


def replace_text(doc: Document, number: str, change: Callable[[str], str]) -> Document:
    at = position(doc, number)
    section = doc.sections[at]
    sections = (
        *doc.sections[:at],
        dataclasses.replace(section, text=change(section.text)),
        *doc.sections[at + 1 :],
    )
    return dataclasses.replace(doc, sections=sections)
