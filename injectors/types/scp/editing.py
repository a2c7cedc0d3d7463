"""Injectors of the scope dimension (SCP): a provision put into 范围, a broken scope formula, a body clause
that reaches beyond the scope, a scope promise the body never keeps, and a vague or contradicted boundary.

All five edit one span each; the four that edit 范围 touch different sentences (or insertion points), so
several of them can share chapter 1 in one document. Material is real: body requirements and titles of the
same document, objects from the scopes of other corpus documents, a small lexicon of scope aspects.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex

from injectors.language.words import tokens
from injectors.types.scp.analysis import APPLICABILITY
from parsers.model import Document, Section

_NOTE_OR_LIST = regex.compile(
    r"^\s*(?:注\s*\d*\s*[：:]|示例|——|—|[a-z][)）]|\d{1,2}[)）]|续?表\s*\d|图\s*\d)"
)


_ACTIVITIES_TEXT = """
    设计 制造 生产 安装 验收 检验 检测 集成 改造 开发 测试 运行 维护 运维 使用 建设
    管理 选型 施工 采购 评价 评估 应用 认证 工作 活动 保存 创建 交换 整合 审查 监测
    传输 处理 服务 运营 规划 实施 操作 控制 检查 维修 调试 监理 通信 定级 识别 防护
    计量 采集 分析 存储 加工 贮存 运输 销售 回收 处置 编制 著录 升级 监督
    """


_ACTIVITIES = tuple(dict.fromkeys(_ACTIVITIES_TEXT.split()))


ACT = "|".join(sorted(_ACTIVITIES, key=len, reverse=True))


# "的设计、制造、安装和验收" at the end of an 适用于 clause: the activities, not the object.
_ACTIVITY_TAIL = regex.compile(rf"的(?:(?:(?!的)[\p{{Han}}]){{0,6}}(?:{ACT})(?:[、和及与]|以及)?)+$")


_ACTIVITY_LIST = regex.compile(rf"(?:(?:{ACT})(?:[、和及与]|以及)?)+")


_QUALIFIER_TAIL = regex.compile(rf"的(?:{ACT})")


# Where an 适用于 clause ends when a comma introduces something else.
_CLAUSE_CUT = regex.compile(
    r"[。；\n]|，(?=规定|确立|给出|描述|界定|本|也|以及|并|但|且|其|同时|还|参照|可|不适用|另)"
)


ALL_HAN = regex.compile(r"^[\p{Han}A-Za-z0-9（）]+$")


@dataclass(frozen=True)
class ScopeAspect:
    """An aspect a scope may promise, the words that show a body treats it, and the kinds of document
    (hardware, information system, process or service) for which a drafter would plausibly promise it."""

    name: str  # 安装
    keywords: tuple[str, ...]  # any of these anywhere in the body means the aspect is covered
    kinds: frozenset[str]
    forms: tuple[str, ...] = ()  # other ways drafters name it, so that no one phrase marks the type

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.forms)

    def item(self, as_requirement: bool, name: str | None = None) -> str:
        name = name or self.name
        return f"{name}要求" if as_requirement else name


_H, _I, _P = frozenset({"hardware"}), frozenset({"information"}), frozenset({"process"})
# an operated computer system (a platform, a server, software): deployed, monitored, backed up. Not every
# information standard is about one: a data-element, metadata or identifier standard is not deployed, nor
# is a device that stores and sends data (a vehicle recorder): `subject_kinds`
_S = frozenset({"system"})


# Aspects a real scope lists, each only for the kinds of document it belongs to (no 应/宜/可 inside): an
# information-exchange standard is not promised 防雷, a tea-processing one not 日志审计.
SCOPE_ASPECTS = (
    ScopeAspect("安装", ("安装",), _H, ("安装调试", "现场安装", "安装施工", "安装位置", "安装方式")),
    ScopeAspect("维护保养", ("维护", "保养", "维修", "检修", "巡检"), _H, ("日常维护", "维修保养", "巡检")),
    ScopeAspect("人员培训", ("培训",), _P, ("操作培训", "培训与考核", "岗位培训")),
    ScopeAspect("报废处置", ("报废", "废弃", "处置", "退役"), _H, ("报废处理", "废弃处置", "退役")),
    ScopeAspect("售后服务", ("售后", "保修"), _H, ("售后保障", "保修期")),
    ScopeAspect("档案管理", ("档案", "归档"), _I, ("资料归档", "技术档案", "文件归档", "档案保管")),
    ScopeAspect("节能", ("节能", "能耗", "能效"), _H | _P, ("能效", "能耗限值")),
    ScopeAspect(
        "环境保护", ("环境保护", "环保", "污染", "排放"), _H | _P, ("环保", "污染控制", "污染物排放")
    ),
    ScopeAspect("包装、运输和贮存", ("包装", "运输", "贮存", "储存"), _H | _P),
    ScopeAspect("标志和标签", ("标志", "标签", "标识"), _H | _P, ("标签标识",)),
    ScopeAspect("使用说明", ("使用说明", "说明书"), _H, ("说明书",)),
    ScopeAspect("防雷", ("防雷", "雷击", "雷电"), _H, ("雷电防护", "防雷击")),
    ScopeAspect("接地", ("接地",), _H, ("接地方式", "接地电阻")),
    ScopeAspect("噪声", ("噪声", "噪音", "声压"), _H, ("噪声限值",)),
    ScopeAspect("振动", ("振动",), _H, ("抗振动", "振动限值")),
    ScopeAspect("防腐蚀", ("防腐", "腐蚀", "盐雾"), _H, ("耐腐蚀", "防腐")),
    ScopeAspect("外观质量", ("外观",), _H, ("外观", "外观检查")),
    ScopeAspect("使用寿命", ("寿命",), _H, ("寿命", "设计寿命")),
    ScopeAspect(
        "可靠性", ("可靠性", "无故障", "故障", "失效"), _H | _S, ("平均无故障工作时间", "故障率", "失效判据")
    ),
    ScopeAspect(
        "数据备份与恢复", ("备份", "恢复", "容灾"), _S, ("备份恢复", "容灾备份", "灾难恢复", "异地备份")
    ),
    ScopeAspect("日志审计", ("日志", "审计"), _S, ("操作日志", "安全审计", "审计追踪", "日志留存")),
    ScopeAspect(
        "访问控制", ("访问控制", "权限", "鉴别", "授权"), _S, ("权限管理", "用户权限", "身份鉴别", "授权管理")
    ),
    ScopeAspect(
        "系统性能",
        ("性能", "响应时间", "并发", "吞吐", "时延"),
        _S,
        ("响应时间", "并发处理能力", "吞吐量", "处理时延"),
    ),
    ScopeAspect("版本管理", ("版本",), _I, ("版本控制", "版本升级", "版本发布")),
    ScopeAspect("运行监控", ("监控", "监视", "告警", "报警"), _S, ("运行监视", "运行状态监视", "故障告警")),
    ScopeAspect(
        "个人信息处理", ("个人信息", "隐私", "敏感"), _I, ("隐私数据处理", "个人信息脱敏", "敏感信息处理")
    ),
    ScopeAspect("人员卫生", ("卫生", "健康"), _P, ("从业人员健康", "个人卫生")),
    ScopeAspect("产品追溯", ("追溯", "溯源"), _P, ("质量追溯", "可追溯性")),
    ScopeAspect("废弃物处理", ("废弃物", "废物", "废水", "废料"), _P, ("废料处置",)),
    ScopeAspect("设备清洗", ("清洗", "清洁"), _P, ("设备清洁",)),
    ScopeAspect("生产记录", ("记录",), _P, ("记录保存", "批次记录")),
    # more aspects of information systems, each with words of its own, so that a release of mostly
    # information standards does not promise the same few aspects over and over
    ScopeAspect("数据迁移", ("迁移",), _S, ("历史数据迁移",)),
    ScopeAspect("时钟同步", ("时钟", "同步", "校时", "对时"), _S, ("时间同步", "校时")),
    ScopeAspect("系统部署", ("部署",), _S, ("部署方式", "部署架构")),
    ScopeAspect("容量规划", ("容量", "扩容"), _S, ("扩容", "存储容量")),
    ScopeAspect("应急响应", ("应急", "预案", "演练"), _S | _P, ("应急预案", "应急演练")),
    ScopeAspect("电子签名", ("签名", "签章"), _S, ("数字签名", "电子签章")),
    ScopeAspect("计费结算", ("计费", "结算", "收费"), _S, ("费用结算",)),
    ScopeAspect("等级测评", ("测评", "渗透", "评测"), _S, ("渗透测试", "安全测评")),
    ScopeAspect("负载均衡", ("负载",), _S, ("负载分担",)),
    ScopeAspect("数据字典", ("字典", "词典"), _I),
    ScopeAspect("用户手册", ("手册",), _S, ("操作手册", "运维手册")),
    ScopeAspect("网络拓扑", ("拓扑", "组网"), _S, ("组网方式",)),
    ScopeAspect("内容审核", ("审核",), _S, ("信息审核",)),
    ScopeAspect("资源调度", ("调度",), _S, ("任务调度",)),
    ScopeAspect("数据销毁", ("销毁", "擦除"), _S, ("介质销毁", "数据擦除")),
    ScopeAspect("国产化适配", ("国产", "适配", "信创"), _S, ("适配验证",)),
)


# Families of aspects, each with the words by which a body's own clause titles show that it deals with the
# family: a scope that covers 备份和恢复 and 日志管理 plausibly promises 容量规划 too, one whose body deals
# with nothing of the kind (a data element standard, a naming rule) does not promise 负载均衡.
_FAMILY_WORDS = {
    "lifecycle": (
        *("安装", "维护", "保养", "维修", "报废", "售后", "保修", "包装", "运输", "贮存", "储存"),
        *("标志", "标签", "铭牌", "说明书", "使用说明"),
    ),
    "robustness": (
        *("防雷", "接地", "噪声", "振动", "冲击", "腐蚀", "盐雾", "外观", "寿命", "可靠性"),
        *("环境适应性", "防护等级", "电磁兼容", "抗扰"),
    ),
    "environment": ("节能", "能耗", "能效", "环保", "污染", "排放", "废弃物", "废水"),
    "production": ("培训", "卫生", "追溯", "清洗", "工艺", "加工", "原料", "生产"),
    "operation": (
        *("部署", "负载", "容量", "扩容", "调度", "拓扑", "组网", "监控", "告警", "备份", "容灾"),
        *("迁移", "应急", "运维", "运行维护", "时钟", "校时", "计费", "版本"),
    ),
    "security": (
        *("访问控制", "权限", "鉴别", "授权", "日志", "审计", "测评", "隐私", "个人信息", "签名"),
        *("销毁", "加密", "密钥"),
    ),
    # not 版本: a software version (节点版本升级, 执行标准版本) is a matter of operation, not of records
    "records": ("档案", "归档", "字典", "元数据", "数据元", "手册"),
}


_FAMILY = {
    **dict.fromkeys(
        ("安装", "维护保养", "报废处置", "售后服务", "包装、运输和贮存", "标志和标签", "使用说明"),
        "lifecycle",
    ),
    **dict.fromkeys(
        ("防雷", "接地", "噪声", "振动", "防腐蚀", "外观质量", "使用寿命", "可靠性"), "robustness"
    ),
    **dict.fromkeys(("节能", "环境保护", "废弃物处理"), "environment"),
    **dict.fromkeys(("人员培训", "人员卫生", "产品追溯", "设备清洗", "生产记录"), "production"),
    **dict.fromkeys(
        (
            *("数据备份与恢复", "系统性能", "运行监控", "数据迁移", "时钟同步", "系统部署", "容量规划"),
            *("应急响应", "计费结算", "负载均衡", "网络拓扑", "资源调度", "国产化适配"),
        ),
        "operation",
    ),
    **dict.fromkeys(
        ("日志审计", "访问控制", "个人信息处理", "电子签名", "等级测评", "内容审核", "数据销毁"), "security"
    ),
    **dict.fromkeys(("档案管理", "版本管理", "数据字典", "用户手册"), "records"),
}


def covered_families(document: Document) -> frozenset[str]:
    """The families of aspects the body deals with, by the words of its own clause and annex titles."""
    titles = "\n".join(s.title for s in document.sections if s.kind in ("clause", "annex"))
    return named_families(titles)


def named_families(text: str) -> frozenset[str]:
    """The families of aspects whose words `text` uses."""
    return frozenset(f for f, words in _FAMILY_WORDS.items() if any(w in text for w in words))


def family_of(aspect: str) -> str:
    """The family of an aspect of `SCOPE_ASPECTS`, by its name."""
    return _FAMILY[aspect]


# Words that show what kind of thing a document standardizes (counted over its body).
_KIND_MARKERS = {
    # not 结构/材料: an information standard has 数据结构, 功能结构 and 参考材料 too
    "hardware": ("外壳", "柜体", "电压", "试样", "尺寸", "箱体", "部件", "电源", "电流"),
    "information": ("数据", "报文", "接口", "软件", "编码", "字段", "元素", "协议", "信息系统"),
    "process": ("加工", "工艺", "原料", "工序", "工艺参数", "投料"),
}


def document_kinds(body: str) -> frozenset[str]:
    """The kinds a document belongs to: the one its body's markers point to most, and any other at least
    a third as frequent (a monitoring system is hardware and information alike)."""
    counts = {k: sum(body.count(w) for w in words) for k, words in _KIND_MARKERS.items()}
    top = max(counts.values())
    return frozenset(k for k, n in counts.items() if n >= 3 and n * 3 >= top)


# What names an operated computer system as the thing a document standardizes.
_SYSTEM = regex.compile(r"系统|平台|软件|服务器|网络|云计算")


def subject_kinds(document: Document, body: str) -> frozenset[str]:
    """The kinds of what the body covers, in its own words: those its text points to (`document_kinds`),
    those its own clause titles name (a recorder's "电源", "电气部件" make it hardware however often its
    data protocol says 数据), and "system" only when the document's title or scope names a system, platform,
    software or server as what it standardizes or serves."""
    kinds = set(document_kinds(body))
    titles = "\n".join(s.title for s in document.sections if s.kind in ("clause", "annex"))
    for kind, markers in _KIND_MARKERS.items():
        if sum(titles.count(w) for w in markers) >= 2:
            kinds.add(kind)
    scope = next((s.text for s in document.sections if s.kind == "scope"), "")
    if _SYSTEM.search(document.title + "\n" + scope):
        kinds.add("system")
    return frozenset(kinds)


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each non-empty line of a section's text."""
    out = []
    start = 0
    for line in text.split("\n"):
        if line.strip():
            out.append((start, start + len(line)))
        start += len(line) + 1
    return out


