"""Checkers of the structure dimension (STR): mandatory elements, their order and titles, numbering, annexes.

The rules follow GB/T 1.1—2020 (table 3, clauses 7 and 8) and accept what the 2009 generation allowed:
规范性引用文件 and 术语和定义 were optional elements in GB/T 1.1—2009, so their absence is only reported
for 2020 documents (or, for the references chapter, when the body cites documents normatively). HJ
environmental standards keep their own titles (适用范围, 引用标准), and engineering codes (GB 50xxx, with
总则 and 本规范用词说明) follow a different structure altogether and are not checked here.

The helpers at the top (numbers as keys, element ranks, modal-verb and annex-mention classification)
are shared with the STR injectors in `injectors.structure`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import regex

from parsers.model import Document, Section
from validation.linter import Violation, rule

# --- document family and drafting generation ---------------------------------------------------------

_ENGINEERING_ID = regex.compile(r"^GB(?:/T)?\s*5\d{4}\b")


def document_family(document: Document) -> str:
    """ "hj" (environmental standards with their own titles), "engineering" (GB 50xxx codes) or "gbt"."""
    standard_id = document.standard_id.replace(" ", "")
    if standard_id.startswith("HJ"):
        return "hj"
    first = next((s for s in document.sections if s.number == "1"), None)
    if (
        _ENGINEERING_ID.match(document.standard_id)
        or (first is not None and first.title == "总则")
        or any("本规范用词说明" in (s.title + s.text[:200]) for s in document.sections)
    ):
        return "engineering"
    return "gbt"


def generation(document: Document) -> str:
    """ "2020", "2009" or "unknown", from the foreword sentence the parser read."""
    if document.drafting_rules.endswith("2020"):
        return "2020"
    if document.drafting_rules.endswith("2009"):
        return "2009"
    return "unknown"


# --- numbers as keys ----------------------------------------------------------------------------------

_BODY_NUMBER = regex.compile(r"^[1-9]\d*(?:\.\d+)*$")
_ANNEX_NUMBER = regex.compile(r"^[A-Z](?:\.\d+)+$")
_ANNEX_HEADING = regex.compile(r"^附录([A-Z])$")

Key = tuple[int | str, ...]

MAX_CLAUSE_LEVELS = 5  # 条 may be subdivided down to the fifth level (5.1.1.1.1.1, A.1.1.1.1.1)


def number_key(number: str) -> Key | None:
    """ "5.2.1" → (5, 2, 1); "附录B" → ("B",); "B.2" → ("B", 2); 前言, 参考文献 … → None."""
    if _BODY_NUMBER.match(number):
        return tuple(int(p) for p in number.split("."))
    if m := _ANNEX_HEADING.match(number):
        return (m.group(1),)
    if _ANNEX_NUMBER.match(number):
        head, *rest = number.split(".")
        return (head, *(int(p) for p in rest))
    return None


def key_number(key: Key) -> str:
    """The printed number of a key: (5, 2) → "5.2"; ("B",) → "附录B"; ("B", 1) → "B.1"."""
    if len(key) == 1 and isinstance(key[0], str):
        return f"附录{key[0]}"
    return ".".join(str(p) for p in key)


def is_term_entry(section: Section) -> bool:
    """Entries of 术语和定义 (3.1, 3.2 …) are numbered like clauses but are not 条: TER-05 checks them."""
    return section.kind == "terms" and "." in section.number


@dataclass(frozen=True)
class Numbered:
    """A numbered section that takes part in the clause hierarchy."""

    position: int
    key: Key
    section: Section


def numbered_sections(document: Document) -> list[Numbered]:
    return [
        Numbered(i, key, s)
        for i, s in enumerate(document.sections)
        if (key := number_key(s.number)) is not None and not is_term_entry(s)
    ]


def children_of(items: Sequence[Numbered]) -> dict[Key, list[Numbered]]:
    """Immediate children by number (5.2 → 5.2.1, 5.2.2 …), in document order."""
    out: dict[Key, list[Numbered]] = {}
    for item in items:
        if len(item.key) > 1:
            out.setdefault(item.key[:-1], []).append(item)
    return out


# --- elements (GB/T 1.1—2020 table 3) ---------------------------------------------------------------------

ELEMENT_RANK = {
    "foreword": 0,
    "introduction": 1,
    "scope": 2,
    "normative_references": 3,
    "terms": 4,
    "symbols": 5,
    "clause": 5,
    "annex": 6,
    "bibliography": 7,
    "index": 8,
}
ELEMENT_NAME = {
    "foreword": "前言",
    "introduction": "引言",
    "scope": "范围",
    "normative_references": "规范性引用文件",
    "terms": "术语和定义",
    "symbols": "符号和缩略语",
    "clause": "技术内容",
    "annex": "附录",
    "bibliography": "参考文献",
    "index": "索引",
}


def elements(document: Document) -> list[tuple[int, Section]]:
    """The top-level elements in document order: 前言, 引言, chapters, annexes, 参考文献, 索引."""
    return [
        (i, s)
        for i, s in enumerate(document.sections)
        if s.kind in ELEMENT_RANK and "." not in s.number and s.number[:1] not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ]


def element_label(section: Section) -> str:
    """How a message names an element: "第2章“规范性引用文件”", "附录B", "参考文献"."""
    if section.kind == "annex" or not section.number[:1].isdigit():
        return section.number
    return f"第{section.number}章“{section.title}”"


# --- modal verbs and citations ------------------------------------------------------------------------

# 应 as a requirement, not inside 响应 应用 反应 相应 适应 供应 对应 应答 效应 应急 应对 …
REQUIREMENT = regex.compile(
    r"(?<![响反相适供对呼感效顺报照答回理])应(?![用答急对变力激聘邀届征运])|必须|(?<![必无])须(?![知要])|不得"
)
# 宜 / 可 as recommendation or permission, not in 适宜 便宜 事宜 / 可能 可行 可信 可靠 认可 许可 …
SOFT_MODAL = regex.compile(r"(?<![适便事])宜(?![人居])|(?<![认许不])可(?![能行信靠见观视控读逆溯用选])")
SENTENCE = regex.compile(r"[^。；！？|\n]+")
_NOTE_LINE = regex.compile(r"^\s*(注\s*\d*\s*[：:]|示例\s*\d*\s*[：:]?)")
STANDARD_CITATION = regex.compile(r"(?:GB/[TZ]|GB|[A-Z]{2,4}/[TZ]|ISO(?:/IEC)?|IEC)\s*\d+")
_NORMATIVE_LEAD = regex.compile(r"(按照?|依据|根据|符合|满足|遵照|遵循|执行|采用)\s*$")


def sentences(text: str) -> Iterator[tuple[str, bool]]:
    """(sentence, in a 注 or 示例) for every sentence of a section's text."""
    for line in text.split("\n"):
        note = bool(_NOTE_LINE.match(line))
        for m in SENTENCE.finditer(line):
            yield m.group(0), note


