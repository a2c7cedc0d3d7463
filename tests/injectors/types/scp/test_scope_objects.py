"""Tests of injectors.types.scp.scope_objects: the objects a scope covers and those its own words put
outside."""

from __future__ import annotations

from injectors.types.scp.scope_objects import (
    excluded_objects,
    negated_objects,
    object_heads,
    referred_objects,
    scope_objects,
)
from tests.injectors.types.scp.scp_documents import CABINET_SCOPE


def test_scope_objects_reads_the_object_once_from_both_statements() -> None:
    # "规定了社区共享工具柜的……" and "适用于住宅小区内设置的社区共享工具柜": one object, qualifier dropped
    assert scope_objects(CABINET_SCOPE) == ["社区共享工具柜"]


def test_excluded_objects_splits_a_coordinated_exclusion_and_drops_the_activities() -> None:
    found = excluded_objects("本文件不适用于快递自提柜和用于电池租赁的换电柜的设计。")
    assert found == ["快递自提柜", "用于电池租赁的换电柜"]


def test_referred_objects_are_those_only_referred_to_the_document() -> None:
    scope = "本文件适用于连栋温室中使用的温室环境监测终端，塑料大棚中使用的环境监测终端参照使用。"
    assert referred_objects(scope) == ["塑料大棚中使用的环境监测终端"]


def test_negated_objects_read_a_non_qualifier_but_not_a_coordinated_non() -> None:
    assert negated_objects("本文件适用于街道办事处所辖非涉密对象的安全防护和日常检查。") == [
        ("涉密对象", "对象", "非涉密对象")
    ]
    assert negated_objects("本文件适用于银行业金融机构和非银行支付机构的二维码支付系统。") == []


def test_object_heads_take_each_coordinated_part_and_its_tails_longest_first() -> None:
    heads = object_heads(("智能水表及其远程抄表系统",))
    assert heads[0] == "智能水表及其远程抄表系统"
    assert {"远程抄表系统", "抄表系统", "智能水表"} <= set(heads)
    assert all(len(h) >= 3 for h in heads)
    assert [len(h) for h in heads] == sorted((len(h) for h in heads), reverse=True)
