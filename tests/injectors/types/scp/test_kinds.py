"""Tests of injectors.types.scp.kinds: whether an object the scope puts outside can stand beside a body
requirement's subject."""

from __future__ import annotations

from injectors.types.scp.kinds import can_join, same_kind


def test_same_kind_reads_the_head_nouns() -> None:
    assert same_kind("用于电池租赁的换电柜", "集中充电柜")  # 柜
    assert same_kind("温湿度记录仪", "温度记录仪")
    assert same_kind("列车车厢内的显示设备", "旅客信息显示系统")  # 系统 ~ 设备
    assert same_kind("整车充电的充电桩", "集中充电柜")  # 充电
    assert same_kind("一次性使用的包装袋", "箱式转运容器")  # containers
    assert not same_kind("建筑物内设置的电池室", "火灾探测与报警系统")
    assert not same_kind("移动式储能车", "火灾探测与报警系统")
    assert not same_kind("外墙保温系统", "保温装饰一体板")


def test_can_join_a_possessor_but_not_of_a_place_or_the_same_noun() -> None:
    assert can_join("电池室", "报警系统的设计文件", 4, ())
    assert not can_join("电池室", "报警系统的入口处", 4, ())
    assert not can_join("车厢内的显示设备", "显示系统的设备", 4, ())
    assert not can_join("电池室", "报警系统", 4, ())