def has_requirement(sentence: str) -> bool:
    """A requirement modal (应, 必须, 须, 不得) outside the compounds that only contain 应."""
    return bool(REQUIREMENT.search(sentence))


def cites_documents_normatively(document: Document) -> bool:
    """Whether a body clause cites a standard from a requirement or an instruction (so a list is needed)."""
    for s in document.sections:
        if s.kind not in ("clause", "symbols", "annex") or (
            s.kind == "annex" and not _normative_annex_part(document, s)
        ):
            continue
        for sentence, note in sentences(s.text):
            if note:
                continue
            for m in STANDARD_CITATION.finditer(sentence):
                before = sentence[: m.start()]
                if regex.search(r"参见|参考|参照", before[-6:]):
                    continue
                if has_requirement(sentence) or _NORMATIVE_LEAD.search(before):
                    return True
    return False


def _normative_annex_part(document: Document, section: Section) -> bool:
    letter = section.number[-1] if section.number.startswith("附录") else section.number[:1]
    annex = document.section(f"附录{letter}")
    return annex is not None and annex.annex_marker.startswith("规范性")


# --- annex mentions -----------------------------------------------------------------------------------

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
    if SOFT_MODAL.search(segment) and not requirement:
        return "neutral"
    if requirement or _NORMATIVE_LEAD.search(before):
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
    out: list[AnnexMention] = []
    for s in document.sections:
        if s.kind in ("foreword", "introduction", "bibliography", "index"):
            continue
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
    return out


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


def caption_lines(text: str) -> Iterator[tuple[int, regex.Match[str]]]:
    """Table and figure captions ("表A.1　名称", "图 2 结构"): offset of the line and the match."""
    offset = 0
    for line in text.split("\n"):
        m = CAPTION.match(line)
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


