"""Scope dimension (SCP): regression tests for what an expert rejected, each on small
standards the test writes itself.

- SCP-03: an excluded object coordinated with a subject of another kind ("报警系统和电池室均应设置主电源"),
  the subject's own coordinator used again ("探测与报警系统与……"), a noun doubled ("显示设备的设备");
- SCP-04: an aspect among the closing chapters ("试验方法、日常维护、检验规则"), a second 及 after 及其, a
  deliverable (用户手册) among the parts after 包括;
- SCP-05: on a scope whose boundary is restricted only against an object referred to it (参照使用), no
  qualifier could be dropped detectably, so the type went to a skewed set of documents; the widened
  boundary now contradicts that referral, and says so.
"""

from __future__ import annotations

from injectors.context import InjectionContext
from injectors.language.sentences import Sentence
from injectors.registry import injectors
from injectors.types.scp.analysis import statement_sentences
from injectors.types.scp.editing import uncovered_aspects
from injectors.types.scp.kinds import can_join, same_kind
from injectors.types.scp.scp04_scope_promise_missing import _aspect_insertions, _fresh_items
from parsers.model import Document
from tests.injectors.types.scp.test_scp_quality import (
    CABINET_BODY,
    CABINET_SCOPE,
    EXCHANGE_BODY,
    added_text,
    instances,
    standard,
)
from tests.injectors.types.scp.test_scp_real_rejections import dropped_qualifiers, run

# A fire detection standard whose scope excludes a place (a battery room), not another system.
FIRE_SCOPE = (
    "本文件规定了储能柜火灾探测与报警系统的系统构成和供电要求。\n"
    "本文件适用于户外储能柜内的火灾探测与报警系统。\n"
    "本文件不适用于建筑物内设置的电池室。"
)
FIRE_BODY = """4 系统构成
4.1 总体
火灾探测与报警系统的设计文件应包括探测器布置图和供电系统图。
5 供电
5.1 电源
火灾探测与报警系统应设置主电源和备用电源。
5.2 入口
火灾探测与报警系统的入口处应设置标志。
"""


def test_same_kind_reads_the_head_nouns() -> None:
    assert same_kind("用于电池租赁的换电柜", "集中充电柜")  # 柜
    assert same_kind("温湿度记录仪", "温度记录仪")
    assert same_kind("列车车厢内的显示设备", "旅客信息显示系统")  # 系统 ~ 设备
    assert same_kind("整车充电的充电桩", "集中充电柜")  # 充电
    assert same_kind("一次性使用的包装袋", "箱式转运容器")  # containers
    assert not same_kind("建筑物内设置的电池室", "火灾探测与报警系统")
    assert not same_kind("移动式储能车", "火灾探测与报警系统")
    assert not same_kind("外墙保温系统", "保温装饰一体板")


def test_can_join_a_possessor_but_not_of_a_place_or_the_same_noun() -> None:
    assert can_join("电池室", "报警系统的设计文件", 4, ())
    assert not can_join("电池室", "报警系统的入口处", 4, ())
    assert not can_join("车厢内的显示设备", "显示系统的设备", 4, ())
    assert not can_join("电池室", "报警系统", 4, ())


def test_scp03_coordinates_no_place_with_a_system() -> None:
    document = standard(FIRE_SCOPE, FIRE_BODY, title="储能柜 火灾探测与报警系统 技术要求")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found, "SCP-03 found no possessive site (the design documents of a battery room)"
    for instance in found:
        corrupted = instance.corrupted_section.text
        assert "电池室的设计文件应包括" in corrupted  # the only reading: a second owner of the documents
        assert "电池室应" not in corrupted and "电池室均应" not in corrupted
        assert "电池室的入口处" not in corrupted


def test_scp03_does_not_repeat_the_subjects_own_coordinator() -> None:
    document = standard(FIRE_SCOPE, FIRE_BODY, title="储能柜 火灾探测与报警系统 技术要求")
    for instance in run("SCP-03", document, InjectionContext.from_documents([document]), seeds=20):
        assert not added_text(instance).startswith("与"), instance.corrupted_section.text


def test_scp03_doubles_no_noun() -> None:
    scope = (
        "本文件规定了车站旅客信息显示系统的技术要求。\n"
        "本文件适用于铁路客运车站设置的旅客信息显示系统。\n"
        "本文件不适用于列车车厢内的旅客信息显示设备。"
    )
    body = """4 要求
4.1 设备
旅客信息显示系统的设备应按批准的图样制造。
4.2 日志
旅客信息显示系统应记录操作日志。
"""
    document = standard(scope, body, title="车站 旅客信息显示系统 技术条件")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found, "SCP-03 found no site although 显示设备 and 显示系统 are of one kind"
    for instance in found:
        corrupted = instance.corrupted_section.text
        assert "设备的设备" not in corrupted
        assert "显示设备应记录操作日志" in corrupted


# --- SCP-05: a boundary widened over an object the scope only refers to the document ---------------------


