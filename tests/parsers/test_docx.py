"""The DOCX reader: Word auto numbering replayed as text, heading styles, tables, and whole standards.

Bad input is refused in test_docx_bad_input.py; the Word files both write are built by docx_fixtures.py.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_TAB_ALIGNMENT, WD_TAB_LEADER
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Cm

from parsers.cover import toc_entries
from parsers.docx import format_number, parse_docx, read_lines
from parsers.model import Section
from parsers.text import parse_text
from tests.support.docx_fixtures import (
    ANNEXES,
    CHAPTERS,
    DASHES,
    LISTS,
    add_style,
    lvl_xml,
    numbered,
    numbering_xml,
    override,
    raw_docx,
    sample_docx,
    save,
    texts,
)
from tests.support.sample_standard import SAMPLE

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"

# ---------------------------------------------------------------------------------------------------
# Automatic numbering
# ---------------------------------------------------------------------------------------------------


def test_auto_numbered_chapters_and_clauses_restart_per_parent() -> None:
    doc = docx.Document()
    numbered(doc, "范围", 1)
    doc.add_paragraph("本文件规定了……")
    numbered(doc, "规范性引用文件", 1)
    numbered(doc, "技术要求", 1)
    numbered(doc, "外观", 1, 1)
    numbered(doc, "箱体", 1, 2)
    numbered(doc, "标志", 1, 2)
    numbered(doc, "防护", 1, 1)
    numbered(doc, "外壳防护等级应符合GB 4208的规定。", 1, 2)  # untitled clause: text is the clause
    numbered(doc, "试验方法", 1)
    numbered(doc, "外观检查", 1, 1)
    numbered(doc, "细则", 1, 2)
    got = texts(save(doc, numbering_xml({1: CHAPTERS}, {1: (1, "")})))
    assert got == [
        "1 范围",
        "本文件规定了……",
        "2 规范性引用文件",
        "3 技术要求",
        "3.1 外观",
        "3.1.1 箱体",
        "3.1.2 标志",
        "3.2 防护",
        "3.2.1 外壳防护等级应符合GB 4208的规定。",
        "4 试验方法",
        "4.1 外观检查",
        "4.1.1 细则",
    ]


def test_lvl_restart_start_values_and_legal_numbering() -> None:
    abstract = [
        lvl_xml(0, "upperRoman", "%1", start=3),
        lvl_xml(1, "decimal", "%1.%2", restart=0),  # never restarts
        lvl_xml(2, "lowerLetter", "%1.%2.%3", isLgl=True, restart=1),  # restarts only after level 0
    ]
    doc = docx.Document()
    for text, ilvl in [("a", 0), ("b", 1), ("c", 2), ("d", 1), ("e", 2), ("f", 0), ("g", 1), ("h", 2)]:
        numbered(doc, text, 7, ilvl)
    got = texts(save(doc, numbering_xml({3: abstract}, {7: (3, "")})))
    # isLgl prints every level in decimal; level 2 keeps counting across level-1 items (restart=1)
    assert got == ["III a", "III.1 b", "3.1.1 c", "III.2 d", "3.2.2 e", "IV f", "IV.3 g", "4.3.1 h"]


def test_instances_of_one_abstract_share_counters_unless_overridden() -> None:
    doc = docx.Document()
    numbered(doc, "one", 1)
    numbered(doc, "two", 2)  # another w:num on the same abstractNum: the list continues
    numbered(doc, "restarted", 3)  # w:startOverride: starts again at 10
    numbered(doc, "next", 3)
    numbering = numbering_xml({1: CHAPTERS}, {1: (1, ""), 2: (1, ""), 3: (1, override(0, 10))})
    assert texts(save(doc, numbering)) == ["1 one", "2 two", "10 restarted", "11 next"]


def test_annex_letters_with_clause_numbering_restarting_per_annex() -> None:
    doc = docx.Document()
    numbered(doc, "范围", 1)
    numbered(doc, "", 2)  # the annex label paragraph holds only the number
    doc.add_paragraph("（规范性）")
    doc.add_paragraph("试验记录")
    numbered(doc, "记录内容", 2, 1)
    numbered(doc, "保存", 2, 1)
    numbered(doc, "", 3)  # annex B through its own w:num restarting the clause level
    doc.add_paragraph("（资料性）")
    doc.add_paragraph("操作示例")
    numbered(doc, "示例", 3, 1)
    numbering = numbering_xml({1: CHAPTERS, 2: ANNEXES}, {1: (1, ""), 2: (2, ""), 3: (2, override(1, 1))})
    assert texts(save(doc, numbering)) == [
        "1 范围",
        "附录A",
        "（规范性）",
        "试验记录",
        "A.1 记录内容",
        "A.2 保存",
        "附录B",
        "（资料性）",
        "操作示例",
        "B.1 示例",
    ]


def test_list_items_and_bullets_keep_their_prefix() -> None:
    doc = docx.Document()
    doc.add_paragraph("设备应具备下列功能：")
    numbered(doc, "数据采集；", 5)
    numbered(doc, "数据存储：", 5)
    numbered(doc, "本地缓存；", 5, 1)
    numbered(doc, "远程上传。", 5, 1)
    numbered(doc, "报警。", 5)
    numbered(doc, "温度；", 6)
    numbered(doc, "湿度。", 6, 1)
    numbering = numbering_xml({4: LISTS, 8: DASHES}, {5: (4, ""), 6: (8, "")})
    assert texts(save(doc, numbering)) == [
        "设备应具备下列功能：",
        "a) 数据采集；",
        "b) 数据存储：",
        "1) 本地缓存；",
        "2) 远程上传。",
        "c) 报警。",
        "——温度；",
        "• 湿度。",  # a Symbol-font bullet (private use area) shows as •
    ]


def test_numbering_inherited_from_style_and_heading_levels() -> None:
    """Heading styles carry no number in the text; the number comes from the style's list."""
    doc = docx.Document()
    add_style(
        doc,
        'w:type="paragraph" w:styleId="ChapterHeading"><w:name w:val="章标题"/><w:basedOn w:val="Heading1"/>'
        '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>',
    )
    add_style(
        doc,
        'w:type="paragraph" w:styleId="ClauseHeading"><w:name w:val="一级条标题"/>'
        '<w:basedOn w:val="Heading2"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>',
    )
    add_style(
        doc,
        'w:type="paragraph" w:styleId="Clause2"><w:name w:val="二级条标题"/>'
        '<w:basedOn w:val="ClauseHeading"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>',
    )
    levels = [
        lvl_xml(0, "decimal", "%1", pStyle="ChapterHeading"),
        lvl_xml(1, "decimal", "%1.%2", pStyle="ClauseHeading"),
        lvl_xml(2, "decimal", "%1.%2.%3", pStyle="Clause2"),
    ]
    doc.add_paragraph("前言", style="Heading 1")
    doc.add_paragraph("本文件按照……起草。")
    doc.add_paragraph("范围", style="章标题")
    doc.add_paragraph("技术要求", style="章标题")
    doc.add_paragraph("总体要求", style="一级条标题")
    doc.add_paragraph("细则", style="二级条标题")
    outlined = doc.add_paragraph("不编号的大纲段")
    lvl = OxmlElement("w:outlineLvl")
    lvl.set(qn("w:val"), "3")
    outlined._p.get_or_add_pPr().append(lvl)
    plain = doc.add_paragraph("取消编号", style="一级条标题")
    num_pr = OxmlElement("w:numPr")
    num_id = OxmlElement("w:numId")
    num_id.set(qn("w:val"), "0")  # numId 0 switches off the style's numbering
    num_pr.append(num_id)
    plain._p.get_or_add_pPr().append(num_pr)
    lines = read_lines(Path("styles.docx"), save(doc, numbering_xml({1: levels}, {1: (1, "")})))
    assert [(ln.text, ln.heading_level) for ln in lines] == [
        ("前言", 1),
        ("本文件按照……起草。", None),
        ("1 范围", 1),
        ("2 技术要求", 1),
        ("2.1 总体要求", 2),
        ("2.1.1 细则", 3),
        ("不编号的大纲段", 4),
        ("取消编号", 2),
    ]