# --- the checkers ---------------------------------------------------------------------------------------

TERMS_TITLE = regex.compile(r"^术语(和|、)定义([、和及与].*)?$")


def _checked(document: Document) -> bool:
    return document_family(document) != "engineering"


@rule("STR-01")
def missing_mandatory_element(document: Document) -> list[Violation]:
    """前言 and 范围 always; 规范性引用文件 and 术语和定义 are mandatory chapters from GB/T 1.1—2020 on."""
    if not _checked(document):
        return []
    kinds = {s.kind for _, s in elements(document)}
    out = []
    if "foreword" not in kinds:
        out.append(Violation("前言", "STR-01", "缺少必备要素“前言”"))
    if "scope" not in kinds:
        out.append(Violation("1", "STR-01", "缺少必备要素“1 范围”"))
    modern = generation(document) == "2020"
    if "normative_references" not in kinds and (modern or cites_documents_normatively(document)):
        reason = "" if modern else "（正文规范性引用了文件）"
        out.append(Violation("2", "STR-01", f"缺少必备要素“2 规范性引用文件”{reason}"))
    if "terms" not in kinds and modern:
        out.append(Violation("3", "STR-01", "缺少必备要素“3 术语和定义”"))
    return out


@rule("STR-02")
def element_order(document: Document) -> list[Violation]:
    """An element that comes after one that GB/T 1.1 table 3 puts later (reported at the late-comer)."""
    if not _checked(document):
        return []
    out = []
    previous: Section | None = None
    for _, s in elements(document):
        if previous is not None and ELEMENT_RANK[s.kind] < ELEMENT_RANK[previous.kind]:
            out.append(
                Violation(
                    s.number,
                    "STR-02",
                    f"要素顺序错误：{element_label(s)}位于{element_label(previous)}之后，"
                    f"“{ELEMENT_NAME[s.kind]}”应在“{ELEMENT_NAME[previous.kind]}”之前",
                )
            )
        previous = s
    return out


def standard_title(section: Section, family: str) -> str | None:
    """The title an element must carry when its own title is not acceptable, else None."""
    title = section.title.replace(" ", "")
    kind = section.kind
    if kind == "foreword" and (section.number != "前言" or title != "前言"):
        return "前言"
    if kind == "introduction" and title != "引言":
        return "引言"
    if kind == "scope" and title != "范围" and not (family == "hj" and title == "适用范围"):
        return "范围"
    if (
        kind == "normative_references"
        and title != "规范性引用文件"
        and not (family == "hj" and title in ("引用标准", "引用文件"))
    ):
        return "规范性引用文件"
    if kind == "terms" and not TERMS_TITLE.match(title):
        return "术语和定义"
    if kind == "bibliography" and (section.number != "参考文献" or title != "参考文献"):
        return "参考文献"
    if kind == "index" and title != "索引":
        return "索引"
    return None


@rule("STR-03")
def element_title(document: Document) -> list[Violation]:
    """Fixed titles of the fixed elements (HJ standards may say 适用范围 and 引用标准)."""
    if not _checked(document):
        return []
    family = document_family(document)
    out = []
    for _, s in elements(document):
        wanted = standard_title(s, family)
        if wanted is not None:
            printed = s.title or s.number
            out.append(Violation(s.number, "STR-03", f"要素标题“{printed}”不规范，应为“{wanted}”"))
    return out


_PAGE_FURNITURE = regex.compile(r"^\s*([IVXⅠ-Ⅻ]+|\d{1,3}|[A-Z]{1,4}(/[TZ])?\s*[\d.]+\s*[—–-]\s*\d{4})\s*$")


def has_hanging_text(section: Section) -> bool:
    """Body text between a heading and its first sub-clause (page furniture from PDFs is ignored)."""
    return any(line.strip() and not _PAGE_FURNITURE.match(line) for line in section.text.split("\n"))


