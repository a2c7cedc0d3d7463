"""SCP-04 promises only aspects of what the body covers, named in its own words: of a family of aspects its
clause titles deal with (a body with 数据备份 may be promised 容量规划; one whose titles deal with nothing
operational is not promised 负载均衡), and of the kind of what it standardizes: a device whose body is
mostly its data protocol is still a device (its clause titles say so), and only a document whose title or
scope names a system is promised how the system is deployed, balanced or backed up."""

from __future__ import annotations

import random
from dataclasses import replace

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.words import words
from injectors.registry import injectors
from injectors.types.scp.analysis import statement_sentences
from injectors.types.scp.editing import SCOPE_ASPECTS, family_of, uncovered_aspects
from injectors.types.scp.scp04_scope_promise_missing import _fresh_items
from tests.injectors.types.scp.scp_documents import EXCHANGE_BODY, added_text, instances, standard

# A meter for taxis: a device whose text is mostly the data it records and sends.
METER_SCOPE = (
    "本文件规定了出租汽车计价器的电源、数据记录和数据通信要求，描述了相应的试验方法。\n"
    "本文件适用于出租汽车计价器。"
)
METER_BODY = """4 要求
4.1 电源
计价器应能在车载直流电源下工作。
4.2 电气部件
计价器的连接导线应有护套。
4.5 振动
计价器经振动试验后应能正常计价。
4.3 数据记录
计价器应记录每次营运的数据，数据包括上车时间、下车时间、里程和金额。数据应按字段顺序存储。
4.4 数据通信
计价器应通过串行接口传输报文，报文的数据段应包含字段长度和校验码。
计价器应按协议格式上传营运数据，数据的编码应采用GB 18030。
5 试验方法
5.1 数据记录试验
模拟10次营运，读取计价器记录的数据并与报文内容核对。
"""

# A platform: what it standardizes is a system, which is deployed, monitored and backed up.
PLATFORM_SCOPE = "本文件规定了社区服务平台的功能要求、接口要求和数据要求。\n本文件适用于社区服务平台的建设。"
PLATFORM_BODY = """4 功能要求
4.1 用户注册
平台应提供用户注册功能，注册数据应包含姓名和联系电话。
4.2 事项办理
平台应提供事项办理功能，办理结果应以报文形式返回。
5 接口要求
5.1 协议
接口应采用HTTPS协议传输报文。接口的报文应包含时间戳。
"""
OPERATED = PLATFORM_BODY + "6 运行要求\n6.1 数据备份\n平台应每日备份注册数据和办理记录。\n"

SYSTEM_ONLY = {n for a in SCOPE_ASPECTS if a.kinds == frozenset({"system"}) for n in a.names}


def test_a_device_whose_body_is_mostly_data_is_promised_no_aspect_of_a_deployed_system() -> None:
    document = standard(METER_SCOPE, METER_BODY, "出租汽车 计价器")
    offered = {a.name for a in uncovered_aspects(document)}
    assert "系统部署" not in offered and "负载均衡" not in offered and "容量规划" not in offered
    assert "防雷" in offered  # the device's own kind: its titles name 电源, 电气部件
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        added = added_text(instance)
        assert not any(name in added for name in SYSTEM_ONLY), added


def test_a_platform_whose_body_deals_with_its_operation_may_be_promised_how_it_is_deployed() -> None:
    document = standard(PLATFORM_SCOPE, OPERATED, "社区服务平台 技术要求")
    offered = {a.name for a in uncovered_aspects(document)}
    assert {"系统部署", "负载均衡", "容量规划"} <= offered
    assert "防雷" not in offered
    # the same platform whose titles deal with nothing operational is promised none of it
    plain = standard(PLATFORM_SCOPE, PLATFORM_BODY, "社区服务平台 技术要求")
    assert not {"系统部署", "负载均衡", "容量规划"} & {a.name for a in uncovered_aspects(plain)}


def test_an_aspect_of_a_family_the_scope_list_already_names_comes_first() -> None:
    """A list naming 数据备份 reads on with 容量规划 or 负载均衡, not with 档案管理 or 数据字典, though the
    body's titles (数据元) make those of its families too."""
    scope = "本文件规定了社区服务平台的功能要求、接口要求和数据备份要求。\n本文件适用于社区服务平台的建设。"
    body = OPERATED + "6.2 数据元\n平台交换的每个数据元应有唯一标识。\n"
    document = standard(scope, body, "社区服务平台 技术要求")
    offered = {a.name for a in uncovered_aspects(document)}
    assert {"档案管理", "数据字典"} <= offered  # the records family is the body's too
    operation = {n for a in SCOPE_ASPECTS if family_of(a.name) == "operation" for n in a.names}
    # second of a release of four: its own stretch of the lexicon holds groups of both families
    others = [
        replace(standard(PLATFORM_SCOPE, OPERATED, "社区服务平台 技术要求"), doc_id=f"d{i}")
        for i in (0, 2, 3)
    ]
    document = replace(document, doc_id="d1")
    context = InjectionContext.from_documents([document, *others])
    attempts = [
        injectors()["SCP-04"].inject(Baseline(document), random.Random(seed), context, seed=seed)
        for seed in range(8)
    ]
    found = [a.instance for a in attempts if a.instance is not None]
    assert found
    for instance in found:
        added = added_text(instance)
        assert any(name in added for name in operation), added


def test_scp04_adds_no_separator_before_a_word_several_aspects_begin_with() -> None:
    """数据字典, 数据迁移 and 数据销毁 all begin with 数据: "、数据" written into a list is the same n-gram
    whichever of them is promised, a cue shared by many instances. Such a name goes in only where the
    document already writes its separator before that word."""
    scope = (
        "本文件规定了社区服务平台之间交换报文的元素集、编码规则和接口要求。\n"
        "本文件适用于社区服务平台之间的数据交换。"
    )
    listed = "5.3 报文结构\n报文应包含时间戳、数据元素和校验码。\n"
    offered: dict[str, set[str]] = {}
    for body in (EXCHANGE_BODY, EXCHANGE_BODY + listed):
        document = standard(scope, body, "社区服务平台 数据交换")
        text = next(s for s in document.sections if s.kind == "scope").text
        sentence = statement_sentences(text)[0]
        fresh = _fresh_items(document, text, sentence, sentence.start + text.index("了") + 1)
        assert fresh, "the list takes some aspect"
        offered[body] = {added for _, _, name, added in fresh if words(name)[0] == "数据"}
    assert offered[EXCHANGE_BODY] == set()
    assert "数据字典、" in offered[EXCHANGE_BODY + listed]
