"""The parse gate: each reason fires on a broken document written here and never on the project's corpus;
engineering codes are refused with their reason; build, inject and the docs agree with the module."""

from __future__ import annotations

import base64
from dataclasses import replace
from pathlib import Path

import pytest

from flows.stages import ParseInput, parse
from parsers import structure_quality
from parsers.errors import BrokenStructureError
from parsers.model import Document
from parsers.structure_quality import LONG_MIN_CHARS, check_structure, gate
from parsers.text import parse_text
from tests.support.sample_standard import SAMPLE


def parse_sample(text: str = SAMPLE, name: str = "sample.txt") -> Document:
    return parse_text(Path(name), text.encode())


def fatal_checks(document: Document) -> set[str]:
    return {f.check for f in check_structure(document).findings if f.fatal}


def with_section(document: Document, number: str, **changes: object) -> Document:
    sections = tuple(replace(s, **changes) if s.number == number else s for s in document.sections)  # type: ignore[arg-type]
    return replace(document, sections=sections)


# a paragraph written for these tests, repeated to make a section far longer than the others
FILLER = "处理设备应按规定的周期进行检查，检查结果应记录并保存，记录应包括日期、检查人员和发现的问题。\n"


def test_the_sample_passes_with_nothing_to_report() -> None:
    report = gate(parse_sample())
    assert report.passed and report.findings == () and report.reason == ""


def test_every_corpus_document_passes(corpus_documents: list[Document]) -> None:
    for doc in corpus_documents:
        report = check_structure(doc)
        assert report.passed, (doc.standard_id, report.reason)
        assert report.findings == (), doc.standard_id


def test_ghost_headings_mid_document() -> None:
    broken = parse_sample(SAMPLE.replace("6 试验方法\n", "5.3\n5.4\n6 试验方法\n"))
    assert [s.number for s in broken.sections if s.number.startswith("5.")][-2:] == ["5.3", "5.4"]
    report = check_structure(broken)
    assert fatal_checks(broken) == {"ghost_headings"}
    assert "5.3, 5.4" in report.reason
    with pytest.raises(BrokenStructureError, match=r"^sample.txt: structure check failed: 2 empty heading"):
        gate(broken)


def test_abbreviations_written_as_numbered_entries_are_not_empty_headings() -> None:
    entries = "4 缩略语\n4.1 PLC 可编程逻辑控制器\n4.2 HMI 人机界面\n4.3 IO 输入输出\n"
    doc = parse_sample(
        SAMPLE.replace("4 缩略语\nPLC：可编程逻辑控制器（Programmable Logic Controller）\n", entries)
    )
    assert [s.title for s in doc.sections if s.number.startswith("4.")] == [
        "PLC 可编程逻辑控制器",
        "HMI 人机界面",
        "IO 输入输出",
    ]
    assert check_structure(doc).findings == ()


def test_one_empty_clause_is_only_reported() -> None:
    doc = parse_sample(SAMPLE.replace("6 试验方法\n", "5.3 示意图\n6 试验方法\n"))
    report = check_structure(doc)
    assert report.passed
    assert [(f.check, f.fatal) for f in report.findings] == [("ghost_headings", False)]


def test_a_section_that_swallowed_headings() -> None:
    doc = parse_sample()
    swallowed = FILLER * 70 + "7 检验规则\n" + FILLER * 5 + "附录C（资料性）记录表格式\n" + FILLER
    assert len(swallowed) > LONG_MIN_CHARS
    broken = with_section(doc, "附录B", text=swallowed)
    report = check_structure(broken)
    assert fatal_checks(broken) == {"swallowed_headings"}
    assert "7 检验规则, 附录C 记录表格式" in report.reason


def test_a_long_section_with_no_heading_inside_passes() -> None:
    doc = with_section(parse_sample(), "附录B", text=FILLER * 70)
    report = check_structure(doc)
    assert report.passed
    assert [f.check for f in report.findings] == ["long_section"]


def test_table_rows_and_formula_lines_in_a_long_section_are_not_headings() -> None:
    rows = "".join(f"{n}    检查项目{n}    记录\n" for n in range(7, 12)) + "273 101325\n"
    doc = with_section(parse_sample(), "附录B", text=FILLER * 70 + rows)
    assert check_structure(doc).passed


def test_headings_that_are_not_text() -> None:
    token = base64.b64encode("这不是一个标题而是一行编码".encode()).decode()
    broken = with_section(parse_sample(), "5.1", title=token)
    assert fatal_checks(broken) == {"heading_not_text"}
    assert "5.1" in check_structure(broken).reason
    # English equivalents of terms are words, not tokens
    assert check_structure(with_section(parse_sample(), "3.1", title="就地处理 on-site treatment")).passed


def test_headings_cut_to_one_character() -> None:
    doc = parse_sample()
    cut = tuple(
        replace(s, title=s.title[0]) if s.title and s.kind in ("clause", "scope") else s for s in doc.sections
    )
    broken = replace(doc, sections=cut)
    assert fatal_checks(broken) == {"heading_not_text"}
    assert "cut to one character" in check_structure(broken).reason


