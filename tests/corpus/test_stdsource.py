"""The gold reader of `.std` sources: what it returns for well-formed files and how it rejects bad ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

from corpus.stdsource import cover, expected_sections, load  # noqa: E402
from parsers.model import Cover, Section  # noqa: E402

HEADER = """\
standard_id: GB/T 91001—2024
title: 智慧农业 温室环境监测系统 技术要求
title_en: Smart agriculture—Greenhouse environment monitoring system—Technical requirements
ics: 65.040.30
ccs: B 91
issued: 2024-03-15
implemented: 2024-10-01
issuer: 国家市场监督管理总局 国家标准化管理委员会
drafting_rules: GB/T 1.1—2020
---
"""

BODY = """\
## 前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。

## 引言
引言文字。
## 1 范围
本文件规定了温室环境监测系统的技术要求。
## 2 规范性引用文件
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
GB/T 191—2008　包装储运图示标志
## 3 术语和定义
下列术语和定义适用于本文件。
## 3.1 温室 greenhouse
以透光材料为围护结构的建筑。
注：包括日光温室。
## 3.2 监测节点 monitoring node
采集环境参数的设备。
## 4 符号和缩略语
DTU：数据传输单元（Data Transfer Unit）
## 5 技术要求
## 5.1 测量性能
## 5.1.1
测量性能见表1。
表1　测量性能
| 参数 | 范围 |
| 温度 | −20 ℃～60 ℃ |
注：表中为最低要求。
## 5.1.2
——湿度应可测；
——光照应可测。
## 5.2 通信
通信应可靠。
## 附录A（规范性）数据字典
## A.1 一般规定
数据应符合表A.1。
表A.1　数据项
| 名称 | 类型 |
| 温度 | 数值 |
## A.1.1 编码
编码采用UTF-8。
## A.1.2 时间
时间采用北京时间。
## A.2 其他
其他要求。
## 附录B（资料性） 示例
示例数据。
## 参考文献
[1] GB/T 2423.1—2008　环境试验
## 索引
温室　3.1
"""


def write(tmp_path: Path, text: str, name: str = "doc.std") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_sections_have_number_title_level_kind_and_marker(tmp_path: Path) -> None:
    doc = load(write(tmp_path, HEADER + BODY))
    got = [(s.number, s.title, s.level, s.kind, s.annex_marker) for s in doc.sections]
    assert got == [
        ("前言", "前言", 1, "foreword", ""),
        ("引言", "引言", 1, "introduction", ""),
        ("1", "范围", 1, "scope", ""),
        ("2", "规范性引用文件", 1, "normative_references", ""),
        ("3", "术语和定义", 1, "terms", ""),
        ("3.1", "温室 greenhouse", 2, "terms", ""),
        ("3.2", "监测节点 monitoring node", 2, "terms", ""),
        ("4", "符号和缩略语", 1, "symbols", ""),
        ("5", "技术要求", 1, "clause", ""),
        ("5.1", "测量性能", 2, "clause", ""),
        ("5.1.1", "", 3, "clause", ""),
        ("5.1.2", "", 3, "clause", ""),
        ("5.2", "通信", 2, "clause", ""),
        ("附录A", "数据字典", 1, "annex", "规范性"),
        ("A.1", "一般规定", 2, "annex", ""),
        ("A.1.1", "编码", 3, "annex", ""),
        ("A.1.2", "时间", 3, "annex", ""),
        ("A.2", "其他", 2, "annex", ""),
        ("附录B", "示例", 1, "annex", "资料性"),
        ("参考文献", "参考文献", 1, "bibliography", ""),
        ("索引", "索引", 1, "index", ""),
    ]
    assert doc.standard_id == "GB/T 91001—2024"
    assert doc.drafting_rules == "GB/T 1.1—2020"
    assert doc.header["ccs"] == "B 91"


def test_blocks_are_paragraphs_and_tables(tmp_path: Path) -> None:
    doc = load(write(tmp_path, HEADER + BODY))
    clause = doc.section("5.1.1")
    assert clause is not None
    assert clause.blocks == (
        "测量性能见表1。",
        "表1　测量性能",
        (("参数", "范围"), ("温度", "−20 ℃～60 ℃")),
        "注：表中为最低要求。",
    )
    assert clause.paragraphs == ("测量性能见表1。", "表1　测量性能", "注：表中为最低要求。")
    front = doc.section("前言")
    assert front is not None and len(front.blocks) == 1  # blank lines are ignored


def test_expected_sections_are_the_gold_documents_sections(tmp_path: Path) -> None:
    sections = expected_sections(load(write(tmp_path, HEADER + BODY)))
    assert all(isinstance(s, Section) for s in sections)
    by_number = {s.number: s for s in sections}
    assert by_number["5.1.1"] == Section(
        number="5.1.1",
        title="",
        text="测量性能见表1。\n表1　测量性能\n参数 | 范围\n温度 | −20 ℃～60 ℃\n注：表中为最低要求。",
        level=3,
        kind="clause",
    )
    assert by_number["5.1"].text == ""  # a chapter or clause with sub-clauses has no text of its own
    assert by_number["3.1"].text == "以透光材料为围护结构的建筑。\n注：包括日光温室。"
    assert by_number["附录A"].heading == "附录A（规范性）数据字典"
    assert by_number["A.1"].text == "数据应符合表A.1。\n表A.1　数据项\n名称 | 类型\n温度 | 数值"
    assert by_number["前言"].heading == "前言"


def test_cover_returns_the_header_fields(tmp_path: Path) -> None:
    assert cover(load(write(tmp_path, HEADER + BODY))) == Cover(
        title_en="Smart agriculture—Greenhouse environment monitoring system—Technical requirements",
        ics="65.040.30",
        ccs="B 91",
        issued="2024-03-15",
        implemented="2024-10-01",
    )


def test_2009_annex_markers_and_other_chapter_names(tmp_path: Path) -> None:
    body = """\
