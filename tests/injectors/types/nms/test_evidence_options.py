"""Tests of injectors.types.nms.evidence_options: a recommendation's own clause offers, hedges or foresees
another way."""

from __future__ import annotations

from injectors.types.nms.evidence import ALTERNATIVE, FALLBACK
from injectors.types.nms.evidence_finding import recommendation_evidence
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from tests.injectors.types.nms.nms_documents import attempts, clause_line, evidence_standard, position


def test_recommendation_with_an_alternative() -> None:
    document = evidence_standard("柜门可采用电磁锁，也可采用电机锁。")
    found = recommendation_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "可采用电磁锁")
    )
    assert (found[0].kind, found[0].words) == (ALTERNATIVE, "也可")
    for attempt in attempts(document, RecommendationStrengthened()):
        instance = attempt.instance
        assert instance is not None
        (replacement,) = instance.edit.replacements
        assert (replacement.old, replacement.new) == ("可", "应")
        assert "应采用电磁锁，也可采用电机锁" in instance.corrupted_section.text
        assert "以“也可”给出其他做法" in instance.description


def test_recommendation_whose_exception_the_document_foresees() -> None:
    """ "……不宜小于500 mm。间隙无法满足时，应……": the next sentence says what to do when it is not met."""
    document = evidence_standard("柜体与墙面的间隙不宜小于50 mm。间隙无法满足时，应加装隔热板。")
    found = recommendation_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "不宜")
    )
    assert [(e.kind, e.words) for e in found] == [(FALLBACK, "无法满足时")]
    instance = attempts(document, RecommendationStrengthened())[0].instance
    assert instance is not None and "“不应小于50 mm”" in instance.description
    assert "随后规定了“无法满足时”的做法" in instance.description


def test_recommendation_whose_other_way_the_document_foresees() -> None:
    """ "宜设置在…；设置在…时，应……": the clause says what applies when the other way is taken."""
    document = evidence_standard("控制主板宜安装在柜体顶部的设备舱中；安装在柜体底部时，应加装防潮隔板。")
    found = recommendation_evidence(
        document, position(document, "4.1"), *clause_line(document, "4.1", "宜安装")
    )
    assert [(e.kind, e.words) for e in found] == [(FALLBACK, "安装在柜体底部时")]
    same_way = evidence_standard("控制主板宜安装在柜体顶部。安装在柜体顶部时，应加装散热片。")
    line = clause_line(same_way, "4.1", "宜安装")
    assert FALLBACK not in [
        e.kind for e in recommendation_evidence(same_way, position(same_way, "4.1"), *line)
    ]
