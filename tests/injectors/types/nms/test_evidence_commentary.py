"""Tests of injectors.types.nms.evidence_commentary: the document's explanation of a clause (条文说明)
recommending what the clause provides."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nms.evidence import COMMENTARY
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nms.nms_documents import evidence_at

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
        ("数据报文宜采用紧凑二进制编码等格式。", "4.2", EXPLANATION),
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
