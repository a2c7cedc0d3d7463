"""Scope dimension (SCP): regression tests for what an expert rejected on real
standards, each on small standards the test writes itself.

- SCP-01: a moved requirement kept a connective ("其中，") that pointed at neighbours it no longer had;
- SCP-05: a dropped qualifier nobody could detect from the corrupted document alone;
- SCP-04: one aspect ("系统性能") promised in several scopes of a release;
- SCP-03: no site at all on real standards, whose scopes exclude by a "非X" qualifier, not "不适用于".
"""

from __future__ import annotations

import random

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.language.connectives import leading_connective, without_leading_connective
from injectors.language.novelty import text_ngrams
from injectors.registry import injectors
from injectors.types.scp.spread import place_in_release, word_groups
from parsers.model import Document
from tests.injectors.types.scp.test_scp_quality import CABINET_BODY, added_text, standard


def run(type_id: str, document: Document, context: InjectionContext, seeds: int = 12) -> list[ErrorInstance]:
    out = []
    for seed in range(seeds):
        attempt = injectors()[type_id].inject(
            Baseline(document), random.Random(f"{seed}:{type_id}"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def dropped_qualifiers(document: Document) -> list[ErrorInstance]:
    """The document's SCP-05 instances that drop a qualifier of the scope (the document alone as corpus)."""
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    return [i for i in found if "限定语" in i.description]


# --- SCP-01: no connective carried into the scope ----------------------------------------------------------


def test_leading_connectives_are_recognised_and_dropped() -> None:
    assert without_leading_connective("其中，柜门应能手动开启。") == "柜门应能手动开启。"
    assert without_leading_connective("同时柜门应能手动开启。") == "柜门应能手动开启。"
    assert leading_connective("此外,门锁应采用不锈钢。") == "此外,"
    assert leading_connective("其他部件应可靠接地。") == ""  # 其他 is no 其中
    assert leading_connective("另外的柜门应……") == "另外"


# --- SCP-05: a qualifier is dropped only where the document still shows it ---------------------------------


def test_scp05_drops_no_qualifier_that_nothing_else_in_the_document_names() -> None:
    scope = "本文件规定了社区共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的社区共享工具柜。"
    document = standard(scope, CABINET_BODY, title="社区 共享工具柜 技术要求")
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    assert all("限定语" not in i.description for i in found)  # 住宅小区 appears nowhere else


def test_scp05_names_the_title_that_still_restricts_the_dropped_qualifier() -> None:
    scope = "本文件规定了共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的共享工具柜。"
    document = standard(scope, CABINET_BODY, title="住宅小区 共享工具柜 技术要求")
    found = dropped_qualifiers(document)
    assert found, "no qualifier dropped although the title still names 住宅小区"
    for instance in found:
        assert "住宅小区内设置的" in instance.description
        assert "文件名称“住宅小区 共享工具柜 技术要求”仍限于“住宅小区”" in instance.description


# --- SCP-04: the documents of a release promise different aspects -----------------------------------------


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


def test_word_groups_join_names_that_share_a_first_or_last_word() -> None:
    groups = word_groups(("安装调试", "安装位置", "防雷", "雷电防护", "数据迁移", "噪声限值", "能耗限值"))
    assert ("安装调试", "安装位置") in groups
    assert ("噪声限值", "能耗限值") in groups
    assert ("数据迁移",) in groups


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


# --- SCP-03: a "非X" qualifier of the scope leaves X out --------------------------------------------------


CLASSIFIED_SCOPE = (
    "本文件规定了社区信息系统等级保护对象的安全通用要求。\n"
    "本文件适用于社区服务机构非涉密对象的安全建设和监督管理。"
)
CLASSIFIED_BODY = """4 安全通用要求
4.1 总体要求
对于安全保护等级为第三级的等级保护对象，应每年开展一次安全检查。
4.2 机房
机房应设置灭火设备。
"""


def test_scp03_takes_in_the_object_a_negated_qualifier_leaves_out() -> None:
    document = standard(CLASSIFIED_SCOPE, CLASSIFIED_BODY, title="社区信息系统 等级保护 安全要求")
    found = run("SCP-03", document, InjectionContext.from_documents([document]))
    assert found, "SCP-03 found no site on a scope that keeps out 涉密对象"
    for instance in found:
        assert added_text(instance).endswith("涉密对象")
        assert (
            "等级保护对象" + added_text(instance) + "，应每年开展一次安全检查"
            in instance.corrupted_section.text
        )
        assert "范围写明本文件适用于“非涉密对象”" in instance.description


def test_scp03_reads_no_exclusion_into_a_coordinated_non() -> None:
    scope = (
        "本文件规定了二维码支付系统的安全要求。\n本文件适用于银行业金融机构和非银行支付机构的二维码支付系统。"
    )
    body = "4 要求\n4.1 总体\n对于支付机构，应每年开展一次安全检查。\n"
    document = standard(scope, body, title="移动支付 二维码 安全要求")
    assert run("SCP-03", document, InjectionContext.from_documents([document])) == []
