"""Scope dimension (SCP) and STR-05: regression tests on standards written here.

SCP-04 no longer brings joining words ("，以及", "保护、") that two instances share; SCP-03 finds no site on a
scope that excludes nothing but lists its life-cycle stages; SCP-05 words its exclusion in several ways;
SCP-02 quotes whole words of the scope; STR-05 cites GB/T 1.1—2009 for an undeclared document whose
annexes carry the 2009 markers.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.novelty import document_wording, stock_ngrams
from injectors.language.words import boundaries, words
from injectors.registry import injectors
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.scp.test_scp_quality import (
    CABINET_BODY,
    CABINET_SCOPE,
    added_text,
    corpus,
    corpus_instances,
    instances,
    standard,
)

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


def test_stock_ngrams_flags_a_joining_phrase_the_document_never_used() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    line = "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求，以及防雷要求。"
    stock = stock_ngrams(line, document, words("防雷"))
    assert ("，", "以及") in stock
    assert all("防雷" not in g for g in stock)


def test_scp03_skips_a_scope_that_puts_nothing_outside() -> None:
    """A scope listing its life-cycle stages but excluding nothing gives no site: extending a requirement
    to a stage it does not list ("在改造前后均应……") read as padding, not as a drafting error."""
    document = standard(RECORDER_SCOPE, RECORDER_BODY, "车载 温度记录仪 技术要求")
    context = InjectionContext.from_documents([document])
    assert list(injectors()["SCP-03"].sites(document, context)) == []
    assert instances("SCP-03", document, seeds=6) == []


def test_scp05_varies_the_exclusion_wording_a_document_lacks() -> None:
    """A scope that never words an exclusion still offers one (a type real scopes never offered vanished
    from releases of real standards), in varied forms so that no one phrase ("。本文件不……") marks the
    type; one that already excludes gets the object as a new list item."""
    scope = "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求。\n本文件适用于社区共享工具柜。"
    body = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")
    found = [i for i in corpus_instances("SCP-05", corpus(scope, body, 10)) if added_text(i)]
    assert found
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 4 and max(forms.values()) <= 0.4 * len(found), forms
    for instance in found:
        assert "照明装置" in added_text(instance) and "4.4" in instance.description
    excluding = standard(scope + "\n本文件不适用于快递自提柜。", body)
    found = [i for i in instances("SCP-05", excluding, seeds=12) if added_text(i)]
    assert found
    for instance in found:
        assert "本文件不适用于" + added_text(instance) + "快递自提柜" in instance.corrupted_section.text


def test_scp02_quotes_the_scope_in_whole_words() -> None:
    scope = "本文件规定了公共图书馆数字资源长期保存的技术要求。\n本文件适用于公共图书馆数字资源的长期保存。"
    document = standard(scope, CABINET_BODY, "公共图书馆 数字资源 长期保存")
    for instance in instances("SCP-02", document, seeds=12):
        if "写成了" in instance.description and "作了规定" not in instance.description:
            quoted = instance.description.split("将“", 1)[1].split("……”", 1)[0]
            line = scope.split("\n")[0]
            assert line.startswith(quoted), quoted
            assert len(quoted) in boundaries(line), quoted  # ends on a word edge ("数字资" does not)
            assert len(quoted) > len("本文件规定了")


def _annexed(foreword: str, marker: str) -> Document:
    text = f"""T/XX 0001—2025
社区 共享工具柜 技术要求
前言
{foreword}
1 范围
本标准规定了社区共享工具柜的技术要求。
本标准适用于社区共享工具柜。
2 规范性引用文件
本标准没有规范性引用文件。
3 技术要求
柜体应符合附录A的规定。
附录A
（{marker}）
柜体尺寸
A.1 尺寸
柜体高度为1800 mm。
"""
    return parse_text(Path("annexed.txt"), text.encode())


def _str05_rules(document: Document) -> set[str]:
    context = InjectionContext.from_documents([document])
    out = set()
    for seed in range(8):
        a = injectors()["STR-05"].inject(Baseline(document), random.Random(seed), context, seed=seed)
        if a.instance is not None:
            out.add(a.instance.description.rsplit("依据：", 1)[1])
    return out


def test_str05_cites_2009_for_an_undeclared_document_with_2009_markers() -> None:
    document = _annexed("本标准由某协会提出。", "规范性附录")
    assert document.drafting_rules == "unknown"
    assert _str05_rules(document) == {"GB/T 1.1—2009 5.2.7"}


def test_str05_keeps_2020_for_an_undeclared_document_with_2020_markers() -> None:
    document = _annexed("本文件由某协会提出。", "规范性")
    assert document.drafting_rules == "unknown"
    assert _str05_rules(document) == {"GB/T 1.1—2020 9.6"}


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
