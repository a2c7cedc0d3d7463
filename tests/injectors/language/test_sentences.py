"""Tests of injectors.language.sentences: sentences across soft line breaks, and the provision finder."""

from __future__ import annotations

from injectors.language.sentences import provisions, sentences


def test_soft_wrapped_sentence_stays_one_sentence() -> None:
    text = "本文件规定了工具柜的技术\n要求。\n本文件适用于工具柜。\n注：说明"
    assert [s.text for s in sentences(text)] == [
        "本文件规定了工具柜的技术\n要求。",
        "本文件适用于工具柜。",
        "注：说明",
    ]


def test_provision_finder_guards_compounds() -> None:
    assert [p.word for p in provisions("系统应能响应报警信号，并宜记录相应的应答时间。")] == ["应", "宜"]
    assert provisions("可靠性和可追溯性是适宜的指标。") == []
