"""Tests of NMS-02 推荐或允许被强化 (Recommendation or permission strengthened)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.modals import modal_verbs
from injectors.types.nms.evidence import COMMENTARY, recommendation_evidence
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from parsers.model import Document
from parsers.text import parse_text
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


FRONT = """GB/T 99931—2025
农田 墒情 采集终端 通信要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了农田墒情采集终端与汇聚网关之间的通信要求。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
"""

BODY = """4 接口
4.1 连接方式
采集终端与汇聚网关之间宜采用星型总线连接。
4.2 编码
{coding}
4.3 广播
采集终端不宜频繁发送全网广播报文。
5 报文
5.1 上报周期
采集终端可按汇聚网关下发的周期上报墒情数据。
附录A
（资料性）
条文说明
A.1 {explained}条
{explanation}
A.2 4.3条
全网广播会挤占信道，不建议采集终端频繁发送全网广播报文，确需广播时由网关统一发起。
A.3 5.1条
上报周期由汇聚网关统一下发，便于错峰上报。
"""

CODING = "数据报文宜采用紧凑二进制编码格式。"
EXPLANATION = (
    "本文件只规定报文的结构；推荐数据报文采用紧凑二进制编码格式，以减少无线信道的占用。"
    "对于带宽充足的网关，也可以采用文本编码格式。"
)


def document(coding: str = CODING, explained: str = "4.2", explanation: str = EXPLANATION) -> Document:
    body = BODY.format(coding=coding, explained=explained, explanation=explanation)
    return parse_text(Path("nms02_commentary.txt"), (FRONT + body).encode())


def evidence_at(doc: Document, number: str, word: str) -> list:
    position = next(i for i, s in enumerate(doc.sections) if s.number == number)
    offset = 0
    for line in doc.sections[position].text.split("\n"):
        for modal in modal_verbs(line):
            if modal.word == word:
                return recommendation_evidence(doc, position, offset, line, modal)
        offset += len(line) + 1
    raise AssertionError(f"no {word} in {number}")


def instances(doc: Document) -> list:
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RecommendationStrengthened()
    out = []
    for seed in range(8):
        attempt = injector.inject(baseline, random.Random(f"{seed}:c"), context, seed=seed)
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def test_the_clauses_explanation_recommending_it_is_evidence() -> None:
    """Required in 4.2 while the 条文说明 of 4.2 says it is recommended: the document contradicts itself."""
    doc = document()
    found = evidence_at(doc, "4.2", "宜")
    assert [(e.kind, e.where) for e in found] == [(COMMENTARY, "A.1")]
    assert found[0].words == "推荐数据报文采用紧凑二进制编码格式"


def test_a_discouragement_explained_as_one_is_evidence_for_buyi() -> None:
    found = evidence_at(document(), "4.3", "不宜")
    assert [(e.kind, e.where) for e in found] == [(COMMENTARY, "A.2")]
    assert found[0].words == "不建议采集终端频繁发送全网广播报文"


def test_the_instances_quote_the_explanation_as_the_corrupted_document_reads() -> None:
    made = instances(document())
    assert {i.location for i in made} == {"4.2", "4.3"}  # 4.1 has no explanation, 5.1's permits nothing
    for instance in made:
        corrupted = instance.corrupted_section.text
        if instance.location == "4.2":
            assert "数据报文应采用紧凑二进制编码格式" in corrupted
            assert "A.1对本条的说明称“推荐数据报文采用紧凑二进制编码格式”" in instance.description
            assert "该做法本是推荐" in instance.description
        else:
            assert "采集终端不应频繁发送全网广播报文" in corrupted
            assert "A.2对本条的说明称“不建议采集终端频繁发送全网广播报文”" in instance.description
        assert "GB/T 1.1—2020" in instance.description


@pytest.mark.parametrize(
    ("coding", "explained", "explanation"),
    [
        # the explanation belongs to another clause
        (CODING, "4.1", EXPLANATION),
        # the clause lists options: preferring one of them leaves open whether choosing is required
        ("数据报文宜采用紧凑二进制、定长文本或分块压缩编码格式。", "4.2", EXPLANATION),
        # the explanation recommends something else than the clause's object
        (CODING, "4.2", "推荐数据报文采用分段重传机制，以减少无线信道的占用。"),
        # the explanation shares only a generic word with it
        (CODING, "4.2", "推荐数据报文采用统一的编码格式。"),
        # the explanation states a requirement, or explains without recommending
        (CODING, "4.2", "数据报文应采用紧凑二进制编码格式，以减少无线信道的占用。"),
        (CODING, "4.2", "紧凑二进制编码格式可减少无线信道的占用。"),
    ],
)
def test_no_evidence_where_the_explanation_does_not_recommend_this_provision(
    coding: str, explained: str, explanation: str
) -> None:
    found = evidence_at(document(coding, explained, explanation), "4.2", "宜")
    assert [e for e in found if e.kind == COMMENTARY] == []
