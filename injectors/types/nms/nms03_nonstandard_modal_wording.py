"""NMS-03 能愿动词不规范 (Non-standard modal wording)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

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
from injectors.language.modals import COMPARATIVES, lexicon, next_word_tag, nonstandard_modals, snippet
from injectors.types.nms.analysis import generation, is_table_row, lintable, place, text_lines
from injectors.types.nms.editing import BodyModal, flagged, modal_sites, modify, quote, rewrite

ERROR_TYPE = ErrorType(
    "NMS-03",
    "NMS",
    "能愿动词不规范",
    "Non-standard modal wording",
    "GB/T 1.1—2020 附录C 表C.1",
    "GB/T 1.1—2009 7.1",
    "R",
    "D",
    ("E-T-04",),
)


ENGINEERING_WORDS = frozenset({"必须", "严禁", "不得"})  # legitimate where a 用词说明 defines them


ENGINEERING_CODE = "用词说明"


def is_engineering_code(document: Document) -> bool:
    """Engineering codes (GB 50xxx) define 必须/严禁/不得 in a 本规范用词说明 (every lint asks: a plain
    search, in a heading or a text's first 2,000 characters)."""
    return any(
        ENGINEERING_CODE in s.title or s.text.find(ENGINEERING_CODE, 0, 2000) >= 0 for s in document.sections
    )


def _facts(document: Document) -> tuple[bool, bool]:
    """What the check reads outside a section: 不得 allowed (2009), 必须/严禁/不得 defined (engineering)."""
    return generation(document) == "2009", is_engineering_code(document)


def _section_wording(facts: tuple[bool, bool], section: Section) -> Iterator[Violation]:
    allow_bude, engineering = facts
    if not lintable(section):
        return
    for _, line in text_lines(section.text):
        if is_table_row(line):
            continue
        for hit in nonstandard_modals(line):
            if hit.word == "不得" and allow_bude:
                continue
            if engineering and hit.word in ENGINEERING_WORDS:
                continue
            standard = "不应" if hit.word in ("不得", "不可", "禁止", "严禁") else "应"
            yield Violation(
                section.number,
                "NMS-03",
                f"{place(section.number)}使用了非标准的能愿动词“{hit.word}”"
                f"（“{snippet(line, hit.start, hit.end)}”），要求应使用“{standard}”表述",
            )


# 必须, 须, 应当, 务必, 不得 (2020 only), 不可, 禁止, 严禁 where 应 / 不应 is the standard form.
nonstandard_modal_wording = SectionCheck(_facts, _section_wording)


# --- NMS-03 -------------------------------------------------------------------------------------------
_NOT_AN_ACTION = frozenset(
    lexicon("有 是 为 出现 发生 产生 存在 影响 改变 重复 含有 包含 带有 低 高") + lexicon("具有 具备")
)


class NonstandardModal(Injector):
    """应 → 必须 / 应当 / 须 / 务必, 不应 → 不得 / 禁止 / 严禁 / 不可: forms GB/T 1.1—2020 table C.1 does not
    allow. 不得 only in 2020-style documents (2009 allowed it); 禁止 / 严禁 only before an action verb
    ("禁止以明文方式传输", not "禁止大于1 s"); 务必 only before a verb."""

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "59eabd9fbfec8703"
    forms = ("必须", "应当", "须", "务必", "不可", "不得", "禁止", "严禁")
    alternatives = 3

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        skip = flagged(document, nonstandard_modal_wording)
        return modal_sites(document, lambda m: m.modal.word in ("应", "不应"), skip)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        found: BodyModal = rng.choice(site.detail)
        modal = found.modal
        options = _nonstandard_options(document, found)
        if not options:
            return None
        new = rng.choice(options)
        number = document.sections[site.target].number
        old_words = quote(found.line, modal.start, modal.end)
        line, _ = rewrite(found, modal.word, new)
        new_words = quote(line, modal.start, modal.start + len(new))
        return Proposal(
            modify(site.target, found, modal.start, modal.word, new),
            f"{place(number)}将“{old_words}”写作“{new_words}”，“{new}”不是GB/T 1.1规定的能愿动词",
            f"将“{new}”改为“{modal.word}”",
            form=new,
        )


def _nonstandard_options(document: Document, found: BodyModal) -> list[str]:
    modal = found.modal
    line = found.line
    rest = line[modal.end :]
    word, tag = next_word_tag(line, modal.end)
    action = tag[:1] == "v" and word not in _NOT_AN_ACTION and not COMPARATIVES.match(rest)
    if modal.negative:
        options = ["不可"]
        if generation(document) == "2020":
            options.append("不得")
        if action:
            options += ["禁止", "严禁"]
    else:
        options = ["必须", "应当", "须"]
        if action:
            options.append("务必")
    if is_engineering_code(document):
        options = [o for o in options if o not in ENGINEERING_WORDS]
    valid = []
    for option in options:
        new_line, start = rewrite(found, modal.word, option)
        if any(h.start == start and h.word == option for h in nonstandard_modals(new_line)):
            valid.append(option)
    return valid


DEFINITION = TypeDefinition(ERROR_TYPE, NonstandardModal, checks=(nonstandard_modal_wording,))