## 1 适用范围
本标准适用于……
## 2 引用标准
GB 4208　外壳防护等级（IP代码）
## 3 术语
术语。
## 4 符号、代号和缩略语
IP：防护等级
## 5 缩略语
无。
## 6 要求
要求。
## 附录A（规范性附录）试验方法
方法。
## 附录B（资料性附录）　说明
说明。
"""
    doc = load(write(tmp_path, HEADER.replace("GB/T 1.1—2020", "GB/T 1.1—2009") + body))
    assert [s.kind for s in doc.sections] == [
        "scope",
        "normative_references",
        "terms",
        "symbols",
        "symbols",
        "clause",
        "annex",
        "annex",
    ]
    assert [s.annex_marker for s in doc.sections[-2:]] == ["规范性附录", "资料性附录"]
    assert doc.sections[-1].title == "说明"


BAD_BODIES = [
    # (body, line of the error, words of the reason)
    ("本文件……\n## 1 范围\n", 11, "text before the first"),
    ("## 1范围\n", 11, "unrecognised heading"),
    ("## 1\n文字\n", 11, "chapter 1 has no title"),
    ("## 1 范围\n## 1 范围\n", 12, "appears twice"),
    ("## 1 范围\n## 2.1 要求\n", 12, "before its parent 2"),
    ("## 1 范围\n## A.1 一般规定\n", 12, "outside any annex"),
    ("## 1 范围\n## 附录A（规范性）数据\n## B.1 X\n", 13, "is 附录A"),
    ("## 1 范围\n## 附录A（规范性）数据\n## 2 要求\n", 13, "after an annex heading"),
    ("## 1 范围\n## 附录A（参考）数据\n", 12, "annex marker"),
    ("## 1 范围\n## 附录A（规范性）\n", 12, "annex without a title"),
    ("## 1 范围\n| a | b |\n", 12, "must follow its caption"),
    ("## 1 范围\n表1　X\n| a | b |\n| c |\n", 13, "different numbers of cells"),
    ("## 1 范围\n表1　X\n| a | b\n", 13, "start and end with '|'"),
    ("## 1 范围\n表1　X\n| a | b |\n|---|---|\n", 14, "separator rows"),
    ("## 1 范围\n表1　X\n| a |  |\n", 13, "empty table cell"),
    ("## 1 范围\n### 1.1 X\n", 12, "two hashes and a space"),
    (
        "## 1 范围\n## 1.1 A\n## 1.1.1 B\n## 1.1.1.1 C\n## 1.1.1.1.1 D\n## 1.1.1.1.1.1 E\n",
        16,
        "deeper than 5",
    ),
    ("## 前言\n文字。\n", 12, "no numbered chapter"),
    ("", 10, "no sections"),
]


@pytest.mark.parametrize(("body", "line", "reason"), BAD_BODIES, ids=[b[2] for b in BAD_BODIES])
def test_malformed_bodies_name_file_line_and_reason(
    tmp_path: Path, body: str, line: int, reason: str
) -> None:
    path = write(tmp_path, HEADER + body)
    with pytest.raises(ValueError, match=r"^(.+):(\d+): (.+)$") as info:
        load(path)
    where, _, message = str(info.value).partition(": ")
    assert where == f"{path}:{line}", str(info.value)
    assert reason in message


BAD_HEADERS = [
    (HEADER.replace("---\n", ""), "missing '---' line"),
    (HEADER.replace("ics: 65.040.30\n", ""), "header lacks ics"),
    (HEADER.replace("ccs: B 91", "ccs:"), "'ccs' has no value"),
    (HEADER.replace("ccs: B 91", "ccs: B 91\nccs: B 92"), "given twice"),
    (HEADER.replace("ccs: B 91", "CCS B 91"), "not 'key: value'"),
    (HEADER.replace("GB/T 1.1—2020", "GB/T 1.1-2020"), "drafting_rules"),
    (HEADER.replace("2024-03-15", "2024/03/15"), "not a YYYY-MM-DD date"),
    ("\ufeff" + HEADER, "byte-order mark"),
]


@pytest.mark.parametrize(("header", "reason"), BAD_HEADERS, ids=[b[1] for b in BAD_HEADERS])
def test_malformed_headers_are_rejected(tmp_path: Path, header: str, reason: str) -> None:
    path = write(tmp_path, header + "## 1 范围\n文字。\n")
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}:\\d+: ") as info:
        load(path)
    assert reason in str(info.value)


def test_a_file_that_is_not_utf8_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "gbk.std"
    path.write_bytes((HEADER + "## 1 范围\n文字。\n").encode("gbk"))
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}:1: not UTF-8"):
        load(path)
