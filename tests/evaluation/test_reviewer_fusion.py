"""The reviewer's fusion on a small document the test writes: normalisation, grouping by agreement,
location refinement, neighbouring types and the threshold."""

from __future__ import annotations

from evaluation.reviewer.fusion import Candidate, fuse, place
from parsers.model import Document, Section


def _document() -> Document:
    sections = (
        Section("前言", "前言", "本文件按照GB/T 1.1—2020的规则起草。", 1, "foreword"),
        Section("1", "范围", "本文件规定了示例设备的技术要求。", 1, "scope"),
        Section("5", "技术要求", "", 1, "clause"),
        Section("5.1", "外观", "外壳宜无划痕。", 2, "clause"),
        Section("5.2", "性能", "", 2, "clause"),
        Section("5.2.1", "5.2.1", "响应时间应不大于2 s。", 3, "clause"),
        Section("附录A", "试验方法", "", 1, "annex", "规范性"),
        Section("A.1", "试验条件", "温度为20 ℃。", 2, "annex"),
    )
    return Document("d1", "d1.txt", "txt", "GB/T 1—2020", "示例", "GB/T 1.1—2020", sections)


def test_locations_are_mapped_onto_the_document_s_own_numbers() -> None:
    document = _document()
    assert place("第5章", document) == "5"
    assert place("[5.2.1]", document) == "5.2.1"
    assert place("５.１", document) == "5.1"
    assert place("附录 A", document) == "附录A"
    assert place("5.2.9", document) == "5.2"  # a number the document lacks: its nearest parent
    assert place("A.1.3", document) == "A.1"
    assert place("外观", document) == "5.1"  # a title names its section
    assert place("9.9", document) is None
    assert place("", document) is None


def test_agreement_between_families_passes_a_threshold_no_single_agent_does() -> None:
    document = _document()
    direct = Candidate("direct", "direct", "5.1", "NMS-02", "宜应为应", 0.6)
    specialist = Candidate("dimension", "dimension:NMS", "5.1", "NMS-02", "", 0.6)
    alone = fuse([direct], document, threshold=0.6)
    assert alone.findings == ()
    assert alone.dropped == {"below_threshold": 1}
    both = fuse([direct, specialist], document, threshold=0.6)
    assert [(f.location, f.error_type) for f in both.findings] == [("5.1", "NMS-02")]
    assert both.findings[0].sources == ("dimension:NMS", "direct")
    assert both.findings[0].description == "宜应为应"
    # an agent repeating itself is not agreement
    twice = fuse([direct, direct], document, threshold=0.6)
    assert twice.findings == ()


def test_duplicates_are_one_prediction_and_unknown_codes_or_places_are_dropped_and_counted() -> None:
    document = _document()
    found = fuse(
        [
            Candidate("rules", "rules:NMS", "5.2.1", "NMS-03", "linter"),
            Candidate("direct", "direct", "5.2.1", "nms-03", "direct", 0.9),
            Candidate("direct", "direct", "5.2.1", "E-T-04", "reference code", 0.9),  # NMS-03's code
            Candidate("direct", "direct", "5.2.1", "NOT-A-TYPE", "", 1.0),
            Candidate("direct", "direct", "12.4", "NMS-03", "", 1.0),
        ],
        document,
    )
    assert [(f.location, f.error_type, f.dimension) for f in found.findings] == [("5.2.1", "NMS-03", "NMS")]
    assert found.findings[0].sources == ("direct", "rules:NMS")
    assert found.findings[0].description == "linter"  # the scanner's wording is preferred
    assert found.dropped == {"unknown_type": 1, "unknown_location": 1}


def test_a_section_s_finding_is_refined_to_the_subsection_another_agent_names() -> None:
    document = _document()
    found = fuse(
        [
            Candidate("direct", "direct", "5", "NMS-01", "", 0.9),
            Candidate("type", "type:NMS-01", "5.2.1", "NMS-01", "", 0.9),
        ],
        document,
    )
    assert [(f.location, f.error_type) for f in found.findings] == [("5.2.1", "NMS-01")]
    assert found.findings[0].sources == ("direct", "type:NMS-01")


def test_neighbouring_types_of_one_dimension_at_one_place_are_one_finding() -> None:
    document = _document()
    strong = Candidate("type", "type:NMS-02", "5.1", "NMS-02", "", 0.9)
    weak = Candidate("direct", "direct", "5.1", "NMS-04", "", 0.3)
    found = fuse([strong, weak], document, threshold=0.5)
    assert [(f.location, f.error_type) for f in found.findings] == [("5.1", "NMS-02")]
    assert found.findings[0].sources == ("direct", "type:NMS-02")
    # two siblings that each fall short but together pass are kept once, as the better-scored type
    a = Candidate("direct", "direct", "5.1", "NMS-02", "", 0.5)
    b = Candidate("dimension", "dimension:NMS", "5.1", "NMS-04", "", 0.48)  # 0.36 against 0.35
    joint = fuse([a, b], document, threshold=0.5)
    assert [(f.location, f.error_type) for f in joint.findings] == [("5.1", "NMS-04")]
    # another dimension at the same place is another finding
    other = Candidate("type", "type:TER-03", "5.1", "TER-03", "", 0.9)
    assert len(fuse([strong, other], document).findings) == 2


def test_findings_come_in_document_order() -> None:
    document = _document()
    found = fuse(
        [
            Candidate("rules", "rules:STR", "A.1", "STR-05", ""),
            Candidate("rules", "rules:SCP", "1", "SCP-02", ""),
            Candidate("rules", "rules:STR", "前言", "STR-03", ""),
        ],
        document,
    )
    assert [f.location for f in found.findings] == ["前言", "1", "A.1"]
