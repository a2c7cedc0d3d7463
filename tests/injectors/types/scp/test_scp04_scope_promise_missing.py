"""Tests of SCP-04 范围承诺内容缺失 (Scope promises missing content)."""

from __future__ import annotations

import random
from dataclasses import replace

import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.novelty import document_wording, text_ngrams
from injectors.language.sentences import Sentence
from injectors.language.words import words
from injectors.registry import injectors
from injectors.types.scp.analysis import statement_sentences
from injectors.types.scp.editing import SCOPE_ASPECTS, document_kinds, family_of, uncovered_aspects
from injectors.types.scp.scp04_scope_promise_missing import _aspect_insertions, _fresh_items
from injectors.types.scp.spread import place_in_release
from parsers.model import Document
from tests.injectors.types.scp.scp_documents import (
    CABINET_BODY,
    CABINET_SCOPE,
    EXCHANGE_BODY,
    EXCHANGE_SCOPE,
    added_text,
    instances,
    run,
    standard,
)

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


def test_scp04_promises_no_hardware_aspect_to_a_data_exchange_standard() -> None:
    document = standard(EXCHANGE_SCOPE, EXCHANGE_BODY, "社区服务平台 数据交换 报文格式")
    body = "\n".join(s.text for s in document.sections if s.kind == "clause")
    assert document_kinds(body) == frozenset({"information"})
    hardware_only = {a.name for a in SCOPE_ASPECTS if not a.kinds & {"information", "system"}}
    assert "防雷" in hardware_only and "职业健康防护" not in {a.name for a in uncovered_aspects(document)}
    assert not hardware_only & {a.name for a in uncovered_aspects(document)}
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        assert not any(name in added_text(instance) for name in hardware_only)


def test_scp04_leaves_no_comma_before_the_enumeration_mark() -> None:
    scope = (
        "本文件规定了社区共享工具柜的柜体结构要求,门锁要求和电气安全要求,描述了相应的试验方法.\n"
        "本文件适用于住宅小区内设置的社区共享工具柜."
    )
    document = standard(scope, CABINET_BODY)
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        corrupted = instance.corrupted_section.text
        assert ",、" not in corrupted and "，、" not in corrupted
        assert "，" not in added_text(instance)  # the scope writes ASCII commas: so does the addition


def test_scp04_aspects_vary_across_documents_of_one_kind() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    names = {added_text(i) for i in instances("SCP-04", document, seeds=16)}
    assert len(names) >= 4


def test_scp04_item_joins_the_list_after_baokuo_not_the_head_noun() -> None:
    scope = (
        "本文件规定了社区共享工具柜的安全体系，包括柜体结构、门锁和电气安全等方面。\n"
        "本文件适用于住宅小区内设置的社区共享工具柜。"
    )
    document = standard(scope, CABINET_BODY)
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        corrupted = instance.corrupted_section.text
        assert "安全体系，包括" in corrupted  # nothing inserted between the head noun and 包括
        assert corrupted.index("包括") < instance.edit.replacements[0].start


INFO_BODY = """4 数据元素
4.1 基本要求
报文应采用UTF-8编码。数据元素的名称应唯一。
4.2 字段
每个字段应给出数据类型和长度。
5 接口要求
5.1 协议
接口应采用HTTPS协议传输报文。接口的报文应包含时间戳和数据元素。
"""


OPERATED_TITLES = "5.2 日志\n接口应记录每次调用。\n5.3 数据备份\n平台应每日备份报文。\n"


def test_scp04_spreads_the_aspects_over_the_documents_of_a_release() -> None:
    subjects = (
        "社区服务平台",
        "物业管理平台",
        "停车服务平台",
        "养老服务平台",
        "家政服务平台",
        "医疗服务平台",
    )
    documents = [
        standard(
            f"本文件规定了{s}之间交换报文的数据元素、编码规则和接口要求。\n本文件适用于{s}之间的数据交换。",
            # a body that deals with its logs and backups: families with aspects enough for six documents
            (INFO_BODY + OPERATED_TITLES).replace("报文", f"{s}报文"),
            title=f"{s} 数据交换 报文格式",
        )
        for s in subjects
    ]
    context = InjectionContext.from_documents(documents)
    assert sorted(place_in_release(d, context)[0] for d in documents) == list(range(len(documents)))
    added: list[set[tuple[str, ...]]] = []
    for document in documents:
        found = run("SCP-04", document, context, seeds=1)
        assert found, f"SCP-04 found no aspect for {document.title}"
        scope = next(s for s in document.sections if s.kind == "scope").text
        new = text_ngrams(found[0].corrupted_section.text) - text_ngrams(scope)
        added.append({g for g in new if not any(w in document.title for w in g)})
    for i, mine in enumerate(added):
        for other in added[i + 1 :]:
            assert not mine & other, f"two documents add the same wording: {mine & other}"


def test_scp04_new_ngrams_carry_the_aspect_words_only() -> None:
    """Every n-gram the promised aspect adds, that the document did not have, contains the aspect's own
    words or this document's own (round four: "、门锁、" is this document's, not a release-wide phrase):
    no "，以及" or "要求及" that would be the same in another document's instance."""
    document = standard(CABINET_SCOPE, CABINET_BODY)
    found = instances("SCP-04", document, seeds=16)
    assert len(found) >= 8
    joining = {"要求", "和", "及", "以及", "与", "等", "的"}
    for instance in found:
        name = instance.description.split("涉及", 1)[1].split("，", 1)[0]
        new = document_wording(document).new(instance.corrupted_section.text)
        assert new, instance.description
        for g in new:
            if not set(g) & set(words(name)):
                assert any(w not in joining and regex.search(r"\p{Han}", w) for w in g), (name, g)


def test_scp04_item_goes_before_a_closing_etc() -> None:
    """ "……框架及其功能组成等" gains "和X要求" before 等, never "等和X要求"."""
    scope = (
        "本文件确立了社区服务平台的参与主体、平台框架及其功能组成等。\n本文件适用于社区服务平台的规划设计。"
    )
    document = standard(scope, EXCHANGE_BODY_LONG, "社区服务平台 框架")
    found = instances("SCP-04", document, seeds=12)
    assert found
    for instance in found:
        assert "等和" not in instance.corrupted_section.text
        assert "等及" not in instance.corrupted_section.text
        assert "等，以及" not in instance.corrupted_section.text


EXCHANGE_BODY_LONG = """4 平台框架
4.1 数据
平台应采用统一的数据编码。数据接口应返回处理结果。报文字段应给出数据类型。
4.2 软件版本
平台软件应支持报文校验。数据元素的名称应唯一。
"""


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
