"""DOCX standards → logical lines: Word's automatic numbering materialised as text, unsafe files refused.

A Word file shows clause numbers that are not in its text (they come from numbering.xml), so this
reader replays Word's list counters and writes each number in front of its paragraph, as the PDF or
text of the same standard would show it. Everything else (headings, sections, kinds) is decided by the
shared assembler in `parsers.assembler`. Before any part is parsed, the package is checked for what
could exhaust the machine (zip bombs, XML entity bombs) or is not a DOCX at all (legacy .doc, encrypted
files), so every bad input becomes a typed `ParseError` naming the file and the reason.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, NoReturn
from xml.parsers import expat

from lxml import etree

from parsers.errors import (
    CorruptFileError,
    EmptyFileError,
    EncryptedDocumentError,
    UnsafeDocumentError,
    UnsupportedFormatError,
)
from parsers.lines import Line
from parsers.model import Document

# --- limits (checked on the zip's declared sizes, before anything is extracted) ---------------------
MAX_TOTAL_UNCOMPRESSED = 200 * 1024 * 1024
MAX_RATIO = 100
RATIO_MIN_SIZE = 1024 * 1024  # small parts compress well legitimately; only big ones are judged
MAX_ENTRIES = 10_000

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
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


def _w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


P, TBL, TR, TC, R, T = _w("p"), _w("tbl"), _w("tr"), _w("tc"), _w("r"), _w("t")
PPR, RPR, SDT, SDT_CONTENT = _w("pPr"), _w("rPr"), _w("sdt"), _w("sdtContent")
TXBX_CONTENT = _w("txbxContent")
ALTERNATE_CONTENT = f"{{{MC_NS}}}AlternateContent"
MC_CHOICE, MC_FALLBACK = f"{{{MC_NS}}}Choice", f"{{{MC_NS}}}Fallback"
VAL = _w("val")
# Wrappers whose children are blocks (paragraphs, tables) or inline content, read through as if absent.
_BLOCK_WRAPPERS = {_w("customXml"), _w("ins"), _w("moveTo"), SDT_CONTENT, SDT}
_INLINE_WRAPPERS = {
    _w("hyperlink"),
    _w("smartTag"),
    _w("customXml"),
    _w("fldSimple"),
    _w("ins"),
    _w("moveTo"),
    _w("dir"),
    _w("bdo"),
    SDT,
    SDT_CONTENT,
}
_ROW_WRAPPERS = {_w("sdt"), SDT_CONTENT, _w("customXml"), _w("ins")}
_MATH = {f"{{{M_NS}}}oMath", f"{{{M_NS}}}oMathPara"}
_HEADING_STYLE_NAME = re.compile(r"^(?:heading|标题)\s*([1-9])$", re.IGNORECASE)
_SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


# ===================================================================================================
# Package checks: everything that must be refused before any part is parsed
# ===================================================================================================


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
    difat, seen = struct.unpack_from("<I", data, 68)[0], set()
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


# ===================================================================================================
# Styles and numbering definitions
# ===================================================================================================


def _val(el: etree._Element | None, attr: str = VAL) -> str | None:
    return None if el is None else el.get(attr)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _on(el: etree._Element | None) -> bool:
    """A Word toggle property: present and not switched off."""
    return el is not None and el.get(VAL, "true").lower() not in ("0", "false", "off")


@dataclass(frozen=True)
class _Style:
    name: str
    based_on: str | None
    num_id: str | None
    ilvl: int | None
    outline: int | None
    leader: str | None = None  # fill of a leader tab stop (目次 lines: "1 范围……1")


class _Styles:
    """Paragraph styles as far as headings and numbering need them: names, basedOn, numPr, outline."""

    def __init__(self, root: etree._Element | None) -> None:
        self.by_id: dict[str, _Style] = {}
        self.default: str | None = None
        for style in () if root is None else root.iter(_w("style")):
            style_id = style.get(_w("styleId"))
            if style_id is None:
                continue
            ppr = style.find(PPR)
            num_pr = ppr.find(_w("numPr")) if ppr is not None else None
            self.by_id[style_id] = _Style(
                name=_val(style.find(_w("name"))) or "",
                based_on=_val(style.find(_w("basedOn"))),
                num_id=_val(num_pr.find(_w("numId"))) if num_pr is not None else None,
                ilvl=_int(_val(num_pr.find(_w("ilvl")))) if num_pr is not None else None,
                outline=_int(_val(ppr.find(_w("outlineLvl")))) if ppr is not None else None,
                leader=_leader(ppr),
            )
            if style.get(_w("type")) == "paragraph" and _on_attr(style.get(_w("default"))):
                self.default = style_id

    def chain(self, style_id: str | None) -> Iterator[tuple[str, _Style]]:
        """The style and its basedOn ancestors, nearest first (cycles cut)."""
        seen: set[str] = set()
        current = style_id if style_id in self.by_id else self.default
        while current is not None and current in self.by_id and current not in seen:
            seen.add(current)
            style = self.by_id[current]
            yield current, style
            current = style.based_on


_LEADERS = {
    "dot": "………",
    "middleDot": "······",
    "hyphen": "------",
    "underscore": "______",
    "heavy": "______",
}


def _leader(ppr: etree._Element | None) -> str | None:
    """The fill a paragraph's leader tab stop prints (Word's 目次 puts dots before page numbers)."""
    tabs = ppr.find(_w("tabs")) if ppr is not None else None
    for tab in () if tabs is None else tabs.iter(_w("tab")):
        if tab.get(VAL) != "clear" and (fill := _LEADERS.get(tab.get(_w("leader"), ""))):
            return fill
    return None


def _on_attr(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "on")


@dataclass(frozen=True)
class _Level:
    """One w:lvl: how a level counts and how its number is printed."""

    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    restart: int | None = None
    legal: bool = False
    suffix: str = "tab"
    style: str | None = None
    font: str | None = None  # the number's font: decides what a symbol-font bullet character is


def _level(lvl: etree._Element, base: _Level | None = None) -> _Level:
    """Read a w:lvl; a partial override keeps what it does not say from `base`.

    A level without w:start counts from 0, as the standard says and Word shows.
    """
    base = base or _Level(start=0)
    fmt_el = lvl.find(_w("numFmt"))
    if fmt_el is None:  # Word 2010+ writes custom formats inside mc:AlternateContent
        fmt_el = lvl.find(f"{ALTERNATE_CONTENT}/{MC_FALLBACK}/{_w('numFmt')}")
    text_el = lvl.find(_w("lvlText"))
    text = base.text
    if text_el is not None:
        text = "" if _on_attr(text_el.get(_w("null"))) else text_el.get(VAL, "")
    restart_el = lvl.find(_w("lvlRestart"))
    return _Level(
        start=_int(_val(lvl.find(_w("start")))) if lvl.find(_w("start")) is not None else base.start,
        fmt=_val(fmt_el) or base.fmt,
        text=text,
        restart=_int(_val(restart_el)) if restart_el is not None else base.restart,
        legal=_on(lvl.find(_w("isLgl"))) or base.legal,
        suffix=_val(lvl.find(_w("suff"))) or base.suffix,
        style=_val(lvl.find(_w("pStyle"))) or base.style,
        font=_val(lvl.find(f"{RPR}/{_w('rFonts')}"), _w("ascii")) or base.font,
    )


@dataclass
class _Num:
    """A w:num instance: its abstract definition plus per-level overrides."""

    abstract_id: str
    start_overrides: dict[int, int] = field(default_factory=dict)
    level_overrides: dict[int, etree._Element] = field(default_factory=dict)


class _Numbering:
    """numbering.xml: abstract definitions, their instances, and numbering-style indirections."""

    def __init__(self, root: etree._Element | None, styles: _Styles) -> None:
        self.styles = styles
        self.abstract: dict[str, dict[int, _Level]] = {}
        self.style_link: dict[str, str] = {}
        self.nums: dict[str, _Num] = {}
        for abstract in () if root is None else root.iter(_w("abstractNum")):
            abstract_id = abstract.get(_w("abstractNumId"))
            if abstract_id is None:
                continue
            levels: dict[int, _Level] = {}
            for lvl in abstract.iter(_w("lvl")):
                ilvl = _int(lvl.get(_w("ilvl")))
                if ilvl is not None and 0 <= ilvl <= 8:
                    levels[ilvl] = _level(lvl)
            self.abstract[abstract_id] = levels
            if (link := _val(abstract.find(_w("numStyleLink")))) is not None:
                self.style_link[abstract_id] = link
        for num in () if root is None else root.iter(_w("num")):
            num_id = num.get(_w("numId"))
            abstract_id = _val(num.find(_w("abstractNumId")))
            if num_id is None or abstract_id is None:
                continue
            entry = _Num(abstract_id)
            for override in num.iter(_w("lvlOverride")):
                ilvl = _int(override.get(_w("ilvl")))
                if ilvl is None or not 0 <= ilvl <= 8:
                    continue
                if (start := _int(_val(override.find(_w("startOverride"))))) is not None:
                    entry.start_overrides[ilvl] = start
                if (lvl := override.find(_w("lvl"))) is not None:
                    entry.level_overrides[ilvl] = lvl
            self.nums[num_id] = entry

    def list_of(self, num_id: str) -> tuple[str, dict[int, _Level]] | None:
        """The counter group (abstract id) and effective levels of a num; None if it numbers nothing."""
        num = self.nums.get(num_id)
        if num is None:
            return None
        abstract_id = self._follow_style_link(num.abstract_id)
        levels = dict(self.abstract.get(abstract_id, {}))
        for ilvl, lvl in num.level_overrides.items():
            levels[ilvl] = _level(lvl, levels.get(ilvl))
        for ilvl, start in num.start_overrides.items():
            if ilvl in levels:
                levels[ilvl] = replace(levels[ilvl], start=start)
        return (abstract_id, levels) if levels else None

    def _follow_style_link(self, abstract_id: str) -> str:
        """An abstractNum with numStyleLink borrows the levels of its numbering style's list."""
        seen: set[str] = set()
        while abstract_id in self.style_link and abstract_id not in seen:
            seen.add(abstract_id)
            style = self.styles.by_id.get(self.style_link[abstract_id])
            num = self.nums.get(style.num_id or "") if style else None
            if num is None:
                break
            abstract_id = num.abstract_id
        return abstract_id


