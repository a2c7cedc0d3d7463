"""Terminology (TER-02, TER-04, TER-05) checkers and the lexical helpers, on small documents written here.

The injected instances on the corpus are tested in test_ter.py.
"""

from __future__ import annotations

import pytest

from injectors.checking import lint
from injectors.language.terms import modal_verbs, term_variants
from injectors.types.ter.editing import initials, near_synonyms
from injectors.types.ter.ter05_term_entry_format import NONE_FORMS, OLD_FORMS
from tests.injectors.types.ter.ter_documents import (
    BODY,
    FOREWORD_2009,
    TER_TYPES,
    TERMS,
    document,
    violations,
)


# --- TER-02 checker ----------------------------------------------------------------------------------
def test_unused_term_is_reported_at_its_entry() -> None:
    doc = document(body=BODY.replace("标定周期不应超过30 d", "标定间隔不应超过30 d"))
    assert [loc for loc, _ in violations(doc, "TER-02")] == ["3.2"]
    assert "标定周期" in violations(doc, "TER-02")[0][1]


def test_term_used_in_another_form_or_place_is_not_reported() -> None:
    assert violations(document(), "TER-02") == []
    # used only in another entry's definition
    terms = TERMS.replace("从被测介质中抽取", "按标定周期校准、从被测介质中抽取")
    body = BODY.replace("标定周期不应超过30 d", "每月标定一次")
    assert violations(document(terms=terms, body=body), "TER-02") == []
    # used through its alternative spelling "A/B" or its abbreviation from 缩略语
    slash = TERMS.replace("3.2 标定周期 calibration interval", "3.2 标定/校准周期 calibration interval")
    assert violations(document(terms=slash, body=BODY.replace("标定周期", "校准周期")), "TER-02") == []
    abbreviated = BODY.replace("标定周期不应", "CI不应") + "\n5 缩略语\nCI：标定周期（Calibration Interval）"
    doc = document(body=abbreviated)
    assert ("3.2", "TER-02") not in {(v.location, v.error_type) for v in lint(doc, ["TER-02"])}


# --- TER-04 checker ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "definition, reported",
    [
        ("是指相邻两次标定之间的时间间隔。", True),
        ("指相邻两次标定之间的时间间隔。", True),
        ("是相邻两次标定之间的时间间隔。", True),
        ("相邻两次标定之间应间隔的时间。", True),
        ("相邻两次标定之间的时间间隔，称为标定周期。", True),
        ("标定周期是相邻两次标定之间的时间间隔。", True),
        ("指令发出后相邻两次标定之间的时间间隔。", False),  # 指令 is a word, not 指
        ("是否标定均计入的相邻两次标定之间的时间间隔。", False),
        ("相邻两次响应标定之间的时间间隔。", False),  # 响应 is not 应
        ("适宜标定的相邻两次之间的时间间隔。", False),  # 适宜 is not 宜
        ("可自动触发的相邻两次标定之间的时间间隔。", False),  # 可 describes a capability
        ("用于标定周期计算方法的时间间隔。", False),  # part of a longer noun (标定周期计算方法)
    ],
)
def test_definition_defects(definition: str, reported: bool) -> None:
    terms = TERMS.replace("相邻两次标定之间的时间间隔。", definition)
    found = violations(document(terms=terms), "TER-04")
    assert bool(found) == reported, found
    if reported:
        assert found[0][0] == "3.2"


def test_notes_and_sources_are_not_part_of_the_definition() -> None:
    terms = TERMS + "\n注：标定周期应按使用频次确定。\n[来源：GB/T 191—2008，3.2，有修改]"
    assert violations(document(terms=terms), "TER-04") == []


# --- TER-05 checker ----------------------------------------------------------------------------------
THREE = TERMS + "\n3.3 试样流量 sample flow\n单位时间内流经采样单元的试样体积。"
THREE_BODY = BODY + "\n4.3 流量\n试样流量不应小于1 L/min。"


def test_entry_number_gap_and_duplicate() -> None:
    assert violations(document(terms=THREE, body=THREE_BODY), "TER-05") == []
    gap = THREE.replace("3.3 试样流量", "3.4 试样流量")
    assert [loc for loc, _ in violations(document(terms=gap, body=THREE_BODY), "TER-05")] == ["3.4"]
    duplicate = THREE.replace("3.3 试样流量", "3.2 试样流量")
    found = violations(document(terms=duplicate, body=THREE_BODY), "TER-05")
    assert [loc for loc, _ in found] == ["3.2"] and "重复" in found[0][1]


def test_missing_english_equivalent() -> None:
    missing = THREE.replace("试样流量 sample flow", "试样流量")
    found = violations(document(terms=missing, body=THREE_BODY), "TER-05")
    assert found == [("3.3", "第3.3条术语“试样流量”缺少英文对应词")]
    # a document that gives no English equivalents at all is consistent
    none = (
        THREE.replace(" sampling unit", "").replace(" calibration interval", "").replace(" sample flow", "")
    )
    assert violations(document(terms=none, body=THREE_BODY), "TER-05") == []


@pytest.mark.parametrize(
    "lead_in, reported",
    [
        ("下列术语和定义适用于本文件。", False),
        ("GB/T 191—2008界定的以及下列术语和定义适用于本文件。", False),
        ("本文件没有需要界定的术语和定义。", True),
        ("GB/T 191—2008界定的术语和定义适用于本文件。", True),  # no 以及下列, yet entries follow
        ("GB/T 2423.1—2008界定的以及下列术语和定义适用于本文件。", False),  # unlisted: NREF-01's, not TER-05
        ("下列术语和定义适用于本标准。", True),  # 本标准 in a GB/T 1.1—2020 document
    ],
)
def test_lead_in_contradicting_the_entries(lead_in: str, reported: bool) -> None:
    found = violations(document(lead_in=lead_in), "TER-05")
    assert bool(found) == reported, found
    if reported:
        assert found[0][0] == "3"


