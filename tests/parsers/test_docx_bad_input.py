"""The DOCX reader on bad input: a typed error naming the file and the reason; nothing else lost."""

from __future__ import annotations

import io
import random
import struct
import zipfile
from pathlib import Path

import pytest

import parsers.docx.package as docx_package
from parsers import parse_file, parse_many
from parsers.docx import read_lines
from parsers.errors import (
    CorruptFileError,
    EmptyFileError,
    EncryptedDocumentError,
    ParseError,
    UnsafeDocumentError,
    UnsupportedFormatError,
)
from tests.support.docx_fixtures import (
    CONTENT_TYPES,
    NAMESPACES,
    PACKAGE_RELS,
    document_xml,
    raw_docx,
    sample_docx,
    texts,
)


def ole_file(*streams: str) -> bytes:
    """A minimal OLE compound file (one FAT sector, one directory sector) holding empty streams."""
    header = bytearray(512)
    header[0:8] = bytes.fromhex("D0CF11E0A1B11AE1")
    struct.pack_into("<HHH", header, 24, 0x3E, 3, 0xFFFE)
    struct.pack_into("<HH", header, 30, 9, 6)
    struct.pack_into("<I", header, 44, 1)  # one FAT sector
    struct.pack_into("<I", header, 48, 1)  # directory starts at sector 1
    struct.pack_into("<I", header, 56, 4096)
    struct.pack_into("<III", header, 60, 0xFFFFFFFE, 0, 0xFFFFFFFE)
    struct.pack_into("<I", header, 72, 0)
    struct.pack_into("<109I", header, 76, 0, *([0xFFFFFFFF] * 108))
    fat = struct.pack("<128I", 0xFFFFFFFD, 0xFFFFFFFE, *([0xFFFFFFFF] * 126))
    directory = bytearray(512)
    for i, (name, kind) in enumerate([("Root Entry", 5), *((s, 2) for s in streams)][:4]):
        encoded = name.encode("utf-16-le") + b"\x00\x00"
        directory[i * 128 : i * 128 + len(encoded)] = encoded
        struct.pack_into("<HB", directory, i * 128 + 64, len(encoded), kind)
        struct.pack_into("<I", directory, i * 128 + 116, 0xFFFFFFFE)
    return bytes(header) + fat + bytes(directory)


BILLION_LAUGHS = (
    '<!DOCTYPE w:document [<!ENTITY lol "lol">'
    '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
)


def _bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", PACKAGE_RELS)]:
            zf.writestr(name, content)
        zf.writestr("word/document.xml", document_xml("<w:p/>"))
        zf.writestr("word/media/image1.png", b"\0" * (20 * 1024 * 1024))
    return out.getvalue()


def _plain_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("notes.txt", "hello")
    return out.getvalue()


def _without_main() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("[Content_Types].xml", CONTENT_TYPES)
        zf.writestr("_rels/.rels", PACKAGE_RELS)
    return out.getvalue()


def _part(name: str, content: str | bytes) -> bytes:
    return raw_docx(**{name.replace("/", "__"): content})


UTF16_DTD = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'.encode("utf-16")
LAUGHS = document_xml("<w:p><w:r><w:t>&lol3;</w:t></w:r></w:p>", BILLION_LAUGHS)
XXE = document_xml(
    "<w:p><w:r><w:t>&x;</w:t></w:r></w:p>", '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
)

