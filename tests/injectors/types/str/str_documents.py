"""Small standards and helpers written for the STR tests, shared by several of its test modules."""

from __future__ import annotations

from pathlib import Path

from injectors.checking import Violation, lint
from injectors.taxonomy import types
from parsers.model import Document
from parsers.text import parse_text

STR_TYPES = tuple(t.id for t in types() if t.dimension == "STR")  # the dimension's types


# A small standard written for these tests; each test breaks one thing in it.
SAMPLE = """GB/T 99990—2025
示例恒温箱 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出并归口。
1 范围
本文件规定了示例恒温箱的技术要求和试验方法。
本文件适用于实验室用示例恒温箱的设计和检验。
2 规范性引用文件
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温
3 术语和定义
下列术语和定义适用于本文件。
3.1
恒温箱 thermostatic chamber
能在设定温度下保持箱内温度稳定的试验设备。
4 技术要求
4.1 外观
箱体表面应平整，无划痕和锈蚀。
4.2 低温
低温性能应符合GB/T 2423.1—2008的规定，相应的温度点见附录B。
4.3 控温精度
控温精度的测量应符合附录A的规定。
5 试验方法
5.1 外观检查
在自然光下目视检查。
5.2 控温精度试验
按附录A进行，记录格式参见附录B。
附录A（规范性）控温精度的测量方法
A.1 仪器
温度记录仪的分辨力应满足表A.1的要求。
表A.1　仪器参数
| 参数 | 要求 |
| 分辨力 | 0.1 ℃ |
A.2 步骤
将记录仪探头放在箱体几何中心，连续记录30 min。
附录B（资料性）记录格式
B.1 记录内容
记录包括日期、设定温度和实测温度。
B.2 保存
记录可保存3年。
参考文献
[1] GB/T 191—2008　包装储运图示标志
"""


# chapter 5 numbers its table by chapter, as some drafters do
BY_CHAPTER = SAMPLE.replace(
    "在自然光下目视检查。", "在自然光下目视检查，结果记入表5-1。\n表5-1　外观检查记录\n| 项目 | 结果 |"
)


def parse(text: str) -> Document:
    return parse_text(Path("sample.txt"), text.encode())


def found(document: Document, error_type: str) -> list[Violation]:
    return [v for v in lint(document, [error_type])]


def locations(document: Document, error_type: str) -> list[str]:
    return [v.location for v in found(document, error_type)]


def edited(*pairs: tuple[str, str], text: str = SAMPLE) -> Document:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return parse(text)


FOREWORD = (
    "前言\n本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。\n"
)


FOREWORD_2009 = "前言\n本标准按照GB/T 1.1—2009给出的规则起草。\n"


# a 2009 document whose body cites no document normatively: its mandatory elements are 前言 and 范围
UNCITED_2009 = (FOREWORD, FOREWORD_2009), ("应符合GB/T 2423.1—2008的规定", "应满足低温试验的要求")
