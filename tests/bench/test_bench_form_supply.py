"""`bench/form_supply.py`: per form of a type, the documents that offer it and the types each offer takes."""

from __future__ import annotations

from pathlib import Path

from bench.form_supply import form_offers, reach
from injectors.context import InjectionContext
from injectors.planner import PlanConfig, candidate_instances
from parsers.model import Document
from parsers.text import parse_text

FOREWORD = "本标准按照GB/T 1.1—2009给出的规则起草。"


def _standard(name: str) -> Document:
    text = f"""GB/T 99972—2019
停车场 风速传感器 技术要求
前言
{FOREWORD}
本标准由全国停车设施标准化技术委员会提出并归口。
1 范围
本标准规定了风速传感器的技术要求。
本标准适用于停车场风速传感器的设计和检验。
2 规范性引用文件
下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。
GB/T 99001—2018 停车场 传感器 通用技术条件
3 术语和定义
本标准没有需要界定的术语和定义。
4 技术要求
4.1 外壳
风速传感器的外壳应符合GB/T 99001—2018的规定。
4.2 计量
风速数据应每分钟刷新一次。
"""
    return parse_text(Path(name), text.encode())


def test_a_chapter_deletion_takes_the_errors_inside_the_chapter_with_it() -> None:
    document = _standard("a.txt")
    context = InjectionContext.from_documents([document])
    config = PlanConfig(types=("STR-01", "NREF-01", "NREF-05"))
    candidates = [candidate_instances(document, 0, context, config)]
    offers = form_offers(candidates, "STR-01")
    assert set(offers) == {"前言", "范围", "规范性引用文件"}
    assert [o.doc_id for o in offers["规范性引用文件"]] == [document.doc_id]
    # NREF-01 edits the reference list, which deleting chapter 2 takes with it (and so does NREF-05's title
    # in 《》 on one of its entries); NREF-05 edits a citation in the 前言 (its dash), which deleting the 前言
    # takes with it
    assert offers["规范性引用文件"][0].clashing == ("NREF-01", "NREF-05")
    assert offers["前言"][0].clashing == ("NREF-05",)
    assert offers["范围"][0].clashing == ()  # the scope holds neither the list nor a citation
    assert reach(candidates) == {"STR-01": 1, "NREF-01": 1, "NREF-05": 1}
