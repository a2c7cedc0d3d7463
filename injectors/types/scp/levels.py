"""A scope that bounds its object by a range of levels ("第一级到第四级等级保护对象"), and the body
requirements about the top level of that range.

The level above the range is an outsider that the document names itself (a table of levels, a definition);
finding the range and the requirements that could take in the next level is reading of its own, apart from
the objects a scope names.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex

from injectors.language.sentences import provisions, sentences
from injectors.types.scp.analysis import scope_chapter
from injectors.types.scp.editing import paragraph_spans
from parsers.model import Document, Section

_NUMERALS = "一二三四五六七八九"
# "第一级到第四级等级保护对象": a scope that bounds its object by a range of levels, with the object named.
_LEVEL_RANGE = regex.compile(
    rf"第([{_NUMERALS}])级(?:到|至|～|~|—)第([{_NUMERALS}])级(?:的)?([\p{{Han}}]{{2,8}}?(?:对象|系统|产品|设备|单位))"
)


@dataclass(frozen=True)
class LevelBound:
    """A scope's range of levels ("第一级到第四级等级保护对象"), its top level and the next level up, which
    the document names elsewhere (a table of levels, a definition) and the scope leaves out."""

    words: str  # the scope's words: "第一级到第四级等级保护对象"
    top: str  # 第四级
    beyond: str  # 第五级


@functools.lru_cache(maxsize=16)
def level_bound(document: Document) -> LevelBound | None:
    """The scope's range of levels, where the document itself names the level above its top outside the
    scope: a body clause about the top level can then take in that level, named as the document names
    its levels. None where the scope gives no range, or the document never names a level beyond it."""
    found = scope_chapter(document)
    if found is None:
        return None
    m = _LEVEL_RANGE.search(found[1].text)
    if m is None or _NUMERALS.index(m.group(2)) + 1 >= len(_NUMERALS):
        return None
    top, beyond = f"第{m.group(2)}级", f"第{_NUMERALS[_NUMERALS.index(m.group(2)) + 1]}级"
    rest = "\n".join(s.text for s in document.sections if s.kind != "scope")
    return LevelBound(m.group(0), top, beyond) if beyond in rest else None


@dataclass(frozen=True)
class LevelRequirement:
    """A body requirement that names the scope's top level before a noun ("应为第四级业务应用系统……")."""

    start: int  # offset of the sentence in the section text
    at: int  # offset, within the sentence, right after the top level
    sentence: str


# After the top level: the thing of that level, not a range ("及以上", "以下") nor the level itself.
_AFTER_TOP = regex.compile(r"(?!及?以[上下]|安全要求)(?:的)?\p{Han}{2}")


@functools.lru_cache(maxsize=16)
def level_requirements(section: Section, bound: LevelBound) -> tuple[LevelRequirement, ...]:
    """Requirements (应/不应, a list item's too) of a body clause that name the top level of the scope's
    range before the thing they regulate, and not already the level beyond it."""
    rows = section.table_lines()
    out = []
    for start, end in paragraph_spans(section.text):
        if section.text.count("\n", 0, start) in rows:
            continue
        line = section.text[start:end]
        for sentence in sentences(line):
            text = sentence.text
            found = provisions(text)
            if not found or found[0].word not in ("应", "不应") or bound.beyond in text:
                continue
            for m in regex.finditer(regex.escape(bound.top), text):
                if _AFTER_TOP.match(text, m.end()) and not text.startswith(("注", "示例")):
                    out.append(LevelRequirement(start + sentence.start, m.end(), text))
                    break
    return tuple(out)
