"""The evidence that a body regulates a thing: a requirement or recommendation on it (not only a
permission), and the objects the body regulates by its clause titles and defined terms.

A scope that excludes such a thing contradicts the body; one that excludes a thing the body only permits, or
an operation a protocol clause specifies, contradicts nothing. Reading that evidence is its own concept.
"""

from __future__ import annotations

import functools
import re

from injectors.language.sentences import CLAUSE_SPLIT, provisions, sentences
from injectors.types.scp.editing import ALL_HAN, body_sections
from parsers.entries import split_term
from parsers.model import Document

# What a body title or term must end with to name an object (a thing the body regulates).
_OBJECT_SUFFIXES_TEXT = """
    设备 装置 系统 终端 容器 仪表 记录仪 探测器 传感器 控制器 显示屏 柜 箱 板 模块 单元
    接口 平台 软件 材料 标签 电池 主站 部件 组件 元件 线缆 电缆 管道 车辆 设施 车间
    场所 工具 机械 网关 集中器 报警器 面板 芯材 鲜叶 在制品 样品 数据库 证书 密钥 二维码 标识
    报文 数据帧 元数据
    """


_OBJECT_SUFFIXES = tuple(dict.fromkeys(_OBJECT_SUFFIXES_TEXT.split()))


# A protocol's clause titled "解析证书" or "导出密钥" specifies an operation on data, not a thing of its own
# that a scope could leave out ("解析证书未纳入本标准范围" reads as nonsense).
_OPERATION = re.compile(
    r"^(?:解析|验证|签发|生成|导出|导入|更新|吊销|注销|申请|获取|查询|删除|加密|解密|签名|传输|发送|接收|上报|下发)"
    r"(?:证书|密钥|报文|数据帧|元数据|二维码|标识)$"
)


# Modal verbs that only permit ("可配置以下附属装置"): a clause that lets a product have a thing does not
# regulate it, so a scope excluding the thing contradicts nothing.
_PERMITTING = frozenset(("可", "可以", "不必"))


def regulates(sentence: str, about: str = "") -> bool:
    """A requirement or recommendation (应, 不应, 宜, 必须 …) in the sentence, not only a permission; with
    `about`, one on that thing: named before the modal verb in its clause ("节点证书的存储应……") or right
    after it as what is acted on ("应对节点证书……"), not a thing another subject's requirement mentions
    ("显示界面应显示定位模块状态" regulates the display)."""
    for p in provisions(sentence):
        if p.word in _PERMITTING:
            continue
        if not about:
            return True
        clause_start = max((m.end() for m in CLAUSE_SPLIT.finditer(sentence, 0, p.start)), default=0)
        after = sentence[p.start + len(p.word) :]
        if about in sentence[clause_start : p.start] or after.startswith(("对" + about, "将" + about)):
            return True
    return False


@functools.lru_cache(maxsize=16)
def regulated_objects(document: Document) -> tuple[tuple[str, str], ...]:
    """(object, clause) pairs: objects the body regulates, from clause titles and defined terms, where the
    clause requires or recommends something of them (a clause that only permits fitting them is none)."""
    out: list[tuple[str, str]] = []
    body = body_sections(document)
    for _, s in body:
        title = s.title
        if (
            s.level >= 2
            and 3 <= len(title) <= 14
            and ALL_HAN.match(title)
            and title.endswith(_OBJECT_SUFFIXES)
            and not _OPERATION.match(title)
            and any(regulates(st.text) for st in sentences(s.text))
        ):
            out.append((title, s.number))
    for s in document.sections:
        if s.kind != "terms" or s.level < 2:
            continue
        term, _ = split_term(s.title)
        if not (3 <= len(term) <= 14 and ALL_HAN.match(term) and term.endswith(_OBJECT_SUFFIXES)):
            continue
        clause = next(
            (
                b.number
                for _, b in body
                for st in sentences(b.text)
                if term in st.text and regulates(st.text, term)
            ),
            None,
        )
        if clause:
            out.append((term, clause))
    seen: dict[str, str] = {}
    for obj, clause in out:
        seen.setdefault(obj, clause)
    return tuple(seen.items())
