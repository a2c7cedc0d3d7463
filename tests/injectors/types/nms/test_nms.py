"""The NMS dimension as a whole: tests of all its types at once, where no one type module is the subject."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import regex

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.language.modals import modal_verbs
from injectors.planner import PlanConfig, candidate_instances
from injectors.taxonomy import by_id
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from injectors.types.nms.nms03_nonstandard_modal_wording import NonstandardModal
from injectors.types.nms.nms04_vague_wording import VagueWording
from injectors.types.nms.nms05_provision_in_informative_place import ProvisionInInformativePlace
from parsers import parse_file
from parsers.model import Document
from tests.injectors.types.nms.nms_documents import STATEMENTS_AND_CLAUSES, found, locker_document
from validation.linter import lint_diff

NMS = ("NMS-03", "NMS-04", "NMS-05")


EVIDENCED = ("NMS-01", "NMS-02")  # only where the document makes the change detectable


EVIDENCE_NAMED = regex.compile(
    r"列为检验项目|规定了检验该条的试验|限值“|目的是“|并列的“|同一列项中的“|给出其他做法|表明这只是推荐|允许例外|为条件另作规定"
)


INJECTORS = (
    RequirementWeakened,
    RecommendationStrengthened,
    NonstandardModal,
    VagueWording,
    ProvisionInInformativePlace,
)


def test_clean_corpus_has_no_nms_violations(corpus_documents: list[Document]) -> None:
    assert {d.source: lint(d, NMS) for d in corpus_documents if lint(d, NMS)} == {}


@pytest.mark.parametrize("injector_class", INJECTORS, ids=lambda c: c.error_type)
def test_injected_instances_are_correct(
    injector_class: type, corpus_documents: list[Document], context: InjectionContext
) -> None:
    injector = injector_class()
    spec = by_id()[injector.error_type]
    made = 0
    for doc in corpus_documents:
        baseline = Baseline(doc)
        attempt = injector.inject(baseline, random.Random(f"0:{doc.doc_id}:x"), context, seed=0)
        if attempt.instance is None and injector.error_type in EVIDENCED:
            assert attempt.reason == "no_evidence", (doc.source, attempt.reason)  # skipped, and why
            continue
        assert attempt.instance is not None, (doc.source, attempt.reason)
        instance = attempt.instance
        if injector.error_type in EVIDENCED:  # the description names what makes the change detectable
            assert EVIDENCE_NAMED.search(instance.description), instance.description
        made += 1
        assert instance.error_type == injector.error_type and instance.dimension == "NMS"
        assert instance.description.startswith("错误：") and "修改建议：" in instance.description
        cited = instance.description.rsplit("依据：", 1)[1]
        assert "“" in instance.description and cited in spec.rules_for(doc.drafting_rules)
        # the edit replays exactly on the original section, at the section it names
        original = doc.sections[instance.edit.target]
        assert instance.original_section == original
        assert replay(instance.edit, original) == instance.corrupted_section
        applied = apply_edits(doc, [instance.edit])
        assert applied.locations == (instance.location,) == (original.number,)
        corrupted = applied.document
        (replacement,) = instance.edit.replacements
        assert replacement.new.strip() in instance.description  # the changed words are quoted
        if spec.deterministic:
            assert instance.location in found(corrupted, injector.error_type)
            assert instance.location not in found(doc, injector.error_type)
        else:
            assert instance.location in [v.location for v in lint_diff(doc, corrupted, [injector.error_type])]
            assert lint_diff(doc, doc, [injector.error_type]) == []
        # no other NMS checker newly fires there
        before = set(lint(doc, NMS))
        assert {
            v for v in lint(corrupted, NMS) if v not in before and v.error_type != injector.error_type
        } == set()
    assert made == len(corpus_documents) or (injector.error_type in EVIDENCED and made >= 3)


def test_real_documents_do_not_crash_the_checkers(real_corpus: Path) -> None:
    paths = [real_corpus / "GBT_22240-2020.md", *sorted((real_corpus / "llm-extracted").glob("*.txt"))]
    for path in paths:
        doc = parse_file(path)
        messages = [v.message for v in lint(doc, NMS)]
        assert not any("业务必需" in m or "务必需" in m for m in messages), path.name


def test_types_of_several_forms_offer_the_planner_more_candidates() -> None:
    doc = locker_document(STATEMENTS_AND_CLAUSES)
    config = PlanConfig(types=("NMS-01", "NMS-03", "NMS-04"), min_errors=1, max_errors=3)
    found = candidate_instances(doc, 0, InjectionContext.from_documents([doc]), config)
    counts = Counter(i.error_type for i in found.instances)
    assert counts["NMS-03"] == 3 and counts["NMS-04"] == 3, counts


def test_no_permission_before_a_comparison_and_no_wubi_before_a_state() -> None:
    """ "误差应等于或优于0.5%" weakens to 宜 only; "应具有如下功能" never becomes "务必具有"."""
    from injectors.types.nms.editing import BodyModal
    from injectors.types.nms.nms01_requirement_weakened import _weaker
    from injectors.types.nms.nms03_nonstandard_modal_wording import _nonstandard_options

    line = "示值误差应等于或优于0.5%。"
    assert _weaker(line, line.index("应"), False) == [("应", "宜")]
    doc = locker_document("4 要求\n4.1 功能\n控制器应具有如下功能。\n")
    state = "控制器应具有如下功能。"
    found = BodyModal(0, state, modal_verbs(state)[0])
    assert "务必" not in _nonstandard_options(doc, found)
