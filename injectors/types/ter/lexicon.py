"""Which terms belong to a document's world: a narrow field lexicon and the test of a term-like phrase.

An ICS group or a CCS letter is too broad to say that a term belongs (ICS 35 holds ledgers,
semantic libraries and ecological big data alike: "标准问" is no term of an ecological data standard),
and a phrase such as "综合系统" or "数据资源" is a general compound nobody defines. A term another
document defines may therefore be borrowed only from a document of the same narrow field (the same ICS
subgroup, or the same CCS class), and a phrase written as an undefined term must be term-like: a
specific qualifier (not 综合/数据/相关/有关 …) on a noun of several characters.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from injectors.language.terms import words

# Qualifiers that make a general description, not a term ("综合系统", "数据资源", "相关要求").
_GENERIC = """
综合 数据 相关 有关 信息 一般 通用 基本 整体 总体 其他 其它 各种 各类 主要 重要 特定 具体 相应 对应 全部 部分
上述 有效 正常 必要 一定 常用 统一 完整 多种 单一 不同 所有 其余 专用 特殊 实际 额外 附加 新 原 该 本 此 各 某
多 单 总 分 全 大 小 高 低 内部 外部 公共 局部 全局 整个 单个 多个 一种 一类 若干 有关部门 管理 使用 应用 服务
技术 标准 规范 系统 资源 要求 内容 方式 方法 过程 对象 结果 功能 设备 装置 文件 业务 工作 运行 操作 处理
"""


GENERIC_QUALIFIERS = frozenset(_GENERIC.split())


# Heads that are general nouns: a term with such a head needs a qualifier that is itself technical.
_GENERIC_HEADS = """
系统 资源 信息 数据 要求 内容 方式 方法 过程 对象 结果 功能 设备 装置 软件 平台 服务 技术 业务 管理
"""


GENERIC_HEADS = frozenset(_GENERIC_HEADS.split())


def term_like(term: str, common: frozenset[str] = frozenset()) -> bool:
    """A phrase a reader expects to find defined: a head of 2+ characters and a qualifier whose every
    word has 2+ characters and is neither a generic qualifier nor a common word ("电池单体", "记录间隔";
    not "综合系统", "数据资源", "标准问")."""
    parts = words(term)
    if len(parts) < 2 or len(parts[-1]) < 2:
        return False
    qualifier = parts[:-1]
    if any(len(w) < 2 or w in GENERIC_QUALIFIERS or w in common for w in qualifier):
        return False
    return not (parts[-1] in GENERIC_HEADS and len("".join(qualifier)) < 3)


_ICS_SEPARATOR = regex.compile(r"[.\s]+")
_SPACE = regex.compile(r"\s+")
_CCS_TAIL = regex.compile(r"[\s/].*$")


@lru_cache(maxsize=1024)  # every pair of documents in a corpus compares the same few codes
def _ics(code: str) -> tuple[str, ...]:
    return tuple(p for p in _ICS_SEPARATOR.split(code.strip()) if p)


@lru_cache(maxsize=1024)
def _ccs(code: str) -> str:
    return _CCS_TAIL.sub("", _SPACE.sub("", code.strip(), count=1)).upper()


def same_lexicon(ics_a: str, ccs_a: str, ics_b: str, ccs_b: str) -> bool:
    """Whether two documents share a narrow field: the same ICS subgroup (all three levels given and
    equal) or the same CCS class ("L67"); never when either says nothing, and never when the CCS
    categories (letters) both given differ."""
    a_ccs, b_ccs = _ccs(ccs_a), _ccs(ccs_b)
    if a_ccs and b_ccs and a_ccs[:1] != b_ccs[:1]:
        return False
    a_ics, b_ics = _ics(ics_a), _ics(ics_b)
    if len(a_ics) >= 3 and a_ics[:3] == b_ics[:3]:
        return True
    return len(a_ccs) >= 3 and a_ccs == b_ccs
