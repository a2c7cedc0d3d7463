"""Tests of injectors.types.scp.levels: a scope's range of levels and the body requirements about its top
level."""

from __future__ import annotations

from injectors.types.scp.levels import LevelBound, LevelRequirement, level_bound, level_requirements
from tests.injectors.types.scp.scp_documents import standard

SCOPE = "本文件规定了第一级到第三级防护对象的安全通用要求。\n本文件适用于防护对象的安全建设。"
BODY = """4 要求
4.1 通信
应为第三级业务系统配置独立的备份线路。第三级及以上的防护对象应部署边界防护设备。
4.2 定级
定级结果为第四级的，另行规定。
"""


def test_the_level_beyond_the_range_counts_only_where_the_document_names_it() -> None:
    document = standard(SCOPE, BODY, title="防护对象 安全要求")
    assert level_bound(document) == LevelBound("第一级到第三级防护对象", "第三级", "第四级")
    silent = standard(SCOPE, BODY.replace("定级结果为第四级的", "定级结果"), title="防护对象 安全要求")
    assert level_bound(silent) is None


def test_level_requirements_name_the_top_level_before_a_thing_never_a_range() -> None:
    document = standard(SCOPE, BODY, title="防护对象 安全要求")
    bound = level_bound(document)
    assert bound is not None
    found = {s.number: level_requirements(s, bound) for s in document.sections if s.kind == "clause"}
    # "第三级及以上的防护对象" is no level of its own
    assert found["4.1"] == (LevelRequirement(0, 5, "应为第三级业务系统配置独立的备份线路。"),)
    assert found["4.2"] == ()
