"""The heading grammar, line by line, including what PDF layout does to numbers."""

from __future__ import annotations

import pytest

from parsers.numbering import normalize_title, parse_heading, parse_marker


@pytest.mark.parametrize(
    ("line", "number", "title"),
    [
        ("5.1 总体要求", "5.1", "总体要求"),
        ("5.1　总体要求", "5.1", "总体要求"),
        ("3. 1 .2 数据帧", "3.1.2", "数据帧"),
        ("３．２ 接口", "3.2", "接口"),
        ("1范围", "1", "范围"),
        ("3.2安全保护能力 security protection ability", "3.2", "安全保护能力 security protection ability"),
        ("3 1 1 通信协议", "3.1.1", "通信协议"),
        ("前 言", "前言", "前言"),
        ("序言", "序言", "序言"),
        ("参 考 文 献", "参考文献", "参考文献"),
        ("A.2.1 校准", "A.2.1", "校准"),
        ("5.2.2", "5.2.2", ""),
    ],
)
def test_headings_are_repaired_and_split(line: str, number: str, title: str) -> None:
    heading = parse_heading(line)
    assert heading is not None
    assert (heading.number, heading.title) == (number, title)


def test_untitled_clause_keeps_its_text() -> None:
    heading = parse_heading("6.2.1 设备应在-20 ℃～55 ℃范围内正常工作。")
    assert heading is not None
    assert heading.number == "6.2.1" and heading.title == ""
    assert heading.rest == "设备应在-20 ℃～55 ℃范围内正常工作。"


@pytest.mark.parametrize(
    ("line", "marker", "title"),
    [
        ("附录A（规范性）数据字典", "规范性", "数据字典"),
        ("附 录 B (资料性附录) 试验记录", "资料性附录", "试验记录"),
        ("附录C", "", ""),
    ],
)
def test_annex_headings(line: str, marker: str, title: str) -> None:
    heading = parse_heading(line)
    assert heading is not None and heading.is_annex
    assert (heading.annex_marker, heading.title) == (marker, title)


@pytest.mark.parametrize(
    "line", ["GB/T 191—2008 包装储运图示标志", "2024年发布", "注：本条不适用。", "0.5 mm"]
)
def test_non_headings(line: str) -> None:
    assert parse_heading(line) is None


def test_marker_line_and_title_normalisation() -> None:
    assert parse_marker("（规范性）") == "规范性"
    assert parse_marker("(资 料 性 附 录)") == "资料性附录"
    assert parse_marker("规范性") is None
    assert normalize_title("温室　 greenhouse") == "温室 greenhouse"
    assert normalize_title("前 言") == "前言"
