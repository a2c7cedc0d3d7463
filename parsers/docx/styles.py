"""Paragraph styles and Word list numbering (numbering.xml), and the counters that replay it.

A Word file shows clause numbers that are not in its text: they come from numbering.xml, through the
paragraph or its style chain. These classes read the style and numbering definitions and replay Word's
list counters paragraph by paragraph, so the body walk can write each number in front of its paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from lxml import etree

from parsers.docx.formats import _font_char, format_number
from parsers.docx.ooxml import ALTERNATE_CONTENT, MC_FALLBACK, PPR, RPR, VAL, _int, _on, _on_attr, _val, _w


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
    start = _int(_val(lvl.find(_w("start"))))  # absent or unreadable: keep the base's
    return _Level(
        start=base.start if start is None else start,
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
            value = values[index]
            if value is None:
                value = shown.start
            fmt = "decimal" if level.legal and shown.fmt not in ("none", "bullet") else shown.fmt
            return format_number(value, fmt)

        if level.fmt == "bullet":
            text = "".join(
                _font_char(ord(ch), level.font) if "\ue000" <= ch <= "\uf8ff" else ch for ch in level.text
            )
        else:
            text = re.sub(r"%([1-9])", placeholder, level.text)
        return text, level
