"""DOCX package safety: everything a file must pass before any part is parsed.

A DOCX is a zip of XML parts, so it is checked for what could exhaust the machine (zip bombs, XML
entity bombs) or is not a DOCX at all (legacy .doc, encrypted files, RTF, PDF, OpenDocument), and every
bad input becomes a typed `ParseError` naming the file and the reason.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn
from xml.parsers import expat

from lxml import etree

from parsers.docx.ooxml import _w
from parsers.errors import (
    CorruptFileError,
    EmptyFileError,
    EncryptedDocumentError,
    UnsafeDocumentError,
    UnsupportedFormatError,
)

# --- limits (checked on the zip's declared sizes, before anything is extracted) ---------------------
MAX_TOTAL_UNCOMPRESSED = 200 * 1024 * 1024
MAX_RATIO = 100
RATIO_MIN_SIZE = 1024 * 1024  # small parts compress well legitimately; only big ones are judged
MAX_ENTRIES = 10_000

STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
OFFICE_DOCUMENT_RELS = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
    "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
)
STYLES_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
NUMBERING_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering"
WORD_MAIN_TYPES = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# What zipfile raises on a damaged container: bad headers, CRC, offsets, deflate streams.
_ZIP_DAMAGE = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, struct.error)
_SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def _ole_names(data: bytes) -> set[str] | None:
    """Stream and storage names of an OLE compound file, or None when its directory is unreadable.

    Enough of [MS-CFB] to tell an encrypted OOXML package (EncryptionInfo) from a legacy .doc
    (WordDocument) without guessing from stray bytes.
    """
    if len(data) < 512:
        return None
    shift = struct.unpack_from("<H", data, 30)[0]
    if shift not in (9, 12):
        return None
    size = 1 << shift
    per_sector = size // 4
    last_regular = 0xFFFFFFFA

    def sector(n: int) -> bytes | None:
        start = (n + 1) * size
        chunk = data[start : start + size]
        return chunk if len(chunk) == size else None

    fat_sectors = [s for s in struct.unpack_from("<109I", data, 76) if s < last_regular]
    difat: int = struct.unpack_from("<I", data, 68)[0]
    seen: set[int] = set()
    while difat < last_regular and difat not in seen and len(seen) < 10_000:
        seen.add(difat)
        chunk = sector(difat)
        if chunk is None:
            return None
        entries = struct.unpack(f"<{per_sector}I", chunk)
        fat_sectors.extend(s for s in entries[:-1] if s < last_regular)
        difat = entries[-1]
    fat: list[int] = []
    for s in fat_sectors:
        chunk = sector(s)
        if chunk is None:
            return None
        fat.extend(struct.unpack(f"<{per_sector}I", chunk))
    names: set[str] = set()
    current, visited = struct.unpack_from("<I", data, 48)[0], set()
    while current < last_regular and current not in visited:
        visited.add(current)
        chunk = sector(current)
        if chunk is None:
            return None
        for i in range(0, size, 128):
            name_len, kind = struct.unpack_from("<HB", chunk, i + 64)
            if kind in (1, 2, 5) and 2 <= name_len <= 64:
                names.add(chunk[i : i + name_len - 2].decode("utf-16-le", "replace"))
        current = fat[current] if current < len(fat) else 0xFFFFFFFE
    return names or None


def _refuse_ole(path: Path, data: bytes) -> NoReturn:
    """An OLE compound file is never a DOCX: say whether it is encrypted, a legacy .doc or other."""
    names = _ole_names(data)
    if names is None:
        raise CorruptFileError(path, "damaged OLE compound file (its directory cannot be read)")
    if "EncryptionInfo" in names or "EncryptedPackage" in names:
        raise EncryptedDocumentError(
            path, "password-protected (encrypted Office document): remove the password and save again"
        )
    if "WordDocument" in names:
        raise UnsupportedFormatError(path, "legacy Word .doc is not supported: save it as .docx")
    raise UnsupportedFormatError(path, "an OLE compound file (e.g. .xls, .ppt), not a Word document")


def _refuse_non_zip(path: Path, data: bytes) -> NoReturn:
    """Name what a non-zip file is when it is recognisable; otherwise it is a broken container."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf\r\n\t ")
    if head.startswith(b"{\\rtf"):
        raise UnsupportedFormatError(path, "an RTF document, not a DOCX: save it as .docx")
    if head.startswith(b"%PDF-"):
        raise UnsupportedFormatError(path, "a PDF, not a DOCX: rename it to .pdf")
    if head[:5].lower() in (b"<?xml", b"<html", b"<!doc") or b"MIME-Version" in head[:256]:
        raise UnsupportedFormatError(path, "XML/HTML (a Word 2003 XML or web page export), not a DOCX")
    if data.startswith(b"PK"):
        raise CorruptFileError(path, "truncated or damaged zip container (no central directory)")
    raise CorruptFileError(path, "not a DOCX: the content is not a zip container (damaged or mislabelled)")


