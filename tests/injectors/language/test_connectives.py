"""Tests of injectors.language.connectives: the connective a sentence opens with."""

from __future__ import annotations

from injectors.language.connectives import leading_connective, without_leading_connective


def test_leading_connectives_are_recognised_and_dropped() -> None:
    assert without_leading_connective("其中，柜门应能手动开启。") == "柜门应能手动开启。"
    assert without_leading_connective("同时柜门应能手动开启。") == "柜门应能手动开启。"
    assert leading_connective("此外,门锁应采用不锈钢。") == "此外,"
    assert leading_connective("其他部件应可靠接地。") == ""  # 其他 is no 其中
    assert leading_connective("另外的柜门应……") == "另外"
