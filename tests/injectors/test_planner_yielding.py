"""Two picks that cannot hold together because one rewrote the text the other quotes as its evidence: the
pick of the more plentiful type gives way, so that the scarcer type keeps its only site."""

from __future__ import annotations

import random
from collections import Counter

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.joint import lost_in
from injectors.planner import Candidates, PlanConfig, choose, yielding
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from injectors.types.nms.nms05_provision_in_informative_place import ProvisionInInformativePlace
from parsers.model import Document
from tests.injectors.types.nms.test_evidence_commentary import document


def _instance(doc: Document, injector: object, location: str) -> ErrorInstance:
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    for seed in range(20):
        attempt = injector.inject(baseline, random.Random(f"{seed}:y"), context, seed=seed)  # type: ignore[attr-defined]
        if attempt.instance is not None and attempt.instance.location == location:
            return attempt.instance
    raise AssertionError(f"no instance at {location}")


def _picks() -> tuple[Document, ErrorInstance, ErrorInstance]:
    doc = document()
    strengthened = _instance(doc, RecommendationStrengthened(), "4.2")  # quotes A.1 as its evidence
    in_annex = _instance(doc, ProvisionInInformativePlace(), "A.1")  # writes 应 into that sentence of A.1
    return doc, strengthened, in_annex


def test_the_pick_that_broke_the_others_evidence_gives_way_to_a_scarcer_type() -> None:
    doc, strengthened, in_annex = _picks()
    chosen = [strengthened, in_annex]
    lost = lost_in(doc, chosen)
    assert lost == [strengthened]  # its quote of A.1 no longer stands in the assembled document
    counts = Counter({"NMS-05": 6, "NMS-02": 2})
    taken_back = yielding(doc, chosen, lost, counts, chosen.index)
    assert taken_back == [in_annex]
    assert lost_in(doc, [strengthened]) == []


def test_a_scarcer_or_equal_type_does_not_displace_the_pick() -> None:
    doc, strengthened, in_annex = _picks()
    chosen = [strengthened, in_annex]
    lost = lost_in(doc, chosen)
    for counts in (Counter({"NMS-05": 2, "NMS-02": 2}), Counter({"NMS-05": 1, "NMS-02": 4})):
        assert yielding(doc, chosen, lost, counts, chosen.index) == [strengthened]


def test_a_plentiful_type_gives_way_early_in_a_pass_where_the_scarce_one_has_as_many_so_far() -> None:
    """Early in a pass both types have one instance so far; the one later documents still offer many sites
    of gives way, so the type few documents offer keeps its site wherever the document comes."""
    doc, strengthened, in_annex = _picks()
    candidates = Candidates(doc, Baseline(doc), (strengthened, in_annex), {}, {})
    config = PlanConfig(min_errors=2, max_errors=2, types=("NMS-02", "NMS-05"))
    plentiful = Counter({"NMS-05": 8})  # documents still to come that offer NMS-05; none offers NMS-02
    assert choose(candidates, 0, config, Counter(), plentiful) == [strengthened]
    scarce = Counter({"NMS-02": 8})  # the other way round: NMS-05 keeps its pick
    assert choose(candidates, 0, config, Counter(), scarce) == [in_annex]
