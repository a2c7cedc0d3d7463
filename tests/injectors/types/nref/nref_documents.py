"""Small standards (a made-up rooftop rain sensor) written for the NREF tests, one checker's findings, and
what several NREF test modules check of a description."""

from __future__ import annotations

from pathlib import Path

import regex

from injectors.checking import lint
from injectors.instance import ErrorInstance
from injectors.taxonomy import types
from parsers.model import Document
from parsers.text import parse_text

NREF = tuple(t.id for t in types() if t.dimension == "NREF")  # the dimension's types
LEAD_2020 = (
    "下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。其中，注日期的引用文件，"
    "仅该日期对应的版本适用于本文件；不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)
LEAD_2009 = (
    "下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。"
    "凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)


def standard(
    references: str,
    body: str,
    *,
    bibliography: str = "",
    foreword: str = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》起草。",
    lead_in: str = LEAD_2020,
    terms: str = "下列术语和定义适用于本文件。",
) -> Document:
    """A small standard about a made-up product (a rooftop rain sensor), with the parts a test varies."""
    text = f"""GB/T 99902—2025
屋面 雨量传感器 技术要求
前言
{foreword}
1 范围
本文件规定了屋面雨量传感器的技术要求和试验方法。
本文件适用于民用建筑屋面安装的雨量传感器。
2 规范性引用文件
{lead_in}
{references}
3 术语和定义
{terms}
3.1
雨量传感器 rain sensor
将降水量转换为电信号的装置。
4 技术要求
{body}
5 标志
5.1 产品标志
产品铭牌应标明型号、制造日期和出厂编号。
5.2 包装标志
包装标志应清晰。
"""
    if bibliography:
        text += f"参考文献\n{bibliography}\n"
    return parse_text(Path("rain-sensor.txt"), text.encode())


def found(document: Document, error_type: str) -> list[tuple[str, str]]:
    return [(v.location, v.message) for v in lint(document, [error_type])]


GB4208 = "GB 4208—2017　外壳防护等级（IP代码）"
GB2423 = "GB/T 2423.1—2008　环境试验　低温"
ISO8601 = "ISO 8601-1:2019　Date and time"
CLEAN_REFERENCES = f"{GB4208}\n{GB2423}\n{ISO8601}"
CLEAN_BODY = (
    "4.1 防护\n传感器外壳的防护等级不应低于GB 4208—2017规定的IP65。\n"
    "4.2 低温\n按GB/T 2423.1—2008中试验Ab的规定进行低温试验。\n"
    "4.3 时间\n记录时刻的表示应符合ISO 8601-1:2019的规定。\n注：安装要点参见GB/T 50345—2012。"
)


RAIN_LIST = "GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温"
RAIN_BODY = "4.1 低温\n传感器应按GB/T 2423.1—2008的规定进行低温试验，试验后应能正常工作。"


def _quoted(text: str) -> list[str]:
    return [part.split("”")[0] for part in text.split("“")[1:]]


def names_the_change(instance: ErrorInstance) -> bool:
    """The error part of the description quotes the changed words: text that is in the original section
    or in the corrupted one but not in both (for a swap: the two exchanged entries)."""
    assert instance.original_section is not None and instance.corrupted_section is not None
    quoted = _quoted(instance.description.split("；修改建议：")[0])
    if instance.error_type == "NREF-04":  # the two exchanged entries, then (across others) the list between
        swapped = [r.old for r in instance.edit.replacements]
        return len(quoted) >= 2 and all(any(entry.startswith(q) for entry in swapped) for q in quoted[:2])
    # the planner renumbers "第5章" and "“5.2”" when other errors renumber this document: quotations of the
    # text and clauses of other documents must not take that form
    assert not any(regex.search(r"第\d+(?:\.\d+)*[条章]|^[\dA-Z](?:\.\d+)*$", q) for q in quoted), quoted
    before, after = instance.original_section.text, instance.corrupted_section.text
    fragments = [f for q in quoted for f in q.split("…") if len(f) >= 4]
    return any((f in before) != (f in after) for f in fragments)


# An entry dated after the rain-sensor standard itself (2025): a number no one could have cited, as texts
# carrying another benchmark's planted errors hold; "GB/T 39871—2019" is the same entry as it could exist.
FUTURE = "GB/T 39871—2031　屋面　排水槽"
FUTURE_BODY = "4.5 排水\n排水槽的排水能力应符合GB/T 39871—2031的规定。"


def with_future(year: str = "2031", more: str = "") -> Document:
    """The clean rain-sensor standard with one more entry, cited from a requirement, dated `year` (and
    `more` entries at the end of the list, cited nowhere)."""
    return standard(
        CLEAN_REFERENCES.replace(GB2423, f"{GB2423}\n{FUTURE.replace('2031', year)}") + "\n" + more,
        CLEAN_BODY + "\n" + FUTURE_BODY.replace("2031", year),
    )
