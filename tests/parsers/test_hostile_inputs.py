"""Hostile inputs are read in bounded time or refused with a reason.

Every crafted file is generated here (tests/support/hostile_files.py). Bounds are generous (a shared CI
machine), but far below what the former quadratic and backtracking code took on the same input (minutes to
hours).
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from parsers import parse_file
from parsers.deadline import parse_with_deadline
from parsers.encoding import decode_text
from parsers.errors import CorruptFileError, GarbledTextError, ResourceLimitError, UnsupportedFormatError
from parsers.limits import DEFAULT_LIMITS, ParseLimits
from parsers.markdown import markdown_lines
from parsers.pdf import read_lines
from parsers.pdf.joining import _glue_all
from tests.support.hostile_files import docx_paragraphs, markdown_stars, pdf_pages, pdf_tall_page, write
from tests.support.sample_standard import SAMPLE

TRADITIONAL = """GB/T 99999—2025
電池儲能系統 測試方法
前言
本文件按照GB/T 1.1—2020《標準化工作導則　第1部分：標準化文件的結構和起草規則》的規定起草。
1 範圍
本文件規定了電池儲能系統的測試方法，適用於電站用電池儲能系統。
2 規範性引用文件
本文件沒有規範性引用文件。
3 術語和定義
本文件沒有需要界定的術語和定義。
4 要求
電池應完好，外殼應無損傷。
"""
NO_SIZE_LIMITS = replace(
    DEFAULT_LIMITS, max_line_chars=10**12, max_paragraph_chars=10**12, max_page_chars=10**12
)


def elapsed(func, *args):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = func(*args)
    return result, time.perf_counter() - started


# --- point 2: PDF line gluing is linear ---------------------------------------------------------


def test_gluing_a_paragraph_of_200k_lines_is_linear() -> None:
    """The former glue rescanned the growing paragraph per line: hours for this; linear takes milliseconds."""
    parts = ["Alpha beta gamma delta epsilon zeta", "中文续行文字"] * 100_000
    text, seconds = elapsed(_glue_all, parts)
    assert seconds < 5
    assert text.startswith("Alpha beta gamma delta epsilon zeta中文续行文字Alpha")
    assert _glue_all(["see ISO", "9001 and", "(c)", "其后"]) == "see ISO 9001 and (c)其后"
    assert _glue_all(["well-", "known"]) == "well-known"


def test_a_page_of_20k_lines_is_read_in_bounded_time(tmp_path: Path) -> None:
    path = write(tmp_path / "tall.pdf", pdf_tall_page(20_000))
    lines, seconds = elapsed(lambda: read_lines(path, path.read_bytes(), NO_SIZE_LIMITS))
    assert seconds < 60  # 121 s before the fix for this very file; about 5 s now on a slow machine
    assert len(lines) == 1 and len(lines[0].text) > 20_000 * 70  # one paragraph, glued


def test_page_paragraph_line_and_size_limits_refuse_with_a_reason(tmp_path: Path) -> None:
    tall = write(tmp_path / "tall.pdf", pdf_tall_page(1_000))
    with pytest.raises(
        ResourceLimitError, match=r"page 1 holds \d+ characters \(the limit per page is 1000\)"
    ):
        parse_file(tall, replace(DEFAULT_LIMITS, max_page_chars=1000))
    with pytest.raises(ResourceLimitError, match="a paragraph on page 1 runs past 5000 characters"):
        parse_file(tall, replace(DEFAULT_LIMITS, max_paragraph_chars=5000))
    many = write(tmp_path / "many.pdf", pdf_pages(30, lines_per_page=5))
    with pytest.raises(ResourceLimitError, match=r"too many pages \(30; the limit is 10\)"):
        parse_file(many, replace(DEFAULT_LIMITS, max_pages=10))
    with pytest.raises(ResourceLimitError, match="file too large"):
        parse_file(many, replace(DEFAULT_LIMITS, max_bytes=1000))
    long_line = write(tmp_path / "long.txt", ("1 范围\n" + "字" * 5000 + "\n").encode())
    with pytest.raises(ResourceLimitError, match=r"line 2 is 5000 characters long \(the limit is 4000\)"):
        parse_file(long_line, replace(DEFAULT_LIMITS, max_line_chars=4000))
    with pytest.raises(ValueError, match="max_pages"):
        ParseLimits(max_pages=0)
    assert ParseLimits.from_env(
        {"GBTBENCH_PARSE_MAX_PAGES": "7", "GBTBENCH_PARSE_SECONDS": "2.5"}
    ) == replace(DEFAULT_LIMITS, max_pages=7, seconds=2.5)
    with pytest.raises(ValueError, match="GBTBENCH_PARSE_MAX_PAGES='many' is not a number"):
        ParseLimits.from_env({"GBTBENCH_PARSE_MAX_PAGES": "many"})


def test_a_page_of_100k_lines_is_refused_before_pdfium_reads_its_text(tmp_path: Path) -> None:
    """pdfium's text page of it alone takes 10 s and 900 MB; its object count is read in a second."""
    path = write(tmp_path / "tall.pdf", pdf_tall_page(100_000))
    started = time.perf_counter()
    with pytest.raises(ResourceLimitError, match=r"a page draws over 20000 text objects \(the limit"):
        parse_file(path)
    assert time.perf_counter() - started < 10


