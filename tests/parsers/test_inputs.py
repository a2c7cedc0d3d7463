"""Choosing a reader by content, and refusing files that are empty, mislabelled or of another format."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import parse_file, parse_many
from parsers.errors import CorruptFileError, EmptyFileError, ParseError, UnsupportedFormatError
from tests.support.sample_standard import SAMPLE

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "data", "error", "reason"),
    [
        ("empty.pdf", b"", EmptyFileError, "empty file"),
        ("empty.txt", b"  \n\n", EmptyFileError, "empty"),
        ("fake.pdf", "1 范围".encode(), UnsupportedFormatError, "extension .pdf but the content is plain"),
        ("report.docx", b"%PDF-1.7\n%...", UnsupportedFormatError, "content is a PDF"),
        ("notes.txt", b"PK\x03\x04" + b"\x00" * 40, UnsupportedFormatError, "zip archive"),
        ("old.doc", OLE_MAGIC + b"\x00" * 100, UnsupportedFormatError, "legacy Word .doc"),
        ("scan.png", b"\x89PNG\r\n\x1a\n", UnsupportedFormatError, "unsupported file type .png"),
        ("gbk.txt", b"\xff\xfe\x00\xd8" * 10, UnsupportedFormatError, "binary"),
    ],
)
def test_bad_inputs_name_the_file_and_reason(
    tmp_path: Path, name: str, data: bytes, error: type[ParseError], reason: str
) -> None:
    path = write(tmp_path, name, data)
    with pytest.raises(error) as info:
        parse_file(path)
    assert str(path) in str(info.value)
    assert reason in info.value.reason


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(CorruptFileError, match="file not found"):
        parse_file(tmp_path / "nope.txt")
    folder = tmp_path / "dir.txt"
    folder.mkdir()
    with pytest.raises(UnsupportedFormatError, match="is a directory"):
        parse_file(folder)


def test_gb18030_text_is_decoded(tmp_path: Path) -> None:
    doc = parse_file(write(tmp_path, "gbk.txt", SAMPLE.encode("gb18030")))
    assert doc.section("1").title == "范围"


def test_a_batch_goes_on_past_bad_files(tmp_path: Path) -> None:
    good = write(tmp_path, "a.txt", SAMPLE.encode())
    bad = write(tmp_path, "b.pdf", b"")
    also_good = write(tmp_path, "c.md", ("# 前言\n" + SAMPLE.split("前 言\n", 1)[1]).encode())
    outcomes = list(parse_many([good, bad, also_good]))
    assert [o.document is not None for o in outcomes] == [True, False, True]
    assert isinstance(outcomes[1].error, EmptyFileError)
    assert outcomes[2].document is not None and outcomes[2].document.format == "markdown"
