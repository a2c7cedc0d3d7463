"""SCP-03 from products of the scope object's own kind that the document's references name and that the
document never treats: "计数仪和车载视频终端应……" in a standard whose scope covers the counter alone.
Every standard here is written by the test (a made-up bus passenger counter)."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from injectors.types.scp.scp03_body_exceeds_scope import referenced_products
from parsers.model import Document
from parsers.text import parse_text

FOREWORD = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"

SCOPE = "本文件规定了公交车乘客计数仪的技术要求和试验方法。\n本文件适用于公交车乘客计数仪的设计、制造和检验。"
REFERENCES = """GB/T 99101—2024 公交车 车载视频监控终端技术要求
GB/T 99102 计算机通用规范 第3部分：服务器
GB/T 99103 公交车 电子站牌通用规范
GB/T 99104 公交车 调度平台接口规范
GB/T 99105 公交车 客流分析系统技术要求
GB/T 99107 公交车 车载电源适配装置技术要求"""
BODY = """4 技术要求
4.1 供电
乘客计数仪应能在9 V～36 V电压下正常工作。
4.2 存储
乘客计数仪的计数数据应至少保存30天。计数仪经电源适配装置供电。
4.3 通信
计数数据宜通过客流分析系统上传。
5 试验方法
5.1 电压试验
在9 V和36 V下各运行1 h后检查计数功能。
"""
BIBLIOGRAPHY = "[1] GB/T 99106 城市公交 GPS 导航系统通用规范"


def standard(scope: str = SCOPE, references: str = REFERENCES, body: str = BODY) -> Document:
    text = f"""GB/T 99991—2025
公交车 乘客计数仪 技术要求
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
{references}
3 术语和定义
本文件没有需要界定的术语和定义。
{body}参考文献
{BIBLIOGRAPHY}
"""
    return parse_text(Path("scp03-siblings.txt"), text.encode())


def instances(document: Document, seeds: int = 20) -> list[ErrorInstance]:
    context = InjectionContext.from_documents([document])
    out = []
    for seed in range(seeds):
        attempt = injectors()["SCP-03"].inject(
            Baseline(document), random.Random(f"{seed}:SCP-03"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def test_products_of_cited_standards_are_read_from_their_titles() -> None:
    products = referenced_products(standard())
    assert "公交车车载视频监控终端" not in products  # the field's name is no part of the product's
    assert "车载视频监控终端" in products and "客流分析系统" in products
    assert "城市公交GPS导航系统" in products  # a bibliography title, the PDF's spaces around Latin closed
    assert "调度平台" not in products  # an interface specification names no product
    assert "电子站牌" in products


def test_a_sibling_product_joins_a_requirement_about_the_scope_object() -> None:
    document = standard()
    found = instances(document)
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
    scope = SCOPE.replace("的设计、制造和检验。", "的设计、制造和检验，亦适用于其他车载终端和导航系统。")
    document = standard(scope)
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert injectors()["SCP-03"].no_site_reason(document, context) == "no_outsider_in_scope"


def test_a_second_instance_in_one_document_names_another_product() -> None:
    """As the planner asks for a second instance (the first one's edit as `taken`): never the same product
    again, and none at all where the document names only one."""
    document = standard()
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
    single = standard(references=REFERENCES.replace("GB/T 99101—2024 公交车 车载视频监控终端技术要求\n", ""))
    context = InjectionContext.from_documents([single])
    first = injector.inject(Baseline(single), random.Random("a"), context).instance
    assert first is not None
    again = injector.inject(Baseline(single), random.Random("b"), context, taken=[first.edit])
    assert again.instance is None


def test_the_all_adverb_only_where_the_document_writes_it_before_the_same_words() -> None:
    """ "均应" in the body does not make "……和……均应能" the document's own wording: added before 应能 it
    would be the same new phrase in every instance that took it."""
    body = BODY.replace("5 试验方法", "4.4 功能\n试验后各项功能均应正常。\n5 试验方法")
    document = standard(body=body)
    found = [i for i in instances(document, seeds=30) if i.location == "4.1"]
    assert found
    assert not any("均" in r.new for i in found for r in i.edit.replacements)


def test_the_description_names_the_scope_objects_of_the_siblings_kind_without_their_short_names() -> None:
    scope = SCOPE.replace("公交车乘客计数仪的技术要求", "公交车乘客计数仪（以下简称计数仪）的技术要求")
    found = instances(standard(scope))
    assert found
    for instance in found:
        assert "（范围只涉及公交车乘客计数仪，未涵盖" in instance.description, instance.description