def numbering_violations(document: Document) -> list[Violation]:
    """Sequence, parent, duplicate, depth, lone sub-clause and 悬置段 checks over all numbered sections."""
    items = numbered_sections(document)
    out: list[Violation] = []
    seen: set[Key] = set()
    path: list[Key] = []
    last_child: dict[Key, int] = {}
    last_chapter = 0
    last_annex = ""
    for item in items:
        key, number = item.key, item.section.number
        if key in seen:
            out.append(Violation(number, "STR-04", f"编号“{number}”重复"))
            continue
        seen.add(key)
        if len(key) == 1:
            if isinstance(key[0], int):
                n = key[0]
                if n > last_chapter + 1:
                    missing = "、".join(str(k) for k in range(last_chapter + 1, n))
                    out.append(
                        Violation(
                            number,
                            "STR-04",
                            f"章编号不连续：第{last_chapter}章之后为第{n}章，缺少第{missing}章",
                        )
                    )
                elif n <= last_chapter:
                    out.append(
                        Violation(number, "STR-04", f"章编号顺序错误：第{n}章位于第{last_chapter}章之后")
                    )
                last_chapter = max(last_chapter, n)
            else:
                letter = str(key[0])
                expected = chr(ord(last_annex) + 1) if last_annex else "A"
                if letter != expected and letter > expected:
                    out.append(
                        Violation(number, "STR-04", f"附录编号不连续：应为“附录{expected}”，而为“{number}”")
                    )
                last_annex = max(last_annex, letter)
            path = [key]
            continue
        parent = key[:-1]
        depth = len(key) - 1
        if depth > MAX_CLAUSE_LEVELS:  # 5.1 and A.1 are the first level of 条
            out.append(Violation(number, "STR-04", f"条“{number}”超过了五个层次"))
        if len(path) >= depth and path[depth - 1] == parent:
            n = int(key[-1])
            last = last_child.get(parent, 0)
            if n > last + 1:
                prev = key_number((*parent, last)) if last else key_number(parent)
                gap = key_number((*parent, last + 1))
                where = f"“{prev}”之后" if last else f"“{prev}”下的第一个条"
                out.append(Violation(number, "STR-04", f"条编号不连续：{where}为“{number}”，缺少“{gap}”"))
            elif n <= last:
                out.append(
                    Violation(
                        number, "STR-04", f"条编号顺序错误：“{number}”位于“{key_number((*parent, last))}”之后"
                    )
                )
            last_child[parent] = max(last, n)
            path = [*path[:depth], key]
        else:
            if len(path) >= depth:
                where = f"位于“{key_number(path[depth - 1])}”之下，与其上一层次“{key_number(parent)}”不符"
                path = [*path[:depth], key]
            else:  # a skipped level: 5.1.1.1 right after 5.1
                above = f"（位于“{key_number(path[-1])}”之下）" if path else ""
                where = f"缺少上一层次“{key_number(parent)}”{above}"
                path = [key[: i + 1] for i in range(len(key))]
                last_child[parent] = int(key[-1])  # the missing level is taken as open: 5.1.1.2 follows
            out.append(Violation(number, "STR-04", f"层次错误：条“{number}”{where}"))
    children = children_of(items)
    by_key = {item.key: item for item in items}
    for parent, kids in children.items():
        if len({k.key for k in kids}) == 1 and parent in by_key:
            only = kids[0].section.number
            out.append(
                Violation(
                    only,
                    "STR-04",
                    f"“{key_number(parent)}”下只有一个子条“{only}”：只有一个条的层次不应设条",
                )
            )
    for item in items:
        s = item.section
        if item.key in children and s.kind != "terms" and has_hanging_text(s):
            first = children[item.key][0].section.number
            out.append(
                Violation(s.number, "STR-04", f"“{s.number}”的标题与其第一个子条“{first}”之间有悬置段")
            )
    return out


@rule("STR-04")
def numbering_and_hierarchy(document: Document) -> list[Violation]:
    """GB/T 1.1—2020 7.3: continuous numbers, right parents, no lone sub-clause, ≤ 5 levels, no 悬置段."""
    if not _checked(document):
        return []
    return numbering_violations(document)


@rule("STR-05")
def annex_errors(document: Document) -> list[Violation]:
    """Annex markers (missing, or contradicted by how the body refers to the annex) and annex captions."""
    if not _checked(document):
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
        letter = annex_letter_of(s)
        if letter is None:
            continue
        for _, m in caption_lines(s.text):
            if m.group("letter") is None:
                label = m.group("kind") + m.group("n")
                wanted = f"{m.group('kind')}{letter}.{m.group('n')}"
                out.append(
                    Violation(
                        s.number, "STR-05", f"附录{letter}中的“{label}”编号不规范，应为“{wanted}”这样的形式"
                    )
                )
    return out
