"""Tests of injectors.types.scp.outsiders: the objects a scope puts outside, how a clause names them, and
whether one can be coordinated with a body requirement's subject."""

from __future__ import annotations

from injectors.types.scp.outsiders import Outsider, can_coordinate, clause_name, objects_and_outsiders
from injectors.types.scp.requirements import scoped_requirements
from injectors.types.scp.scope_objects import object_heads
from tests.injectors.types.scp.scp_documents import CABINET_BODY, CABINET_SCOPE, standard


def test_clause_name_drops_the_scopes_participle_or_keeps_the_head() -> None:
    assert clause_name("塑料大棚中使用的环境监测终端", ("温室环境监测终端",), "") == "塑料大棚环境监测终端"
    assert clause_name("用于快递收发的自提柜", ("社区共享工具柜",), "") == "自提柜"
    assert clause_name("用于快递收发的自提柜", ("社区共享工具柜",), "自提柜应接地。") == ""  # the body has it
    assert clause_name("快递自提柜", ("社区共享工具柜",), "") == ""  # nothing shorter to say


def test_the_excluded_object_joins_the_subjects_about_the_scope_object() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    objects, outside = objects_and_outsiders(document)
    assert objects == ("社区共享工具柜",)
    assert outside == (Outsider("快递自提柜", True),)
    requirements = [
        r for s in document.sections if s.kind == "clause" for r in scoped_requirements(s, objects)
    ]
    assert requirements
    assert all(can_coordinate(outside[0], r, object_heads(objects), objects) for r in requirements)
    battery_room = Outsider("电池室", True)  # a place is no thing of a cabinet's kind
    assert not any(
        can_coordinate(battery_room, r, object_heads(objects), objects)
        for r in requirements
        if "的" not in r.subject
    )