def test_scp05_drops_a_qualifier_that_a_referred_object_shows() -> None:
    scope = (
        "本文件规定了环境监测终端的技术要求。\n"
        "本文件适用于连栋温室中使用的环境监测终端的设计和验收，简易大棚中使用的环境监测终端参照使用。"
    )
    body = """4 要求
4.1 测量
环境监测终端应测量空气温度。
4.2 供电
环境监测终端应采用直流供电。
"""
    document = standard(scope, body, title="农业 监测终端 技术要求")  # the title restricts nothing
    found = dropped_qualifiers(document)
    assert found, "no qualifier dropped although the referred 简易大棚 terminal shows the restriction"
    for instance in found:
        assert "删去了限定语“连栋温室中使用的”" in instance.description
        assert "只允许参照使用本文件的“简易大棚中使用的环境监测终端”也落入了这一界限" in instance.description
        assert "本文件适用于环境监测终端的设计和验收" in instance.corrupted_section.text


def test_scp05_takes_no_referred_object_of_another_kind_as_evidence() -> None:
    scope = (
        "本文件规定了电子式温度记录仪的技术要求。\n"
        "本文件适用于冷链运输过程中使用的电子式温度记录仪。温湿度记录仪的温度测量部分参照使用。"
    )
    body = """4 要求
4.1 测量
电子式温度记录仪应测量空气温度。
"""
    document = standard(scope, body, title="仓储 记录仪 技术要求")
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    assert all("参照使用" not in i.description for i in found)


# --- SCP-04: a promised aspect sits where a drafter would list it -------------------------------------------


PRODUCT_SCOPE = (
    "本文件规定了社区共享工具柜的分类、要求、试验方法、检验规则以及标志、包装、运输和贮存。\n"
    "本文件适用于住宅小区内设置的社区共享工具柜。"
)


def test_scp04_puts_no_aspect_among_the_closing_chapters() -> None:
    """Content aspects come before 试验方法 in a product scope, never between 试验方法 and 检验规则 or
    among 标志、包装、运输和贮存."""
    document = standard(PRODUCT_SCOPE, CABINET_BODY)
    found = instances("SCP-04", document, seeds=16)
    assert found, "SCP-04 found no place before 试验方法"
    for instance in found:
        (replacement,) = instance.edit.replacements
        before = instance.original_section.text[: replacement.start]
        assert "试验方法" not in before, instance.corrupted_section.text.splitlines()[0]


def _list_site(document: Document) -> tuple[str, Sentence, int]:
    """The scope text, its first sentence and where the list after its scope verb starts."""
    text = next(s for s in document.sections if s.kind == "scope").text
    sentence = statement_sentences(text)[0]
    return text, sentence, sentence.start + text.index("了") + 1


def test_scp04_adds_no_second_ji_after_jiqi() -> None:
    scope = (
        "本文件确立了社区服务平台的参与主体、平台框架及其功能组成等。\n本文件适用于社区服务平台的规划设计。"
    )
    document = standard(scope, EXCHANGE_BODY, "社区服务平台 框架")
    places = _aspect_insertions(*_list_site(document))
    assert places, "no place in the list"
    assert all(before != "及" for _, before, _, _ in places)  # "框架及其功能组成及X要求等"


def test_scp04_adds_nothing_to_the_parts_listed_after_baokuo() -> None:
    """A list after 包括 names the parts of one object (a protocol's 协议基础、消息定义及数据格式): a reader
    rejected "信息审核" planted there, and no aspect of the lexicon is a part, so no item goes in; a list
    of 方面 after 包括 still takes one."""
    scope = (
        "本文件规定了社区服务平台之间的通讯协议，包括协议基础、消息定义及数据格式。\n"
        "本文件适用于社区服务平台之间的通信。"
    )
    document = standard(scope, EXCHANGE_BODY, "社区服务平台 通讯协议")
    assert {a.name for a in uncovered_aspects(document)}
    assert _fresh_items(document, *_list_site(document)) == ()
    aspects = scope.replace("数据格式。", "数据格式等方面。")
    document = standard(aspects, EXCHANGE_BODY, "社区服务平台 通讯协议")
    assert _fresh_items(document, *_list_site(document))


def test_scp04_promises_no_commercial_matter_in_a_safety_standard() -> None:
    # a body that deals with the product's life (its marking), so that after-sales service is of its family
    body = CABINET_BODY + "6 标志\n6.1 产品标志\n柜体正面应设置产品标志。\n"
    document = standard(CABINET_SCOPE, body, title="社区 共享工具柜 安全要求")
    assert "售后服务" in {a.name for a in uncovered_aspects(document)}
    names = {name for _, _, name, _ in _fresh_items(document, *_list_site(document))}
    assert names, "no aspect fits the scope of a safety standard"
    assert not names & {"售后服务", "售后保障", "保修期"}


def test_scp03_records_why_a_scope_with_an_outsider_has_no_site() -> None:
    scope = FIRE_SCOPE
    body = "4 供电\n4.1 电源\n火灾探测与报警系统应设置主电源和备用电源。\n"
    document = standard(scope, body, title="储能柜 火灾探测与报警系统 技术要求")
    context = InjectionContext.from_documents([document])
    sc03 = injectors()["SCP-03"]
    assert list(sc03.sites(document, context)) == []  # 电池室 is no system, and nothing is owned
    assert sc03.no_site_reason(document, context) == "no_subject_of_its_kind"
    plain = standard(scope.split("\n本文件不适用于")[0], body, title="储能柜 火灾探测与报警系统 技术要求")
    assert sc03.no_site_reason(plain, InjectionContext.from_documents([plain])) == "no_outsider_in_scope"
