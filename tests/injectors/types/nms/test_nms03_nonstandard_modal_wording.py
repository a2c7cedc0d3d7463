"""Tests of NMS-03 能愿动词不规范 (Non-standard modal wording)."""

from __future__ import annotations

import random

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.planner import PlanConfig, candidate_instances
from injectors.types.nms.nms03_nonstandard_modal_wording import NonstandardModal
from parsers.model import Document
from tests.injectors.types.nms.nms_documents import (
    STATEMENTS_AND_CLAUSES,
    found,
    locker_document,
    standard,
)


def test_nonstandard_modal_found_in_a_2020_document() -> None:
    doc = standard("柜门必须具有防夹功能。\n柜体不得有锐边。")
    messages = [v.message for v in lint(doc, ["NMS-03"])]
    assert [v.location for v in lint(doc, ["NMS-03"])] == ["4.1", "4.1"]
    assert any("“必须”" in m for m in messages) and any("“不得”" in m for m in messages)


def test_bude_is_allowed_in_a_2009_document() -> None:
    doc = standard("柜体不得有锐边。", edition="2009")
    assert found(doc, "NMS-03") == []
    assert found(standard("柜门必须具有防夹功能。", edition="2009"), "NMS-03") == ["4.1"]


def test_engineering_code_words_are_allowed_with_a_usage_note() -> None:
    body = "柜体严禁设置在疏散通道内，柜门必须具有防夹功能。"
    note = "本规范用词说明：表示很严格，非这样做不可的，正面词采用“必须”，反面词采用“严禁”。"
    assert found(standard(body, annex=note), "NMS-03") == []
    assert found(standard(body), "NMS-03") == ["4.1"]


def test_nonstandard_words_in_tables_and_compounds_are_not_flagged() -> None:
    doc = standard("状态位 | 0：禁止 | 1：允许\n格口故障时不可用，管理平台应禁止远程开箱。")
    assert found(doc, "NMS-03") == []


def test_2009_documents_keep_their_own_wording(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    older = [d for d in corpus_documents if d.drafting_rules == "GB/T 1.1—2009"]
    assert older
    for doc in older:
        for seed in range(4):
            instance = NonstandardModal().inject(Baseline(doc), random.Random(f"{seed}:b"), context).instance
            assert instance is not None
            assert instance.edit.replacements[0].new != "不得"


def test_the_candidates_of_a_type_take_forms_it_does_not_offer_yet() -> None:
    """NMS-03 asks for three candidates: where the clauses take 必须, 应当 and 须 alike, a candidate whose
    form repeats an earlier one is kept aside while another form turns up."""
    doc = locker_document(STATEMENTS_AND_CLAUSES)
    config = PlanConfig(types=("NMS-03",), min_errors=1, max_errors=3)
    for seed in range(4):
        found = candidate_instances(doc, seed, InjectionContext.from_documents([doc]), config)
        forms = [i.provenance.form for i in found.instances]
        assert len(forms) == 3 and len(set(forms)) == 3, (seed, forms)
        assert len({i.location for i in found.instances}) == 3
