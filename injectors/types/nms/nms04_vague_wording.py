"""NMS-04 模糊或含糊表述 (Vague or hedged wording)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import regex

from injectors.authoring import (
    Document,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Section,
    SectionCheck,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.language.modals import (
    SHIDANG_NEXT,
    YIBAN_NEXT,
    describes,
    next_word_tag,
    snippet,
    vague_words,
)
from injectors.types.nms.analysis import annex_letter_of, body_lines, informative_annexes, lintable, place
from injectors.types.nms.editing import BodyModal, flagged, modal_sites, modify, quote, rewrite

ERROR_TYPE = ErrorType(
    "NMS-04",
    "NMS",
    "模糊或含糊表述",
    "Vague or hedged wording",
    "GB/T 1.1—2020 9.1",
    "GB/T 1.1—2009 7.1",
    "R",
    "D",
    ("E-T-05",),
)


def _section_vague(informative: frozenset[str], section: Section) -> Iterator[Violation]:
    if not lintable(section) or annex_letter_of(section) in informative:
        return
    for _, line in body_lines(section):
        for hit in vague_words(line):
            yield Violation(
                section.number,
                "NMS-04",
                f"{place(section.number)}使用了含糊表述“{hit.word}”"
                f"（“{snippet(line, hit.start, hit.end)}”），条款应使用“应”“宜”或“可”明确表述",
            )


# 尽量, 最好, 一般, 原则上, 适当 where a clause should state 应 / 宜 / 可 (not in informative annexes).
vague_wording = SectionCheck(informative_annexes, _section_vague)


# The taxonomy's vague forms: the form is the error, so each is drawn equally often where it fits.
FORMS = ("尽量", "最好", "一般", "原则上", "适当")


# --- NMS-04 -------------------------------------------------------------------------------------------
class VagueWording(Injector):
    """应 / 宜 / 可 → 尽量, 最好, 一般, 原则上, 适当 (不应 → 一般不 …): the clause no longer says whether it
    is a requirement, a recommendation or a permission. Each word only where it reads naturally: 一般 before
    采用/设置/不超过…, 适当 before 增加/缩短/调整…, 尽量/最好 before an action. Never in a table cell or a
    fixed value (`editing.fixed_value`: 可选 of a 必选/可选 column is a value word, not a provision)."""

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "c86c3679e981dc6a"
    forms = FORMS
    alternatives = 3

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        skip = flagged(document, vague_wording)
        wanted = ("应", "不应", "宜", "不宜", "可")
        # a 可 that describes ("可被感知", "可分为三层") permits nothing: blurring it blurs no provision; nor
        # does one that says what a thing may hold ("可同时拥有不同代码", "还可包括但不限于"): "原则上拥有",
        # "尽量包括" read as nobody writes
        found = list(
            modal_sites(
                document,
                lambda m: (
                    m.modal.word in wanted
                    and not describes(m.line, m.modal)
                    and not _HOLDING.match(m.line[m.modal.end :])
                ),
                skip,
            )
        )
        # 原则上 fits almost any clause, the other forms only some: where the document has clauses that take
        # another form, only those are offered (原则上 fits them too, and is drawn as often as the others)
        varied = [s for s in found if any(_other_forms(m) for m in s.detail)]
        return varied or found

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        chosen = _choose(site.detail, rng)
        if chosen is None:
            return None
        found, new = chosen
        modal = found.modal
        number = document.sections[site.target].number
        old_words = quote(found.line, modal.start, modal.end)
        line, _ = rewrite(found, modal.word, new)
        word = new[:-1] if modal.negative else new
        new_words = quote(line, modal.start, modal.start + len(new))
        return Proposal(
            modify(site.target, found, modal.start, modal.word, new),
            f"{place(number)}将“{old_words}”改为含糊表述“{new_words}”，“{word}”不是能愿动词，条款的性质不明确",
            f"删除“{word}”，按原意用“{modal.word}”明确表述",
            form=word,
        )


def _choose(modals: tuple[BodyModal, ...], rng: random.Random) -> tuple[BodyModal, str] | None:
    """A form drawn evenly from the taxonomy's list and a modal of the clause where it fits; where it fits
    none, another form that does, 原则上 (which fits almost anywhere) only when nothing else does, so that
    no form dominates."""
    wanted = rng.choice(FORMS)
    fitting: dict[str, list[tuple[BodyModal, str]]] = {}
    for found in modals:
        for option in _vague_options(found):
            fitting.setdefault(option.removesuffix("不"), []).append((found, option))
    if not fitting:
        return None
    if wanted not in fitting:
        others = sorted(f for f in fitting if f != "原则上")
        wanted = rng.choice(others) if others else "原则上"
    options = fitting[wanted]
    if wanted == "原则上":
        # "，原则上" after a comma in most instances is a stock phrase; where the clause offers
        # a modal inside a sentence part, the hedge goes there, else another form where one fits
        inside = [o for o in options if not _after_punctuation(o[0])]
        others = sorted(f for f in fitting if f != "原则上")
        if not inside and others:
            return rng.choice(fitting[rng.choice(others)])
        if not inside and rng.random() < 0.6:
            return None  # most such clauses are passed over for another clause (the base tries the next)
        options = inside or options
    return rng.choice(options)


def _other_forms(found: BodyModal) -> bool:
    return any(option.removesuffix("不") != "原则上" for option in _vague_options(found))


def _after_punctuation(found: BodyModal) -> bool:
    """Whether the modal opens a sentence part (follows a comma, 。 or the line start)."""
    before = found.line[: found.modal.start].rstrip()
    return not before or before[-1] in "，,；;。：:、"


_CHOICE = regex.compile(r"^[^，,；;。]*?(?:或|或者)")
_HOLDING = regex.compile(r"^(?:同时|也|还|均|都|以)?(?:有|[^，,；;。、]{0,12}?(?:包括|包含|拥有|具有|含有))")


def _offers_a_choice(found: BodyModal) -> bool:
    """A permission between alternatives ("可自动校准或手工校准"): urged with 尽量/最好, both alternatives
    would be urged at once, a sentence no drafter writes."""
    return found.modal.word in ("可", "可以") and bool(_CHOICE.match(found.line[found.modal.end :]))


def _vague_options(found: BodyModal) -> list[str]:
    modal = found.modal
    line = found.line
    rest = line[modal.end :]
    word, tag = next_word_tag(line, modal.end)
    candidates = ["原则上"]
    verb = tag[:1] == "v" and word not in ("为", "是", "有", "能", "能够", "具有")
    if verb and not _offers_a_choice(found):
        candidates += ["尽量", "最好"]
    check = ("不" + rest) if modal.negative else rest
    if YIBAN_NEXT.match(check):
        candidates.append("一般")
    if not modal.negative and SHIDANG_NEXT.match(rest):
        candidates.append("适当")
    valid = []
    for word_ in candidates:
        new = word_ + "不" if modal.negative else word_
        new_line, start = rewrite(found, modal.word, new)
        if any(h.start == start and h.word == word_ for h in vague_words(new_line)):
            valid.append(new)
    return valid


DEFINITION = TypeDefinition(ERROR_TYPE, VagueWording, checks=(vague_wording,))
