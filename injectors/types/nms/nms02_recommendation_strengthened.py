"""NMS-02 推荐或允许被强化 (Recommendation or permission strengthened)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import regex

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    ErrorType,
    Failure,
    InjectionContext,
    Injector,
    LLMSpec,
    PromptSpec,
    Proposal,
    RewriteCase,
    Site,
    TypeDefinition,
    Violation,
    modal_shift,
    no_material,
)
from injectors.language.modals import RECOMMENDATION, REQUIREMENT, clause_span, modal_verbs
from injectors.types.nms.analysis import modal_diff, place
from injectors.types.nms.editing import (
    BodyModal,
    Evidenced,
    evidenced_sites,
    modify,
    no_evidence_reason,
    quote,
    rewrite,
)
from injectors.types.nms.evidence import named
from injectors.types.nms.evidence_finding import recommendation_evidence

ERROR_TYPE = ErrorType(
    "NMS-02",
    "NMS",
    "推荐或允许被强化",
    "Recommendation or permission strengthened",
    "GB/T 1.1—2020 9.1 附录C",
    "GB/T 1.1—2009 7.1",
    "R+L",
    "D∆ / J",
    ("E-T-02",),
)


def recommendation_strengthened(original: Document, corrupted: Document) -> Iterable[Violation]:
    """宜 → 应, 可 → 应, 不宜 → 不应 at the same place of the same section."""
    return list(modal_diff(original, corrupted, weaker=False))


# --- NMS-02 -------------------------------------------------------------------------------------------
_NO_STRENGTHEN_BEFORE = ("均", "皆", "都", "方", "才", "即", "尚", "也", "亦", "还", "多")  # 最多可
_PURPOSE = regex.compile(r"使(?!用)|确保|保证|保障|以便|从而")  # 使 of 使用 is no purpose


class RecommendationStrengthened(Injector):
    """宜 → 应, 不宜 → 不应, 可 / 可以 → 应 in a body clause: an option becomes an obligation. Not after
    均/方/才 ("……均可", "审批后方可……"), where 应 would not read as a sentence.

    Evidence rule (`recommendation_evidence`): only where the document shows the option — its own
    sentence offers an alternative, foresees the exception or hedges it, a later sentence presupposes it
    may not be taken, a sibling binds the same actor to the same object with 宜/可, a later grade restates
    it, a default stands for what it permits to set, the document's explanation of the clause (条文说明)
    recommends the same act on the same object, or the document marks the clause's object optional
    (a table row naming it in a 必选/可选, 是否必填 or 约束 column: "可选", "O", "否"; "……为可选项").
    A sibling with another subject or object is no evidence ("下级平台应…，上级平台可以…" is a
    legitimate pair). Never in a table cell or a fixed value (`editing.fixed_value`: a 必选/可选
    column)."""

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "4f8ae3f2fcf7d210"
    forms = ("宜→应", "可→应", "可以→应", "不宜→不应")

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        return evidenced_sites(document, _strengthenable, recommendation_evidence)

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        return no_evidence_reason(document, _strengthenable)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        chosen: Evidenced = rng.choice(site.detail)
        found = chosen.found
        modal = found.modal
        old = modal.word[1:] if modal.negative else modal.word  # 宜, 可, 可以
        at = modal.start + 1 if modal.negative else modal.start
        line, _ = rewrite(found, old, "应", at=at)
        if not any(m.start == modal.start and m.force == REQUIREMENT for m in modal_verbs(line)):
            return None
        new_word = "不应" if modal.negative else "应"
        number = document.sections[site.target].number
        kind = "推荐" if modal.force == RECOMMENDATION else "允许"
        old_words = quote(found.line, modal.start, modal.end)
        new_words = quote(line, modal.start, modal.start + len(new_word))
        return Proposal(
            modify(site.target, found, at, old, "应"),
            f"{place(number)}将{kind}“{old_words}”强化为要求“{new_words}”；{named(chosen.evidence[0], kind)}",
            f"将“{new_word}”改回“{modal.word}”",
            form=f"{modal.word}→{new_word}",
        )


def _strengthenable(found: BodyModal) -> bool:
    modal = found.modal
    if modal.word not in ("宜", "不宜", "可", "可以"):
        return False
    before = found.line[modal.start - 1 : modal.start] if modal.start else ""
    after = found.line[modal.end : modal.end + 1]
    if after == "对" or regex.search(r"是指|表示|意味", found.line[: modal.start]):
        return False  # 可以对 → 应对 (cope with); "……是指一个知识类可以包含": explains, provides nothing
    a, _ = clause_span(found.line, modal.start, modal.end)
    if _PURPOSE.search(found.line[a : modal.start]) or after == "有":
        return False  # "使数据可以在同一平台使用", "水位可以有正负值": what can happen, no permission
    return before not in _NO_STRENGTHEN_BEFORE and after not in ("不", "")


def strengthened(case: RewriteCase, answer: Answer) -> Failure | None:
    return modal_shift(case, answer, weaker=False)


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        no_material,
        lambda m: (
            "把本条中一处推荐或允许（“宜”“可”“可以”“不宜”）改写为要求（“应”“不应”），使可选做法变成必须满足的要求；"
            "只改能愿动词及必要的相邻字词。"
        ),
        works_without_template=True,
    ),
    budget=Budget(20, 0.25, 0.8, 1.25),
    condition=strengthened,
)


DEFINITION = TypeDefinition(
    ERROR_TYPE, RecommendationStrengthened, diff_checks=(recommendation_strengthened,), llm=LLM
)