# --- number formats --------------------------------------------------------------------------------

_CHINESE_DIGITS = "零一二三四五六七八九"
_LEGAL_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_HEAVENLY_STEMS = "甲乙丙丁戊己庚辛壬癸"
_EARTHLY_BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_PAREN = "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇"
_FULLSTOP = "⒈⒉⒊⒋⒌⒍⒎⒏⒐⒑⒒⒓⒔⒕⒖⒗⒘⒙⒚⒛"
# Symbol-font characters (Word stores them as U+F0xx with the font's own code): Greek letters and the
# signs technical text uses, so "±0.5 ℃" typed in Symbol reads as such.
_SYMBOL_FONT = dict(
    zip(
        [*range(0x41, 0x5B), *range(0x61, 0x7B)],
        "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖαβχδεφγηιϕκλμνοπθρστυϖωξψζ",
        strict=True,
    )
) | {
    0x22: "∀", 0x24: "∃", 0x2D: "−", 0x5E: "⊥", 0x7E: "∼", 0xA2: "′", 0xA3: "≤", 0xA5: "∞",
    0xAC: "←", 0xAD: "↑", 0xAE: "→", 0xAF: "↓", 0xB0: "°", 0xB1: "±", 0xB2: "″", 0xB3: "≥",
    0xB4: "×", 0xB6: "∂", 0xB7: "•", 0xB8: "÷", 0xB9: "≠", 0xBA: "≡", 0xBB: "≈", 0xBC: "…",
    0xC6: "∅", 0xC7: "∩", 0xC8: "∪", 0xCE: "∈", 0xD1: "∇", 0xD6: "√", 0xD7: "⋅", 0xD8: "¬",
    0xD9: "∧", 0xDA: "∨", 0xDB: "⇔", 0xDE: "⇒", 0xE5: "∑", 0xF2: "∫",
}  # fmt: skip
_WINGDINGS = {0x6C: "●", 0x6E: "■", 0x75: "◆", 0x76: "❖", 0xA7: "▪", 0xA8: "◆", 0xD8: "➢", 0xFC: "✓"}


