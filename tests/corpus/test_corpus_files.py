"""The committed corpus files: listed in the manifest, up to date, deterministic and readable back.

Regenerating every PDF costs about a second each, so byte-for-byte determinism is checked on every DOCX
(cheap once page labels are known) and on one PDF; text extraction is checked on every PDF.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from pathlib import Path

import docx
import pypdfium2 as pdfium
import pytest

ROOT = Path(__file__).resolve().parents[2]

from corpus import generate as gen  # noqa: E402
from corpus.docx_render import render_docx, style_for  # noqa: E402
from corpus.pdf_render import FontsMissingError, check_fonts, page_labels, render_pdf, wrap  # noqa: E402
from corpus.stdsource import SourceDocument, expected_sections, load  # noqa: E402

CORPUS = ROOT / "corpus"
SOURCES = gen.sources(CORPUS)
MANIFEST = gen.read_manifest(CORPUS / "manifest") if (CORPUS / "manifest").exists() else {}
ROWS = [MANIFEST[slug] for slug in sorted(MANIFEST)]
_SPACE = re.compile(r"\s+")


def _squash(text: str) -> str:
    """Text without any whitespace: line breaks and U+3000/ASCII spaces differ between renderings."""
    return _SPACE.sub("", text)


def _fonts_or_skip() -> None:
    try:
        check_fonts()
    except FontsMissingError as exc:
        pytest.skip(str(exc))


def _source(row: gen.ManifestRow) -> SourceDocument:
    return load(ROOT / row.source)


def _pdf_body_text(path: Path, standard_id: str) -> str:
    """The PDF's text without cover, running headers and page numbers, lines joined the documented way:
    a break between two non-CJK characters stands for one space, any other break for nothing."""
    pdf = pdfium.PdfDocument(path)
    lines: list[str] = []
    for i in range(1, len(pdf)):
        page = pdf[i].get_textpage().get_text_range().splitlines()
        if page and page[0].strip() == standard_id:
            page = page[1:]
        lines += [line for line in page[:-1] if line]  # the last line is the page number
    text = ""
    for line in lines:
        glue = " " if text and not _is_cjk(text[-1]) and not _is_cjk(line[0]) else ""
        text += glue + line
    return text


def _is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80


def _assert_in_order(haystack: str, needles: list[str], what: str) -> None:
    at = 0
    for needle in needles:
        found = haystack.find(needle, at)
        assert found >= 0, f"{what}: {needle[:60]!r} not found after offset {at}"
        at = found + len(needle)


def test_manifest_lists_every_source() -> None:
    if not SOURCES:
        pytest.skip("corpus/sources is empty")
    assert [r.slug for r in ROWS] == [p.stem for p in SOURCES], "run `make corpus`"
    for index, row in enumerate(ROWS):
        source = ROOT / row.source
        assert hashlib.sha256(source.read_bytes()).hexdigest() == row.source_sha256, f"{row.slug} is stale"
        assert row.docx_numbering == ("auto" if index % 2 else "literal")
        doc = load(source)
        assert (row.standard_id, row.drafting_rules) == (doc.standard_id, doc.drafting_rules)


@pytest.mark.parametrize("row", ROWS, ids=[r.slug for r in ROWS])
def test_generated_files_exist(row: gen.ManifestRow) -> None:
    assert (ROOT / row.docx).is_file()
    assert (ROOT / row.pdf).is_file()


@pytest.mark.parametrize("index", range(len(ROWS)), ids=[r.slug for r in ROWS])
def test_docx_regenerates_byte_for_byte(index: int) -> None:
    _fonts_or_skip()
    row = ROWS[index]
    doc = _source(row)
    data = render_docx(doc, style_for(index), page_labels(doc))
    assert hashlib.sha256(data).hexdigest() == hashlib.sha256((ROOT / row.docx).read_bytes()).hexdigest()


def test_one_pdf_regenerates_byte_for_byte() -> None:
    if not ROWS:
        pytest.skip("no manifest rows")
    _fonts_or_skip()
    row = ROWS[0]
    data, _ = render_pdf(_source(row))
    assert hashlib.sha256(data).hexdigest() == hashlib.sha256((ROOT / row.pdf).read_bytes()).hexdigest()


@pytest.mark.parametrize("row", ROWS, ids=[r.slug for r in ROWS])
def test_pdf_text_holds_every_heading_and_paragraph(row: gen.ManifestRow) -> None:
    doc = _source(row)
    text = _pdf_body_text(ROOT / row.pdf, doc.standard_id)
    sections = expected_sections(doc)
    _assert_in_order(_squash(text), [_squash(s.heading) for s in sections], f"{row.pdf} headings")
    for source in doc.sections:
        for paragraph in source.paragraphs:  # exactly, wrapped lines joined as documented
            assert paragraph in text, f"{row.pdf} {source.number}: {paragraph[:60]!r} missing"
        for cell in (c for table in source.tables for r in table for c in r):
            assert _squash(cell) in _squash(text), f"{row.pdf} {source.number}: cell {cell!r} missing"


@pytest.mark.parametrize("index", range(len(ROWS)), ids=[r.slug for r in ROWS])
def test_docx_holds_every_title_and_numbering(index: int) -> None:
    row = ROWS[index]
    doc = _source(row)
    word = docx.Document(str(ROOT / row.docx))
    body = [p for p in word.paragraphs if not p.style.name.startswith("toc")]  # the 目次 repeats headings
    text = _squash("\n".join(p.text for p in body))
    numbered = [p for p in body if p._p.pPr is not None and p._p.pPr.numPr is not None]
    sections = expected_sections(doc)
    _assert_in_order(text, [_squash(s.title) for s in sections if s.title], f"{row.docx} titles")
    counted = [s for s in sections if s.number[:1].isascii() or (s.kind == "annex" and s.level == 1)]
    if row.docx_numbering == "auto":
        assert len(numbered) == len(counted)
    else:
        assert not numbered
        _assert_in_order(text, [_squash(s.number) for s in counted], f"{row.docx} numbers")


def test_wrap_breaks_between_characters_and_keeps_them_all() -> None:
    text = "本文件规定了GB/T 2423.1—2008中的试验方法，温度为−20 ℃～60 ℃。" * 3
    lines = wrap(text, 20.0, 30.0, lambda ch: 1.0)
    assert "".join(lines) == text
    assert all(len(line) <= 30 for line in lines)
    for a, b in itertools.pairwise(lines):
        assert not (a[-1].isascii() and b[0].isascii()), (a, b)  # never inside a Latin run
        assert b[0] not in "，。、）"
    english = wrap("Date and time representations", 16.0, 16.0, lambda ch: 1.0)
    assert " ".join(english) == "Date and time representations"


_TINY = """\
standard_id: GB/T 99999—2024
title: 测试 文件
title_en: Test—Document
ics: 01.020
ccs: A 00
issued: 2024-01-02
implemented: 2024-06-01
issuer: 国家市场监督管理总局 国家标准化管理委员会
drafting_rules: GB/T 1.1—2020
---
## 前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
## 1 范围
本文件规定了测试要求。
## 2 要求
## 2.1
要求一。
## 2.2
要求二。
## 附录A（资料性）示例
## A.1 说明
说明文字。
"""


def test_generate_writes_once_then_is_a_no_op(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    renders: list[str] = []

    def fake_render(doc: SourceDocument, index: int) -> tuple[bytes, bytes]:  # rendering is tested above
        renders.append(doc.slug)
        return f"docx {doc.standard_id} {index}".encode(), f"pdf {len(doc.sections)}".encode()

    monkeypatch.setattr(gen, "render_document", fake_render)
    corpus = tmp_path / "corpus"
    (corpus / "sources").mkdir(parents=True)
    (corpus / "sources" / "a-tiny.std").write_text(_TINY, encoding="utf-8")
    (corpus / "sources" / "b-tiny.std").write_text(_TINY.replace("99999", "99998"), encoding="utf-8")
    log: list[str] = []
    assert gen.generate(corpus, log=log.append) == 0
    manifest = (corpus / "manifest").read_text(encoding="utf-8").splitlines()
    assert manifest[0].split("\t") == list(gen.COLUMNS)
    assert [line.split("\t")[6] for line in manifest[1:]] == ["literal", "auto"]
    paths = ["corpus/sources/a-tiny.std", "corpus/docx/a-tiny.docx", "corpus/pdf/a-tiny.pdf"]
    assert manifest[1].split("\t")[1:4] == paths
    assert (corpus / "docx" / "b-tiny.docx").read_bytes() == "docx GB/T 99998—2024 1".encode()
    before = {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()}
    renders.clear()
    assert gen.generate(corpus, log=log.append) == 0
    assert renders == []  # up to date: nothing rendered
    assert gen.generate(corpus, force=True, log=log.append) == 0
    assert gen.generate(corpus, check=True, log=log.append) == 0
    assert renders == ["a-tiny", "b-tiny"] * 2
    assert {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()} == before
    (corpus / "sources" / "b-tiny.std").write_text(_TINY + "## 参考文献\n[1] GB/T 1.1—2020　标准化工作导则\n")
    assert gen.generate(corpus, check=True, log=log.append) == 1
    renders.clear()
    assert gen.generate(corpus, log=log.append) == 0
    assert renders == ["b-tiny"]
    assert gen.generate(corpus, only="a-tiny", force=True, log=log.append) == 0
    assert renders == ["b-tiny", "a-tiny"]
    assert gen.generate(corpus, only="nope", log=log.append) == 2