def test_a_100k_page_pdf_is_refused_at_once(tmp_path: Path) -> None:
    path = write(tmp_path / "huge.pdf", pdf_pages(100_000, lines_per_page=2))
    started = time.perf_counter()
    with pytest.raises(ResourceLimitError, match="too many pages"):
        parse_file(path)
    assert time.perf_counter() - started < 10


# --- point 3: Markdown emphasis cannot backtrack ---------------------------------------------------


def test_a_markdown_line_full_of_stars_is_linear(tmp_path: Path) -> None:
    line = "| *a " * 40_000  # 200 KB: the former regex needed 211 s for 40 KB
    lines, seconds = elapsed(markdown_lines, line)
    assert seconds < 5
    assert lines[0].text.count("*") == 40_000  # no "*" closes an emphasis: none is removed
    path = write(tmp_path / "stars.md", markdown_stars(1_000_000))
    _, seconds = elapsed(parse_file, path, NO_SIZE_LIMITS)
    assert seconds < 30


def test_markdown_emphasis_is_still_unwrapped() -> None:
    texts = [ln.text for ln in markdown_lines("**粗体**与*斜体*、__下划__和_强调_\n<br<br<br 1 范围\n")]
    assert texts[0] == "粗体与斜体、下划和强调"
    assert texts[1].endswith("1 范围")
    assert [ln.text for ln in markdown_lines("a * b * c **d** 2*3\n")] == ["a * b * c d 2*3"]


def test_a_50mb_markdown_line_is_refused_within_seconds(tmp_path: Path) -> None:
    path = write(tmp_path / "huge.md", markdown_stars(50_000_000))
    started = time.perf_counter()
    with pytest.raises(ResourceLimitError, match="line 3 is 50000000 characters long"):
        parse_file(path)
    assert time.perf_counter() - started < 10


# --- point 4: encodings detected, garbled text refused ---------------------------------------------


def test_big5_is_decoded_as_big5_not_gb18030_mojibake(tmp_path: Path) -> None:
    data = TRADITIONAL.encode("big5")
    assert "電池" not in data.decode("gb18030")  # what the former reader produced
    text, encoding = decode_text("x.txt", data)
    assert (text, encoding) == (TRADITIONAL, "big5")
    doc = parse_file(write(tmp_path / "big5.txt", data))
    assert doc.title == "電池儲能系統 測試方法"
    assert [s.title for s in doc.sections if s.number == "1"] == ["範圍"]


def test_utf16_with_bom_and_gb18030_are_decoded(tmp_path: Path) -> None:
    for name, data in (
        ("le.txt", SAMPLE.encode("utf-16")),
        ("be.md", b"\xfe\xff" + SAMPLE.encode("utf-16-be")),
    ):
        doc = parse_file(write(tmp_path / name, data))
        assert doc.section("1").title == "范围"
    assert decode_text("g.txt", SAMPLE.encode("gb18030"))[1] == "gb18030"
    assert decode_text("u.txt", SAMPLE.encode("utf-8-sig"))[1] == "utf-8-sig"
    cut = (SAMPLE + "完").encode()[:-1]  # a copy that cut the last character in half is still UTF-8
    assert decode_text("cut.txt", cut) == (SAMPLE, "utf-8")