def test_literal_numbers_pass_through_and_offsets_run_over_the_text() -> None:
    doc = docx.Document()
    for text in ["5 技术要求", "5.1\u3000总体要求", "设备应安全。", "注：本条不涉及软件。", "示例：某设备。"]:
        doc.add_paragraph(text)
    bold = doc.add_paragraph()
    bold.add_run("5.2　结构").bold = True
    lines = read_lines(Path("literal.docx"), save(doc))
    assert [ln.text for ln in lines] == [
        "5 技术要求",
        "5.1\u3000总体要求",
        "设备应安全。",
        "注：本条不涉及软件。",
        "示例：某设备。",
        "5.2　结构",
    ]
    joined = "\n".join(ln.text for ln in lines)
    assert all(joined[ln.offset : ln.offset + len(ln.text)] == ln.text for ln in lines)
    assert not any(ln.table_row or ln.heading_level for ln in lines)


def test_tables_become_rows_in_body_order() -> None:
    doc = docx.Document()
    doc.add_paragraph("测量范围见表1。")
    doc.add_paragraph("表1　测量范围")
    table = doc.add_table(rows=3, cols=3)
    for r, row in enumerate(
        [["参数", "范围", "精度"], ["温度", "-20 ℃～60 ℃", "±0.5 ℃"], ["湿度", "", "±3%"]]
    ):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(2, 1).paragraphs[0].add_run("0%～100%")
    table.cell(2, 1).add_paragraph("RH")  # two paragraphs in one cell stay on the row's line
    doc.add_paragraph("注：精度在25 ℃下测得。")
    lines = read_lines(Path("table.docx"), save(doc))
    assert [(ln.text, ln.table_row) for ln in lines] == [
        ("测量范围见表1。", False),
        ("表1　测量范围", False),
        ("参数 | 范围 | 精度", True),
        ("温度 | -20 ℃～60 ℃ | ±0.5 ℃", True),
        ("湿度 | 0%～100% RH | ±3%", True),
        ("注：精度在25 ℃下测得。", False),
    ]


