"""Small standards written for the terminology (TER) tests, the helpers several of its test modules share
and the findings of one checker on them."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from injectors.base import Injector
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
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


SEEDS = (0, 1)


_BASELINES: dict[str, Baseline] = {}


def injected(
    injector: Injector, doc: Document, context: InjectionContext, seed: int
) -> tuple[Baseline, ErrorInstance | None]:
    """One injection as the bench does it; the original's lint is computed once per document."""
    baseline = _BASELINES.get(doc.source)
    if baseline is None or baseline.document is not doc:
        baseline = _BASELINES[doc.source] = Baseline(doc)
    attempt = injector.inject(baseline, random.Random(f"{seed}:{doc.doc_id}:x"), context, seed=seed)
    return baseline, attempt.instance


FLOW_TERMS = TERMS + "\n3.3 试样流量 sample flow\n单位时间内流经采样单元的试样体积。"


FLOW_BODY = BODY + "\n4.3 流量\n试样流量不应小于1 L/min。"


# The device standard says 流量 and 试样 on their own: a sister standard's "采样流量" is made of its words.
DEVICE_BODY = BODY.replace(
    "标定周期不应超过30 d。", "标定周期不应超过30 d。采样单元的流量应稳定，试样不应被污染。"
)


SISTER_TERMS = """3.1 采样流量 sampling flow rate
单位时间内流经采样单元的试样体积。
3.2 自检项 self-test item
采样单元每次自检时检查的项目。
3.3 标志信息 marking information
采样单元标志上给出的内容。"""


SISTER_BODY = "4 要求\n采样流量应可调。自检项应在说明书中列出。标志信息应清晰。"


def device_and_sister(sister_ics: str, sister_ccs: str) -> tuple[Document, InjectionContext]:
    device = document(body=DEVICE_BODY)
    device = replace(device, cover=replace(device.cover, ics="13.040.40", ccs="Z 15"))
    sister = document(terms=SISTER_TERMS, body=SISTER_BODY)
    sister = replace(sister, doc_id="sister", cover=replace(sister.cover, ics=sister_ics, ccs=sister_ccs))
    return device, InjectionContext.from_documents([device, sister])


THREE_TERMS = TERMS + "\n3.3 伴热管线 heated line\n将试样从采样单元输送至分析单元并保持其温度的管线。"


THREE_BODY = """4 要求
4.1 采样
采样单元应每天自检一次，标定周期不应超过30 d。伴热管线的温度不应低于120 ℃。
4.2 输送
伴热管线的长度不宜超过30 m。
4.3 标志
采样单元的标志应符合GB/T 191—2008的规定。"""


def llm_writable_cases() -> list[tuple[Document, InjectionContext]]:
    """Documents (with their context) that offer the forms an LLM rewrites: a written term (TER-01, no
    entry or abbreviation to take out) and a borrowed entry (TER-02, a sister standard of the same narrow
    field). The project corpus gives these types entry removals and renamed entries, which leave nothing
    for an LLM to write."""
    terms = TERMS.replace(
        "从被测介质中抽取并输送试样的部件组合。", "从被测介质中抽取并输送试样的部件组合，由流量传感器组成。"
    )
    body = BODY.replace("采样单元应每天自检一次", "采样单元应每天自检一次，流量的测量由传感器完成")
    written = document(terms=terms, body=body)
    device, context = device_and_sister("13.040.40", "Z 15")
    return [(written, InjectionContext()), (device, context)]
