"""Paths that are not regular files, names that are not UTF-8, and small files that ask for minutes or
gigabytes: each is refused with one line naming the file, and a build goes on without it.

Every case that would read without end or allocate gigabytes runs in a child process under a memory cap
(tests/support/capped.py); every crafted file is generated here.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from parsers import parse_file
from parsers.corpus import scan
from parsers.deadline import parse_with_deadline
from parsers.errors import ParseError, ResourceLimitError
from parsers.limits import DEFAULT_LIMITS
from parsers.render import render_text
from tests.conftest import corpus_sources
from tests.support.capped import GIB, capped, gbtbench
from tests.support.hostile_files import (
    docx_paragraphs,
    markdown_headings,
    pdf_path_objects,
    pdf_text_objects,
    write,
)


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    """/dev/zero, a `.txt` symbolic link to it, a FIFO named `.md`, and a loop of two links."""
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.txt"
    zero.symlink_to("/dev/zero")
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    return {
        "/dev/zero": Path("/dev/zero"),
        "a character device": zero,
        "a FIFO": fifo,
        "symbolic link loop": tmp_path / "a.txt",
    }


@pytest.mark.parametrize("command", ["parse", "lint", "inject"])
def test_non_regular_paths_are_refused_in_one_line(command: str, specials: dict[str, Path]) -> None:
    for kind, path in specials.items():
        done = gbtbench(command, str(path), memory=2 * GIB, timeout=90)
        errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
        assert done.returncode != 0, (kind, done.stderr[-500:])
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
        reason = "character device" if kind == "/dev/zero" else kind
        assert errors == [f"ERROR: {path}: " + errors[0].split(": ", 2)[2]] and reason in errors[0], errors


def test_the_reader_refuses_without_blocking_or_reading(specials: dict[str, Path]) -> None:
    started = time.perf_counter()
    for kind, path in specials.items():
        reason = "character device" if kind == "/dev/zero" else kind
        with pytest.raises(Exception, match=reason):
            DEFAULT_LIMITS.read(path)
    assert time.perf_counter() - started < 5


def test_a_corpus_lists_what_it_skips_and_a_build_goes_on(tmp_path: Path, specials: dict[str, Path]) -> None:
    """A name unpacked from a GBK archive (not UTF-8), a FIFO, a device link, a link loop and a hidden file:
    each listed with its reason; the one good standard is built."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = render_text(gold_document(corpus_sources()[0]))
    (corpus / "good.txt").write_text(text, encoding="utf-8")
    gbk = corpus / os.fsdecode("标准".encode("gbk") + b".txt")
    gbk.write_text(text, encoding="utf-8")
    (corpus / ".hidden.txt").write_text(text, encoding="utf-8")
    os.mkfifo(corpus / "pipe.md")
    (corpus / "zero.txt").symlink_to("/dev/zero")
    (corpus / "loop.txt").symlink_to(corpus / "loop.txt")
    listing = scan(corpus)
    assert listing.files == (corpus / "good.txt",)
    skipped = {s.source: s.reason for s in listing.skipped}
    assert skipped == {
        ".hidden.txt": "hidden file",
        "loop.txt": "symbolic link loop",
        "pipe.md": "not a regular file (a FIFO)",
        "zero.txt": "not a regular file (a character device)",
        "\\xb1\\xea\u05fc.txt": "file name is not valid UTF-8 (unpacked with another encoding?): rename it",
    }
    out = tmp_path / "out"
    done = gbtbench("build", "--corpus", str(corpus), "--out", str(out), "--task-runner", "pool", timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    for source in skipped:
        assert source in done.stderr
    assert (out / "latest").exists()


# --- small files that cost minutes or gigabytes ------------------------------------------------------

COUNT_AND_PARSE = """
import sys, time
from parsers import parse_file
from parsers.errors import ParseError
started = time.perf_counter()
try:
    parse_file(sys.argv[1])
    print("parsed")
except ParseError as exc:
    print(exc.reason)
print(time.perf_counter() - started)
"""


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: pdf_text_objects(7_500_000), "a page draws over 20000 text objects (the limit per page)"),
        (lambda: pdf_path_objects(2_500_000), "a page draws over 200000 path objects (the limit per page)"),
    ],
    ids=["text-objects", "path-objects"],
)
def test_pdf_objects_are_counted_before_a_page_is_loaded(tmp_path: Path, make, reason: str) -> None:  # type: ignore[no-untyped-def]
    """pdfium builds every object of a page as it loads it: 2.4 GB for the first file before the count."""
    path = write(tmp_path / "objects.pdf", make())
    assert path.stat().st_size < 100_000
    done = capped(["-c", COUNT_AND_PARSE, str(path)], memory=GIB)
    outcome, seconds = done.stdout.splitlines()
    assert outcome == reason, done.stderr[-2000:]
    assert float(seconds) < 10