def test_chapter_and_annex_sequences() -> None:
    no_chapter_4 = parse_sample(
        SAMPLE.replace("4 缩略语\nPLC：可编程逻辑控制器（Programmable Logic Controller）\n", "")
    )
    assert [s.number for s in no_chapter_4.sections if s.level == 1 and s.number.isdigit()] == [
        "1",
        "2",
        "3",
        "5",
        "6",
    ]
    assert fatal_checks(no_chapter_4) == {"chapter_sequence"}
    assert (
        "chapters run 1, 2, 3, 5, 6, not 1, 2, 3 … (no chapter 4 in the text)"
        in check_structure(no_chapter_4).reason
    )
    # the heading glued to the text before it, as a PDF reader joining lines may leave it
    doc = parse_sample()
    glued = tuple(
        replace(s, text=s.text + "\n4 缩略语\nPLC：可编程逻辑控制器") if s.number == "3.2" else s
        for s in doc.sections
        if s.number != "4"
    )
    reason = check_structure(replace(doc, sections=glued)).reason
    assert "(the heading 4 缩略语 is a line of 3.2 减量率 reduction rate)" in reason
    no_annex_b = parse_sample(SAMPLE.replace("附录B（资料性）操作示例", "附录C（资料性）操作示例"))
    assert fatal_checks(no_annex_b) == {"chapter_sequence"}
    assert "annexes run A, C" in check_structure(no_annex_b).reason


SECOND_PART = """GB/T 99901.2—2025
校园 餐厨垃圾 就地处理设备 第2部分：试验方法
前言
本部分是第2部分。
1 范围
本部分规定了试验方法。
"""


def test_a_file_holding_two_parts() -> None:
    broken = parse_sample(SAMPLE + SECOND_PART)
    assert broken.section("参考文献") is not None
    assert "GB/T 99901.2—2025" in broken.section("参考文献").text  # type: ignore[union-attr]
    assert fatal_checks(broken) == {"several_standards"}
    reason = check_structure(broken).reason
    assert "more than one standard in one file" in reason and "GB/T99901.2—2025" in reason
    # a standard id alone on a line (a reference list printed one per line) is not a cover
    assert check_structure(parse_sample(SAMPLE + "GB/T 99902—2024\n")).passed
    # without its id (dropped with the running heads it looks like), the part still opens with 前言 and 1 范围
    no_id = parse_sample(SAMPLE + SECOND_PART.split("\n", 1)[1])
    assert fatal_checks(no_id) == {"several_standards"}
    assert "a second 前言 and a second 1 范围" in check_structure(no_id).reason
    # an annex that lists the elements of a standard is not a second standard
    listing = SAMPLE + "前言\n1 范围\n2 规范性引用文件\n"
    assert check_structure(parse_sample(listing)).passed


ENGINEERING = """GB 59901—2025
示例工程 设计规范
前言
本规范是根据示例计划编制的。
1 总则
1.0.1 为统一示例工程的设计要求，制定本规范。
1.0.2 本规范适用于新建示例工程的设计。
1.0.3 示例工程的设计除应符合本规范外，尚应符合国家现行有关标准的规定。
2 术语
2.0.1 示例管路 example pipeline
输送介质的管道及其附件。
3 基本规定
3.0.1 设计应满足安全要求。
"""


def test_engineering_codes_are_refused_with_that_reason() -> None:
    doc = parse_sample(ENGINEERING, "GB_59901-2025.txt")
    report = check_structure(doc)
    assert [f.check for f in report.findings] == ["engineering_code"]
    assert "engineering construction codes" in report.reason and "1.0.1" in report.reason
    # a GB/T standard whose chapter is called 总则 but whose clauses are numbered 5.1, 5.2 is not one
    assert check_structure(parse_sample(SAMPLE.replace("5 技术要求", "5 总则"))).passed


def test_the_build_stage_reports_a_broken_document_as_a_bad_input(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text(SAMPLE.replace("6 试验方法\n", "5.3\n5.4\n6 试验方法\n"), encoding="utf-8")
    good = tmp_path / "good.txt"
    good.write_text(SAMPLE, encoding="utf-8")
    refused = parse(ParseInput(str(broken), "digest", "code"))
    assert refused.document is None
    assert refused.error.startswith("structure check failed: 2 empty heading(s)")
    kept = parse(ParseInput(str(good), "digest", "code"))
    assert kept.document is not None and kept.error == ""


def test_docs_describe_every_check_with_the_code_s_thresholds() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "parse-gate.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip().strip("`"): line for line in page.splitlines() if line.startswith("| `")
    }
    assert set(rows) == set(structure_quality.CHECKS)
    for name in ("GHOST_MIN", "LONG_MIN_CHARS", "LONG_FACTOR", "MAX_LOST_CHAPTERS", "FRAGMENT_MIN"):
        assert f"`{name}` ({getattr(structure_quality, name)})" in page, name
    assert f"`FRAGMENT_SHARE` ({structure_quality.FRAGMENT_SHARE:.0%})" in page
    assert f"`ENGINEERING_CLAUSES` ({structure_quality.ENGINEERING_CLAUSES})" in page
    assert f"within {structure_quality.COVER_LINES} lines" in page
