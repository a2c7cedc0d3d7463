"""SCP-03 from products of the scope object's own head word that the document itself names outside its
body (definitions, introduction, annexes): "票务结算服务器和线路调度服务器应……" in a standard whose scope
covers the settlement server alone. Every standard here is written by the test (a made-up bus ticketing
server)."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from injectors.types.scp.scp03_body_exceeds_scope import named_siblings
from parsers.model import Document
from parsers.text import parse_text

FOREWORD = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"

SCOPE = "本文件规定了票务结算服务器的技术要求和试验方法。\n本文件适用于票务结算服务器的设计、制造和检验。"
BODY = """4 技术要求
4.1 供电
票务结算服务器应能在交流198 V～242 V电压下正常工作。
4.2 存储
票务结算服务器应保存交易记录至少180天。
4.3 接收
票务结算服务器应在5 s内确认线路调度指令。
5 试验方法
5.1 电压试验
在198 V和242 V下各运行1 h后检查结算功能。
"""
ANNEX = """附录A
（资料性）
报文示例
A.1 报文
本附录给出票务结算服务器与线路调度服务器之间的报文示例，以及双机票务结算服务器的切换报文。
表A.2 网关服务器报文格式
结算服务器收到报文后返回确认。
"""


def standard(scope: str = SCOPE, body: str = BODY, annex: str = ANNEX) -> Document:
    text = f"""GB/T 99992—2025
公交车 票务结算服务器 技术要求
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
{body}{annex}"""
    return parse_text(Path("scp03-named-siblings.txt"), text.encode())


def instances(document: Document, seeds: int = 12) -> list[ErrorInstance]:
    context = InjectionContext.from_documents([document])
    out = []
    for seed in range(seeds):
        attempt = injectors()["SCP-03"].inject(
            Baseline(document), random.Random(f"{seed}:SCP-03"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def test_a_product_the_annex_names_is_read_as_a_sibling_of_the_scope_object() -> None:
    found = named_siblings(standard(), ("票务结算服务器",))
    assert found == ["线路调度服务器"]
    # a kind of the object itself (双机票务结算服务器), the object shortened (结算服务器) and a caption's
    # words (表A.2 网关服务器……) are no siblings


def test_no_sibling_from_a_generic_head_word() -> None:
    scope = SCOPE.replace("票务结算服务器", "票务结算系统")
    document = standard(scope, BODY.replace("服务器", "系统"), ANNEX.replace("服务器", "系统"))
    assert named_siblings(document, ("票务结算系统",)) == []


def test_the_named_sibling_joins_a_requirement_about_the_scope_object() -> None:
    found = instances(standard())
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
    body = BODY.replace("在198 V和242 V下", "断开线路调度服务器，在198 V和242 V下")
    document = standard(body=body)
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
    document = standard(LEVEL_SCOPE, LEVEL_BODY, LEVEL_ANNEX)
    found = instances(document)
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
    document = standard(LEVEL_SCOPE, LEVEL_BODY, LEVEL_ANNEX.replace("，定级结果还可能为第四级", ""))
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []


def test_a_level_range_without_a_clause_about_its_top_level_is_no_subject_of_its_kind() -> None:
    body = LEVEL_BODY.replace("a) 应为第三级业务系统配置独立的备份线路；\n", "")
    document = standard(LEVEL_SCOPE, body, LEVEL_ANNEX)
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert injectors()["SCP-03"].no_site_reason(document, context) == "no_subject_of_its_kind"