def test_visible_text_only() -> None:
    """Deleted revisions, hidden runs and field codes are not shown by Word, so they are not read;
    line breaks split lines, inserted revisions and hyperlinks are read, text boxes once."""
    body = (
        "<w:p><w:r><w:t>附录A</w:t></w:r><w:r><w:br/><w:t>（规范性）</w:t></w:r></w:p>"
        '<w:p><w:ins w:id="1" w:author="x"><w:r><w:t>新增</w:t></w:r></w:ins>'
        '<w:del w:id="2" w:author="x"><w:r><w:delText>删除</w:delText></w:r></w:del>'
        "<w:r><w:rPr><w:vanish/></w:rPr><w:t>隐藏</w:t></w:r>"
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGEREF _Toc1 </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:hyperlink r:id="rId99"><w:r><w:t>链接</w:t></w:r></w:hyperlink></w:p>'
        "<w:sdt><w:sdtPr/><w:sdtContent><w:p><w:r><w:t>目次</w:t></w:r></w:p></w:sdtContent></w:sdt>"
        '<w:p><w:r><w:t>正文</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        "<wps:txbx><w:txbxContent><w:p><w:r><w:t>文本框</w:t></w:r></w:p></w:txbxContent></wps:txbx>"
        "</w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent><w:p><w:r><w:t>文本框</w:t>"
        "</w:r></w:p></w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>"
    )
    assert texts(raw_docx(body)) == ["附录A", "（规范性）", "新增3链接", "目次", "正文", "文本框"]


def test_symbol_font_characters_read_as_unicode() -> None:
    body = (
        '<w:p><w:r><w:t>允差</w:t><w:sym w:font="Symbol" w:char="F0B1"/><w:t>0.5 ℃，</w:t>'
        '<w:sym w:font="Symbol" w:char="F06D"/><w:t>s</w:t></w:r></w:p>'
    )
    wingdings = lvl_xml(0, "bullet", "\uf0d8").replace(
        '<w:lvlJc w:val="left"/>', '<w:lvlJc w:val="left"/><w:rPr><w:rFonts w:ascii="Wingdings"/></w:rPr>'
    )
    num_pr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    item = f"<w:p><w:pPr>{num_pr}</w:pPr><w:r><w:t>项</w:t></w:r></w:p>"
    numbering = numbering_xml({1: [wingdings]}, {1: (1, "")})
    rels = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Target="numbering.xml" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering"/></Relationships>'
    )
    data = raw_docx(body + item, **{"word__numbering.xml": numbering, "word___rels__document.xml.rels": rels})
    assert texts(data) == ["允差±0.5 ℃，μs", "➢ 项"]


def test_toc_leader_tabs_print_as_leaders() -> None:
    """Word's 目次 has no dots in its text: a dot-leader tab stop draws them; the assembler needs them."""
    doc = docx.Document()
    doc.add_paragraph("目次")
    for entry, page in [("前言", "I"), ("1\u3000范围", "1"), ("附录A（规范性）\u3000试验记录", "5")]:
        p = doc.add_paragraph()
        p.paragraph_format.tab_stops.add_tab_stop(Cm(16), WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS)
        p.add_run(f"{entry}\t{page}")
    p = doc.add_paragraph()
    p.paragraph_format.tab_stops.add_tab_stop(Cm(16), WD_TAB_ALIGNMENT.RIGHT)  # no leader: a space
    p.add_run("2024-03-15发布\t2024-10-01实施")
    lines = read_lines(Path("toc.docx"), save(doc))
    assert [ln.text for ln in lines] == [
        "目次",
        "前言………I",
        "1\u3000范围………1",
        "附录A（规范性）\u3000试验记录………5",
        "2024-03-15发布 2024-10-01实施",
    ]
    assert toc_entries(lines) == [("前言", "前言"), ("1", "范围"), ("附录A", "试验记录")]