def is_plain(line: str) -> bool:
    """A running-text paragraph: not a note, example, list item, table row or caption."""
    return " | " not in line and not _NOTE_OR_LIST.match(line)


_SUBJECT = regex.compile(r"^[\p{Han}A-Za-z0-9]{2,14}$")


_VAGUE_SUBJECT = regex.compile(
    r"^(?:其|该|此|这|上述|前述|所述|各|每|上|下|同|对|在|当|若|如)|[还也则亦又才就]$"
)


def plain_subject(subject: str) -> bool:
    """A noun subject that names its object ("柜体", "转运容器"), not "其"/"上述装置"/"线缆穿越时"."""
    return bool(_SUBJECT.match(subject)) and not _VAGUE_SUBJECT.search(subject)


def cite(number: str) -> str:
    """第5章 / 第5.2.1条: the form the planner renumbers when other errors renumber the document."""
    return f"第{number}条" if "." in number else f"第{number}章"


def scope_name(section: Section) -> str:
    return f"第{section.number}章“{section.title or '范围'}”"


def body_sections(document: Document) -> list[tuple[int, Section]]:
    """Normative body clauses (chapters after 术语/符号), where requirements live."""
    return [(i, s) for i, s in enumerate(document.sections) if s.kind == "clause"]


def applicability_qualifiers(sentence: str) -> list[tuple[int, str]]:
    """Qualifiers right after "适用于" that can be dropped leaving a grammatical, vaguer boundary.

    "适用于额定电压不大于1 kV的户内开关柜的设计" → [(offset, "额定电压不大于1 kV的")]: each candidate
    ends with a 的 followed by the object's head noun (not by the list of activities, not by "、").
    """
    m = APPLICABILITY.search(sentence)
    if m is None or not m.group(0).endswith("于"):
        return []
    begin = m.end()
    cut = _CLAUSE_CUT.search(sentence, begin)
    core = sentence[begin : cut.start() if cut else len(sentence)]
    tail = _ACTIVITY_TAIL.search(core)
    stem = core[: tail.start()] if tail else core
    out = []
    for word, k in tokens(stem):
        if word != "的":  # jieba: not the 的 of 目的, 的确
            continue
        qualifier = stem[: k + 1]
        if stem[k + 1 : k + 2] == "，":
            qualifier += "，"
        rest = stem[len(qualifier) :]
        head = regex.split(r"[的，]", rest, maxsplit=1)[0]
        if (
            len(qualifier.rstrip("，")) < 5
            or rest.startswith("、")
            or len(head) < 3
            or "、" in head
            or _ACTIVITY_LIST.fullmatch(head)
            or "以及" in qualifier
            or _QUALIFIER_TAIL.search(qualifier)
        ):
            continue
        out.append((begin, qualifier))
    return out


@functools.lru_cache(maxsize=16)
def uncovered_aspects(document: Document) -> tuple[ScopeAspect, ...]:
    """Aspects the scope could list, from what the body covers: of the kinds of what it standardizes
    (`subject_kinds`) and of a family its own clause titles deal with (`covered_families`), that neither
    the scope nor any body chapter (title or text) treats."""
    body = "\n".join(
        f"{s.title}\n{s.text}"
        for s in document.sections
        if s.kind not in ("foreword", "introduction", "scope", "normative_references", "bibliography")
    )
    scope = "\n".join(s.text for s in document.sections if s.kind == "scope")
    kinds = subject_kinds(document, body)
    families = covered_families(document)
    return tuple(
        a
        for a in SCOPE_ASPECTS
        if a.kinds & kinds
        and _FAMILY[a.name] in families
        and not any(k in body for k in a.keywords)
        and not any(k in scope for k in a.keywords)
    )
