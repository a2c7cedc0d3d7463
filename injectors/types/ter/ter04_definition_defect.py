"""TER-04 定义缺陷 (Definition defect)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import regex

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    LLMSpec,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Site,
    TypeDefinition,
    Violation,
    failure,
)
from injectors.language.quotes import opening
from injectors.language.terms import defined_terms, definition_defects, first_sentence
from injectors.types.ter.editing import TerminologyInjector, clean_term, provision_point

ERROR_TYPE = ErrorType(
    "TER-04",
    "TER",
    "定义缺陷",
    "Definition defect",
    "GB/T 1.1—2020 8.7",
    "GB/T 1.1—2009 6.3.2",
    "R/L",
    "D / J",
    ("E-TM-03",),
)


def definition_defect(document: Document) -> Iterator[Violation]:
    """A definition must be able to replace its term in a sentence: no opener, no provision, no term."""
    for entry in defined_terms(document):
        for message in definition_defects(entry):
            yield Violation(entry.number, "TER-04", message)


# ---------------------------------------------------------------------------------------------------
# TER-04 Definition defect
# ---------------------------------------------------------------------------------------------------
OPENERS = ("是指", "指", "是")


# Ways a drafter writes the term into its own definition, before ("传感终端是……") or after it
# ("……，称为传感终端"); drawn from several so that no one phrase marks the type.
TERM_FIRST = ("{}是", "{}即为", "{}是一种")


TERM_LAST = ("，称为{}", "，简称{}", "，即{}", "，通称{}", "，以下称{}")


_MEASURED = regex.compile(r"^(?:一|某|各|每|多|若干)[个种类组项套台件次条份]")


# A definition that already ends by naming something ("……，本文件简称数采仪。") takes no second name: "……，
# 简称数采仪，简称{术语}" is a slip no drafter makes, and the two names contradict each other.
_NAMED = regex.compile(r"简称|称为|以下称|通称|又称|俗称")


class DefinitionDefect(TerminologyInjector):
    """TER-04: a definition that can no longer stand in for its term.

    Deterministic variants the checker sees: an opening "是指 / 指 / 是", the term written before the
    definition ("传感终端是……") or after it ("……，称为传感终端。"), or a provision slipped in before a
    descriptive verb ("并具有本地缓存功能" → "并应具有本地缓存功能"). NMS-05 leaves definitions to this type.
    The judgement variant (a rewritten definition that no longer substitutes for the term) is not built:
    TER-04 counts as deterministic, so the base verification and the planner would drop it.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "438fc0b129504eaa"
    forms = (
        *OPENERS,
        *(f.format("{术语}") for f in (*TERM_FIRST, *TERM_LAST)),
        "定义中应",
        "定义中宜",
    )

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        for entry in defined_terms(document):
            text = document.sections[entry.position].text
            if entry.line_start < 0 or not regex.match(r"\p{Han}", entry.definition):
                continue
            if entry.definition.startswith(OPENERS):
                # "指导入……的水样" opens with 指 although the word cutter reads 指导: a reader sees the
                # opener already there, and one more would stutter ("是指指导入……")
                continue
            start = text.find(entry.definition, entry.line_start)
            if start >= 0:
                yield Site(entry.position, (entry, start))

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        entry, start = site.detail
        variants = ["opener"]
        if clean_term(entry.term):
            variants.append("term-first")
            sentence = first_sentence(entry.definition)
            if "。" in sentence and not _NAMED.search(sentence):
                variants.append("term-last")
        verb = provision_point(entry.definition)
        if verb is not None:
            variants.append("provision")
        variant = rng.choice(variants)
        definition = entry.definition
        head = opening(definition, 5)  # whole words and numbers, "……" when cut
        if variant == "opener":
            opener = rng.choice(OPENERS)
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, "", opener),)),
                error=f"术语“{entry.term}”的定义以“{opener}”开头（“{opener}{head}”），不能直接替换术语",
                fix=f"删去定义开头的“{opener}”",
                form=opener,
            )
        if variant == "term-first":
            # "是一种" before a definition that opens with its own measure word ("一个名称所……") doubles it
            fitting = [f for f in TERM_FIRST if not (f.endswith("一种") and _MEASURED.match(definition))]
            added = rng.choice(fitting).format(entry.term)
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start, "", added),)),
                error=f"术语“{entry.term}”的定义以被定义的术语开头（“{added}{head}”），定义中重复了术语",
                fix=f"删去定义开头的“{added}”，使定义能直接替换术语",
                form=added.replace(entry.term, "{术语}"),
            )
        if variant == "provision":
            assert verb is not None
            at, word = verb
            modal = rng.choice(("应", "应", "宜"))
            return Proposal(
                Edit("modify", site.target, (Replacement("text", start + at, "", modal),)),
                error=f"术语“{entry.term}”的定义中写入了能愿动词“{modal}”（“{modal}{word}……”），定义不应包含要求",
                fix=f"删去定义中的“{modal}”，定义只陈述概念",
                form=f"定义中{modal}",
            )
        end = start + first_sentence(definition).index("。")
        added = rng.choice(TERM_LAST).format(entry.term)
        return Proposal(
            Edit("modify", site.target, (Replacement("text", end, "", added),)),
            error=f"术语“{entry.term}”的定义在句末重复了被定义的术语（“……{added}。”）",
            fix=f"删去定义中的“{added}”",
            form=added.replace(entry.term, "{术语}"),
        )


def _defined_entry(i: PromptInput) -> dict[str, str] | None:
    from injectors.language.terms import defined_terms

    entry = next((e for e in defined_terms(i.document) if e.position == i.site.target), None)
    return {"term": entry.term} if entry and entry.definition else None


def _ter04(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.language.terms import defined_terms, definition_defects

    rewritten = case.with_text(answer.rewritten_text)
    entry = next((e for e in defined_terms(rewritten) if e.position == case.position), None)
    if entry is not None and definition_defects(entry):
        return None
    return failure(
        "condition",
        "定义中没有出现可检出的缺陷（以“是指/指”开头或重复术语）",
        "no detectable definition defect",
    )


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _defined_entry,
        lambda m: (
            f"改写术语“{m['term']}”的定义，引入一处定义缺陷：以“是指”或“指”开头，或在定义中重复术语“{m['term']}”，"
            "使定义不能直接替换术语。不要加入“应”“宜”“可”，不要改动注和来源。"
        ),
        works_without_template=True,
    ),
    budget=Budget(40, 0.6, 0.7, 2.0),
    condition=_ter04,
)


DEFINITION = TypeDefinition(ERROR_TYPE, DefinitionDefect, checks=(definition_defect,), llm=LLM)