def test_format_number() -> None:
    assert [format_number(n, "upperLetter") for n in (1, 26, 27, 28)] == ["A", "Z", "AA", "BB"]
    assert format_number(14, "lowerRoman") == "xiv"
    assert [format_number(n, "chineseCounting") for n in (1, 10, 12, 20, 35)] == [
        "一",
        "十",
        "十二",
        "二十",
        "三十五",
    ]
    assert [format_number(n, "chineseCounting") for n in (105, 115, 120)] == [
        "一百零五",
        "一百一十五",
        "一百二十",
    ]
    assert format_number(12, "chineseLegalSimplified") == "拾贰"
    assert format_number(3, "decimalEnclosedCircle") == "③"
    assert format_number(3, "decimalZero") == "03"
    assert format_number(5, "someFutureFormat") == "5"


# ---------------------------------------------------------------------------------------------------
# A whole standard: the DOCX parses to the same Document as the same text
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("auto", [False, True], ids=["literal", "auto"])
def test_docx_parses_like_the_same_text(auto: bool) -> None:
    expected = parse_text(Path("sample.txt"), SAMPLE.encode())
    data = sample_docx(auto)
    got = parse_docx(Path("sample.docx"), data)
    assert got.format == "docx"
    assert (got.standard_id, got.title, got.drafting_rules) == (
        expected.standard_id,
        expected.title,
        expected.drafting_rules,
    )
    assert [_key(s) for s in got.sections] == [_key(s) for s in expected.sections]


def _key(s: Section) -> tuple[str, str, str, int, str, str]:
    """What must match between two parses: everything but provenance, text compared without spacing."""
    return (s.number, s.title, s.kind, s.level, s.annex_marker, _squash(s.text))


def _squash(text: str) -> str:
    return re.sub(r"[\s|\u3000]+", "", text)


# ---------------------------------------------------------------------------------------------------
# The project's corpus: every DOCX parses to exactly its source's gold sections
# ---------------------------------------------------------------------------------------------------


def _corpus_pairs() -> list[tuple[Path, Path, str]]:
    """(DOCX, source, source SHA-256 the DOCX was made from) from the manifest, else by file names."""
    manifest = CORPUS / "manifest"
    if manifest.is_file():
        rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()]
        header, rows = rows[0], rows[1:]
        column = {name: header.index(name) for name in ("docx", "source", "source_sha256")}
        pairs = [
            (ROOT / r[column["docx"]], ROOT / r[column["source"]], r[column["source_sha256"]])
            for r in rows
            if len(r) == len(header)
        ]
    else:
        pairs = [
            (d, CORPUS / "sources" / f"{d.stem}.std", "") for d in sorted((CORPUS / "docx").glob("*.docx"))
        ]
    return [(d, s, sha) for d, s, sha in pairs if d.is_file() and s.is_file()]


CORPUS_PAIRS = _corpus_pairs()


@pytest.mark.skipif(not CORPUS_PAIRS, reason="the corpus DOCX files have not been generated yet")
@pytest.mark.parametrize(
    ("docx_path", "source", "sha256"), CORPUS_PAIRS, ids=[d.stem for d, _, _ in CORPUS_PAIRS]
)
def test_corpus_docx_matches_gold_sections(docx_path: Path, source: Path, sha256: str) -> None:
    from corpus.stdsource import cover, expected_sections, load

    if sha256 and hashlib.sha256(source.read_bytes()).hexdigest() != sha256:
        pytest.skip(f"{docx_path.name} is stale (its source changed since): run python -m corpus.generate")
    gold_source = load(source)
    got = parse_docx(docx_path, docx_path.read_bytes())
    assert [_key(s) for s in got.sections] == [_key(s) for s in expected_sections(gold_source)]
    assert (got.standard_id, got.title, got.drafting_rules) == (
        gold_source.standard_id,
        gold_source.title,
        gold_source.drafting_rules,
    )
    assert got.cover == cover(gold_source)