def test_text_of_rare_characters_is_refused_as_garbled(tmp_path: Path) -> None:
    # GBK-extension bytes: valid GB18030, but no real text is made of these characters
    data = b"1 \xb7\xb6\xce\xa7\n" + b"\x81\x40\x81\x41\x81\x42\x20" * 400
    with pytest.raises(GarbledTextError, match=r"only \d+% of the Chinese characters are common"):
        parse_file(write(tmp_path / "odd.txt", data))
    controls = ("1 范围\n" + "\x01\x02\x03\x04 " * 300).encode()
    with pytest.raises(GarbledTextError, match="garbled text"):
        parse_file(write(tmp_path / "ctl.md", controls))
    with pytest.raises(UnsupportedFormatError, match="binary"):
        parse_file(write(tmp_path / "bad16.txt", b"\xff\xfe\x00\xd8" * 10))


# --- a worker with a deadline ------------------------------------------------------------------


def test_a_file_that_hangs_is_stopped_at_the_deadline(tmp_path: Path) -> None:
    slow = write(tmp_path / "slow.docx", docx_paragraphs(20))  # seconds of XML for the library's reader
    started = time.perf_counter()
    with pytest.raises(ResourceLimitError, match=r"parsing took longer than 1.5 s \(the limit per file\)"):
        parse_with_deadline(slow, replace(DEFAULT_LIMITS, seconds=1.5))
    assert time.perf_counter() - started < 15


_ONE_THREAD = """
import sys, time
from dataclasses import replace
from parsers.deadline import _context, parse_with_deadline
from parsers.errors import ResourceLimitError
from parsers.limits import DEFAULT_LIMITS
from parsers import parse_file
assert _context().get_start_method() == "fork"
assert parse_with_deadline(sys.argv[1]) == parse_file(sys.argv[1])  # a DOCX: in the forked worker
started = time.perf_counter()
try:
    parse_with_deadline(sys.argv[2], replace(DEFAULT_LIMITS, seconds=1.5))
except ResourceLimitError as exc:
    print("stopped", round(time.perf_counter() - started), exc.reason)
"""


def test_a_one_thread_process_forks_its_parser_and_still_stops_it(tmp_path: Path) -> None:
    """A build's worker has one thread: it forks the parser (nothing imported again), with the same
    deadline."""
    import subprocess
    import sys

    good = _sample_docx(tmp_path / "a.docx")
    slow = write(tmp_path / "slow.docx", docx_paragraphs(20))
    done = subprocess.run(
        [sys.executable, "-c", _ONE_THREAD, str(good), str(slow)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("stopped ") and "longer than 1.5 s" in done.stdout


def _sample_docx(path: Path) -> Path:
    import docx

    document = docx.Document()
    for line in SAMPLE.splitlines():
        document.add_paragraph(line)
    document.save(str(path))
    return path


def test_the_worker_returns_documents_and_typed_errors(tmp_path: Path) -> None:
    good = _sample_docx(tmp_path / "a.docx")  # a library's reader: parsed in the killable worker
    assert parse_with_deadline(good) == parse_file(good)
    with pytest.raises(CorruptFileError) as info:
        parse_with_deadline(tmp_path / "missing.txt")
    assert info.value.path == str(tmp_path / "missing.txt") and info.value.reason == "file not found"


def test_our_own_readers_parse_a_regular_file_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Markdown and text need no fork per file (most of a large corpus's parse); a library's format still
    does. A FIFO is refused in place, without a worker and without blocking."""
    import parsers.deadline as deadline

    def no_worker() -> None:
        raise AssertionError("a worker was started")

    monkeypatch.setattr(deadline, "_context", no_worker)
    for name in ("a.txt", "a.md"):
        good = write(tmp_path / name, SAMPLE.encode())
        assert parse_with_deadline(good) == parse_file(good)
    with pytest.raises(AssertionError, match="a worker was started"):
        parse_with_deadline(_sample_docx(tmp_path / "a.docx"))
    fifo = tmp_path / "never.md"
    os.mkfifo(fifo)
    with pytest.raises(UnsupportedFormatError, match=r"not a regular file \(a FIFO\)"):
        parse_with_deadline(fifo)


def test_a_docx_of_private_use_characters_is_refused_as_garbled(tmp_path: Path) -> None:
    """The garbled-text check runs on every format, not only on PDF text layers."""
    import docx

    document = docx.Document()
    for line in SAMPLE.splitlines():
        document.add_paragraph(line)
    document.add_paragraph("\ue000\ue001\ue002\ue003" * 800)  # a font's private glyphs, no Unicode map
    path = tmp_path / "pua.docx"
    document.save(str(path))
    with pytest.raises(GarbledTextError, match="garbled text"):
        parse_file(path)
