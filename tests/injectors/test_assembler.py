"""Assembling lines into a Document: front matter, headings, kinds, entries, and tolerance for drafts."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import parse_bytes
from parsers.cover import toc_entries
from parsers.entries import normative_references, term_entries
from parsers.errors import NotAStandardError
from parsers.model import Document
from parsers.render import render_text
from parsers.text import parse_text, text_lines
from tests.support.sample_standard import SAMPLE


def parse_sample(text: str = SAMPLE) -> Document:
    return parse_text(Path("sample.txt"), text.encode())


def test_sections_numbers_kinds_and_levels() -> None:
    doc = parse_sample()
    got = [(s.number, s.title, s.kind, s.level) for s in doc.sections]
    assert got == [
        ("前言", "前言", "foreword", 1),
        ("1", "范围", "scope", 1),
        ("2", "规范性引用文件", "normative_references", 1),
        ("3", "术语和定义", "terms", 1),
        ("3.1", "就地处理 on-site treatment", "terms", 2),
        ("3.2", "减量率 reduction rate", "terms", 2),
        ("4", "缩略语", "symbols", 1),
        ("5", "技术要求", "clause", 1),
        ("5.1", "外观", "clause", 2),
        ("5.1.1", "箱体", "clause", 3),
        ("5.1.2", "标志", "clause", 3),
        ("5.2", "防护", "clause", 2),
        ("5.2.1", "", "clause", 3),
        ("5.2.2", "", "clause", 3),
        ("6", "试验方法", "clause", 1),
        ("6.1", "外观检查", "clause", 2),
        ("6.2", "日期记录", "clause", 2),
        ("附录A", "试验记录", "annex", 1),
        ("A.1", "记录内容", "annex", 2),
        ("A.2", "保存", "annex", 2),
        ("附录B", "操作示例", "annex", 1),
        ("参考文献", "参考文献", "bibliography", 1),
    ]
    assert doc.section("附录A").annex_marker == "规范性"
    assert doc.section("附录B").annex_marker == "资料性"
    # "10 个字节…" is body text of 5.2.1, not chapter 10; the table stays in 6.2
    assert doc.section("5.2.1").text.endswith("10 个字节的缓存区宜保留。")
    assert doc.section("6.2").text.split("\n")[1:] == ["项目 | 要求", "减量率 | ≥90%"]
    assert doc.section("5.2.2").text == "控制系统宜采用PLC。\n注：PLC的选择不限品牌。"


def test_cover_and_drafting_rules() -> None:
    doc = parse_sample()
    assert doc.standard_id == "GB/T 99901—2025"
    assert doc.title == "校园 餐厨垃圾 就地处理设备 技术要求"
    assert doc.drafting_rules == "GB/T 1.1—2020"
    assert doc.cover.ics == "13.030.40" and doc.cover.ccs == "Z 70"
    assert (doc.cover.issued, doc.cover.implemented) == ("2025-03-01", "2025-09-01")
    assert doc.cover.title_en.startswith("Campus kitchen waste")
    assert "前言" not in doc.sections[0].text  # the 目次 entry was not taken for the heading


def test_toc_entries() -> None:
    assert toc_entries(text_lines(SAMPLE)) == [
        ("前言", "前言"),
        ("1", "范围"),
        ("5", "技术要求"),
        ("附录A", "试验记录"),
    ]


def test_term_and_reference_entries() -> None:
    doc = parse_sample()
    terms = term_entries(doc)
    assert [(t.number, t.term, t.english) for t in terms] == [
        ("3.1", "就地处理", "on-site treatment"),
        ("3.2", "减量率", "reduction rate"),
    ]
    assert terms[0].definition == "在产生地点对餐厨垃圾进行的减量和稳定化处理。"
    refs = normative_references(doc)
    assert [(r.number, r.year) for r in refs] == [
        ("GB/T 191", "2008"),
        ("GB 4208", None),
        ("ISO 8601-1", "2019"),
    ]
    assert refs[0].title == "包装储运图示标志"
    assert [r.citation for r in refs] == ["GB/T 191—2008", "GB 4208", "ISO 8601-1:2019"]


def test_drafts_with_numbering_errors_still_parse() -> None:
    draft = SAMPLE.replace("5.2 防护", "5.4 防护").replace("5.2.1\n", "5.4.1\n").replace("5.2.2\n", "5.4.2\n")
    numbers = [s.number for s in parse_sample(draft).sections]
    assert "5.4" in numbers and "5.4.1" in numbers and "5.2" not in numbers
    dup = SAMPLE.replace("6.2 日期记录", "6.1 日期记录")
    assert [s.number for s in parse_sample(dup).sections].count("6.1") == 2


def test_json_round_trip_and_text_rendering() -> None:
    doc = parse_sample()
    again = Document.from_json(doc.to_json())
    assert again == doc and again.cover == doc.cover
    assert [s.provenance for s in again.sections] == [s.provenance for s in doc.sections]
    rendered = render_text(doc)
    reparsed = parse_text(Path("rendered.txt"), rendered.encode())
    assert reparsed.sections == doc.sections
    assert (reparsed.standard_id, reparsed.title, reparsed.drafting_rules) == (
        doc.standard_id,
        doc.title,
        doc.drafting_rules,
    )


def test_provenance_offsets_point_at_headings() -> None:
    doc = parse_sample()
    for s in doc.sections:
        assert s.provenance.offset is not None
        assert SAMPLE[s.provenance.offset :].startswith(s.number[0])


def test_prose_is_not_a_standard() -> None:
    with pytest.raises(NotAStandardError) as info:
        parse_text(Path("letter.txt"), "尊敬的用户：\n感谢您的来信。\n此致\n".encode())
    assert "letter.txt" in str(info.value) and "no recognisable standard structure" in str(info.value)


def test_llm_extraction_markers_and_xuyan() -> None:
    text = (
        "序言\n本文件按照GB/T 1.1—2020《标准化工作导则》的规定起草。\n"
        "[1] 范围\n本文件规定了示例要求。\n[2] 规范性引用文件\n本文件没有规范性引用文件。\n"
        "[3] 术语和定义\n本文件没有需要界定的术语和定义。\n[4] 要求\n"
        "[4.1] 通用\n设备应可靠。\n[续]…并便于维护。\n"
        "[4.2] 专用\n专用设备宜带锁。\n参考文献\n[1] GB/T 1.1—2020　标准化工作导则\n"
    )
    doc = parse_bytes(Path("x.source_text.txt"), text.encode())
    assert [s.number for s in doc.sections] == ["序言", "1", "2", "3", "4", "4.1", "4.2", "参考文献"]
    assert doc.sections[0].kind == "foreword" and doc.drafting_rules == "GB/T 1.1—2020"
    assert doc.section("4.1").text == "设备应可靠。\n并便于维护。"
    assert doc.section("参考文献").text.startswith("[1] GB/T 1.1—2020")


def test_word_heading_styles_without_numbers_are_numbered() -> None:
    from parsers.assembler import assemble
    from parsers.lines import Line

    # "<level> <text>": a paragraph in Word style Heading <level>; "- <text>": a body paragraph
    spec = """
    1 前言
    - 本文件按照GB/T 1.1—2020起草。
    1 范围
    - 本文件规定了示例。
    1 规范性引用文件
    - 本文件没有规范性引用文件。
    1 术语和定义
    - 本文件没有需要界定的术语和定义。
    1 技术要求
    2 总体要求
    - 设备应可靠。
    2 外观
    3 表面
    - 表面应平整。
    3 颜色
    - 颜色应均匀。
    1 附录A（规范性）数据
    2 格式
    - 格式应统一。
    """
    lines = []
    for row in spec.strip().splitlines():
        mark, text = row.strip().split(" ", 1)
        lines.append(Line(text, heading_level=None if mark == "-" else int(mark)))
    doc = assemble(lines, path=Path("styled.docx"), fmt="docx", data=b"styled")
    assert [s.number for s in doc.sections] == [
        "前言", "1", "2", "3", "4", "4.1", "4.2", "4.2.1", "4.2.2", "附录A", "A.1",
    ]  # fmt: skip
    assert doc.section("4.2.2").text == "颜色应均匀。"
    # Markdown headings carry levels too, but only Word styles are numbered this way
    with pytest.raises(NotAStandardError):
        assemble(lines, path=Path("styled.md"), fmt="markdown", data=b"styled")


def test_every_corpus_document_round_trips_through_text(corpus_documents: list[Document]) -> None:
    for doc in corpus_documents:
        again = parse_text(Path("rendered.txt"), render_text(doc).encode())
        assert again.sections == doc.sections, doc.standard_id
        assert (again.standard_id, again.drafting_rules) == (doc.standard_id, doc.drafting_rules)
