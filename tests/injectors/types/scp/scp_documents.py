"""Small standards (a tool cabinet, a data exchange, a passenger counter, a fare server) written for the
SCP tests, and the runs of an injector over seeds or over a corpus that several SCP test modules share."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.base import Injector
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from injectors.taxonomy import types
from parsers.model import Document
from parsers.text import parse_text

FOREWORD = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"


# A hardware product: a community tool cabinet whose scope excludes parcel lockers.
CABINET_SCOPE = (
    "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求，描述了相应的试验方法。\n"
    "本文件适用于住宅小区内设置的社区共享工具柜。\n"
    "本文件不适用于快递自提柜。"
)


CABINET_BODY = """4 技术要求
4.1 柜体
共享工具柜应采用耐腐蚀材料制作，柜体表面不应有毛刺。
共享工具柜的柜门应能在断电时手动开启。
4.2 门锁
门锁宜具有远程开启功能。门锁的材料应采用不锈钢。
4.3 电气安全
共享工具柜的外壳应可靠连接保护导体。柜体的结构应防止误触带电部件。
5 试验方法
5.1 外观检查
在自然光下目视检查柜体外观和尺寸。
5.2 门锁试验
连续开闭门锁500次后检查门锁功能。
"""


# An information standard: a data exchange format, no hardware at all.
EXCHANGE_SCOPE = (
    "本文件规定了社区服务平台之间交换报文的数据元素、编码规则和接口要求。\n"
    "本文件适用于社区服务平台之间的数据交换。"
)


EXCHANGE_BODY = """4 数据元素
4.1 基本要求
报文应采用UTF-8编码。数据元素的名称应唯一。
4.2 字段
每个字段应给出数据类型和长度。字段的编码应符合附录A。
5 接口要求
5.1 协议
接口应采用HTTPS协议传输报文。接口的报文应包含时间戳。
5.2 数据
数据元素的取值应符合编码规则，数据接口应返回处理结果。
"""


def standard(
    scope: str,
    body: str,
    title: str = "社区 共享工具柜 技术要求",
    *,
    code: str = "GB/T 99951—2025",
    references: str = "本文件没有规范性引用文件。",
    name: str = "scope-quality.txt",
) -> Document:
    """A small standard written for these tests: cover, foreword, scope `scope`, references, and `body`
    (with whatever follows it: annexes, a bibliography)."""
    text = f"""{code}
{title}
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
{references}
3 术语和定义
本文件没有需要界定的术语和定义。
{body}"""
    return parse_text(Path(name), text.encode())


def injector(type_id: str) -> Injector:
    return injectors()[type_id]


def instances(type_id: str, document: Document, seeds: int = 12) -> list[ErrorInstance]:
    """Instances of one type on one document over several seeds, with a context of other fields."""
    other = standard(EXCHANGE_SCOPE, EXCHANGE_BODY, "社区服务平台 数据交换 报文格式")
    return run(type_id, document, InjectionContext.from_documents([document, other]), seeds)


def added_text(instance: ErrorInstance) -> str:
    return "".join(r.new for r in instance.edit.replacements)


def corpus(scope: str, body: str, size: int) -> list[Document]:
    """`size` standards of one series with the same scope and body: a corpus whose documents differ only
    in their numbers and titles."""
    return [parse_text(Path(f"cabinet-{n}.txt"), _text(scope, body, n).encode()) for n in range(size)]


def _text(scope: str, body: str, n: int) -> str:
    return f"""GB/T {99950 + n}—2025
社区 共享工具柜 第{n + 1}部分：技术要求
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
{body}"""


def corpus_instances(type_id: str, documents: list[Document], seed: int = 0) -> list[ErrorInstance]:
    """One instance per document (where it takes one), each injected with the whole corpus as context."""
    context = InjectionContext.from_documents(documents)
    out = []
    for document in documents:
        attempt = injector(type_id).inject(
            Baseline(document), random.Random(f"{seed}:{type_id}:{document.doc_id}"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def run(type_id: str, document: Document, context: InjectionContext, seeds: int = 12) -> list[ErrorInstance]:
    out = []
    for seed in range(seeds):
        attempt = injectors()[type_id].inject(
            Baseline(document), random.Random(f"{seed}:{type_id}"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def dropped_qualifiers(document: Document) -> list[ErrorInstance]:
    """The document's SCP-05 instances that drop a qualifier of the scope (the document alone as corpus)."""
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    return [i for i in found if "限定语" in i.description]


TYPES = tuple(t.id for t in types() if t.dimension == "SCP")  # the dimension's types


FOREWORDS = {
    2020: "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。",
    2009: "本标准按照GB/T 1.1—2009给出的规则起草。",
}


def scope_standard(scope: str, *, generation: int = 2020, scope_title: str = "范围") -> Document:
    """A small standard (written for these tests) whose chapter 1 is `scope`."""
    text = f"""GB/T 99950—2025
社区 共享工具柜 技术要求
前言
{FOREWORDS[generation]}
1 {scope_title}
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
4.1 柜体
柜体应采用耐腐蚀材料制作，表面不应有毛刺。
4.2 门锁
门锁宜具有远程开启功能。
5 试验方法
5.1 外观检查
在自然光下目视检查柜体外观。
5.2 门锁试验
连续开闭门锁500次后检查门锁功能。
"""
    return parse_text(Path("tool-cabinet.txt"), text.encode())


