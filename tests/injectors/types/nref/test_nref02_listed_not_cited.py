"""Tests of NREF-02 列出但未引用 (Listed but never cited)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from injectors.base import Site
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nref.analysis import analyse
from injectors.types.nref.nref01_cited_not_listed import NormativeReferenceUnlisted
from injectors.types.nref.nref02_listed_not_cited import UncitedReferenceListed
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    LEAD_2020,
    RAIN_BODY,
    RAIN_LIST,
    found,
    standard,
)


def test_nref02_adds_a_real_number_from_another_document(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    doc = next(d for d in corpus_documents if "greenhouse" in d.source)
    instance = UncitedReferenceListed().inject(Baseline(doc), random.Random(2), context).instance
    assert instance is not None
    added = instance.edit.replacements[0].new.strip("\n")
    others = [r.entry.line for r in context.references_for(doc)]
    assert any(added.split("　")[0] in line or added.split("　")[-1] in line for line in others)
    assert f"“{added}”" in instance.description


def _corpus_of(*documents: tuple[Document, str, str]) -> list[Document]:
    """Documents with the ICS and CCS of their field on the cover (and distinct ids)."""
    out = []
    for k, (doc, ics, ccs) in enumerate(documents):
        out.append(replace(doc, doc_id=f"doc{k}", cover=replace(doc.cover, ics=ics, ccs=ccs)))
    return out


def test_nref02_never_borrows_another_fields_reference() -> None:
    """A tea standard's "茶叶贮存" never enters the rain sensor's list; a part of a
    series the list already cites does, and so does a standard of the same field that speaks of what the
    document speaks of (half its title's words) — not one that only shares the field (a field such as
    ICS 35 holds energy metering and semantic libraries alike)."""
    body = (
        "4.1 低温\n用于自动气象站降水观测的传感器应按GB/T 2423.1—2008的规定进行低温试验，试验后应能正常工作。"
    )
    rain = standard(RAIN_LIST, body)
    tea = standard(
        "GB/T 30375—2013　茶叶贮存\nGB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温",
        RAIN_BODY,
    )
    weather = standard(
        "GB/T 33703—2017　自动气象站观测规范\nGB/T 17167—2006　用能单位能源计量器具配备和管理通则", RAIN_BODY
    )
    rain, tea, weather = _corpus_of(
        (rain, "07.060", "A 47"), (tea, "67.140.10", "X 55"), (weather, "07.060", "A 47")
    )
    context = InjectionContext.from_documents([rain, tea, weather])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(rain, context)}
    assert added == {"GB/T 2423.2", "GB/T 33703"}


def test_nref02_title_takes_the_lists_space_width() -> None:
    """A title borrowed with ideographic spaces is written with the ASCII spaces of a
    list that uses them (and the other way round)."""
    ascii_list = "GB/T 2423.1—2008 电工电子产品环境试验 第2部分：试验方法 试验A：低温"
    rain = standard(ascii_list, RAIN_BODY)
    other = standard("GB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温", RAIN_BODY)
    rain, other = _corpus_of((rain, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([rain, other])
    instance = UncitedReferenceListed().inject(Baseline(rain), random.Random(0), context).instance
    assert instance is not None
    line = instance.edit.replacements[0].new.strip("\n")
    assert line == "GB/T 2423.2—2008 电工电子产品环境试验 第2部分：试验方法 试验B：高温"
    assert "\u3000" not in line
    # nor a run of four spaces where the list writes one, and the other way round
    wide = standard("GB/T 2423.1—2008    电工电子产品环境试验    第2部分：试验方法    试验A：低温", RAIN_BODY)
    wide, other = _corpus_of((wide, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([wide, other])
    instance = UncitedReferenceListed().inject(Baseline(wide), random.Random(0), context).instance
    assert instance is not None
    line = instance.edit.replacements[0].new.strip("\n")
    assert line == "GB/T 2423.2—2008    电工电子产品环境试验    第2部分：试验方法    试验B：高温"
    # the spaces between the words of an English title say nothing about the list's Chinese titles
    mixed = standard(
        f"{RAIN_LIST}\nISO 9001:2015　Quality management systems — Requirements",
        RAIN_BODY + "\n4.2 质量\n质量管理应符合ISO 9001:2015的规定。",
    )
    other = standard("GB/T 2423.2—2008 电工电子产品环境试验 第2部分：试验方法 试验B：高温", RAIN_BODY)
    mixed, other = _corpus_of((mixed, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([mixed, other])
    instance = UncitedReferenceListed().inject(Baseline(mixed), random.Random(0), context).instance
    assert instance is not None
    assert (
        instance.edit.replacements[0]
        .new.strip("\n")
        .endswith("电工电子产品环境试验　第2部分：试验方法　试验B：高温")
    )


def test_no_site_where_the_list_already_breaks_the_rule() -> None:
    doc = standard(CLEAN_REFERENCES + "\nGB/T 13384　机电产品包装通用技术条件", CLEAN_BODY)
    assert list(UncitedReferenceListed().sites(doc, InjectionContext())) == []
    assert list(NormativeReferenceUnlisted().sites(doc, InjectionContext())) != []
    site: Site = next(iter(NormativeReferenceUnlisted().sites(doc, InjectionContext())))
    assert analyse(doc).items[site.detail].cited.ident in ("GB 4208", "GB/T 2423.1", "ISO 8601-1")


def test_nref02_listed_but_never_cited() -> None:
    doc = standard(CLEAN_REFERENCES + "\nGB/T 13384　机电产品包装通用技术条件", CLEAN_BODY)
    assert found(doc, "NREF-02") == [("2", "规范性引用文件清单中的“GB/T 13384”在正文中未被引用")]


def test_nref02_counts_parts_of_a_series_and_the_terms_lead_in() -> None:
    references = "GB/T 4444　术语集\nGB/T 19582（所有部分）　网络规范\n" + CLEAN_REFERENCES
    body = CLEAN_BODY + "\n4.4 接口\n接口应符合GB/T 19582.2的规定。"
    doc = standard(references, body, terms="GB/T 4444界定的以及下列术语和定义适用于本文件。")
    assert found(doc, "NREF-02") == []


def terminal(references: str, title: str = "公交车辆 车载终端 通信协议") -> Document:
    """A made-up bus on-board terminal protocol whose body speaks of modules, tests and passwords."""
    text = f"""T/XYZ 0901—2025
{title}
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了公交车辆车载终端与调度平台之间的通信协议。
本文件适用于公交车辆车载终端。
2 规范性引用文件
{LEAD_2020}
{references}
3 术语和定义
本文件没有需要界定的术语和定义。
4 通信协议
4.1 连接
车载终端的通信模块应按T/XYZ 0900—2024的规定建立连接，连接前应检测链路状态。
4.2 鉴权
车载终端应以密码和终端编号向调度平台鉴权，鉴权失败时应重新检测通信模块并再次鉴权。
4.3 安全
车载终端的安全要求应符合T/XYZ 0900—2024的规定。
"""
    return parse_text(Path("bus-terminal.txt"), text.encode())


OWN_LIST = "T/XYZ 0900—2024　公交车辆 车载终端 技术要求"


def test_a_reference_of_another_field_is_never_borrowed_though_the_body_uses_its_words() -> None:
    bus = terminal(OWN_LIST)
    crypto = terminal("GM/T 9939—2015　密码模块安全检测要求", "密码 模块 检测 通则")
    fleet = terminal("T/XYZ 0902—2023　公交车辆 电子站牌 技术要求", "公交车辆 电子站牌 通信协议")
    bus, crypto, fleet = _corpus_of(
        (bus, "03.220.20", "R 10"), (crypto, "35.040", "L 80"), (fleet, "03.220.20", "R 10")
    )
    context = InjectionContext.from_documents([bus, crypto, fleet])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(bus, context)}
    assert added == {"T/XYZ 0902"}


def test_a_field_known_only_by_its_ics_group_needs_the_drafters_own_field_word() -> None:
    """ICS 35 holds cryptography and bus terminals alike: where a cover gives no CCS category, the title
    must open with a word of this document's own field."""
    bus = terminal(OWN_LIST)
    crypto = terminal("GM/T 9939—2015　密码模块安全检测要求", "密码 模块 检测 通则")
    fleet = terminal("T/XYZ 0902—2023　公交车辆 电子站牌 技术要求", "公交车辆 电子站牌 通信协议")
    bus, crypto, fleet = _corpus_of((bus, "35.240", "L 70"), (crypto, "35.240", ""), (fleet, "35.240", ""))
    context = InjectionContext.from_documents([bus, crypto, fleet])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(bus, context)}
    assert added == {"T/XYZ 0902"}


def test_a_reference_published_after_the_document_is_never_listed() -> None:
    """A list of 2025 holding a standard of 2028 gives itself away, whatever its field."""
    bus = terminal(OWN_LIST)
    later = terminal("T/XYZ 0903—2028　公交车辆 智能调度 技术要求", "公交车辆 智能调度 通信协议")
    fleet = terminal("T/XYZ 0902—2023　公交车辆 电子站牌 技术要求", "公交车辆 电子站牌 通信协议")
    bus, later, fleet = _corpus_of(
        (bus, "03.220.20", "R 10"), (later, "03.220.20", "R 10"), (fleet, "03.220.20", "R 10")
    )
    context = InjectionContext.from_documents([bus, later, fleet])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(bus, context)}
    assert added == {"T/XYZ 0902"}
