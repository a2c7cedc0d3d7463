"""Tests of injectors.types.nms.analysis: the diff rules NMS-01 and NMS-02 share, which compare modal verbs
at the same place."""

from __future__ import annotations

from tests.injectors.types.nms.nms_documents import standard
from validation.linter import lint_diff


def test_diff_rules_compare_modal_verbs_at_the_same_place() -> None:
    original = standard("柜门应具有防夹功能，格口宜设置照明。")
    weakened = standard("柜门宜具有防夹功能，格口宜设置照明。")
    strengthened = standard("柜门应具有防夹功能，格口应设置照明。")
    reworded = standard("柜门必须具有防夹功能，格口宜设置照明。")
    assert [v.location for v in lint_diff(original, weakened, ["NMS-01"])] == ["4.1"]
    assert lint_diff(original, weakened, ["NMS-02"]) == []
    assert [v.location for v in lint_diff(original, strengthened, ["NMS-02"])] == ["4.1"]
    assert lint_diff(original, reworded, ["NMS-01", "NMS-02"]) == []
    assert lint_diff(original, original) == []
