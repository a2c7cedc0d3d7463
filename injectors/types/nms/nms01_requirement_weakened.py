"""NMS-01 要求被弱化 (Requirement weakened)."""

from __future__ import annotations

import random
from collections.abc import Iterable

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
from injectors.language.modals import (
    KE_COMPOUND_NEXT,
    PERMISSION,
    RECOMMENDATION,
    YI_COMPOUND_NEXT,
    lexicon,
    modal_verbs,
    next_word_tag,
)
from injectors.types.nms.analysis import modal_diff, place
from injectors.types.nms.editing import (
    BodyModal,
    evidenced_sites,
    modify,
    no_evidence_reason,
    quote,
    rewrite,
)
from injectors.types.nms.evidence import LIMIT, named
from injectors.types.nms.evidence_finding import requirement_evidence

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
    the new word as the intended modal verb). Never in a table cell or a fixed value (`editing.fixed_value`).

    Evidence rule (`requirement_evidence`): only where the document shows that this very clause is
    a requirement — the same actor bound to the same object as a requirement elsewhere (the same provision
    stated earlier or at a lower grade, a lead-in "应符合下列要求" binding every item, a sibling with the same
    actor and object), the inspection rules naming the clause or its sub-chapter, a test of the clause
    itself (not of its sub-chapter, not as a test's conditions: "在7.1的试验条件下"), its limit value,
    its safety purpose, or a table marking the clause's object mandatory (必选, M, 是否必填 "是").
    A sibling with another subject or object is none: "a) 柜门应…；b) 显示屏宜…" is a plausible list."""

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "0222672a4e4a3521"
    forms = ("应→宜", "应→可", "应→可以", "应能→可", "应能→可以", "不应→不宜")
    alternatives = 4

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        """Clauses whose weakening the document reveals; where it offers enough of them, those revealed by
        more than a number (inspection rules, tests, safety, siblings), so that NMS-01 is not "a clause
        with a limit value" to a pattern-finder."""
        sites = list(evidenced_sites(document, _requirement, requirement_evidence))
        beyond = [
            Site(s.target, tuple(e for e in s.detail if any(x.kind != LIMIT for x in e.evidence)))
            for s in sites
        ]
        beyond = [s for s in beyond if s.detail]
        return beyond if len(beyond) >= 2 else sites

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        return no_evidence_reason(document, _requirement)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        plain = [e for e in site.detail if not e.found.modal.negative]
        # 不应 → 不宜 on every limit would make "不宜大于" a pattern: 应 first where the clause has one
        pool = plain if plain and rng.random() < 0.7 else list(site.detail)
        options = [
            (e, old, new)
            for e in pool
            for old, new in _weaker(e.found.line, e.found.modal.end - 1, e.found.modal.negative)
        ]
        if not options:
            return None
        # the weaker word first, evenly among those that fit somewhere in the clause: 宜 fits almost every
        # requirement, 可 / 可以 fewer, and drawing the modal first would make "应→宜" the type's mark
        wanted = rng.choice(sorted({new for _, _, new in options}))
        chosen, old, new = rng.choice([o for o in options if o[2] == wanted])
        found = chosen.found
        modal = found.modal
        ying = modal.end - 1  # position of 应 in the line
        line, _ = rewrite(found, old, new, at=ying)
        start = ying - 1 if modal.negative else ying
        old_words = quote(found.line, modal.start, modal.end)
        new_words = quote(line, start, start + len(new) + (1 if modal.negative else 0))
        number = document.sections[site.target].number
        force = "推荐" if new == "宜" else "允许"
        return Proposal(
            modify(site.target, found, ying, old, new),
            f"{place(number)}将要求“{old_words}”弱化为{force}“{new_words}”；"
            + named(chosen.evidence[0], "要求"),
            f"将“{modal.word[:-1]}{new}”改回“{modal.word[:-1]}{old}”，恢复为要求型条款",
            form=f"{modal.word[:-1]}{old}→{modal.word[:-1]}{new}",
        )


def _requirement(found: BodyModal) -> bool:
    return found.modal.word in ("应", "不应")


# 可 reads badly before these: "可符合表1的规定", "可为", "可满足"
# nor before a comparison: "可以等于或优于0.5%", "可小于1 s" state no permission
_NOT_AFTER_KE = (
    *("符合", "满足", "为", "是", "遵守", "遵循", "按", "按照", "不", "以", "用", "行", "该"),
    *("等于", "优于", "大于", "小于", "低于", "高于", "超过", "达到"),
)


# states a requirement asserts ("功能应正常", "标志应清晰"): 宜正常, 可清晰 are not Chinese
_STATES = frozenset(
    lexicon(
        "正常 一致 完好 完整 清晰 平整 牢固 准确 齐全 光滑 整洁"
        " 干燥 清洁 良好 无 有效 稳定 灵活 合理 相同 统一 匹配"
    )
)


def _weaker(line: str, ying: int, negative: bool) -> list[tuple[str, str]]:
    """(old, new) replacements at 应 that the lexicon reads as 宜 / 可 / 可以 at the same place: 应 → 宜,
    应 → 可 / 可以, 应能 → 可 / 可以 ("应能设置" → "可设置"), 不应 → 不宜."""
    after = line[ying + 1 : ying + 3]
    options: list[tuple[str, str]] = []
    word, tag = next_word_tag(line, ying + 1)
    if tag.startswith("a") or word in _STATES:
        return options  # "功能应正常": 宜正常, 可正常 are not Chinese
    if not after.startswith(YI_COMPOUND_NEXT) and not after.startswith("能"):
        options.append(("应", "宜"))
    if not negative:
        if after.startswith("能") and not after.startswith("能够") and after[1:2] not in KE_COMPOUND_NEXT:
            options += [("应能", "可"), ("应能", "可以")]
        elif after[:1] not in KE_COMPOUND_NEXT and not after.startswith(_NOT_AFTER_KE):
            options += [("应", "可"), ("应", "可以")]
    wanted = {"宜": RECOMMENDATION, "可": PERMISSION, "可以": PERMISSION}
    start = ying - 1 if negative else ying
    return [
        (old, new)
        for old, new in options
        if any(
            m.start == start and m.force == wanted[new] and m.word.endswith(new)
            for m in modal_verbs(line[:ying] + new + line[ying + len(old) :])
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