def _check_sizes(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    """Zip bomb guard on the declared sizes; zipfile never inflates an entry past its declared size."""
    if len(infos) > MAX_ENTRIES:
        raise UnsafeDocumentError(path, f"zip bomb suspected: {len(infos)} entries (limit {MAX_ENTRIES})")
    total = sum(i.file_size for i in infos)
    if total > MAX_TOTAL_UNCOMPRESSED:
        raise UnsafeDocumentError(
            path,
            f"zip bomb suspected: {total} bytes uncompressed (limit {MAX_TOTAL_UNCOMPRESSED})",
        )
    for info in infos:
        if info.file_size >= RATIO_MIN_SIZE:
            ratio = info.file_size / max(info.compress_size, 1)
            if ratio > MAX_RATIO:
                raise UnsafeDocumentError(
                    path,
                    f"zip bomb suspected: {info.filename} expands {ratio:.0f}:1 "
                    f"({info.compress_size} → {info.file_size} bytes; limit {MAX_RATIO}:1)",
                )


class _PrologDone(Exception):
    """The root element was reached: no DTD can follow."""


class _DtdFound(Exception):
    """A DOCTYPE or ENTITY declaration: OOXML never has one, entity bombs always do."""


def _check_xml_part(path: Path, name: str, stream: IO[bytes]) -> None:
    """Refuse a DTD in the prolog of an XML part, reading no further than its root element."""
    parser = expat.ParserCreate()

    def doctype(*_: object) -> None:
        raise _DtdFound

    def root(*_: object) -> None:
        raise _PrologDone

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.StartElementHandler = root
    head = b""
    try:
        while chunk := stream.read(65536):
            if len(head) < 4096:
                head += chunk[:4096]
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except _PrologDone:
        return
    except _DtdFound:
        raise UnsafeDocumentError(
            path, f"XML part {name} declares a DTD/entities (XML entity bomb or external entity)"
        ) from None
    except (expat.ExpatError, LookupError):  # LookupError: an encoding Python does not know
        # An encoding expat does not know, or plain malformation: lxml decides later, but a DTD is
        # still refused on sight.
        if re.search(rb"<!\s*(doctype|entity)", head, re.IGNORECASE):
            raise UnsafeDocumentError(path, f"XML part {name} declares a DTD/entities") from None


def _looks_like_xml(head: bytes) -> bool:
    head = head.lstrip(b"\xef\xbb\xbf\r\n\t ")
    return head.startswith(b"<") or head.startswith((b"\xff\xfe", b"\xfe\xff"))


@dataclass(frozen=True)
class _Package:
    """The parts of a checked DOCX that the reader needs, as parsed XML trees."""

    document: etree._Element
    styles: etree._Element | None
    numbering: etree._Element | None


class _Zip:
    """A checked zip container; part names are matched case-insensitively, as OPC requires."""

    def __init__(self, path: Path, zf: zipfile.ZipFile) -> None:
        self.path = path
        self.zf = zf
        self.names = {i.filename.lower(): i.filename for i in zf.infolist() if not i.is_dir()}

    def has(self, name: str) -> bool:
        return name.lower() in self.names

    def read(self, name: str) -> bytes:
        try:
            return self.zf.read(self.names[name.lower()])
        except KeyError:
            raise CorruptFileError(self.path, f"damaged DOCX: part {name} is missing") from None
        except _ZIP_DAMAGE as exc:
            raise CorruptFileError(self.path, f"damaged DOCX: part {name} cannot be read ({exc})") from None
        except NotImplementedError as exc:
            raise UnsupportedFormatError(
                self.path, f"part {name} uses an unsupported compression ({exc})"
            ) from None

    def xml(self, name: str) -> etree._Element:
        """A part parsed without DTDs, entities or network access (DTDs were refused already)."""
        try:
            return etree.fromstring(self.read(name), _SAFE_XML)
        except (etree.XMLSyntaxError, LookupError, ValueError) as exc:  # LookupError: unknown encoding
            reason = f"damaged DOCX: part {name} is not well-formed XML ({exc})"
            raise CorruptFileError(self.path, reason) from None

    def targets(self, source: str) -> dict[str, str]:
        """Relationship type → internal target part of `source` ("" is the package itself)."""
        folder, _, base = source.rpartition("/")
        rels = f"{folder}/_rels/{base}.rels" if folder else (f"_rels/{base}.rels" if base else "_rels/.rels")
        if not self.has(rels):
            return {}
        out: dict[str, str] = {}
        for rel in self.xml(rels).iter(f"{{{REL_NS}}}Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            target = (rel.get("Target") or "").replace("\\", "/")
            resolved = target if target.startswith("/") else f"{folder}/{target}"
            parts: list[str] = []
            for piece in resolved.split("/"):
                if piece == "..":
                    parts = parts[:-1]
                elif piece not in ("", "."):
                    parts.append(piece)
            out.setdefault(rel.get("Type") or "", "/".join(parts))
        return out

    def content_type(self, part: str) -> str:
        """The declared content type of a part: its Override, else the Default for its extension."""
        if not self.has("[Content_Types].xml"):
            return ""
        types = self.xml("[Content_Types].xml")
        for override in types.iter(f"{{{CT_NS}}}Override"):
            if (override.get("PartName") or "").lstrip("/").lower() == part.lower():
                return override.get("ContentType") or ""
        extension = part.rpartition(".")[2].lower()
        for default in types.iter(f"{{{CT_NS}}}Default"):
            if (default.get("Extension") or "").lower() == extension:
                return default.get("ContentType") or ""
        return ""


def _check_parts(path: Path, zf: zipfile.ZipFile) -> None:
    """Refuse a DTD in every part that is XML, whatever its name or declared content type."""
    for info in zf.infolist():
        if info.is_dir():
            continue
        try:
            with zf.open(info) as stream:
                head = stream.read(8)
            if _looks_like_xml(head):
                with zf.open(info) as stream:
                    _check_xml_part(path, info.filename, stream)
        except _ZIP_DAMAGE as exc:
            reason = f"damaged DOCX: part {info.filename} cannot be read ({exc})"
            raise CorruptFileError(path, reason) from None
        except NotImplementedError as exc:
            raise UnsupportedFormatError(path, f"unsupported zip compression ({exc})") from None


def _open_package(path: Path, data: bytes) -> _Package:
    """Every check a DOCX must pass, in the order that gives the most useful error."""
    if not data:
        raise EmptyFileError(path, "empty file (0 bytes)")
    if data.startswith(OLE_MAGIC):
        _refuse_ole(path, data)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (*_ZIP_DAMAGE, NotImplementedError):  # NotImplementedError: a garbled version field
        _refuse_non_zip(path, data)
    _check_sizes(path, infos)
    if any(i.flag_bits & 0x1 for i in infos):
        raise EncryptedDocumentError(path, "password-protected zip entries: remove the password and save")
    _check_parts(path, zf)
    package = _Zip(path, zf)

    # A zip that never claims to be a Word document is another format (Unsupported); one that claims a
    # main part it does not hold, or holds one it does not link, is a damaged DOCX (Corrupt).
    rels = package.targets("")
    main = next((rels[t] for t in OFFICE_DOCUMENT_RELS if t in rels), None)
    if main is None:
        if package.has("word/document.xml"):
            raise CorruptFileError(path, "damaged DOCX: word/document.xml is not linked from _rels/.rels")
        if package.has("mimetype") and b"opendocument" in package.read("mimetype"):
            raise UnsupportedFormatError(path, "an OpenDocument file (.odt), not a DOCX: save it as .docx")
        raise UnsupportedFormatError(path, "a zip archive but not a Word document (no word/document.xml)")
    if not package.has(main):
        raise CorruptFileError(path, f"damaged DOCX: its main part {main} is missing from the package")
    content_type = package.content_type(main)
    if content_type not in WORD_MAIN_TYPES:
        if content_type and content_type != "application/xml":
            raise UnsupportedFormatError(path, f"not a Word document (main part is {content_type})")
        raise CorruptFileError(path, f"damaged DOCX: no Word content type declared for {main}")

    document = package.xml(main)
    if document.tag == f"{{{STRICT_W_NS}}}document":
        raise UnsupportedFormatError(path, "Strict Open XML DOCX is not supported: save as a standard .docx")
    if document.tag != _w("document") or document.find(_w("body")) is None:
        raise CorruptFileError(path, f"damaged DOCX: {main} has no w:document/w:body")
    part_rels = package.targets(main)
    styles, numbering = (part_rels.get(rel, "") for rel in (STYLES_REL, NUMBERING_REL))
    return _Package(
        document,
        package.xml(styles) if package.has(styles) else None,
        package.xml(numbering) if package.has(numbering) else None,
    )