def _font_char(code: int, font: str | None) -> str:
    """A character of a symbol font as Unicode; unknown private-use characters print as a bullet."""
    low = code & 0xFF if code >= 0xF000 or code < 0x100 else None
    name = (font or "").lower()
    if low is not None and name.startswith("wingdings") and low in _WINGDINGS:
        return _WINGDINGS[low]
    if low is not None and (name == "symbol" or code >= 0xF000) and low in _SYMBOL_FONT:
        return _SYMBOL_FONT[low]
    return "•" if 0xE000 <= code <= 0xF8FF else chr(code)


def _letters(n: int, upper: bool) -> str:
    """Word's letter numbering: A … Z, AA … ZZ, AAA … (the letter repeats)."""
    if n < 1:
        return str(n)
    letter = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
    return letter if upper else letter.lower()


def _roman(n: int, upper: bool) -> str:
    if not 0 < n < 4000:
        return str(n)
    out = ""
    for value, symbol in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        count, n = divmod(n, value)
        out += symbol * count
    return out if upper else out.lower()


def _chinese(n: int, digits: str = _CHINESE_DIGITS, ten: str = "十", hundred: str = "百") -> str:
    """Chinese counting (一 … 十 … 九十九, 一百 … 九百九十九), as Word's chineseCounting shows it."""
    if not 0 <= n < 1000:
        return str(n)
    if n < 10:
        return digits[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return (digits[tens] if tens > 1 else "") + ten + (digits[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    if rest == 0:
        tail = ""
    elif rest < 10:
        tail = digits[0] + digits[rest]  # 一百零五
    elif rest < 20:
        tail = digits[1] + _chinese(rest, digits, ten, hundred)  # 一百一十五
    else:
        tail = _chinese(rest, digits, ten, hundred)
    return digits[hundreds] + hundred + tail


def format_number(n: int, fmt: str) -> str:
    """One counter value printed in a w:numFmt (unknown formats print as decimal, as Word falls back)."""
    if fmt in ("none", "bullet"):
        return ""
    if fmt in ("upperLetter", "lowerLetter"):
        return _letters(n, fmt == "upperLetter")
    if fmt in ("upperRoman", "lowerRoman"):
        return _roman(n, fmt == "upperRoman")
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):
        return str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    if fmt in (
        "chineseCounting",
        "chineseCountingThousand",
        "japaneseCounting",
        "taiwaneseCounting",
        "taiwaneseCountingThousand",
        "koreanCounting",
    ):
        return _chinese(n)
    if fmt == "ideographDigital":
        return str(n).translate(str.maketrans("0123456789", "〇一二三四五六七八九"))
    if fmt == "chineseLegalSimplified":
        return _chinese(n, _LEGAL_DIGITS, "拾", "佰")
    if fmt == "ideographTraditional" and 1 <= n <= 10:
        return _HEAVENLY_STEMS[n - 1]
    if fmt == "ideographZodiac" and 1 <= n <= 12:
        return _EARTHLY_BRANCHES[n - 1]
    if (
        fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese", "ideographEnclosedCircle")
        and 1 <= n <= 20
    ):
        return _CIRCLED[n - 1]
    if fmt == "decimalEnclosedParen" and 1 <= n <= 20:
        return _PAREN[n - 1]
    if fmt == "decimalEnclosedFullstop" and 1 <= n <= 20:
        return _FULLSTOP[n - 1]
    if fmt == "ordinal":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return str(n)


class _Counters:
    """Word's list counters, replayed paragraph by paragraph in document order.

    Instances (w:num) of one abstractNum share one set of counters, so a list continues across
    instances; an instance's w:startOverride restarts its level at that value when the instance is
    first used (and is the level's start for that instance from then on).
    Using a level advances it and resets the deeper levels, unless their w:lvlRestart says otherwise.
    """

    def __init__(self, numbering: _Numbering) -> None:
        self.numbering = numbering
        self.values: dict[str, list[int | None]] = {}
        self.used_nums: set[str] = set()

    def label(self, num_id: str, ilvl: int) -> tuple[str, _Level] | None:
        """Advance the counter of (num, level) and return the printed number with its level."""
        found = self.numbering.list_of(num_id)
        if found is None:
            return None
        group, levels = found
        level = levels.get(ilvl)
        if level is None:
            return None
        values = self.values.setdefault(group, [None] * 9)
        if num_id not in self.used_nums:
            self.used_nums.add(num_id)
            for over_ilvl in self.numbering.nums[num_id].start_overrides:
                values[over_ilvl] = None
        current = values[ilvl]
        values[ilvl] = level.start if current is None else current + 1
        for deeper in range(ilvl + 1, 9):
            restart = levels[deeper].restart if deeper in levels else None
            # lvlRestart is 1-based: restart when a level above it is used; 0 = never; absent or
            # pointing at itself/deeper (ignored by Word) = restart after any higher level.
            if restart is None or restart > deeper or (restart != 0 and ilvl < restart):
                values[deeper] = None

        def placeholder(match: re.Match[str]) -> str:
            index = int(match.group(1)) - 1
            shown = levels.get(index, _Level())
            value = values[index] if values[index] is not None else shown.start
            fmt = "decimal" if level.legal and shown.fmt not in ("none", "bullet") else shown.fmt
            return format_number(value, fmt)

        if level.fmt == "bullet":
            text = "".join(
                _font_char(ord(ch), level.font) if "\ue000" <= ch <= "\uf8ff" else ch for ch in level.text
            )
        else:
            text = re.sub(r"%([1-9])", placeholder, level.text)
        return text, level


# ===================================================================================================
# The body walk
# ===================================================================================================


@dataclass(frozen=True)
class _Out:
    text: str
    heading_level: int | None = None
    table_row: bool = False


class _BodyReader:
    """Walks w:body in document order and collects one `_Out` per visible line."""

    def __init__(self, package: _Package) -> None:
        self.styles = _Styles(package.styles)
        self.numbering = _Numbering(package.numbering, self.styles)
        self.counters = _Counters(self.numbering)
        self.out: list[_Out] = []

    # --- blocks ---------------------------------------------------------------------------------
    def blocks(self, parent: etree._Element) -> None:
        for child in parent:
            tag = child.tag
            if tag == P:
                self.paragraph(child)
            elif tag == TBL:
                self.table(child)
            elif tag in _BLOCK_WRAPPERS:
                self.blocks(child)
            elif tag == ALTERNATE_CONTENT:
                self.blocks(_chosen(child))

    def table(self, tbl: etree._Element) -> None:
        for row in _children(tbl, TR, _ROW_WRAPPERS):
            props = row.find(_w("trPr"))
            if props is not None and props.find(_w("del")) is not None:
                continue
            cells = [self.cell_text(tc) for tc in _children(row, TC, _ROW_WRAPPERS)]
            if any(cells):
                self.out.append(_Out(" | ".join(cells), table_row=True))

    def cell_text(self, tc: etree._Element) -> str:
        """A cell's paragraphs (and nested tables) on one line; numbering inside still counts."""
        outer, self.out = self.out, []
        try:
            self.blocks(tc)
            return " ".join(o.text for o in self.out)
        finally:
            self.out = outer

    # --- paragraphs -----------------------------------------------------------------------------
    def paragraph(self, p: etree._Element) -> None:
        ppr = p.find(PPR)
        style_id = _val(ppr.find(_w("pStyle"))) if ppr is not None else None
        pieces: list[str] = [""]
        boxes: list[etree._Element] = []
        self.inline(p, pieces, boxes)
        prefix = self.number_prefix(ppr, style_id)
        if prefix:
            pieces[0] = prefix + pieces[0].lstrip()
        level = self.heading_level(ppr, style_id)
        leader = _leader(ppr) or next((st.leader for _, st in self.styles.chain(style_id) if st.leader), None)
        for piece in pieces:
            if leader and "\t" in piece.strip():
                # The last tab jumps to the leader tab stop (the page number of a 目次 entry).
                head, _, tail = piece.rstrip().rpartition("\t")
                piece = f"{head}{leader}{tail}"
            text = piece.replace("\t", " ").strip()
            if text:
                self.out.append(_Out(text, heading_level=level))
        for box in boxes:
            self.blocks(box)

    def inline(self, el: etree._Element, pieces: list[str], boxes: list[etree._Element]) -> None:
        """Visible text of runs, split at line breaks; deleted text and field codes are not shown."""
        for child in el:
            tag = child.tag
            if tag == R:
                self.run(child, pieces, boxes)
            elif tag in _INLINE_WRAPPERS:
                self.inline(child, pieces, boxes)
            elif tag in _MATH:
                pieces[-1] += "".join(t.text or "" for t in child.iter(f"{{{M_NS}}}t"))
            elif tag == ALTERNATE_CONTENT:
                self.inline(_chosen(child), pieces, boxes)

    def run(self, r: etree._Element, pieces: list[str], boxes: list[etree._Element]) -> None:
        rpr = r.find(RPR)
        if rpr is not None and _on(rpr.find(_w("vanish"))):
            return
        for child in r:
            tag = child.tag
            if tag == T:
                pieces[-1] += child.text or ""
            elif tag in (_w("tab"), _w("ptab")):
                pieces[-1] += "\t"
            elif tag in (_w("br"), _w("cr")):
                pieces.append("")
            elif tag == _w("noBreakHyphen"):
                pieces[-1] += "-"
            elif tag == _w("sym"):
                code = _int_hex(child.get(_w("char")))
                if code is not None:
                    pieces[-1] += _font_char(code, child.get(_w("font")))
            elif tag == _w("ruby"):
                base = child.find(_w("rubyBase"))
                if base is not None:
                    self.inline(base, pieces, boxes)
            elif tag in (_w("drawing"), _w("pict"), _w("object"), ALTERNATE_CONTENT):
                boxes.extend(_text_boxes(child))

    def number_prefix(self, ppr: etree._Element | None, style_id: str | None) -> str:
        """The number Word prints before this paragraph ("5.1 ", "附录A", "a) ", "——"), or ""."""
        num_pr = ppr.find(_w("numPr")) if ppr is not None else None
        num_id = _val(num_pr.find(_w("numId"))) if num_pr is not None else None
        ilvl = _int(_val(num_pr.find(_w("ilvl")))) if num_pr is not None else None
        chain = list(self.styles.chain(style_id)) if num_id is None or ilvl is None else []
        if num_id is None:
            num_id = next((style.num_id for _, style in chain if style.num_id is not None), None)
        if ilvl is None:
            ilvl = next((style.ilvl for _, style in chain if style.ilvl is not None), None)
        if ilvl is None and num_id is not None:
            ilvl = self._level_for_style(num_id, [sid for sid, _ in chain])
        if num_id is None or num_id == "0":
            return ""
        labelled = self.counters.label(num_id, ilvl or 0)
        if labelled is None:
            return ""
        text, level = labelled
        if not text:
            return ""
        if level.suffix == "nothing" or text.endswith(("—", "－", "-")):
            return text
        return text + " "

    def _level_for_style(self, num_id: str, style_ids: list[str]) -> int | None:
        """A style attached to a list without an ilvl takes the level whose w:pStyle names it
        (the paragraph's own style first, then the styles it is based on)."""
        found = self.numbering.list_of(num_id)
        if found is None:
            return None
        for style_id in style_ids:
            for ilvl, lvl in sorted(found[1].items()):
                if lvl.style == style_id:
                    return ilvl
        return None

    def heading_level(self, ppr: etree._Element | None, style_id: str | None) -> int | None:
        """Outline level (direct or from the style chain) or a Heading N / 标题 N style name, 1-based."""
        direct = _int(_val(ppr.find(_w("outlineLvl")))) if ppr is not None else None
        if direct is not None:
            return direct + 1 if 0 <= direct <= 8 else None
        for _, style in self.styles.chain(style_id):
            if style.outline is not None:
                return style.outline + 1 if 0 <= style.outline <= 8 else None
            if m := _HEADING_STYLE_NAME.match(style.name.strip()):
                return int(m.group(1))
        return None


def _int_hex(value: str | None) -> int | None:
    try:
        return int(value, 16) if value else None
    except ValueError:
        return None


def _chosen(alternate: etree._Element) -> etree._Element:
    """mc:AlternateContent: the first Choice (we read what Word reads), else the Fallback."""
    choice = alternate.find(MC_CHOICE)
    if choice is None:
        choice = alternate.find(MC_FALLBACK)
    return choice if choice is not None else etree.Element("empty")


def _text_boxes(el: etree._Element) -> list[etree._Element]:
    """Text box contents inside a drawing, once (not again from the VML fallback)."""
    if el.tag == TXBX_CONTENT:
        return [el]
    if el.tag == ALTERNATE_CONTENT:
        return _text_boxes(_chosen(el))
    found: list[etree._Element] = []
    for child in el:
        found.extend(_text_boxes(child))
    return found


def _children(parent: etree._Element, tag: str, wrappers: set[str]) -> Iterator[etree._Element]:
    """Children with `tag`, looking through content controls and custom XML around them."""
    for child in parent:
        if child.tag == tag:
            yield child
        elif child.tag in wrappers:
            yield from _children(child, tag, wrappers)


# ===================================================================================================
# Public API
# ===================================================================================================


def read_lines(path: Path, data: bytes) -> list[Line]:
    """The visible lines of a DOCX body, numbers materialised; raises a ParseError for bad input."""
    path = Path(path)
    package = _open_package(path, data)
    reader = _BodyReader(package)
    try:
        reader.blocks(package.document.find(_w("body")))  # type: ignore[arg-type]
    except RecursionError:
        raise CorruptFileError(path, "document nesting too deep to read") from None
    lines: list[Line] = []
    offset = 0
    for out in reader.out:
        lines.append(Line(out.text, offset=offset, heading_level=out.heading_level, table_row=out.table_row))
        offset += len(out.text) + 1  # lines are joined with "\n" in the concatenated text
    if not lines:
        raise EmptyFileError(path, "no text: the document body is empty")
    return lines


def parse_docx(path: Path, data: bytes) -> Document:
    """A DOCX standard as a Document (sections assembled by the shared `parsers.assembler`)."""
    from parsers.assembler import assemble

    return assemble(read_lines(path, data), path=Path(path), fmt="docx", data=data)


__all__ = ["format_number", "parse_docx", "read_lines"]
