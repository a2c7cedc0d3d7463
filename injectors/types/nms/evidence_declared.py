"""Evidence that the document itself declares the clause's object optional (for a recommendation or
permission) or mandatory (for a requirement): a table row naming the object in full marks it in a column
that says whether an item must be given (必选/可选, 是否必填, 约束 M/O: "可选", "O", "否"; "必选", "M", "是"),
or a sentence says so ("抓拍图片编号为可选项", "卡片序列号（必填）").

Only the object as the clause names it (the same words, at least three characters): a row for another field
or for a longer name holding it ("图片编号长度") is none; nor is M/O in a column that is no necessity column
(a code column "数据来源代码 | M"), nor an object listed with options ("可附加A或B"), nor a name the
document marks both ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.modals import Modal, lexicon
from injectors.types.nms.analysis import is_table_row, place
from injectors.types.nms.evidence import DECLARED, Evidence
from injectors.types.nms.provision_parts import OPTIONS, excerpt, fold, object_of
from parsers.model import Document

# the header of a column saying whether an item must be given; "是否必填" columns hold 是 / 否
_NECESSITY_HEADER = regex.compile(r"必选|可选(?![值范参内])|是否必|必填|选填|必备|约束|M/O|强制")
_OPTIONAL_MARKS = frozenset(lexicon("可选 O 选填 选配 非必填 非必选 可选项"))
_MANDATORY_MARKS = frozenset(lexicon("必选 M 必填 必备 必选项"))
_SAID = {
    False: regex.compile(
        r"(?:为|是|属于)(?:可选|选配|选装|选填|非必(?:选|需|须|填))|[（(](?:可选|选配|选填)[）)]"
    ),
    True: regex.compile(r"(?:为|是|属于)(?:必选|必填|必备)|[（(](?:必选|必填)[）)]"),
}
_TABLE_TITLE = regex.compile(r"^(表\s*[A-Z]?\.?\d+(?:[.-]\d+)?)(?:\s|$)")
_NAME_BOUNDARY = "的个种项类条组"  # "一个或多个扩展参数" names 扩展参数; "系统扩展参数" names another thing


@dataclass(frozen=True)
class Marked:
    """A table row that marks an item in a necessity column: the item's name, the mark, where."""

    name: str
    mark: str
    mandatory: bool
    where: str  # 表3“是否必填”栏 (第4.1条的表… when the table has no title)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


@lru_cache(maxsize=64)
def _marked_rows(document: Document) -> tuple[Marked, ...]:
    """Every table row that marks an item as optional or mandatory in a necessity column (the column the
    header of its table names 必选/可选, 是否必填, 约束 …); HTML tables are left alone."""
    out: list[Marked] = []
    for section in document.sections:
        header: list[str] | None = None
        where = f"{place(section.number)}的表"
        for line in section.text.split("\n"):
            if not is_table_row(line) or "<t" in line:
                header = None
                caption = _TABLE_TITLE.match(line.strip())
                where = caption.group(1).replace(" ", "") if caption else f"{place(section.number)}的表"
                continue
            cells = _cells(line)
            if header is None:
                header = cells
                continue
            for j, title in enumerate(header):
                if j >= len(cells) or not _NECESSITY_HEADER.search(title):
                    continue
                mark = cells[j]
                yes_no = "是否" in title and mark in ("是", "否")
                if mark not in _OPTIONAL_MARKS and mark not in _MANDATORY_MARKS and not yes_no:
                    continue
                mandatory = mark == "是" if yes_no else mark in _MANDATORY_MARKS
                out.extend(
                    Marked(cell, mark, mandatory, f"{where}“{title}”栏")
                    for k, cell in enumerate(cells)
                    if k != j and len(fold(cell)) >= 3
                )
    return tuple(out)


def _names(thing: str, name: str) -> bool:
    """Whether `name` names the object `thing` in full: the same words, or its head after a modifier."""
    thing, name = fold(thing), fold(name)
    if len(name) < 3 or not thing.endswith(name):
        return False
    return len(thing) == len(name) or thing[-len(name) - 1] in _NAME_BOUNDARY


@dataclass(frozen=True)
class Declaration:
    """A sentence that calls an item optional or mandatory ("抓拍图片编号为可选项"): the item's name, the
    words to quote, which way, where, and the line (never evidence for a clause of its own line)."""

    name: str
    words: str
    mandatory: bool
    where: str
    line: str


@lru_cache(maxsize=64)
def _declarations(document: Document) -> tuple[Declaration, ...]:
    """Every sentence of the document (no table rows) that calls an item optional or mandatory; not a list
    of the values a field may take ("为必选/可选项")."""
    out = []
    for section in document.sections:
        for line in section.text.split("\n"):
            if is_table_row(line) or ("选" not in line and "必" not in line):
                continue
            for mandatory, said in _SAID.items():
                for found in said.finditer(line):
                    if regex.match(r"项?\s*[/／或、]", line[found.end() :]):
                        continue  # "为必选/可选项": the values a field may take, not a mark on one
                    name = regex.split(r"[，,；;。：:、\s]", line[: found.start()])[-1]
                    if len(fold(name)) >= 3:
                        words = excerpt(line, found.start() - len(name), found.end())
                        out.append(Declaration(name, words, mandatory, place(section.number), line))
    return tuple(out)


def declared(document: Document, position: int, line: str, modal: Modal, mandatory: bool) -> list[Evidence]:
    """The document marks the clause's object optional (`mandatory` False: evidence for 宜/可) or
    mandatory (True: evidence for 应): a row of a necessity column, or a sentence ("…为可选项",
    "…（必填）"). None where the document marks the same name both ways."""
    thing = object_of(line, modal)
    if not thing or OPTIONS.search(thing) or "等" in thing or regex.search(r"[，,；;：:]", thing):
        return []
    rows = [r for r in _marked_rows(document) if _names(thing, r.name)]
    said = [x for x in _declarations(document) if x.line != line and _names(thing, x.name)]
    if any(r.mandatory != mandatory for r in rows) or any(x.mandatory != mandatory for x in said):
        return []  # the document marks it both ways: no telling which the clause means
    out = [Evidence(DECLARED, r.name, r.where, r.mark) for r in rows]
    out += [Evidence(DECLARED, x.words, x.where) for x in said]
    return out[:1]
