"""Tests of injectors.types.nms.editing: where the NMS injectors may change a modal verb (whole words,
never a table cell, a fixed value or an exception) and how."""

from __future__ import annotations

import pytest

from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.types.nms.editing import body_modals
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from injectors.types.nms.nms04_vague_wording import VagueWording
from parsers.model import Section
from tests.injectors.types.nms.nms_documents import attempts, evidence_standard, standard
from validation.linter import lint_diff


def test_no_modal_is_replaced_inside_a_word() -> None:
    """可 of 方可 and 应 of 应对 are parts of words: replacing them alone would write "方尽量实施"."""
    document = standard("变更须经审批，审批后方可实施。\n运维人员应对设备运行状态进行监控。")
    context = InjectionContext.from_documents([document])
    body = next(i for i, s in enumerate(document.sections) if s.number == "4.1")
    for injector in (VagueWording(), RequirementWeakened(), RecommendationStrengthened()):
        assert all(site.target != body for site in injector.sites(document, context)), injector.error_type


@pytest.mark.parametrize(
    "row",
    [
        "QN\t请求编号\tC20\t可选",  # a table a PDF rendered with tabs between the cells
        "QN　请求编号　C20　可选",  # … or with ideographic spaces
        "可选",  # a lone cell
        "数据段的ST字段为必选/可选项，由数据类型确定。",  # a list of fixed values
        "该字段可选，缺省时按0处理。",  # a value word, not a modal verb and its verb
    ],
)
def test_no_nms_type_edits_a_table_cell_or_a_fixed_value(row: str) -> None:
    """A 必选/可选 column's 可选 became "原则上选" on a real standard: a broken word, and no provision was
    involved. Table cells and fixed values are never a site of NMS-01, NMS-02 or NMS-04."""
    document = standard(f"数据包的字段如下：\n{row}\n柜门应采用金属材料，开启力不应大于50 N。")
    context = InjectionContext.from_documents([document])
    lines = row.replace("\t", " ").split("\n")
    for injector in (RequirementWeakened(), RecommendationStrengthened(), VagueWording()):
        for site in injector.sites(document, context):
            for option in site.detail:
                found = getattr(option, "found", option)
                assert found.line.replace("\t", " ") not in lines, (injector.error_type, found.line)


def test_a_remark_in_brackets_is_no_provision() -> None:
    """ "缺省参数定义（可扩充）见表1": blurred to "（最好扩充）" or strengthened, it is no clause at all."""
    from injectors.types.nms.editing import fixed_value

    line = "缺省参数定义（可扩充）见表1。"
    assert fixed_value(line, line.index("可"))
    assert not fixed_value("参数可扩充，扩充的参数见表1。", 2)


def test_an_exception_is_no_provision() -> None:
    """ "除应由供应商执行的步骤外": the modal names the exception; weakening it weakens nothing."""
    line = "网关的配置，除应由供应商执行的步骤外，其余步骤均应由使用单位管理员完成。"
    section = Section("5.1", "初始化", line, 2, "clause")
    words = [m.modal.word for m in body_modals(section, frozenset())]
    starts = [m.modal.start for m in body_modals(section, frozenset())]
    assert line.index("应由供应商") not in starts and words == ["应"]


@pytest.mark.parametrize(
    "text",
    [
        "变更须经审批，审批后方可实施，实施时开启力不应大于50 N。",
        "系统应记录进入的人员，开启次数不应超过3次。",
        "柜门的尺寸应符合表1的规定，开启力不应大于50 N。",
    ],
)
def test_modal_edits_respect_words_and_grammar(text: str) -> None:
    document = evidence_standard(text)
    for injector in (RequirementWeakened(), RecommendationStrengthened()):
        for attempt in attempts(document, injector):
            if attempt.instance is None:
                continue
            (replacement,) = attempt.instance.edit.replacements
            assert replacement.old in ("应", "应能", "宜", "可", "可以"), replacement
            corrupted = attempt.instance.corrupted_section.text
            assert "方尽量" not in corrupted and "方应" not in corrupted and "方宜" not in corrupted
            assert ("记录进入的人员" in text) == ("记录进入的人员" in corrupted)  # the verb 记录 stays
            assert "可符合" not in corrupted  # 应符合 → 可符合 is not Chinese
            corrupted_doc = apply_edits(document, [attempt.instance.edit]).document
            assert lint(corrupted_doc, ["NMS-03", "NMS-04"]) == lint(document, ["NMS-03", "NMS-04"])
            assert lint_diff(document, corrupted_doc, [injector.error_type])
