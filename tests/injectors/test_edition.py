"""The edition of GB/T 1.1 a document is held to is decided once, and every type's description follows it.

A document that declares no edition (an environmental HJ standard, a draft without its foreword sentence)
is read by its own writing: 2009 annex markers or 本标准 make it a 2009 document, and then no type may cite
a 2020 clause on it while another cites a 2009 one.
"""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edition import edition
from injectors.error_type import EDITION_2009, EDITION_2020
from injectors.registry import definitions
from parsers.model import Document
from parsers.text import parse_text

# An undeclared document written the 2009 way: it calls itself 本标准 and marks its annex "（资料性附录）".
KETTLE = """HJ 9001—2016
园区 雨水收集桶 技术要求
前言
本标准由某环保协会提出。
本标准起草单位：某环保研究所。
1 范围
本标准规定了园区雨水收集桶的容量、材料、检验和标志要求。
本标准适用于园区绿地使用的雨水收集桶。
2 规范性引用文件
下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。
GB/T 2828.1—2012 计数抽样检验程序 第1部分：按接收质量限（AQL）检索的逐批检验抽样计划
GB/T 16422.2—2014 塑料 实验室光源暴露试验方法 第2部分：氙弧灯
HJ 2537—2014 环境标志产品技术要求 水性涂料
3 术语和定义
下列术语和定义适用于本标准。
3.1
雨水收集桶 rainwater collecting barrel
承接屋面或地面径流雨水并暂存以备浇灌使用的容器。
3.2
溢流口 overflow outlet
桶内水位达到上限时将多余雨水排出的开口。
4 要求
4.1 容量
雨水收集桶的有效容量应不小于200 L，宜为300 L。
雨水收集桶的溢流口应设在距桶口100 mm以内。
4.2 材料
桶体材料的耐候性应按GB/T 16422.2—2014进行试验，试验后不应出现开裂。
桶体可采用再生塑料，其涂层应符合HJ 2537—2014的规定。
注：深色桶体可减少藻类滋生。
5 检验
5.1 抽样
出厂检验的抽样应按GB/T 2828.1—2012的规定进行。
5.2 判定
检验项目全部合格时，判该批产品合格。
6 标志
每只雨水收集桶应在桶身明显位置标出容量和生产日期，标志的样式见附录A。
附录A
（资料性附录）
标志样式
A.1 标志内容
标志包括容量、生产日期和生产单位名称。
A.2 标志尺寸
标志的尺寸宜为80 mm×50 mm。
"""


def _parsed(text: str) -> Document:
    return parse_text(Path("kettle.txt"), text.encode())


def test_an_undeclared_document_is_read_by_its_annex_markers_and_self_reference() -> None:
    document = _parsed(KETTLE)
    assert document.drafting_rules == "unknown"
    assert edition(document) == EDITION_2009
    modern = _parsed(KETTLE.replace("（资料性附录）", "（资料性）").replace("本标准", "本文件"))
    assert edition(modern) == EDITION_2020
    # no annex: the self-reference alone decides
    bare = KETTLE.split("附录A\n（", 1)[0].replace("，标志的样式见附录A", "")
    assert edition(_parsed(bare)) == EDITION_2009
    assert edition(_parsed(bare.replace("本标准", "本文件"))) == EDITION_2020


def test_a_declared_edition_wins_over_the_writing() -> None:
    declared = KETTLE.replace(
        "本标准由某环保协会提出。", "本文件按照GB/T 1.1—2020给出的规则起草。\n本标准由某环保协会提出。"
    )
    document = _parsed(declared)
    assert document.drafting_rules == EDITION_2020
    assert edition(document) == EDITION_2020


def test_every_type_cites_the_one_edition_of_an_undeclared_document() -> None:
    document = _parsed(KETTLE)
    context = InjectionContext.from_documents([document])
    cited: dict[str, set[str]] = {}
    for definition in definitions():
        for seed in range(3):
            attempt = definition.injector().inject(
                Baseline(document), random.Random(f"edition:{seed}"), context, seed=seed
            )
            if attempt.instance is not None:
                rule = attempt.instance.description.rsplit("依据：", 1)[1]
                held = " ".join(rule.split(" ")[:2])  # "GB/T 1.1—2009" of "GB/T 1.1—2009 6.2.3"
                cited.setdefault(held, set()).add(definition.error_type.id)
    assert len({t for ts in cited.values() for t in ts}) >= 8, cited  # the fixture offers many types a site
    assert set(cited) == {EDITION_2009}, cited


def test_the_reviewer_s_type_prompts_cite_the_same_edition_as_the_descriptions() -> None:
    """The reviewer agents list each type with its clause; on an undeclared document that is the clause of
    the edition the descriptions cite, or a model would be told one rule and scored against another."""
    from evaluation.reviewer.agents import plan_calls

    prompts = " ".join(call.prompt for call in plan_calls(_parsed(KETTLE), ["type", "dimension"]))
    assert "（GB/T 1.1—2009 " in prompts  # a type line: "NMS-02 推荐或允许被强化（GB/T 1.1—2009 …）"
    assert "（GB/T 1.1—2020 " not in prompts
