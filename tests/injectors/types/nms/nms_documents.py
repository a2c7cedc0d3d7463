"""Small standards and helpers written for the NMS tests, shared by several of its test modules."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.language.modals import modal_verbs
from injectors.types.nms.evidence_finding import recommendation_evidence
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from parsers.model import Document
from parsers.text import parse_text


def standard(body: str, *, edition: str = "2020", foreword: str = "", annex: str = "") -> Document:
    """A small standard written for these tests: a given body after the usual front elements."""
    doc = "本文件" if edition == "2020" else "本标准"
    rules = (
        "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"
        if edition == "2020"
        else "本标准按照GB/T 1.1—2009给出的规则起草。"
    )
    marker = "资料性" if edition == "2020" else "资料性附录"
    text = f"""GB/T 99902—2025
社区 快递 智能柜 技术要求
前言
{rules}
{foreword}
{doc}由示例标准化技术委员会提出。
{doc}起草单位：宜宾示例研究院。
1 范围
{doc}规定了社区快递智能柜的技术要求。
{doc}适用于社区内设置的快递智能柜。
2 规范性引用文件
{doc}没有规范性引用文件。
3 术语和定义
下列术语和定义适用于{doc}。
3.1
格口 compartment
智能柜中存放单件快件的储物空间。
4 技术要求
4.1 一般要求
{body}
4.2 标志
柜体正面应设置服务电话。
附录A
（{marker}）
使用示例
{annex or "快递员投递后，系统向收件人发送取件码。"}
"""
    return parse_text(Path("test.txt"), text.encode())


def found(document: Document, error_type: str) -> list[str]:
    """Where the checker of one type fires, each location once, in document order."""
    return list(dict.fromkeys(v.location for v in lint(document, [error_type])))


ACCESS_FRONT = """GB/T 99904—2025
楼宇 门禁 系统 安全要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了楼宇门禁系统的安全要求。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
"""


def access_document(body: str) -> Document:
    return parse_text(Path("nms02.txt"), (ACCESS_FRONT + body).encode())


SEEDS = range(6)


def evidence_standard(requirements: str, *, tests: str = "", inspection: str = "") -> Document:
    """A small 2020 standard: the given requirements in 4.1, optional test methods (5) and inspection (6)."""
    clauses = f"4.1 柜门开启\n{requirements}\n4.2 标志\n柜体正面的标志内容由运营方确定。"
    return locker(clauses, tests=tests, inspection=inspection)


def attempts(document: Document, injector: RequirementWeakened | RecommendationStrengthened) -> list:
    context = InjectionContext.from_documents([document])
    baseline = Baseline(document)
    return [injector.inject(baseline, random.Random(f"{seed}:e"), context, seed=seed) for seed in SEEDS]


LOCKER_FRONT = """GB/T 99905—2025
社区 快递 智能柜 安装要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了社区快递智能柜的安装要求。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
"""


def locker_document(body: str) -> Document:
    return parse_text(Path("forms.txt"), (LOCKER_FRONT + body).encode())


STATEMENTS_AND_CLAUSES = """4 安装要求
4.1 基础
柜体应安装在坚实平整的地面上。基础的混凝土强度等级应不低于C20。
注：基础通常采用现浇混凝土。
4.2 固定
柜体应采用膨胀螺栓固定。固定点应不少于4个。
注：膨胀螺栓的规格按柜体质量选用。
4.3 接地
柜体应可靠接地。接地电阻应不大于4 Ω。
4.4 布线
电源线应穿管敷设。线管应固定在墙面上。
4.5 照明
柜体正面宜设置照明灯。照明灯宜采用LED光源。
4.6 标志
柜体正面应设置运营方标志。标志应清晰可见。
"""


def locker(clauses: str, tests: str = "", inspection: str = "") -> Document:
    """A made-up parcel locker standard: `clauses` under chapter 4, test methods (5), inspection (6)."""
    text = f"""GB/T 99903—2025
社区 快递 智能柜 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出。
1 范围
本文件规定了社区快递智能柜的技术要求。
本文件适用于社区内设置的快递智能柜。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
{clauses}
5 试验方法
5.1 试验条件
试验在常温常湿的室内进行。
{tests}
6 检验规则
6.1 检验分类
智能柜的检验分为出厂检验和型式检验。
{inspection}
"""
    return parse_text(Path("evidence.txt"), text.encode())


def position(document: Document, number: str) -> int:
    return next(i for i, s in enumerate(document.sections) if s.number == number)


PLAIN = "柜门应采用金属材料制作。取件后柜门宜自动锁闭。"


def clause_line(document: Document, number: str, marker: str) -> tuple:
    """(line offset, line, modal) of the first modal verb within `marker` in a section."""
    text = document.sections[position(document, number)].text
    at = text.index(marker)
    offset = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[offset : end if end >= 0 else len(text)]
    modal = next(m for m in modal_verbs(line) if at - offset <= m.start < at - offset + len(marker))
    return offset, line, modal


def evidence_at(doc: Document, number: str, word: str) -> list:
    """NMS-02's evidence for the first modal verb `word` of a section."""
    position = next(i for i, s in enumerate(doc.sections) if s.number == number)
    section = doc.sections[position]
    offset = 0
    for line in section.text.split("\n"):
        for modal in modal_verbs(line):
            if modal.word == word:
                return recommendation_evidence(doc, position, offset, line, modal)
        offset += len(line) + 1
    raise AssertionError(f"no {word} in {number}")


def strengthened_attempts(doc: Document) -> list:
    """NMS-02's attempts on a document over a few seeds."""
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RecommendationStrengthened()
    return [injector.inject(baseline, random.Random(f"{seed}:r"), context, seed=seed) for seed in range(6)]
