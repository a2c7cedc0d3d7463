"""STR-05 附录错误 (Annex error)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.authoring import (
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Replacement,
    Section,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.language.modals import has_requirement, has_soft_modal
from injectors.language.quotes import shorten
from injectors.types.str.analysis import (
    NORMATIVE_LEAD,
    document_family,
    sentences,
    structure_checkable,
)
from injectors.types.str.editing import spread_per_form

ERROR_TYPE = ErrorType(
    "STR-05",
    "STR",
    "附录错误",
    "Annex error",
    "GB/T 1.1—2020 9.6",
    "GB/T 1.1—2009 5.2.7",
    "R",
    "D / S",
    ("E-S-05",),
)


# 宜 / 可 as recommendation or permission, not in 适宜 便宜 事宜 / 可能 可行 可信 可靠 认可 许可 …


_ANNEX_MENTION = regex.compile(r"附\s*录\s*([A-Z])(?![A-Za-z])(?:\s*(?:～|~|至|到|—)\s*附\s*录\s*([A-Z]))?")


_OTHER_DOCUMENT = regex.compile(r"(?:[0-9A-Za-z》）)]\s*(?:的|中的?)?\s*)$")


_INFORMATIVE_LEAD = regex.compile(r"(参见|参考|参照)\s*$")


_INFORMATIVE_VERB = regex.compile(r"^\s*(?:中)?\s*(给出|列出|提供|介绍|举例)")


_SEGMENT = regex.compile(r"[^，,：:]+")


def mention_strength(segment: str, before: str, after: str, note: bool) -> str:
    """How one comma-delimited segment refers to an annex: "应符合附录A的规定" and "按附录A进行" are
    normative; "参见附录B", "附录B给出了…" and mentions in 注/示例 are informative; "见附录B" and a 可/宜
    segment are neutral (both generations use "见" for either kind of annex)."""
    requirement = has_requirement(segment)
    if note or _INFORMATIVE_LEAD.search(before) or (_INFORMATIVE_VERB.match(after) and not requirement):
        return "informative"
    if has_soft_modal(segment) and not requirement:
        return "neutral"
    if requirement or NORMATIVE_LEAD.search(before):
        return "normative"
    return "neutral"


@dataclass(frozen=True)
class AnnexMention:
    """A place where the document refers to one of its annexes, and how: normative, informative or neutral."""

    letter: str
    section: str  # number of the mentioning section
    sentence: str
    strength: str  # "normative" | "informative" | "neutral"


def _letters(first: str, last: str | None) -> list[str]:
    if last is None or last <= first:
        return [first]
    return [chr(c) for c in range(ord(first), ord(last) + 1)]


def annex_mentions(document: Document) -> list[AnnexMention]:
    """Mentions of 附录X outside annex X itself, the foreword, the introduction and the bibliography."""
    return [m for s in document.sections for m in _section_mentions(s)]


@lru_cache(maxsize=1 << 14)  # each candidate's lint reads the same sections again (keyed by their content)
def _section_mentions(s: Section) -> tuple[AnnexMention, ...]:
    if s.kind in ("foreword", "introduction", "bibliography", "index"):
        return ()
    out: list[AnnexMention] = []
    own = s.number[-1] if s.number.startswith("附录") else (s.number[:1] if s.kind == "annex" else "")
    for sentence, note in sentences(s.text):
        for segment in _SEGMENT.findall(sentence):
            for m in _ANNEX_MENTION.finditer(segment):
                before = segment[: m.start()]
                if _OTHER_DOCUMENT.search(before):
                    continue  # "GB/T 2423.1—2008附录A", "ISO/TS 15066:2016附录A": another document's
                strength = mention_strength(segment, before, segment[m.end() :], note)
                for letter in _letters(m.group(1), m.group(2)):
                    if letter != own:
                        out.append(AnnexMention(letter, s.number, sentence, strength))
    return tuple(out)


_DECLARATION = regex.compile(
    r"(附\s*录\s*[A-Z](?:\s*(?:、|，|,|和|及|与|至|～|~)\s*(?:附\s*录\s*)?[A-Z])*)"
    r"\s*(?:为|是|均为|都是)\s*(规范性|资料性)附录"
)


def foreword_declarations(document: Document) -> dict[str, str]:
    """2009 forewords state "本标准的附录A为规范性附录，附录B为资料性附录": letter → 规范性 | 资料性."""
    out: dict[str, str] = {}
    for s in document.sections:
        if s.kind != "foreword":
            continue
        for m in _DECLARATION.finditer(s.text):
            found = regex.findall(r"[A-Z]", m.group(1))
            ranged = regex.search(r"([A-Z])\s*(?:至|～|~)\s*(?:附\s*录\s*)?([A-Z])", m.group(1))
            letters = _letters(ranged.group(1), ranged.group(2)) if ranged else found
            for letter in [*letters, *found]:
                out.setdefault(letter, m.group(2))
    return out


CAPTION = regex.compile(
    r"^\s*(?P<kind>表|图)\s*(?:(?P<letter>[A-Z])\s*\.\s*)?(?P<n>\d{1,3})(?![\d.])\s*(?P<title>.*)$"
)


_CAPTION_TITLE_START = regex.compile(r"^(中|的|给出|所示|列出|和|、|及|与|为|是|规定|至|～|~|—|所列|表示|内)")


def caption_lines(
    text: str, table_rows: frozenset[int] = frozenset()
) -> Iterator[tuple[int, regex.Match[str]]]:
    """Table and figure captions ("表A.1　名称", "图 2 结构"): offset of the line and the match; never a
    line of `table_rows` (`Section.table_lines()`: a full-width row reading "表1 …" is a row, no caption)."""
    offset = 0
    for k, line in enumerate(text.split("\n")):
        m = CAPTION.match(line) if k not in table_rows else None
        if m:
            title = m.group("title").strip()
            if (
                title
                and len(title) <= 50
                and not _CAPTION_TITLE_START.match(title)
                and title[-1] not in "。；，,：:"
                and " | " not in line
            ):
                yield offset, m
        offset += len(line) + 1


def annex_letter_of(section: Section) -> str | None:
    """The annex a section belongs to ("附录B", "B.2" → "B"), or None for the body."""
    if section.kind != "annex":
        return None
    if section.number.startswith("附录"):
        return section.number[-1]
    return section.number[:1] if section.number[:1].isalpha() else None


def annex_marker_kind(marker: str) -> str:
    """ "规范性" / "规范性附录" → "规范性"; "资料性" / "资料性附录" → "资料性"; anything else → ""."""
    for kind in ("规范性", "资料性"):
        if marker.startswith(kind):
            return kind
    return ""


def edition_marker(drafting_rules: str, kind: str) -> str:
    """How a document's declared edition writes an annex's nature: "规范性" (2020), "规范性附录" (2009);
    "" where the document declares neither."""
    if drafting_rules == "GB/T 1.1—2020":
        return kind
    if drafting_rules == "GB/T 1.1—2009":
        return f"{kind}附录"
    return ""


def annex_errors(document: Document) -> list[Violation]:
    """Annex markers (missing, or contradicted by how the body refers to the annex) and annex captions."""
    if not structure_checkable(document):
        return []
    out: list[Violation] = []
    mentions = annex_mentions(document)
    declared = foreword_declarations(document)
    for s in document.sections:
        if s.kind != "annex" or not s.number.startswith("附录"):
            continue
        letter = s.number[-1]
        marker = annex_marker_kind(s.annex_marker)
        if not marker:
            out.append(Violation(s.number, "STR-05", f"“{s.number}”缺少“（规范性）”或“（资料性）”标识"))
            continue
        wanted = edition_marker(document.drafting_rules, marker)
        if wanted and s.annex_marker != wanted:
            written = f"“{s.number}”标为“（{s.annex_marker}）”"
            message = f"按{document.drafting_rules}起草的文件中{written}，应为“（{wanted}）”"
            out.append(Violation(s.number, "STR-05", message))
        own = [m for m in mentions if m.letter == letter]
        if marker == "资料性" and any(m.strength == "normative" for m in own):
            where = next(m.section for m in own if m.strength == "normative")
            out.append(
                Violation(
                    s.number, "STR-05", f"“{s.number}”标为资料性附录，但第{where}条以要求的形式引用了该附录"
                )
            )
        elif marker == "规范性" and own and all(m.strength == "informative" for m in own):
            out.append(
                Violation(s.number, "STR-05", f"“{s.number}”标为规范性附录，但正文仅以资料性方式提及该附录")
            )
        if letter in declared and declared[letter] != marker:
            out.append(
                Violation(
                    s.number,
                    "STR-05",
                    f"前言说明{s.number}为{declared[letter]}附录，但附录标识为“（{s.annex_marker}）”",
                )
            )
    for s in document.sections:
        annex = annex_letter_of(s)
        if annex is None:
            continue
        for _, m in caption_lines(s.text, s.table_lines()):
            kind, letter, n = m.group("kind"), m.group("letter"), m.group("n")
            wanted = f"{kind}{annex}.{n}"
            if letter is None:
                message = f"附录{annex}中的“{kind}{n}”编号不规范，应为“{wanted}”这样的形式"
                out.append(Violation(s.number, "STR-05", message))
            elif letter != annex:
                message = f"附录{annex}中的“{kind}{letter}.{n}”所用字母与所在附录不符，应为“{wanted}”"
                out.append(Violation(s.number, "STR-05", message))
    return out


def quote(text: str, limit: int = 24) -> str:
    return shorten(text, limit)


class AnnexError(Injector):
    """Why: an annex carries its nature (（规范性）/（资料性）) under its number, and its tables and
    figures are numbered 表A.1, 图A.1 (GB/T 1.1—2020 9.6). How: swap the marker where the body's
    references contradict the new one (a normative annex that the body requires "应符合附录A的规定"
    becomes 资料性; an informative annex only "参见"-referenced, or declared in a 2009 foreword, and
    stating no requirement itself, becomes 规范性), drop the marker, write it as the other edition does
    (（规范性附录） in a 2020 document, a 2009 template kept), or renumber one annex caption: 表A.1 →
    表1 (the body's numbering), or 表B.1 → 表A.1 in 附录B (a caption copied from the neighbouring annex
    and not renumbered). Each form offers one site (the middle one of the document's), so that the forms
    are drawn about evenly.
    """

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "1594c650747f3c8e"
    forms = ("caption", "letter", "missing", "edition", "informative", "normative")

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if document_family(document) == "engineering":
            return []
        mentions = annex_mentions(document)
        declared = foreword_declarations(document)
        annexes = {
            s.number[-1] for s in document.sections if s.kind == "annex" and s.number.startswith("附录")
        }
        out = []
        copied: list[Site] = []
        for i, s in enumerate(document.sections):
            if s.kind != "annex":
                continue
            if s.number.startswith("附录"):
                letter = s.number[-1]
                marker = annex_marker_kind(s.annex_marker)
                if not marker:
                    continue
                out.append(Site(i, ("missing",)))
                if edition_marker(document.drafting_rules, marker) == s.annex_marker:
                    out.append(Site(i, ("edition",)))
                own = [m for m in mentions if m.letter == letter]
                normative = [m for m in own if m.strength == "normative"]
                if marker == "规范性" and normative:
                    out.append(Site(i, ("informative", normative[0].section, normative[0].sentence)))
                informative_only = own and all(m.strength == "informative" for m in own)
                if (
                    marker == "资料性"
                    and not normative
                    and (informative_only or letter in declared)
                    and not _holds_requirements(document, letter)
                ):
                    out.append(
                        Site(i, ("normative", own[0].section if own else "", own[0].sentence if own else ""))
                    )
                continue
            letter = s.number[:1]
            for offset, m in caption_lines(s.text, s.table_lines()):
                if m.group("letter") == letter:
                    start = offset + m.start("letter")
                    old = m.group(0)[m.start("letter") : m.start("n")]  # "A." or "A ."
                    kind, n = m.group("kind"), m.group("n")
                    out.append(Site(i, ("caption", start, old, kind, letter, n)))
                    other = _neighbour_annex(letter, annexes)
                    if other is not None:
                        copied.append(Site(i, ("letter", start, letter, kind, other, n)))
                    break
        # the caption copied from another annex is taken one annex section further than the one that lost
        # its letter: both forms can then be offered by one document
        return spread_per_form([*out, *copied[1:], *copied[:1]], 1)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        mode = site.detail[0]
        if mode == "caption":
            _, start, old, kind, letter, n = site.detail
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, old, ""),)),
                f"附录{letter}中的“{kind}{letter}.{n}”被编为“{kind}{n}”，附录中的{kind}未按“{kind}{letter}.{n}”的形式编号",
                f"将“{kind}{n}”改为“{kind}{letter}.{n}”",
                form=mode,
            )
        if mode == "letter":
            _, start, letter, kind, other, n = site.detail
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, letter, other),)),
                f"附录{letter}中的“{kind}{letter}.{n}”被编为“{kind}{other}.{n}”，所用字母是附录{other}的，"
                f"与所在附录不符",
                f"将“{kind}{other}.{n}”改为“{kind}{letter}.{n}”",
                form=mode,
            )
        marker = section.annex_marker
        annex = section.number
        if mode == "missing":
            return Proposal(
                Edit("modify", site.target, (Replacement("annex_marker", 0, marker, ""),)),
                f"“{annex}”缺少附录性质的标识“（{marker}）”",
                f"在“{annex}”之下标明“（{marker}）”",
                form=mode,
            )
        current = annex_marker_kind(marker)
        if mode == "edition":
            modern = document.drafting_rules == "GB/T 1.1—2020"
            other, written = ("GB/T 1.1—2009", f"{current}附录") if modern else ("GB/T 1.1—2020", current)
            return Proposal(
                Edit("modify", site.target, (Replacement("annex_marker", 0, marker, written),)),
                f"“{annex}”被标为“（{written}）”，这是{other}的写法，"
                f"与本文件按{document.drafting_rules}起草不符（应为“（{marker}）”）",
                f"将“{annex}”的标识改为“（{marker}）”",
                form=mode,
            )
        new = "资料性" if mode == "informative" else "规范性"
        where, sentence = site.detail[1], site.detail[2]
        if mode == "informative":
            why = f"而第{where}条以要求引用该附录（“{quote(sentence)}”）"
        elif where:
            why = f"而正文仅以资料性方式提及该附录（第{where}条“{quote(sentence)}”）"
        else:
            why = "与前言中对该附录性质的说明不一致"
        printed = f"{new}{marker[len(current) :]}"
        return Proposal(
            Edit("modify", site.target, (Replacement("annex_marker", 0, current, new),)),
            f"“{annex}”被标为“（{printed}）”，{why}，附录性质标识错误（应为“（{marker}）”）",
            f"将“{annex}”的标识改为“（{marker}）”",
            form=mode,
        )


def _holds_requirements(document: Document, letter: str) -> bool:
    """Whether the annex states requirements (应 …) in its own text: then nothing shows that its 资料性
    marker is right, and marking it 规范性 would be no detectable error, however the body cites it."""
    return any(
        has_requirement(s.text)
        for s in document.sections
        if s.kind == "annex" and (s.number == f"附录{letter}" or s.number.startswith(f"{letter}."))
    )


def _neighbour_annex(letter: str, annexes: set[str]) -> str | None:
    """The annex a drafter copying a caption from would most likely have taken it from: the one before,
    else the one after (None in a document with one annex)."""
    before, after = chr(ord(letter) - 1), chr(ord(letter) + 1)
    return before if before in annexes else after if after in annexes else None


DEFINITION = TypeDefinition(ERROR_TYPE, AnnexError, checks=(annex_errors,))
