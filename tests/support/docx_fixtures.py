"""Word files the DOCX tests write: python-docx for the body, raw numbering.xml for the lists (shared by
test_docx.py and test_docx_bad_input.py)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import docx
from docx.document import Document as WordDocument
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph

from parsers.docx import read_lines
from tests.support.sample_standard import SAMPLE

# python-docx for the body, raw numbering.xml for the lists
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def lvl_xml(ilvl: int, fmt: str, text: str, **extra: object) -> str:
    """One w:lvl; extras: start, restart (w:lvlRestart), pStyle, isLgl, suff."""
    parts = [f'<w:lvl w:ilvl="{ilvl}">', f'<w:start w:val="{extra.get("start", 1)}"/>']
    parts.append(f'<w:numFmt w:val="{fmt}"/>')
    if "restart" in extra:
        parts.append(f'<w:lvlRestart w:val="{extra["restart"]}"/>')
    if "pStyle" in extra:
        parts.append(f'<w:pStyle w:val="{extra["pStyle"]}"/>')
    if extra.get("isLgl"):
        parts.append("<w:isLgl/>")
    if "suff" in extra:
        parts.append(f'<w:suff w:val="{extra["suff"]}"/>')
    parts.append(f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/></w:lvl>')
    return "".join(parts)


def numbering_xml(abstracts: dict[int, Sequence[str]], nums: dict[int, tuple[int, str]]) -> str:
    """abstracts: id → lvl XML strings; nums: numId → (abstractNumId, extra XML such as lvlOverride)."""
    body = "".join(
        f'<w:abstractNum w:abstractNumId="{aid}"><w:multiLevelType w:val="multilevel"/>{"".join(lvls)}'
        "</w:abstractNum>"
        for aid, lvls in abstracts.items()
    )
    body += "".join(
        f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{extra}</w:num>'
        for nid, (aid, extra) in nums.items()
    )
    prolog = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    return f'{prolog}<w:numbering xmlns:w="{W}">{body}</w:numbering>'


def override(ilvl: int, start: int) -> str:
    return f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{start}"/></w:lvlOverride>'


CHAPTERS = [lvl_xml(0, "decimal", "%1"), lvl_xml(1, "decimal", "%1.%2"), lvl_xml(2, "decimal", "%1.%2.%3")]
ANNEXES = [lvl_xml(0, "upperLetter", "附录%1", suff="nothing"), lvl_xml(1, "decimal", "%1.%2")]
LISTS = [lvl_xml(0, "lowerLetter", "%1)"), lvl_xml(1, "decimal", "%2)")]
DASHES = [lvl_xml(0, "bullet", "——", suff="nothing"), lvl_xml(1, "bullet", "\uf0b7")]


def numbered(
    doc: WordDocument, text: str, num_id: int, ilvl: int | None = 0, style: str | None = None
) -> Paragraph:
    """A paragraph carrying a direct w:numPr (ilvl None: numId only)."""
    paragraph = doc.add_paragraph(text, style=style)
    num_pr = OxmlElement("w:numPr")
    if ilvl is not None:
        level = OxmlElement("w:ilvl")
        level.set(qn("w:val"), str(ilvl))
        num_pr.append(level)
    num = OxmlElement("w:numId")
    num.set(qn("w:val"), str(num_id))
    num_pr.append(num)
    paragraph._p.get_or_add_pPr().append(num_pr)
    return paragraph


def replace_parts(data: bytes, parts: dict[str, bytes | str]) -> bytes:
    """Rewrite a package with some parts replaced or added (raw XML edits python-docx cannot make)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename not in parts:
                dst.writestr(info, src.read(info.filename))
        for name, content in parts.items():
            dst.writestr(name, content.encode() if isinstance(content, str) else content)
    return out.getvalue()


def save(doc: WordDocument, numbering: str | None = None) -> bytes:
    buffer = io.BytesIO()
    doc.save(buffer)
    data = buffer.getvalue()
    return replace_parts(data, {"word/numbering.xml": numbering}) if numbering else data


def texts(data: bytes, name: str = "fixture.docx") -> list[str]:
    return [line.text for line in read_lines(Path(name), data)]


def add_style(doc: WordDocument, style_xml: str) -> None:
    """Append a raw w:style (e.g. one carrying w:numPr, which python-docx cannot set)."""
    doc.styles.element.append(parse_xml(f'<w:style xmlns:w="{W}" {style_xml}'))


def sample_docx(auto: bool) -> bytes:
    """SAMPLE as Word would hold it: literal numbers, or auto numbering with titles only in the text."""
    doc = docx.Document()
    lines = SAMPLE.strip().split("\n")
    i = 0
    while i < len(lines):
        text = lines[i]
        if text.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip("|").split("|")])
                i += 1
            table = doc.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
            continue
        clause = re.match(r"^(\d+(?:\.\d+)*)(?:\s+(.*))?$", text)
        annex = re.match(r"^附录([A-Z])(.*)$", text)
        annex_clause = re.match(r"^([A-Z])\.(\d+)\s+(.*)$", text)
        body_started = any(line.startswith("前 言") for line in lines[:i])
        if auto and body_started and clause and not text.endswith("。") and "—" not in text:
            number, title = clause.group(1), clause.group(2) or ""
            if not title and number.count(".") == 2:
                title, i = lines[i + 1], i + 1  # untitled clause: the paragraph is the clause text
            numbered(doc, title, 1, number.count("."), style="Heading 1" if "." not in number else None)
        elif auto and body_started and annex and not annex.group(2).startswith("（资"):
            numbered(doc, "", 2)
        elif auto and body_started and annex:
            numbered(doc, "", 2)
            doc.add_paragraph("（资料性）")
            doc.add_paragraph("操作示例")
        elif auto and body_started and annex_clause:
            numbered(doc, annex_clause.group(3), 2, 1)
        else:
            doc.add_paragraph(text)
        i += 1
    return save(doc, numbering_xml({1: CHAPTERS, 2: ANNEXES}, {1: (1, ""), 2: (2, "")}) if auto else None)


# A minimal package written by hand, for the XML python-docx cannot write (and for damaged files)
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="word/document.xml" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>'
    "</Relationships>"
)
NAMESPACES = (
    f'xmlns:w="{W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)


def document_xml(body: str, prolog: str = "") -> str:
    head = '<?xml version="1.0" encoding="UTF-8"?>'
    return f"{head}{prolog}<w:document {NAMESPACES}><w:body>{body}</w:body></w:document>"


def raw_docx(body: str = "<w:p><w:r><w:t>1 范围</w:t></w:r></w:p>", **parts: bytes | str) -> bytes:
    """A minimal package written by hand; `parts` adds or replaces entries (use "_" for "/")."""
    entries: dict[str, bytes | str] = {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": PACKAGE_RELS,
        "word/document.xml": document_xml(body),
    }
    entries.update({k.replace("__", "/"): v for k, v in parts.items()})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in entries.items():
            zf.writestr(name, content.encode() if isinstance(content, str) else content)
    return out.getvalue()