def scope_findings(document: Document) -> list[tuple[str, str]]:
    return [(v.location, v.error_type) for v in lint(document, TYPES)]


# An information-and-hardware standard whose requirements never have the scope's object as subject (as in
# most real protocol and security standards): the scope's short name is all SCP-01 has to go on.
POST_SCOPE = (
    "本文件规定了停车场交流充电桩管理终端（以下简称终端）的功能要求、通信要求和试验方法。\n"
    "本文件适用于停车场交流充电桩管理终端的设计、开发和验收。"
)


POST_BODY = """4 功能要求
4.1 计量
计量数据应每分钟刷新一次。
4.2 显示
显示屏应能显示充电电量和费用。
5 通信要求
5.1 报文
上报报文应包含时间标签。
6 试验方法
6.1 计量试验
用标准电能表比对计量数据。
"""


def charger_standard(
    scope: str,
    body: str = POST_BODY,
    title: str = "停车场 充电桩管理终端 技术要求",
    terms: str = "",
    number: int = 99961,
) -> Document:
    text = f"""GB/T {number}—2025
{title}
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
{terms or "本文件没有需要界定的术语和定义。"}
{body}"""
    return parse_text(Path("scope-sites.txt"), text.encode())


def alone_instances(type_id: str, document: Document, seeds: int = 20) -> list[ErrorInstance]:
    """Instances over several seeds with the document alone as its corpus."""
    return run(type_id, document, InjectionContext.from_documents([document]), seeds)


def shows(instance: ErrorInstance, document: Document) -> bool:
    """The corrupted document alone shows an error of the instance's type at its location."""
    corrupted = apply_edits(document, [instance.edit]).document
    return any(v.location == instance.location for v in lint(corrupted, [instance.error_type]))


# A passenger counter whose references and bibliography cite standards of sibling products.
COUNTER_SCOPE = (
    "本文件规定了公交车乘客计数仪的技术要求和试验方法。\n本文件适用于公交车乘客计数仪的设计、制造和检验。"
)


COUNTER_REFERENCES = """GB/T 99101—2024 公交车 车载视频监控终端技术要求
GB/T 99102 计算机通用规范 第3部分：服务器
GB/T 99103 公交车 电子站牌通用规范
GB/T 99104 公交车 调度平台接口规范
GB/T 99105 公交车 客流分析系统技术要求
GB/T 99107 公交车 车载电源适配装置技术要求"""


COUNTER_BODY = """4 技术要求
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


COUNTER_BIBLIOGRAPHY = "[1] GB/T 99106 城市公交 GPS 导航系统通用规范"


def counter_standard(
    scope: str = COUNTER_SCOPE, references: str = COUNTER_REFERENCES, body: str = COUNTER_BODY
) -> Document:
    return standard(
        scope,
        f"{body}参考文献\n{COUNTER_BIBLIOGRAPHY}\n",
        "公交车 乘客计数仪 技术要求",
        code="GB/T 99991—2025",
        references=f"下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。\n{references}",
        name="scp03-siblings.txt",
    )


# A fare settlement server whose annex names other servers.
SERVER_SCOPE = (
    "本文件规定了票务结算服务器的技术要求和试验方法。\n本文件适用于票务结算服务器的设计、制造和检验。"
)
SERVER_BODY = """4 技术要求
4.1 供电
票务结算服务器应能在交流198 V～242 V电压下正常工作。
4.2 存储
票务结算服务器应保存交易记录至少180天。
4.3 接收
票务结算服务器应在5 s内确认线路调度指令。
5 试验方法
5.1 电压试验
在198 V和242 V下各运行1 h后检查结算功能。
"""
SERVER_ANNEX = """附录A
（资料性）
报文示例
A.1 报文
本附录给出票务结算服务器与线路调度服务器之间的报文示例，以及双机票务结算服务器的切换报文。
表A.2 网关服务器报文格式
结算服务器收到报文后返回确认。
"""


def server_standard(
    scope: str = SERVER_SCOPE, body: str = SERVER_BODY, annex: str = SERVER_ANNEX
) -> Document:
    return standard(
        scope,
        body + annex,
        "公交车 票务结算服务器 技术要求",
        code="GB/T 99992—2025",
        name="scp03-named-siblings.txt",
    )


# A charging post manager whose scope and title both restrict it to residential quarters.
WIDE_SCOPE = (
    "本文件规定了交流充电桩管理终端的功能要求和试验方法。\n"
    "本文件适用于住宅小区内设置的交流充电桩管理终端的设计和验收。"
)


WIDE_TITLE = "住宅小区 充电桩管理终端 技术要求"


# The tool cabinet whose body restricts two clauses to residential quarters.
YARD_BODY = CABINET_BODY.replace(
    "共享工具柜的柜门应能在断电时手动开启。", "住宅小区共享工具柜的柜门应能在断电时手动开启。"
).replace("柜体的结构应防止误触带电部件。", "住宅小区共享工具柜的结构应防止儿童误触带电部件。")
