"""Tests of NMS-02 推荐或允许被强化 (Recommendation or permission strengthened)."""

from __future__ import annotations

from injectors.context import InjectionContext
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from tests.injectors.types.nms.nms_documents import access_document


def test_what_can_happen_is_no_permission() -> None:
    """ "使记录可以在同一平台查询", "读数可以有正负值", "保障……门锁可被手动开启" say what can happen;
    最多可 bounds a number."""
    doc = access_document(
        """4 技术要求
4.1 记录
应对各门禁点的记录进行汇总，使记录可以在同一平台查询，也可以导出。
4.2 读数
温度读数可以有正负值，也可以取整。
4.3 数量
每个控制器最多可接入8个读卡器，也可接入4个。
4.4 干预
应有相应机制保障在断电时门锁可被手动开启，也可以由值班人员远程开启。
"""
    )
    context = InjectionContext.from_documents([doc])
    assert list(RecommendationStrengthened().sites(doc, context)) == []


def test_use_is_no_purpose() -> None:
    """使 of 使用 makes no purpose clause: "重复使用的读卡器的校准周期不宜超过12个月，超过时应……" stays
    a site."""
    doc = access_document(
        """4 技术要求
4.1 校准
重复使用的读卡器的校准周期不宜超过12个月，超过时应在下次使用前重新校准。
"""
    )
    context = InjectionContext.from_documents([doc])
    assert len(list(RecommendationStrengthened().sites(doc, context))) == 1
