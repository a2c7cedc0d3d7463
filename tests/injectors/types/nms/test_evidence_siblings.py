"""Tests of injectors.types.nms.evidence_siblings: a sibling keeping the modal verb is evidence only for the
same actor and object."""

from __future__ import annotations

import pytest

from injectors.language.modals import modal_verbs
from injectors.types.nms.evidence import SIBLING
from injectors.types.nms.evidence_finding import recommendation_evidence, requirement_evidence
from injectors.types.nms.evidence_siblings import same_provision, sentence_siblings
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from tests.injectors.types.nms.nms_documents import (
    attempts,
    clause_line,
    evidence_standard,
    locker,
    position,
    standard,
)


def test_two_different_recommendations_in_one_sentence_are_no_evidence() -> None:
    """ "宜使用…，编号宜采用…" is an ordinary sentence: strengthening one of them would read as plausible;
    so is "长度宜为…，宽度宜为…": two subjects may carry two strengths."""

    def evidence(line: str) -> list[str]:
        doc = standard(line)
        position = next(i for i, s in enumerate(doc.sections) if line in s.text)
        offset = doc.sections[position].text.index(line)
        return [e.where for e in recommendation_evidence(doc, position, offset, line, modal_verbs(line)[1])]

    assert evidence("工具柜的隔板宜使用可调节结构，柜格的编号宜采用按楼层顺序编排。") == []
    assert evidence("箱体长度宜为600 mm，宽度宜为400 mm。") == []


def test_an_exception_is_no_sibling() -> None:
    """The weakened "均应由使用单位管理员完成" has no parallel in "除应由供应商执行的步骤外"."""

    line = "网关的配置，除应由供应商执行的步骤外，其余步骤均应由使用单位管理员完成。"
    modal = modal_verbs(line)[-1]
    assert sentence_siblings(line, modal) == []


def test_requirement_kept_by_list_siblings() -> None:
    document = evidence_standard(
        "柜门应符合下列要求：\na) 开启角度应不小于90°；\nb) 柜门应能自动锁闭；\nc) 柜门应有编号。"
    )
    found = requirement_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "柜门应能")
    )
    # siblings with another actor or object (开启角度, 编号) keep their own strength: no evidence
    assert SIBLING not in [e.kind for e in found]


@pytest.mark.parametrize(
    "text",
    [
        "格口的高度宜为300 mm，宽度宜为400 mm。",
        "主控单元可以通过有线网络上报状态，备用单元可以通过无线网络上报状态。",
        "取件信息宜采用短信通知，催领信息宜采用短信通知。",
        "柜门的检查应符合下列规定：\na) 管理员可以每日检查柜门；\nb) 运营方可以每周检查柜门。",
    ],
)
def test_a_sibling_with_another_actor_or_object_is_no_evidence(text: str) -> None:
    """Two subjects (or two objects) may legitimately carry different strengths: "高度应为…，宽度宜为…" and
    "主控单元应通过…，备用单元可以通过…" are plausible provisions, so the kept sibling shows nothing."""
    document = evidence_standard(text)
    assert all(a.instance is None for a in attempts(document, RecommendationStrengthened()))


def test_a_sibling_is_evidence_only_for_the_same_actor_and_object() -> None:

    def pair(a: str, b: str) -> bool:
        return same_provision(a, modal_verbs(a)[0], b, modal_verbs(b)[0])

    assert pair("a) 宜每日清洁柜门；", "b) 宜每日清洁柜门。")  # the list lead's actor, the same object
    assert pair("管理员宜清洁柜门；", "管理员宜清洁柜门。")
    assert not pair("管理员宜清洁柜门；", "运营方宜清洁柜门。")  # another actor
    assert not pair("a) 宜每日清洁柜门；", "b) 宜每日清洁格口。")  # another object


def test_a_sibling_with_another_subject_or_object_is_no_evidence() -> None:
    document = locker(
        "4.1 柜门\n柜门和显示屏的材料与功能如下：\na) 柜门应采用金属材料制作；\nb) 显示屏应具有背光功能。"
    )
    found = requirement_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "显示屏应")
    )
    assert found == []
    line = "柜门应采用金属材料制作，显示屏应具有背光功能。"
    document = locker(f"4.1 柜门\n{line}")
    found = requirement_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "显示屏应")
    )
    assert found == []


def test_examples_in_one_sentence_are_no_list_of_provisions() -> None:
    """After 如, the clauses are examples of what the sentence says, not parallel provisions."""
    listed = "柜门可单独开启、照明可单独关闭。"
    assert sentence_siblings(listed, modal_verbs(listed)[0]) != []
    examples = "界面应给出明确的状态提示，如柜门可单独开启、照明可单独关闭。"
    assert sentence_siblings(examples, modal_verbs(examples)[1]) == []