# (file name, bytes, expected error, words the reason must contain)
BAD_INPUTS: list[tuple[str, bytes, type[ParseError], str]] = [
    ("empty.docx", b"", EmptyFileError, "empty"),
    ("not-zip.docx", "这不是一个Word文件".encode() * 20, CorruptFileError, "not a zip"),
    ("truncated.docx", raw_docx()[:300], CorruptFileError, "truncated"),
    ("zip-header-only.docx", b"PK\x03\x04" + b"\x00" * 40, CorruptFileError, "truncated"),
    ("plain-zip.docx", _plain_zip(), UnsupportedFormatError, "not a Word document"),
    ("no-main-part.docx", _without_main(), CorruptFileError, "main part word/document.xml is missing"),
    ("no-body.docx", _part("word/document.xml", f"<w:document {NAMESPACES}/>"), CorruptFileError, "w:body"),
    (
        "malformed.docx",
        _part("word/document.xml", f"<w:document {NAMESPACES}><w:body><w:p></w:body>"),
        CorruptFileError,
        "not well-formed",
    ),
    ("encrypted.docx", ole_file("EncryptionInfo", "EncryptedPackage"), EncryptedDocumentError, "password"),
    ("legacy.docx", ole_file("WordDocument", "1Table"), UnsupportedFormatError, "legacy Word .doc"),
    ("excel.docx", ole_file("Workbook"), UnsupportedFormatError, "not a Word document"),
    ("damaged-ole.docx", bytes.fromhex("D0CF11E0A1B11AE1") + b"\x00" * 100, CorruptFileError, "OLE"),
    ("rtf.docx", b"{\\rtf1\\ansi hello}", UnsupportedFormatError, "RTF"),
    ("bomb.docx", _bomb(), UnsafeDocumentError, "zip bomb"),
    ("laughs.docx", _part("word/document.xml", LAUGHS), UnsafeDocumentError, "entity bomb"),
    ("xxe.docx", _part("word/document.xml", XXE), UnsafeDocumentError, "external entity"),
    (
        "dtd-in-custom-part.docx",
        _part("customXml/item1.xml", '<?xml version="1.0"?><!DOCTYPE a><a/>'),
        UnsafeDocumentError,
        "customXml/item1.xml",
    ),
    ("utf16-dtd.docx", _part("word/styles.xml", UTF16_DTD), UnsafeDocumentError, "word/styles.xml"),
    ("blank.docx", raw_docx("<w:p/><w:p><w:r><w:t>  </w:t></w:r></w:p>"), EmptyFileError, "no text"),
]


@pytest.mark.parametrize(("name", "data", "error", "reason"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_is_a_typed_error_naming_file_and_reason(
    tmp_path: Path, name: str, data: bytes, error: type[ParseError], reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(error) as caught:
        read_lines(path, data)
    assert type(caught.value) is error
    assert str(path) in str(caught.value)
    assert reason in caught.value.reason


ROUTED = [b for b in BAD_INPUTS if b[1][:2] in (b"PK", b"\xd0\xcf")]


@pytest.mark.parametrize(("name", "data", "error", "reason"), ROUTED, ids=[b[0] for b in ROUTED])
def test_bad_docx_through_the_dispatcher(
    tmp_path: Path, name: str, data: bytes, error: type[ParseError], reason: str
) -> None:
    """parse_file sends zip and OLE content named .docx here, and the same typed error comes out."""
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(error) as caught:
        parse_file(path)
    assert str(path) in str(caught.value) and reason in caught.value.reason


def test_damaged_bytes_only_ever_raise_parse_errors() -> None:
    """Random byte damage anywhere (headers, deflate streams, XML) gives a ParseError, never a crash."""
    data = sample_docx(auto=True)
    rng = random.Random(7)
    for _ in range(300):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 25)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        if rng.random() < 0.2:
            damaged = damaged[: rng.randrange(len(damaged))]
        try:
            read_lines(Path("damaged.docx"), bytes(damaged))
        except ParseError as exc:
            assert "damaged.docx" in str(exc)


def test_total_size_cap_is_checked_before_extracting(monkeypatch: pytest.MonkeyPatch) -> None:
    data = raw_docx(**{"word__media__big.bin": bytes(range(256)) * 400})
    monkeypatch.setattr(docx_package, "MAX_TOTAL_UNCOMPRESSED", 50_000)
    with pytest.raises(UnsafeDocumentError, match="uncompressed"):
        read_lines(Path("big.docx"), data)


def test_macro_enabled_documents_are_read() -> None:
    types = CONTENT_TYPES.replace(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        "application/vnd.ms-word.document.macroEnabled.main+xml",
    )
    assert texts(raw_docx(**{"[Content_Types].xml": types})) == ["1 范围"]


def test_batch_keeps_going_past_a_bad_file(tmp_path: Path) -> None:
    good = tmp_path / "a-good.docx"
    good.write_bytes(sample_docx(auto=True))
    bad = tmp_path / "b-bomb.docx"
    bad.write_bytes(_bomb())
    other = tmp_path / "c-good.docx"
    other.write_bytes(sample_docx(auto=False))
    outcomes = list(parse_many([good, bad, other]))
    assert [o.document is not None for o in outcomes] == [True, False, True]
    assert isinstance(outcomes[1].error, UnsafeDocumentError)
    assert "b-bomb.docx" in str(outcomes[1].error)
    assert parse_file(good).sections == outcomes[0].document.sections  # type: ignore[union-attr]
