"""Tests of SCP-03 正文超出范围 (Body exceeds the Scope)."""

from __future__ import annotations

import random

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from parsers.model import Document, Section
from tests.injectors.types.scp.scp_documents import (
    CABINET_BODY,
    CABINET_SCOPE,
    COUNTER_BODY,
    COUNTER_REFERENCES,
    COUNTER_SCOPE,
    EXCHANGE_BODY,
    SERVER_BODY,
    added_text,
    counter_standard,
    injector,
    instances,
    run,
    server_standard,
    standard,
)


def scp03_instances(document: Document, seeds: int = 20) -> list[ErrorInstance]:
    context = InjectionContext.from_documents([document])
    out = []
    for seed in range(seeds):
        attempt = injectors()["SCP-03"].inject(
            Baseline(document), random.Random(f"{seed}:SCP-03"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def _text(section: Section | None) -> str:
    assert section is not None
    return section.text


def test_a_sibling_product_joins_a_requirement_about_the_scope_object() -> None:
    document = counter_standard()
    found = scp03_instances(document)
    assert found
    body = "".join(s.text for s in document.sections if s.kind == "clause")
    for instance in found:
        new = "".join(r.new for r in instance.edit.replacements)
        # of the counter's kind, never treated by the body (客流分析系统 is; the body names its 适配装置 by
        # the head of 车载电源适配装置), never a class it belongs to
        assert new.lstrip("和及与、以").startswith(("车载视频监控终端", "城市公交GPS导航系统")), new
        assert instance.provenance.form == "同类对象"
        assert "范围只涉及公交车乘客计数仪" in instance.description
        assert instance.location in ("4.1", "4.2")
        assert new.lstrip("和及与、以") not in body


def test_no_sibling_where_the_scope_takes_in_the_whole_kind() -> None:
    scope = COUNTER_SCOPE.replace(
        "的设计、制造和检验。", "的设计、制造和检验，亦适用于其他车载终端和导航系统。"
    )
    document = counter_standard(scope)
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert injectors()["SCP-03"].no_site_reason(document, context) == "no_outsider_in_scope"


def test_a_second_instance_in_one_document_names_another_product() -> None:
    """As the planner asks for a second instance (the first one's edit as `taken`): never the same product
    again, nor joined by the same coordinator where the document writes another (both instances would add
    one phrase), and none at all where the document names only one."""
    # the body writes 和 and 及: the second instance takes the one the first did not
    document = counter_standard(
        body=COUNTER_BODY.replace("宜通过客流分析系统上传", "宜定时及按需通过客流分析系统上传")
    )
    context = InjectionContext.from_documents([document])
    injector = injectors()["SCP-03"]
    for seed in range(8):
        first = injector.inject(Baseline(document), random.Random(f"{seed}:a"), context, seed=seed).instance
        assert first is not None
        second = injector.inject(
            Baseline(document), random.Random(f"{seed}:b"), context, taken=[first.edit], seed=seed
        ).instance
        assert second is not None
        named = [
            {p for p in ("车载视频监控终端", "城市公交GPS导航系统") if p in r.new}
            for i in (first, second)
            for r in i.edit.replacements
        ]
        assert len(named[0]) == len(named[1]) == 1 and named[0] != named[1], named
        joins = [
            r.new[: len(r.new) - len(r.new.lstrip("和及与、以"))]
            for i in (first, second)
            for r in i.edit.replacements
        ]
        assert joins[0] != joins[1], joins
    single = counter_standard(
        references=COUNTER_REFERENCES.replace("GB/T 99101—2024 公交车 车载视频监控终端技术要求\n", "")
    )
    context = InjectionContext.from_documents([single])
    first = injector.inject(Baseline(single), random.Random("a"), context).instance
    assert first is not None
    again = injector.inject(Baseline(single), random.Random("b"), context, taken=[first.edit])
    assert again.instance is None


def test_the_all_adverb_only_where_the_document_writes_it_before_the_same_words() -> None:
    """ "均应" in the body does not make "……和……均应能" the document's own wording: added before 应能 it
    would be the same new phrase in every instance that took it."""
    body = COUNTER_BODY.replace("5 试验方法", "4.4 功能\n试验后各项功能均应正常。\n5 试验方法")
    document = counter_standard(body=body)
    found = [i for i in scp03_instances(document, seeds=30) if i.location == "4.1"]
    assert found
    assert not any("均" in r.new for i in found for r in i.edit.replacements)


def test_the_description_names_the_scope_objects_of_the_siblings_kind_without_their_short_names() -> None:
    scope = COUNTER_SCOPE.replace(
        "公交车乘客计数仪的技术要求", "公交车乘客计数仪（以下简称计数仪）的技术要求"
    )
    found = scp03_instances(counter_standard(scope))
    assert found
    for instance in found:
        assert "（范围只涉及公交车乘客计数仪，未涵盖" in instance.description, instance.description


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


def test_scp03_coordinates_no_place_with_a_system() -> None:
    document = standard(FIRE_SCOPE, FIRE_BODY, title="储能柜 火灾探测与报警系统 技术要求")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found, "SCP-03 found no possessive site (the design documents of a battery room)"
    for instance in found:
        corrupted = _text(instance.corrupted_section)
        assert "电池室的设计文件应包括" in corrupted  # the only reading: a second owner of the documents
        assert "电池室应" not in corrupted and "电池室均应" not in corrupted
        assert "电池室的入口处" not in corrupted


def test_scp03_does_not_repeat_the_subjects_own_coordinator() -> None:
    document = standard(FIRE_SCOPE, FIRE_BODY, title="储能柜 火灾探测与报警系统 技术要求")
    for instance in run("SCP-03", document, InjectionContext.from_documents([document]), seeds=20):
        assert not added_text(instance).startswith("与"), _text(instance.corrupted_section)


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
        corrupted = _text(instance.corrupted_section)
        assert "设备的设备" not in corrupted
        assert "显示设备应记录操作日志" in corrupted


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


def test_scp03_coordinates_the_excluded_object_into_a_clause_of_its_own_wording() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    found = instances("SCP-03", document)
    assert found, "SCP-03 found no site on a scope with an exclusion"
    for instance in found:
        original = _text(instance.original_section)
        corrupted = _text(instance.corrupted_section)
        assert "本条" not in corrupted and "本章" not in corrupted  # the old stock sentence
        assert "也应" not in corrupted
        assert added_text(instance).lstrip("和及与、以").startswith("快递自提柜")
        # the clause keeps its own predicate: only the subject grew
        (replacement,) = instance.edit.replacements
        assert replacement.old == "" and _text(instance.original_section)[:0] == ""
        assert corrupted.count("。") == original.count("。")
        assert "不适用于快递自提柜" in instance.description
        assert "快递自提柜" not in "".join(s.text for s in document.sections if s.kind == "clause")


def test_scp03_skips_a_scope_that_excludes_nothing_rather_than_borrow_from_another_field() -> None:
    scope = "本文件规定了社区共享工具柜的技术要求。\n本文件适用于住宅小区内设置的社区共享工具柜。"
    document = standard(scope, CABINET_BODY)
    other = standard(CABINET_SCOPE.replace("快递自提柜", "医用冷藏柜"), EXCHANGE_BODY, "另一领域 标准")
    context = InjectionContext.from_documents([document, other])
    assert list(injector("SCP-03").sites(document, context)) == []


CLASSIFIED_SCOPE = (
    "本文件规定了社区信息系统等级保护对象的安全通用要求。\n"
    "本文件适用于街道办事处所辖非涉密对象的安全防护和日常检查。"
)


CLASSIFIED_BODY = """4 安全通用要求
4.1 总体要求
对于定为第三级的等级保护对象，应每半年组织一次安全核查。
4.2 机房
机房内应配备手提式灭火器。
"""


def test_scp03_takes_in_the_object_a_negated_qualifier_leaves_out() -> None:
    document = standard(CLASSIFIED_SCOPE, CLASSIFIED_BODY, title="社区信息系统 等级保护 安全要求")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found, "SCP-03 found no site on a scope that keeps out 涉密对象"
    for instance in found:
        assert added_text(instance).endswith("涉密对象")
        assert "等级保护对象" + added_text(instance) + "，应每半年组织一次安全核查" in _text(
            instance.corrupted_section
        )
        assert "范围写明本文件适用于“非涉密对象”" in instance.description


def test_scp03_reads_no_exclusion_into_a_coordinated_non() -> None:
    scope = (
        "本文件规定了二维码支付系统的安全要求。\n本文件适用于银行业金融机构和非银行支付机构的二维码支付系统。"
    )
    body = "4 要求\n4.1 总体\n对于支付机构，应每半年组织一次安全核查。\n"
    document = standard(scope, body, title="移动支付 二维码 安全要求")
    assert run("SCP-03", document, InjectionContext.from_documents([document])) == []


# A recorder whose scope lists the stages it covers and excludes nothing.
RECORDER_SCOPE = (
    "本文件规定了车载温度记录仪的技术要求和试验方法。\n本文件适用于车载温度记录仪的设计、制造、检验及使用。"
)


RECORDER_BODY = """4 技术要求
4.1 外壳
温度记录仪应具有防尘外壳。温度记录仪的外壳材料应采用阻燃塑料。
4.2 电源
温度记录仪应能在9 V至16 V电源电压下正常工作。
4.3 显示
温度记录仪应具有温度显示功能。
5 试验方法
5.1 电源试验
在9 V和16 V下分别通电检查温度记录仪的工作状态。
"""


def test_scp03_skips_a_scope_that_puts_nothing_outside() -> None:
    """A scope listing its life-cycle stages but excluding nothing gives no site: extending a requirement
    to a stage it does not list ("在改造前后均应……") read as padding, not as a drafting error."""
    document = standard(RECORDER_SCOPE, RECORDER_BODY, "车载 温度记录仪 技术要求")
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert instances("SCP-03", document, seeds=6) == []


def test_the_named_sibling_joins_a_requirement_about_the_scope_object() -> None:
    found = scp03_instances(server_standard(), seeds=12)
    assert found
    for instance in found:
        new = "".join(r.new for r in instance.edit.replacements)
        assert new.lstrip("和及与、以") == "线路调度服务器", new
        assert instance.provenance.form == "同类对象"
        # the scope's own words that bound it, quoted as the corrupted document has them
        assert (
            "范围只涉及票务结算服务器，未涵盖线路调度服务器；本文件“适用于票务结算服务器的设计、制造和检验”"
            in (instance.description)
        )
        # not 4.3: a clause that already speaks of the sibling's 线路调度 as what the server works with
        assert instance.location in ("4.1", "4.2")


def test_no_site_where_the_body_itself_names_the_sibling() -> None:
    body = SERVER_BODY.replace("在198 V和242 V下", "断开线路调度服务器，在198 V和242 V下")
    document = server_standard(body=body)
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert injectors()["SCP-03"].no_site_reason(document, context) == "no_outsider_in_scope"


LEVEL_SCOPE = "本文件规定了第一级到第三级防护对象的安全通用要求。\n本文件适用于防护对象的安全建设。"
LEVEL_BODY = """4 第三级安全要求
4.1 通信网络
本条款要求包括：
a) 应为第三级业务系统配置独立的备份线路；
b) 应对通信线路进行冗余设计。
4.2 区域边界
第三级及以上的防护对象应部署边界防护设备。
"""
LEVEL_ANNEX = """附录A
（资料性）
定级结果
A.1 等级
第一级、第二级和第三级以外，定级结果还可能为第四级。
"""


def test_a_clause_about_the_scope_s_top_level_takes_in_the_level_above_it() -> None:
    document = server_standard(LEVEL_SCOPE, LEVEL_BODY, LEVEL_ANNEX)
    found = scp03_instances(document, seeds=12)
    assert found
    for instance in found:
        assert instance.provenance.form == "范围外等级"
        assert instance.location == "4.1"  # never "第三级及以上", which is no level of its own
        # the coordinator the body itself writes ("第三级及以上": 及)
        assert [r.new for r in instance.edit.replacements] == ["及第四级"]
        assert "“应为第三级及第四级业务系统配置独立的备份线路；”" in instance.description
        assert "范围只规定了“第一级到第三级防护对象”的要求" in instance.description
        assert "删去“及第四级”" in instance.description


def test_no_level_beyond_the_scope_where_the_document_never_names_one() -> None:
    document = server_standard(LEVEL_SCOPE, LEVEL_BODY, LEVEL_ANNEX.replace("，定级结果还可能为第四级", ""))
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []


def test_a_level_range_without_a_clause_about_its_top_level_is_no_subject_of_its_kind() -> None:
    body = LEVEL_BODY.replace("a) 应为第三级业务系统配置独立的备份线路；\n", "")
    document = server_standard(LEVEL_SCOPE, body, LEVEL_ANNEX)
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert injectors()["SCP-03"].no_site_reason(document, context) == "no_subject_of_its_kind"


def test_scp03_names_the_outsider_as_a_clause_would() -> None:
    """A clause names the scope's "用于快递收发的自提柜" a 自提柜 and its "塑料大棚中使用的环境监测终端" a
    塑料大棚环境监测终端, as drafters write a coordinated subject; the description still quotes the
    scope's own words for what it leaves out."""
    scope = CABINET_SCOPE.replace("快递自提柜", "用于快递收发的自提柜")
    found = instances("SCP-03", standard(scope, CABINET_BODY))
    assert found
    for instance in found:
        assert added_text(instance).lstrip("和及与、以").startswith("自提柜"), added_text(instance)
        assert "把范围之外的“自提柜”" in instance.description
        assert "不适用于用于快递收发的自提柜" in instance.description
    scope = (
        "本文件规定了温室环境监测终端的技术要求。\n"
        "本文件适用于连栋温室中使用的温室环境监测终端，塑料大棚中使用的环境监测终端参照使用。"
    )
    body = "4 要求\n4.1 测量\n温室环境监测终端应测量空气温度。\n4.2 供电\n温室环境监测终端应采用直流供电。\n"
    document = standard(scope, body, title="农业 监测终端 技术要求")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found
    for instance in found:
        assert "塑料大棚环境监测终端" in added_text(instance) and "使用的" not in added_text(instance)
        assert "范围只允许塑料大棚中使用的环境监测终端参照使用本文件" in instance.description


# A grading guide: its scope keeps out, by a "非X" qualifier, the systems that hold state secrets; its body
# states the procedure without 应 but applies the guide itself to the systems it names.
GRADING_SCOPE = (
    "本文件给出了非涉及国家秘密的社区服务平台的定级方法。\n"
    "本文件适用于指导运营单位开展非涉及国家秘密的社区服务平台的定级工作。"
)


GRADING_BODY = """4 定级流程
4.1 专家评审
初步定为第二级及以上的社区服务平台，其运营单位依据本文件组织专家评审，最终确定其等级。
4.2 等级变更
社区服务平台的运营单位在业务变化后重新确定等级。
"""


def test_scp03_takes_the_left_out_object_into_a_sentence_that_applies_the_document() -> None:
    document = standard(GRADING_SCOPE, GRADING_BODY, title="社区服务平台 定级指南")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found, "SCP-03 found no site in a sentence that applies the guide to its object"
    for instance in found:
        assert instance.location == "4.1"  # not 4.2, which names no document
        added = added_text(instance)
        assert added.endswith("涉及国家秘密的社区服务平台")
        corrupted = _text(instance.corrupted_section)
        assert "第二级及以上的社区服务平台" + added + "，其运营单位依据本文件" in corrupted
        assert "也纳入了本文件的规定" in instance.description  # no 应 there: not "纳入了要求"
        assert "范围写明本文件适用于“非涉及国家秘密的社区服务平台”" in instance.description
        assert f"删去“{added}”，本条只涉及非涉及国家秘密的社区服务平台；" in instance.description
        assert instance.provenance.form == "非X"


def test_scp03_joins_an_object_with_its_own_qualifier_by_a_word_not_a_pause_mark() -> None:
    # the body writes 、 itself, so only the qualifier keeps it out
    body = GRADING_BODY.replace("社区服务平台的运营单位", "社区服务平台、社区门户的运营单位")
    document = standard(GRADING_SCOPE, body, title="社区服务平台 定级指南")
    found = run("SCP-03", document, InjectionContext.from_documents([document]), seeds=20)
    assert found
    assert not any(added_text(instance).startswith("、") for instance in found)
