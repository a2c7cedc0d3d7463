"""Descriptions that hold on the corrupted, assembled document: the clause of the declared edition (both
editions for every type, no fallback to the other), fixes computed from the final state, evidence quoted
from the corrupted text, and quotes that cut no word and no standard number.

Fixtures are small standards written for these tests (a made-up road water-depth monitor).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.base import Baseline
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.registry import definition, definitions
from injectors.taxonomy import EDITION_2009, EDITION_2020, ErrorType
from parsers.model import Document
from parsers.text import parse_text

LEAD_2009 = (
    "下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。"
    "凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)

MONITOR_2009 = f"""GB/T 99903—2012
示例 路面 积水 监测仪
前言
本标准按照GB/T 1.1—2009给出的规则起草。
1 范围
本标准规定了路面积水监测仪的技术要求和试验方法。
本标准适用于城市道路使用的积水监测仪。
2 规范性引用文件
{LEAD_2009}
GB/T 191　包装储运图示标志
3 术语和定义
本标准没有需要界定的术语和定义。
4 技术要求
4.1 测量范围
监测仪的水深测量范围应为0 mm～500 mm。
注：水深读数以毫米表示。
4.2 标志
标志应符合GB/T 191中4.2的规定。
附录A
（资料性附录）
安装记录
A.1 记录
安装记录采用统一的表格。
"""


def parse(text: str, name: str = "monitor.txt") -> Document:
    return parse_text(Path(name), text.encode())


def instances(document: Document, type_id: str, seeds: int = 8) -> list[ErrorInstance]:
    context = InjectionContext.from_documents([document])
    injector = definition(type_id).injector()
    out = []
    for seed in range(seeds):
        attempt = injector.inject(Baseline(document), random.Random(seed), context, seed=seed)
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def cited(instance: ErrorInstance) -> str:
    return instance.description.rsplit("；依据：", 1)[1]


# --- both editions, for every type ---------------------------------------------------------------------
@pytest.mark.parametrize("spec", [d.error_type for d in definitions()], ids=lambda t: t.id)
def test_every_type_has_a_clause_of_each_edition(spec: ErrorType) -> None:
    assert spec.rule.startswith(EDITION_2020 + " ") and spec.rule_2009.startswith(EDITION_2009 + " ")
    for edition in (EDITION_2009, EDITION_2020):
        assert all(rule.startswith(edition + " ") for rule in spec.rules_for(edition)), spec.id


def test_a_row_without_its_2009_clause_is_refused() -> None:
    with pytest.raises(ValueError, match=r"GB/T 1\.1—2009"):
        ErrorType("NMS-09", "NMS", "示例", "Example", "GB/T 1.1—2020 9.2", "", "R", "D")


def test_a_2009_document_s_provision_in_a_note_or_informative_annex_cites_2009_clauses() -> None:
    document = parse(MONITOR_2009)
    assert document.drafting_rules == EDITION_2009
    found = {cited(i): i.description for i in instances(document, "NMS-05")}
    # the note's clause (条文的注和示例) and the informative annex's, never 2020's 9.2
    assert set(found) == {"GB/T 1.1—2009 6.5.1", "GB/T 1.1—2009 6.4.1"}, found
    assert "注中" in found["GB/T 1.1—2009 6.5.1"] and "资料性附录" in found["GB/T 1.1—2009 6.4.1"]


def test_a_2009_document_s_citation_form_error_cites_the_2009_list_clause() -> None:
    made = instances(parse(MONITOR_2009), "NREF-05")
    assert made and {cited(i) for i in made} == {"GB/T 1.1—2009 6.2.3"}
    spec = definition("NREF-05").error_type
    assert spec.rule_for(EDITION_2020, "引导语") == "GB/T 1.1—2020 8.6"
