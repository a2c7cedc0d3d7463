"""Tests of injectors.types.scp.spread: spreading lexicon material over the documents of a release."""

from __future__ import annotations

from injectors.types.scp.spread import word_groups


def test_word_groups_join_names_that_share_a_first_or_last_word() -> None:
    groups = word_groups(("安装调试", "安装位置", "防雷", "雷电防护", "数据迁移", "噪声限值", "能耗限值"))
    assert ("安装调试", "安装位置") in groups
    assert ("噪声限值", "能耗限值") in groups
    assert ("数据迁移",) in groups