def test_2009_documents_and_industry_variants() -> None:
    doc = document(lead_in="下列术语和定义适用于本标准。", foreword=FOREWORD_2009)
    assert doc.drafting_rules == "GB/T 1.1—2009"
    assert violations(doc, "TER-05") == []
    hj = document(scope_title="适用范围", references_title="引用标准", foreword="本标准规定了示例内容。")
    assert [s.kind for s in hj.sections[1:4]] == ["scope", "normative_references", "terms"]
    assert lint(hj, TER_TYPES) == []


def test_no_terms_chapter_does_not_crash() -> None:
    doc = document(terms="", lead_in="本文件没有需要界定的术语和定义。")
    assert lint(doc, TER_TYPES) == []


# --- lexical helpers ---------------------------------------------------------------------------------
def test_modal_verb_finder_guards_compounds() -> None:
    assert [w for _, w in modal_verbs("装置应在响应后适宜地供应电源，可能可靠，可用性")] == ["应"]
    # 可选用 is 可 + 选用 ("may choose"): a permission, as every dimension reads it; 可选 alone is not
    assert [w for _, w in modal_verbs("宜采用，可选用")] == ["宜", "可"]
    assert [w for _, w in modal_verbs("可选的配件")] == []
    assert [w for _, w in modal_verbs("可采用")] == ["可"]


def test_term_variants_and_helpers() -> None:
    assert "杂凑函数" in term_variants("散列/杂凑函数") and "散列函数" in term_variants("散列/杂凑函数")
    assert "在线监控设备" in term_variants("在线监控（监测）设备")
    assert initials("greenhouse environment monitoring system") == "GEMS"
    assert initials("obligation") == ""
    assert "帧编号" in near_synonyms("帧序号", set())
    # words that name another concept in standards are no synonyms (TER-03's variant is natural)
    assert near_synonyms("数据帧", set()) == ()
    assert not {"环境监测平台", "数据采样周期"} & set(
        near_synonyms("环境监测系统", set()) + near_synonyms("数据采集周期", set())
    )
    assert "样时间" not in near_synonyms("出样时间", set())
    assert near_synonyms("温度记录仪", {"温度记录仪", "记录仪"}) == ("温度记录器",)


def test_parser_debris_is_not_judged() -> None:
    """An LLM extraction echoes an entry heading inside its text, or leaves a bare "3.9" line: the
    definition is the line after the echo, and numbers seen through lost headings are not judged."""
    echoed = TERMS.replace("相邻两次标定之间", "【3.2 标定周期 calibration interval】\n相邻两次标定之间")
    assert violations(document(terms=echoed), "TER-04") == []
    lost = THREE.replace("3.3 试样流量", "3.9 试样流量")
    doc = document(terms=lost, body=THREE_BODY, lead_in="下列术语和定义适用于本文件。\n3.99")
    assert doc.section("3").text.endswith("3.99")
    assert violations(doc, "TER-05") == []
    assert [loc for loc, _ in violations(document(terms=lost, body=THREE_BODY), "TER-05")] == ["3.9"]


@pytest.mark.parametrize("form", NONE_FORMS)
def test_every_no_terms_lead_in_contradicts_the_entries(form: str) -> None:
    """TER-05 writes the "no terms" lead-in in several forms; the checker knows each of them."""
    assert [loc for loc, _ in violations(document(), "TER-05")] == []
    doc = document(lead_in=f"本文件{form}。")
    assert [loc for loc, _ in violations(doc, "TER-05")] == ["3"]


def test_a_term_built_on_another_defined_term_keeps_its_near_synonyms() -> None:
    """ "标定数据" is defined, and "标定数据元素" rests on it: the variant "标定数据要素" brings in no other
    concept, so it stays; a variant that writes another defined term the original lacks does not."""
    assert "标定数据要素" in near_synonyms("标定数据元素", {"标定数据元素", "标定数据"})
    assert near_synonyms("采样装置", {"采样装置", "采样设备"}) == ()


def test_a_moment_is_written_时刻_but_a_duration_never_is() -> None:
    """Drafters write "开始时刻" for "开始时间" (both a moment), never "响应时刻" for a duration."""
    assert "采样开始时刻" in near_synonyms("采样开始时间", set())
    assert not [s for s in near_synonyms("仪器响应时间", set()) if "时刻" in s]
    assert "数据提供方" in near_synonyms("数据提供者", set())
    assert "云存储服务提供商" in near_synonyms("云存储服务商", set())


@pytest.mark.parametrize("form", OLD_FORMS)
def test_an_old_templates_lead_in_is_reported(form: str) -> None:
    """ "本标准采用下列定义。" and its kin come from old templates: none is a lead-in the rules prescribe."""
    doc = document(lead_in=form.format(this="本文件"))
    assert [loc for loc, _ in violations(doc, "TER-05")] == ["3"]
    # the prescribed lead-ins are not reported
    assert violations(document(lead_in="GB/T 191界定的以及下列术语和定义适用于本文件。"), "TER-05") == []


def test_a_dropped_qualifier_leaves_a_compound() -> None:
    """ "检票口显示屏" → "显示屏" leaves one general word, the kind of thing, not a slip on the term; a
    compound left ("网络区域边界" → "区域边界") is one."""
    assert "显示屏" not in near_synonyms("检票口显示屏", set())
    assert "区域边界" in near_synonyms("网络区域边界", set())
