"""The cover and front matter of a standard: its number, title, ICS/CCS, dates, 目次 entries and the
drafting rules it declares.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import regex

from parsers.lines import Line
from parsers.model import Cover, Section
from parsers.numbering import TOC_TITLE, compact, parse_heading

STANDARD_ID = regex.compile(
    r"(?<![A-Za-z/])((?:GB/[TZ]|GB|[A-Z]{1,4}/[TZ]|T/[A-Z]{2,12}|[A-Z]{2,4})\s*\d{1,6}(?:\.\d{1,3})*)"
    # the year after a dash, or after a space where a cover lost its dash ("HJ/T 96 2003")
    r"(?|\s*[—–\-－]{1,2}\s*(\d{4})|\s+((?:19|20)\d{2})(?!\d))"
)


_DRAFTING_2009 = regex.compile(r"GB/T\s*1\.1\s*[—–\-－]+\s*2009")


_DRAFTING_2020 = regex.compile(r"GB/T\s*1\.1\s*[—–\-－]+\s*2020")


_TOC_ENTRY = regex.compile(r"^(.*?)\s*(?:[.．…·⋯_\-—]{3,}|\s{3,})\s*([0-9IVXLⅠ-Ⅻⅰ-ⅻ]+)\s*$")


_FILENAME_ID = regex.compile(
    r"(GB_T|GB_Z|GB|[A-Z]{1,4}_[TZ]|T_[A-Z]{2,12}|T[A-Z]{2,12}|[A-Z]{2,4})[_ ]?(\d{1,6}(?:\.\d+)*)-(\d{4})"
)


_DATE = regex.compile(r"(\d{4})\s*[-—–－]\s*(\d{1,2})\s*[-—–－]\s*(\d{1,2})\s*(发\s*布|实\s*施)")


_COVER_NOISE = regex.compile(
    r"^(ICS|CCS|备案号|中华人民共和国|代替|发布|实施|\d{4}\s*[-—]\s*\d{1,2}\s*[-—]\s*\d{1,2})|发\s*布$|实\s*施$"
)


def toc_entries(lines: Sequence[Line]) -> list[tuple[str, str]]:
    """The (number, title) pairs that a document's own 目次 lists, in order."""
    entries: list[tuple[str, str]] = []
    inside = False
    for line in lines:
        text = line.text.strip()
        if compact(text) in (TOC_TITLE, "目录"):
            inside = True
            continue
        if not inside:
            continue
        m = _TOC_ENTRY.match(text)
        if not m:
            if entries and parse_heading(text) is not None:
                break
            continue
        heading = parse_heading(m.group(1))
        if heading is None:
            continue
        entries.append((heading.number, heading.title))
    return entries


def read_cover(lines: Sequence[Line]) -> tuple[str, str, Cover]:
    """Standard id, title and cover fields from the lines before the first element."""
    standard_id = ""
    title_parts: list[str] = []
    title_en: list[str] = []
    ics = ccs = issued = implemented = ""
    for line in lines:
        text = line.text.strip()
        key = compact(text)
        if key.startswith("ICS"):
            ics = text[3:].strip(" ：:")
            continue
        if key.startswith("CCS"):
            ccs = text[3:].strip(" ：:")
            continue
        dates = list(_DATE.finditer(text))
        for m in dates:
            date = f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}"
            if "发" in m.group(4):
                issued = date
            else:
                implemented = date
        if dates:
            continue
        if not standard_id and (m := STANDARD_ID.search(text)) and not key.startswith("代替"):
            standard_id = f"{m.group(1).strip()}—{m.group(2)}"
            standard_id = regex.sub(r"(?<=[A-Z/])(?=\d)", " ", standard_id, count=1)
            continue
        if _COVER_NOISE.search(key) or "标准化管理委员会" in key or "监督管理" in key:
            continue
        if regex.search(r"\p{Han}", text):
            if standard_id and not title_en:
                title_parts.append(" ".join(text.split()))
        elif standard_id and regex.search(r"[A-Za-z]{3,}", text) and title_parts:
            title_en.append(text)
    title = " ".join(title_parts[:3])
    cover = Cover(title_en=" ".join(title_en), ics=ics, ccs=ccs, issued=issued, implemented=implemented)
    return standard_id, title, cover


def _drafting_rules(sections: Sequence[Section]) -> str:
    """Read from the foreword sentence (前言, or whatever precedes the scope when 前言 was not found)."""
    front = [s.text for s in sections if s.kind in ("foreword", "introduction")]
    for text in front or [s.text for s in sections[:3]]:
        if _DRAFTING_2020.search(text):
            return "GB/T 1.1—2020"
        if _DRAFTING_2009.search(text):
            return "GB/T 1.1—2009"
    return "unknown"


def _id_from_filename(path: Path) -> str:
    """The id a file name spells without its slash ("HJT_96-2003", "TCSTM_00837-2022") as written on a
    cover: a sector code of two letters plus T or Z is "HJ/T", and T plus a body's letters a group standard.
    """
    m = _FILENAME_ID.search(path.name)
    if not m:
        return ""
    prefix = m.group(1).replace("_", "/")
    if "/" not in prefix and len(prefix) == 3 and prefix[-1] in "TZ":
        prefix = f"{prefix[:2]}/{prefix[2]}"
    elif "/" not in prefix and len(prefix) >= 4 and prefix[0] == "T":
        prefix = f"T/{prefix[1:]}"
    return f"{prefix} {m.group(2)}—{m.group(3)}"
