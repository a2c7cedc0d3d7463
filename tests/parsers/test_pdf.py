"""The PDF reader: layout undone (running heads, wraps, tables), on fixtures, real standards and the corpus.

Bad files are rejected with name and reason in test_pdf_bad_input.py.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from parsers.errors import NoTextLayerError
from parsers.lines import Line
from parsers.numbering import compact, to_halfwidth
from parsers.pdf import NO_TEXT_LAYER, parse_pdf, read_lines
from tests.conftest import corpus_sources

CJK_FONTS = (
    Path("/usr/share/fonts/truetype/arphic/uming.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf"),
)
PT = 25.4 / 72
HEADER = "GB/T 99999—2025"
FOREWORD_2 = (
    "本文件由示例标准化技术委员会提出并归口。"
    "本文件起草单位：示例研究院、示例检测中心、示例设备制造厂、示例大学、示例信息技术有限公司。"
)
TABLE = [["项目", "要求", "检验方法"], ["5 颜色", "均匀一致", "目测"], ["6 标志", "清晰", "目测"]]
ROWS = [" | ".join(row) for row in TABLE]


@pytest.fixture(scope="session")
def cjk_font() -> Path:
    font = next((f for f in CJK_FONTS if f.exists()), None)
    if font is None:
        pytest.skip("no CJK TrueType font installed (apt-get install fonts-arphic-uming)")
    return font


class Sheet:
    """A tiny typesetter for fixtures: A4 pages, a text column, one call per printed line.

    Paragraphs are broken the CJK way (between any two characters, Latin words kept whole), so each line
    but the last of a paragraph ends within one character of the right margin, as in a real standard.
    """

    LEFT, RIGHT, TOP, BOTTOM = 25.0, 20.0, 30.0, 30.0
    WIDTH = 210.0 - LEFT - RIGHT

    def __init__(self, font: Path, header: str | None = HEADER) -> None:
        self.pdf = FPDF(unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        number = 0 if font.suffix == ".ttc" else None
        self.pdf.add_font("cjk", "", str(font), collection_font_number=number)
        self.header = header
        self.labels: list[str | None] = []
        self.y = self.TOP

    def page(self, label: str | None = None, *, header: bool = True) -> None:
        """Start a page with the running header and the page label (as a footer)."""
        self.pdf.add_page()
        self.y = self.TOP
        self.pdf.set_font("cjk", size=9)
        if header and self.header:
            self.pdf.text(self.LEFT + self.WIDTH - self.pdf.get_string_width(self.header), 18, self.header)
        if label:
            self.pdf.text(self.LEFT + (self.WIDTH - self.pdf.get_string_width(label)) / 2, 280, label)

    def line(self, text: str, *, indent: float = 0.0, size: float = 10.5, center: bool = False) -> None:
        """One printed line; `indent` in characters."""
        self.pdf.set_font("cjk", size=size)
        x = self.LEFT + indent * size * PT
        if center:
            x = self.LEFT + (self.WIDTH - self.pdf.get_string_width(text)) / 2
        self.pdf.text(x, self.y + size * PT, text)
        self.y += size * PT * 1.5

    def paragraph(
        self, text: str, *, first: float = 2.0, indent: float = 0.0, size: float = 10.5, next_label: str = ""
    ) -> None:
        """A wrapped paragraph; a page break inside it continues on a new page labelled `next_label`."""
        self.pdf.set_font("cjk", size=size)
        em = size * PT
        lines = self.wrap(text, self.WIDTH - (indent + first) * em, self.WIDTH - indent * em)
        for n, part in enumerate(lines):
            if self.y > 297 - self.BOTTOM:
                self.page(next_label)
            self.line(part, indent=indent + (first if n == 0 else 0.0), size=size)

    def wrap(self, text: str, first_width: float, width: float) -> list[str]:
        tokens = re.findall(r"[A-Za-z0-9.\-/]+ ?|.", text)
        lines, current, limit = [], "", first_width
        for token in tokens:
            if current and self.pdf.get_string_width(current + token.rstrip()) > limit:
                lines.append(current.rstrip())
                current, limit = "", width
            current += token
        lines.append(current.rstrip())
        return lines

    def full_lines(self, seed: str, count: int, size: float = 10.5) -> str:
        """A paragraph of CJK text that fills exactly `count` lines (first-line indent 2), ending in 。."""
        self.pdf.set_font("cjk", size=size)
        em = self.pdf.get_string_width("设")
        chars = int((self.WIDTH - 2 * em) / em + 1e-6) + (count - 1) * int(self.WIDTH / em + 1e-6)
        return (seed * (chars // len(seed) + 1))[: chars - 1] + "。"

    def table(self, rows: list[list[str]], widths: list[float], size: float = 9.0) -> None:
        """A ruled table: every cell outlined, text left-aligned in it."""
        self.pdf.set_font("cjk", size=size)
        height = size * PT * 1.8
        for row in rows:
            x = self.LEFT
            for cell, width in zip(row, widths, strict=True):
                self.pdf.rect(x, self.y, width, height)
                self.pdf.text(x + 1, self.y + height * 0.7, cell)
                x += width
            self.y += height
        self.y += 2

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def sample_standard(font: Path) -> bytes:
    """A small standard with the layout problems a reader must undo (text written for this test)."""
    s = Sheet(font)
    s.page(header=False)
    s.line("ICS 01.040.01")
    s.line("CCS A 00")
    s.line("中华人民共和国国家标准", size=20, center=True)
    s.line(HEADER, size=14)
    s.line("示例设备 技术要求", size=20, center=True)
    s.line("2025-01-01发布　　　　　　　　　　2025-07-01实施", size=14)
    s.page()
    s.line("目次", size=16, center=True)
    for entry, label in (("前言", "I"), ("1　范围", "1"), ("4　技术要求", "1"), ("5　试验方法", "2")):
        dots = "." * 60
        s.line(f"{entry} {dots} {label}")
    s.page("I")
    s.line("前言", size=16, center=True)
    s.paragraph("本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。")
    s.paragraph(FOREWORD_2)
    s.page("1")
    s.line("示例设备 技术要求", size=14, center=True)
    s.line("1　范围")
    s.paragraph(
        "本文件规定了示例设备的技术要求、试验方法和检验规则，适用于示例设备的设计、制造和验收，"
        "也适用于同类设备的改造。"
    )
    s.line("2　规范性引用文件")
    s.paragraph("下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。")
    s.line("GB/T 191—2008　包装储运图示标志", indent=2)
    s.line("GB/T 2423.1—2008　环境试验　第2部分：试验方法　试验A：低温", indent=2)
    s.line("3　术语和定义")
    s.paragraph("本文件没有需要界定的术语和定义。")
    s.line("4　技术要求")
    # the last line of this paragraph is full: the heading below must not be joined to it
    s.paragraph(s.full_lines("设备外壳应采用阻燃材料制造表面应平整光洁", 2))
    s.line("4.1　一般要求")
    s.paragraph(
        "设备应能在环境温度为-10 ℃～40 ℃的条件下正常工作，the quick brown fox jumps over the lazy dog "
        "again and again until the line is full and wraps onto the next line。"
    )
    s.line("——外壳防护等级不低于IP54；", indent=2)
    s.line("——电源电压波动不超过±10 %。", indent=2)
    s.line("注：防护等级按GB/T 191—2008的规定标注。", indent=2, size=9)
    s.line("4. 2　外观")
    s.line("表1　外观要求", center=True)
    s.table(TABLE, [40, 60, 65])
    s.line("4 2 1 颜色")
    s.paragraph("颜色应符合订货合同的约定" + "，并与样品一致" * 14)
    s.line("。")
    s.line("４.２.２　尺寸")
    long = "尺寸偏差应不大于标称值的百分之一" + "，批内偏差应一致" * 30 + "。"
    s.paragraph(long, next_label="2")
    s.line("5试验方法")
    s.paragraph("试验在常温下进行。")
    s.page("— 3 —")
    s.line("5.1　外观检查")
    s.paragraph("目测检查外观。")
    return s.output()


# --- layout ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def sample_pdf(cjk_font: Path) -> bytes:
    return sample_standard(cjk_font)


@pytest.fixture(scope="session")
def sample_lines(sample_pdf: bytes) -> list[Line]:
    return read_lines(Path("sample.pdf"), sample_pdf)


def texts(lines: list[Line]) -> list[str]:
    return [ln.text for ln in lines]


def test_running_header_and_page_numbers_are_dropped(sample_lines: list[Line]) -> None:
    body = [ln for ln in sample_lines if ln.page and ln.page > 1]
    assert all(ln.text != HEADER for ln in body)
    assert not [ln.text for ln in sample_lines if re.fullmatch(r"I|1|2|— 3 —", ln.text)]
    # the cover keeps its standard id (the assembler reads it)
    assert HEADER in texts(sample_lines)[:6]


def test_wrapped_lines_are_joined_the_cjk_way(sample_lines: list[Line]) -> None:
    got = texts(sample_lines)
    assert FOREWORD_2 in got
    latin = next(t for t in got if t.startswith("设备应能在环境温度"))
    assert "the quick brown fox jumps over the lazy dog again and again until the line is full" in latin
    assert latin.endswith("wraps onto the next line。")
    # a lone "。" joins the line above it
    assert "。" not in got
    assert any(t.startswith("颜色应符合") and t.endswith("并与样品一致。") for t in got)


def test_paragraph_continues_across_a_page_break(sample_lines: list[Line]) -> None:
    long = [ln for ln in sample_lines if ln.text.startswith("尺寸偏差")]
    assert len(long) == 1
    assert long[0].text.endswith("批内偏差应一致。")
    assert long[0].text.count("批内偏差应一致") == 30


def test_headings_lists_notes_and_references_stay_separate(sample_lines: list[Line]) -> None:
    got = texts(sample_lines)
    for start in ("4.1", "——外壳", "——电源", "注：", "GB/T 191", "GB/T 2423.1", "4 2 1", "5试验方法"):
        assert any(t.startswith(start) for t in got), start
    full = next(t for t in got if t.startswith("设备外壳应采用"))
    assert full.endswith("。")


def test_table_rows_are_flagged_and_split_into_cells(sample_lines: list[Line]) -> None:
    rows = [ln.text for ln in sample_lines if ln.table_row]
    assert rows == ROWS


def test_lines_carry_page_and_offset(sample_lines: list[Line]) -> None:
    assert all(ln.page is not None and ln.offset is not None for ln in sample_lines)
    offsets = [ln.offset or 0 for ln in sample_lines]
    assert offsets == sorted(offsets)
    scope = next(ln for ln in sample_lines if ln.text == "1　范围")
    assert scope.page == 4


def test_document_numbers_are_repaired(sample_pdf: bytes) -> None:
    doc = parse_pdf(Path("sample.pdf"), sample_pdf)
    got = [(s.number, s.title) for s in doc.sections]
    assert got == [
        ("前言", "前言"),
        ("1", "范围"),
        ("2", "规范性引用文件"),
        ("3", "术语和定义"),
        ("4", "技术要求"),
        ("4.1", "一般要求"),
        ("4.2", "外观"),
        ("4.2.1", "颜色"),
        ("4.2.2", "尺寸"),
        ("5", "试验方法"),
        ("5.1", "外观检查"),
    ]
    assert doc.standard_id == HEADER
    assert doc.drafting_rules == "GB/T 1.1—2020"
    assert doc.section("4.2").text.split("\n")[1:] == ROWS


# --- real standards -------------------------------------------------------------------------------

REAL_PDFS = ("GBT_19056-2012.pdf", "HJ_212-2017.pdf", "JRT_0184-2020.pdf", "TGDRTA_002-2020.pdf")


def test_real_scanned_standard_is_rejected(real_corpus: Path) -> None:
    path = real_corpus / "bad" / "JTT_415-2006.pdf"
    with pytest.raises(NoTextLayerError) as info:
        parse_pdf(path, path.read_bytes())
    assert info.value.reason == NO_TEXT_LAYER
    assert "JTT_415-2006.pdf" in str(info.value)


def raw_pages(path: Path) -> list[list[str]]:
    pdf = pdfium.PdfDocument(path.read_bytes())
    try:
        return [
            [t.strip() for t in pdf[i].get_textpage().get_text_range().splitlines() if t.strip()]
            for i in range(len(pdf))
        ]
    finally:
        pdf.close()


@pytest.mark.parametrize("name", REAL_PDFS)
def test_real_standard_loses_running_heads_and_page_numbers(real_corpus: Path, name: str) -> None:
    path = real_corpus / name
    lines = read_lines(path, path.read_bytes())
    pages = raw_pages(path)
    header = Counter(compact(p[0]) for p in pages if p).most_common(1)[0][0]
    assert not [ln for ln in lines if ln.page and ln.page > 1 and compact(ln.text) == header]
    # Arabic page labels: the number printed on page p is p - offset for one offset
    offsets = Counter(
        i + 1 - int(t) for i, p in enumerate(pages) for t in p[:2] + p[-2:] if t.isdigit() and int(t) <= i + 1
    )
    offset = offsets.most_common(1)[0][0]
    for page, group in itertools.groupby(lines, key=lambda ln: ln.page):
        assert page is not None
        label = str(page - offset)
        assert not [ln for ln in group if ln.text == label and not ln.table_row], (page, label)


def _order_key(number: str) -> tuple[object, ...]:
    front = {"前言": 0, "序言": 0, "引言": 1}
    if number in front:
        return (front[number],)
    if number[0].isdigit():
        return (2, *(int(p) for p in number.split(".")))
    if number.startswith("附录"):
        return (3, number[-1])
    if number[0].isascii() and number[0].isalpha():
        return (3, number[0], *(int(p) for p in number.split(".")[1:]))
    return ({"参考文献": 4, "索引": 5}.get(number, 6),)


def test_real_standards_keep_their_table_of_contents(real_corpus: Path) -> None:
    from parsers.assembler import assemble
    from parsers.cover import toc_entries

    found = total = 0
    for name in REAL_PDFS:
        path = real_corpus / name
        data = path.read_bytes()
        lines = read_lines(path, data)
        doc = assemble(lines, path=path, fmt="pdf", data=data)
        sections = {(s.number, to_halfwidth(compact(s.title))) for s in doc.sections}
        entries = toc_entries(lines)
        assert len(entries) >= 5, name
        total += len(entries)
        found += sum((n, to_halfwidth(compact(t))) in sections for n, t in entries)
        numbers = [s.number for s in doc.sections]
        assert len(numbers) == len(set(numbers)), name
        keys = [_order_key(n) for n in numbers]
        assert keys == sorted(keys), name
        kinds = {s.kind for s in doc.sections}
        assert {"scope", "normative_references"} <= kinds, name
        assert "terms" in kinds, name
    assert found / total >= 0.95


# --- the project's corpus -------------------------------------------------------------------------


def corpus_pdfs() -> list[Path]:
    return sorted((Path(__file__).resolve().parents[2] / "corpus" / "pdf").glob("*.pdf"))


def _flat(text: str) -> str:
    return re.sub(r"[\s|]+", "", text)


@pytest.mark.parametrize("pdf_path", corpus_pdfs(), ids=lambda p: p.stem)
def test_corpus_pdf_parses_to_its_gold_sections(pdf_path: Path) -> None:
    from corpus import stdsource

    source = pdf_path.parents[1] / "sources" / f"{pdf_path.stem}.std"
    if not source.exists():
        pytest.skip(f"no source for {pdf_path.name}")
    gold = stdsource.expected_sections(stdsource.load(source))
    doc = parse_pdf(pdf_path, pdf_path.read_bytes())
    want = [(s.number, s.title, s.kind, _flat(s.text)) for s in gold]
    got = [(s.number, s.title, s.kind, _flat(s.text)) for s in doc.sections]
    assert got == want


def test_corpus_sources_have_pdfs() -> None:
    sources = corpus_sources()
    if not sources or not corpus_pdfs():
        pytest.skip("the corpus PDFs are not generated yet")
    assert {p.stem for p in corpus_pdfs()} == {p.stem for p in sources}
