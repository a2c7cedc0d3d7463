"""Tests of injectors.types.nms.evidence_finding: a clause no kind of evidence speaks for gives no NMS-01 or
NMS-02 instance, and the reason is recorded."""

from __future__ import annotations

import pytest

from injectors.context import InjectionContext
from injectors.planner import inject_document
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from tests.injectors.types.nms.nms_documents import PLAIN, attempts, evidence_standard


@pytest.mark.parametrize(
    "injector", [RequirementWeakened(), RecommendationStrengthened()], ids=lambda i: i.error_type
)
def test_a_plain_clause_gives_no_instance_and_the_reason(injector) -> None:
    document = evidence_standard(PLAIN)
    context = InjectionContext.from_documents([document])
    assert list(injector.sites(document, context)) == []
    for attempt in attempts(document, injector):
        assert attempt.instance is None and attempt.reason == "no_evidence"


def test_the_planner_records_the_reason() -> None:
    plan = inject_document(
        evidence_standard(PLAIN), seed=1, context=InjectionContext.from_documents([evidence_standard(PLAIN)])
    )
    assert plan.skipped.get("NMS-01") == "no_evidence"
    assert plan.skipped.get("NMS-02") == "no_evidence"