def test_a_real_page_of_paths_and_text_still_parses(tmp_path: Path) -> None:
    path = write(tmp_path / "ruled.pdf", pdf_path_objects(2_000))
    with pytest.raises(ParseError) as info:
        parse_file(path)  # under the limits: read by pdfium, then judged on its (missing) text
    assert not isinstance(info.value, ResourceLimitError), info.value


def test_a_markdown_of_a_million_headings_is_refused_at_once(tmp_path: Path) -> None:
    path = write(tmp_path / "headings.md", markdown_headings(1_000_000))
    done = capped(["-c", COUNT_AND_PARSE, str(path)], memory=GIB)
    outcome, seconds = done.stdout.splitlines()
    assert outcome == "too many lines (2000002; the limit is 50000)", done.stderr[-2000:]
    assert float(seconds) < 10


def test_markdown_and_text_are_parsed_under_the_deadline(tmp_path: Path) -> None:
    """In place, under a timer: the same wall-time limit as a library's reader in its worker."""
    path = write(tmp_path / "headings.md", markdown_headings(24_000))
    limits = replace(DEFAULT_LIMITS, seconds=0.05)
    started = time.perf_counter()
    with pytest.raises(ResourceLimitError, match=r"parsing took longer than 0.05 s \(the limit per file\)"):
        parse_with_deadline(path, limits)
    assert time.perf_counter() - started < 5
    small = write(tmp_path / "small.md", markdown_headings(20))
    assert parse_with_deadline(small, limits).sections  # the timer is gone: nothing fires later
    time.sleep(0.3)


def test_a_large_docx_under_every_size_limit_is_stopped_at_the_memory_limit(tmp_path: Path) -> None:
    path = write(tmp_path / "large.docx", docx_paragraphs(20))
    limits = replace(DEFAULT_LIMITS, max_memory=120 * 1024 * 1024)
    code = (
        "import sys; from dataclasses import replace; from parsers.deadline import parse_with_deadline;"
        "from parsers.limits import DEFAULT_LIMITS; from parsers.errors import ParseError\n"
        f"try: parse_with_deadline(sys.argv[1], replace(DEFAULT_LIMITS, max_memory={limits.max_memory}))\n"
        "except ParseError as exc: print(exc.reason)"
    )
    done = capped(["-c", code, str(path)], memory=3 * GIB)
    assert done.stdout.strip() == (
        "parsing needed more than 120 MB of memory (the limit per file): stopped"
    ), done.stderr[-2000:]


def test_a_docx_part_of_too_much_xml_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Under every zip-bomb limit (its text hardly compresses), but a tree of it costs gigabytes."""
    path = write(tmp_path / "large.docx", docx_paragraphs(3))
    started = time.perf_counter()
    with pytest.raises(ResourceLimitError, match=r"word/document.xml is \d+ bytes of XML \(the limit"):
        parse_file(path, replace(DEFAULT_LIMITS, max_xml_bytes=1_000_000))
    assert time.perf_counter() - started < 2
    assert parse_file(path).sections  # under the default limit: read
