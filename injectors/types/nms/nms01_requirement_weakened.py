"""NMS-01 要求被弱化 (Requirement weakened)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from injectors.base import Injector, Proposal, Site
from injectors.checking import Violation
from injectors.context import InjectionContext
from injectors.language.modals import (
    KE_COMPOUND_NEXT,
    PERMISSION,
    RECOMMENDATION,
    YI_COMPOUND_NEXT,
    modal_verbs,
)
from injectors.llm.constraints import (
    Answer,
    Budget,
    Failure,
    RewriteCase,
    modal_shift,
)
from injectors.llm.prompts import (
    PromptSpec,
    no_material,
)
from injectors.llm.spec import LLMSpec
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from injectors.types.nms.analysis import modal_diff, place
from injectors.types.nms.editing import BodyModal, modal_sites, modify, quote, rewrite
from parsers.model import Document

ERROR_TYPE = ErrorType(
    "NMS-01",
    "NMS",
    "要求被弱化",
    "Requirement weakened",
    "GB/T 1.1—2020 9.1 附录C",
    "GB/T 1.1—2009 7.1",
    "R+L",
    "D∆ / J",
    (
        "E-T-01",
        "E-T-03",
        "E-T-06",
        "E-T-07",
    ),
)


def requirement_weakened(original: Document, corrupted: Document) -> Iterable[Violation]:
    """应 → 宜 / 可, 不应 → 不宜 at the same place of the same section."""
    return list(modal_diff(original, corrupted, weaker=True))


# --- NMS-01 -------------------------------------------------------------------------------------------
class RequirementWeakened(Injector):
    """应 → 宜 / 可, 不应 → 不宜 in a body requirement: the clause reads as a mere recommendation or
    permission. Only clean replacements: never 应能 → 可能 or 应用-like compounds (the diff rule reads
    the new word as the intended modal verb)."""

    error_type = ERROR_TYPE.id

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        return modal_sites(document, lambda m: m.modal.word in ("应", "不应"))

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        found: BodyModal = rng.choice(site.detail)
        modal = found.modal
        ying = modal.end - 1  # position of 应 in the line
        options = _weaker(found.line, ying, modal.negative)
        if not options:
            return None
        new_char = rng.choice(options)
        line, _ = rewrite(found, "应", new_char, at=ying)
        old_words = quote(found.line, modal.start, modal.end)
        new_words = quote(line, modal.start, modal.end)
        number = document.sections[site.target].number
        force = "推荐" if new_char == "宜" else "允许"
        return Proposal(
            modify(site.target, found, ying, "应", new_char),
            f"{place(number)}将要求“{old_words}”弱化为{force}“{new_words}”，该条款是必须满足的要求",
            f"将“{modal.word[:-1]}{new_char}”改回“{modal.word}”，恢复为要求型条款",
        )


def _weaker(line: str, ying: int, negative: bool) -> list[str]:
    """Replacements of 应 that the lexicon reads as 宜 / 可 at the same place."""
    after = line[ying + 1 : ying + 3]
    options = []
    if not after.startswith(YI_COMPOUND_NEXT):
        options.append("宜")
    if not negative and after[:1] not in KE_COMPOUND_NEXT and after[:1] not in ("以", "用", "行", "不", "该"):
        options.append("可")
    wanted = {"宜": RECOMMENDATION, "可": PERMISSION}
    start = ying - 1 if negative else ying
    return [
        c
        for c in options
        if any(
            m.start == start and m.force == wanted[c] for m in modal_verbs(line[:ying] + c + line[ying + 1 :])
        )
    ]


def weakened(case: RewriteCase, answer: Answer) -> Failure | None:
    return modal_shift(case, answer, weaker=True)


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        no_material,
        lambda m: (
            "把本条中一处必须满足的要求（“应”或“不应”）改写为推荐或允许（“宜”“可”“不宜”），使要求被弱化；"
            "只改能愿动词及必要的相邻字词。"
        ),
        works_without_template=True,
    ),
    budget=Budget(20, 0.25, 0.8, 1.25),
    condition=weakened,
)


DEFINITION = TypeDefinition(ERROR_TYPE, RequirementWeakened, diff_checks=(requirement_weakened,), llm=LLM)
