"""TER-01's forms in proportion: a long terms chapter does not outweigh the other slips, the planner is
offered every form a document has, the abbreviation forms cite the clause of 符号和缩略语, and a spelled-out
name is taken away only where it is a name nobody knows without it (all fixtures written for the tests)."""

from __future__ import annotations

import random

import pytest

from injectors.base import Injector
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.planner import PlanConfig, candidate_instances
from injectors.registry import injectors
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import FOREWORD_2009, document

# entries the body uses in two clauses each, a 缩略语 list whose "RTU" the body uses, and one
# abbreviation spelled out where the body first uses it ("虚拟专用网络（VPN）")
TERMS = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 标定周期 calibration interval
相邻两次标定之间的时间间隔。
3.3 零点漂移 zero drift
无输入时输出值随时间的缓慢变化。
3.4 量程漂移 span drift
输入量程值时输出值随时间的缓慢变化。
3.5 滤芯组件 filter assembly
截留试样中颗粒物的可更换部件组合。
3.6 反吹气路 back-flush line
以压缩空气反向清洗采样探头的管路。"""
BODY = """4 缩略语
下列缩略语适用于本文件。
RTU：远程终端单元（Remote Terminal Unit）
5 要求
5.1 采样
采样单元应每天通过RTU自检一次，标定周期不应超过30 d，滤芯组件应每月更换，反吹气路应保持畅通。
5.2 通信
采样单元应通过虚拟专用网络（VPN）向中心站传送数据，VPN的密钥应每月更换。
5.3 校准
每个标定周期结束时应记录零点漂移和量程漂移，滤芯组件更换后应检查反吹气路的压力。
5.4 维护
零点漂移或量程漂移超过限值时，应停机检查。"""


@pytest.fixture(scope="module")
def ter01() -> Injector:
    return injectors()["TER-01"]


def _forms(injector: Injector, doc: Document) -> list[str]:
    """The form of each site's options, in site order."""
    out = []
    for site in injector.sites(doc, InjectionContext()):
        option = site.detail[0]
        out.append(
            "entry"
            if hasattr(option, "renames")
            else "expansion"
            if hasattr(option, "name")
            else "abbreviation"
        )
    return out


def test_a_long_terms_chapter_offers_no_more_removals_than_the_other_slips(ter01: Injector) -> None:
    """Five removable entries (the sixth, "反吹气路", is no technical compound to jieba) beside one 缩略语
    list and one spelled-out name: drawn site by site, the removals would take five draws in seven; they
    are thinned to as many as the other sites, spread through the chapter.
    Without another form, every removable entry stays a site."""
    doc = document(terms=TERMS, body=BODY)
    forms = _forms(ter01, doc)
    assert forms.count("abbreviation") == 1 and forms.count("expansion") == 1
    assert forms.count("entry") == 2
    removed = [
        s.detail[0].term for s in ter01.sites(doc, InjectionContext()) if hasattr(s.detail[0], "renames")
    ]
    assert removed == ["采样单元", "零点漂移"]  # the first and the middle of the chapter, not its first two
    alone = document(
        terms=TERMS,
        body=BODY.replace("通过RTU", "")
        .replace("虚拟专用网络（VPN）", "专用网络")
        .replace("VPN的密钥", "网络密钥")
        .replace("4 缩略语\n下列缩略语适用于本文件。\nRTU：远程终端单元（Remote Terminal Unit）\n", ""),
    )
    assert _forms(ter01, alone) == ["entry"] * 5


def test_the_planner_is_offered_every_form_a_document_has(ter01: Injector) -> None:
    """A document that offers all three forms gives the corpus-wide choice a candidate of each, so that a
    form other documents took already can give way to another here."""
    doc = document(terms=TERMS, body=BODY)
    candidates = candidate_instances(doc, 0, InjectionContext(), PlanConfig(types=("TER-01",)))
    forms = {i.provenance.form for i in candidates.instances}
    assert forms == {"entry_removed", "abbreviation_removed", "expansion_removed"}


def _instance_of(injector: Injector, doc: Document, form: str) -> str:
    for seed in range(40):
        instance = injector.inject(Baseline(doc), random.Random(seed), InjectionContext(), seed=seed).instance
        if instance is not None and instance.provenance.form == form:
            return instance.description
    raise AssertionError(f"no {form} instance")


@pytest.mark.parametrize(
    ("foreword", "entry_clause", "abbreviation_clause"),
    [
        (None, "GB/T 1.1—2020 8.7", "GB/T 1.1—2020 8.8"),
        (FOREWORD_2009, "GB/T 1.1—2009 6.3.2", "GB/T 1.1—2009 6.3.2"),
    ],
)
def test_an_abbreviation_form_cites_the_clause_of_its_element(
    ter01: Injector, foreword: str | None, entry_clause: str, abbreviation_clause: str
) -> None:
    """An abbreviation is explained under 符号和缩略语, a clause of its own in the 2020 edition: a
    missing 缩略语 line or spelled-out name cites it, a missing term entry the terms clause."""
    doc = document(terms=TERMS, body=BODY, **({"foreword": foreword} if foreword else {}))
    assert _instance_of(ter01, doc, "entry_removed").endswith(f"依据：{entry_clause}")
    for form in ("abbreviation_removed", "expansion_removed"):
        assert _instance_of(ter01, doc, form).endswith(f"依据：{abbreviation_clause}"), form


def _spelled(injector: Injector, line: str) -> list[str]:
    doc = document(body=f"4 要求\n4.1 标签\n{line}\n4.2 标志\n采样单元的标志应符合GB/T 191—2008的规定。")
    return [o.old for s in injector.sites(doc, InjectionContext()) for o in s.detail if hasattr(o, "name")]


def test_a_spelled_out_name_is_taken_only_where_it_is_a_name_nobody_knows_without_it(ter01: Injector) -> None:
    """ "便携式文档格式（PDF）" → "PDF" leaves nothing a reader looks up; "宜采用射频识别（RFID）" at a
    line's start is a clause, whose modal and verb are no part of the name (taking them away would break
    the sentence). A name of its own is still taken ("无线射频识别（RFID）")."""
    assert _spelled(ter01, "检测报告宜以电子文件保存，文件格式为便携式文档格式（PDF），并应加盖签章。") == []
    assert _spelled(ter01, "宜采用射频识别（RFID）标签标明每个采样单元的编号和安装日期。") == []
    assert _spelled(ter01, "采样单元宜采用无线射频识别（RFID）标签标明编号和安装日期。") == [
        "无线射频识别（RFID）"
    ]


def test_the_quote_of_a_bare_abbreviation_starts_on_a_word_a_reader_can_find(ter01: Injector) -> None:
    """After a one-character word ("的", "与") the quote reaches back to the clause's start ("命名空间的URI",
    not "的URI"); after a word of its own it starts there ("设置RCD")."""
    doc = document(
        body="4 要求\n4.1 编码\n交换文件中，命名空间的统一资源标识符（URI）应保持长期不变。\n"
        "4.2 保护\n每个采样回路应设置剩余电流保护装置（RCD），RCD的动作电流不应大于30 mA。"
    )
    quotes = {}
    for seed in range(20):
        instance = ter01.inject(Baseline(doc), random.Random(seed), InjectionContext(), seed=seed).instance
        assert instance is not None and instance.provenance.form == "expansion_removed"
        quotes[instance.location] = instance.description
    assert "（“命名空间的URI”）" in quotes["4.1"] and "（“设置RCD”）" in quotes["4.2"]
