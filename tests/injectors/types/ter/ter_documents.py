"""Small standards written for the terminology (TER) tests, and the findings of one checker on them."""

from __future__ import annotations

from pathlib import Path

from injectors.checking import lint
from injectors.taxonomy import types
from parsers.model import Document
from parsers.text import parse_text

TER_TYPES = tuple(t.id for t in types() if t.dimension == "TER")  # the dimension's types
FOREWORD_2020 = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"
FOREWORD_2009 = "本标准按照GB/T 1.1—2009给出的规则起草。"
TERMS = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 标定周期 calibration interval
相邻两次标定之间的时间间隔。"""
BODY = """4 要求
4.1 采样
采样单元应每天自检一次，标定周期不应超过30 d。
4.2 标志
采样单元的标志应符合GB/T 191—2008的规定。"""


def document(
    terms: str = TERMS,
    body: str = BODY,
    lead_in: str = "下列术语和定义适用于本文件。",
    foreword: str = FOREWORD_2020,
    scope_title: str = "范围",
    references_title: str = "规范性引用文件",
    extra_references: str = "",
) -> Document:
    """A tiny standard: foreword, scope, references, terms, body (all text written for the tests)."""
    text = f"""GB/T 99990—2025
示例采样设备 技术要求
前言
{foreword}
1 {scope_title}
本文件规定了示例采样设备的要求。
本文件适用于示例采样设备。
2 {references_title}
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
GB/T 191—2008　包装储运图示标志
{extra_references}
3 术语和定义
{lead_in}
{terms}
{body}
"""
    return parse_text(Path("test.txt"), text.encode())


def violations(doc: Document, error_type: str) -> list[tuple[str, str]]:
    return [(v.location, v.message) for v in lint(doc, [error_type])]
