"""Correction gold: every answer differs from its input and carries out what the description asks for."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from injectors.edit import rename_all
from release.card import correction_excluded
from release.instructions import instruction_rows, task_examples
from tests.support.balance import across_workers
from tests.support.release_data import injected

# 将“A”改为“B” / 将第二个“A”改为“B” / 将“A”改回“B”, and 改回“B” alone: the description's own fix.
CHANGE = re.compile(r"将(?:第二个)?“([^”]+)”改(?:回|为)(?:规定的要素标题)?“([^”]+)”")
RESTORE = re.compile(r"改回“([^”]+)”")
DELETE = re.compile(r"删除“([^”]{4,})”")


@pytest.fixture(scope="module")
@across_workers  # injected() is computed once per session
def corpus_results() -> tuple:
    results = injected(12)
    if len(results) < 12:
        pytest.skip("the project's corpus is incomplete")
    return results


def test_every_correction_answer_differs_from_its_input(corpus_results: tuple) -> None:
    for shot in ("zero_shot", "one_shot"):
        rows = instruction_rows(corpus_results, "correction", shot)
        assert rows
        same = [r["id"] for r in rows if r["answer"] == r["text"]]
        assert same == [], f"{shot}: answers that copy the input: {same}"


def test_correction_answers_apply_the_fix_the_description_names(corpus_results: tuple) -> None:
    instances = {i.instance_id: i for r in corpus_results for i in r.instances}
    examples = task_examples(corpus_results, "correction")
    checked = Counter()
    for example in examples:
        description = instances[example.key].description
        fix = description.split("修改建议：", 1)[1].split("；依据", 1)[0]
        for old, new in CHANGE.findall(fix):
            assert new in example.answer, (example.key, fix)
            if old not in new:
                assert example.answer.count(old) < example.text.count(old), (example.key, fix)
            checked["change"] += 1
        for new in RESTORE.findall(fix):
            assert new in example.answer, (example.key, fix)
            checked["restore"] += 1
        for gone in DELETE.findall(fix):
            if gone in example.text:
                assert gone not in example.answer, (example.key, fix)
                checked["delete"] += 1
    # the patterns above cover a good share of the items, so this test cannot pass by matching nothing
    assert sum(checked.values()) >= len(examples) // 3, checked
    assert checked["change"] and checked["restore"] and checked["delete"], checked


def test_renumbering_errors_are_undone_and_other_renumberings_kept(corpus_results: tuple) -> None:
    """STR-04 / TER-05 only renumber their section: the gold restores the number (the old bug kept it)."""
    by_id = {e.key: e for e in task_examples(corpus_results, "correction")}
    renumbered = 0
    for result in corpus_results:
        for instance in result.instances:
            if instance.error_type not in ("STR-04", "TER-05") or not instance.edit.renames:
                continue
            if instance.instance_id not in by_id:
                continue
            renumbered += 1
            others = [r for i in result.instances if i is not instance for r in i.edit.renames]
            assert instance.original_section is not None
            expected = rename_all(instance.original_section.number, others)
            assert by_id[instance.instance_id].answer.split("\n", 1)[0].split(" ")[0] == expected
    assert renumbered >= 3


def test_the_foreword_title_is_restored_once() -> None:
    """STR-03 on 前言 (number and title both 前言) gives back "前言", not "序言 前言"."""
    for result in injected(12):
        for example in task_examples([result], "correction"):
            assert not example.answer.startswith("序言"), example.answer[:20]
            assert "序言 前言" not in example.answer


def test_types_without_a_correction_are_exactly_those_the_card_explains(corpus_results: tuple) -> None:
    in_task = {
        i.error_type
        for r in corpus_results
        for i in r.instances
        if i.instance_id in {e.key for e in task_examples([r], "correction")}
    }
    injected_types = {i.error_type for r in corpus_results for i in r.instances}
    assert injected_types - in_task == set(correction_excluded())
