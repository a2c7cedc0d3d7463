"""Tests of injectors.types.scp.regulation: the evidence that a body requires or recommends something of a
thing, and the objects its clause titles name that way."""

from __future__ import annotations

from injectors.types.scp.regulation import regulated_objects, regulates
from tests.injectors.types.scp.scp_documents import CABINET_BODY, CABINET_SCOPE, standard


def test_regulates_needs_a_requirement_on_the_thing_not_a_permission_or_a_mention() -> None:
    assert regulates("照明装置应在柜门开启时自动点亮。")
    assert not regulates("柜体可配置照明装置。")  # a permission regulates nothing
    assert regulates("计量模块应每年校准一次。", "计量模块")  # named before the modal verb
    assert regulates("应对计量模块进行校准。", "计量模块")  # what the requirement acts on
    assert not regulates("显示屏应能显示计量模块的状态。", "计量模块")  # the display's requirement


def test_regulated_objects_are_titled_things_the_clause_requires_something_of() -> None:
    body = CABINET_BODY.replace(
        "5 试验方法",
        "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n"
        "4.5 解析证书\n解析证书应校验签名。\n"  # an operation on data, no thing of its own
        "4.6 附属装置\n柜体可配置附属装置。\n"  # only permitted
        "5 试验方法",
    )
    assert regulated_objects(standard(CABINET_SCOPE, body)) == (("照明装置", "4.4"),)
