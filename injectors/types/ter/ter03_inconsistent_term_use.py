"""TER-03 术语使用不一致 (Inconsistent term use)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    LLMSpec,
    Located,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Section,
    Site,
    TypeDefinition,
    failure,
    term_still_defined,
    terms_context,
    text_replacement,
)
from injectors.language.terms import JOIN, compact_key, defined_terms, document_text, occurrences
from injectors.types.ter.editing import (
    MIN_USES,
    NEAR_SYNONYMS,
    TerminologyInjector,
    body_counts,
    chapter_name,
    near_synonyms,
)

ERROR_TYPE = ErrorType(
    "TER-03",
    "TER",
    "术语使用不一致",
    "Inconsistent term use",
    "GB/T 1.1—2020 8.7",
    "GB/T 1.1—2009 6.3.2",
    "R+L",
    "S",
    ("E-TM-04",),
)


@dataclass(frozen=True)
class Substitution:
    start: int
    form: str
    synonyms: tuple[str, ...]
    term: str


def free_uses(form: str, whole: str, terms: set[str]) -> int:
    """How often the document writes `form` on its own: what is left once the defined terms (and their
    variants) that contain it are taken out, longest first."""
    key = compact_key(form)
    rest = whole
    for term in sorted((compact_key(t) for t in terms), key=len, reverse=True):
        if key in term:
            rest = rest.replace(term, "\x00")
    return rest.count(key)


def own_usage(form: str, whole: str, terms: set[str]) -> bool:
    """Whether the document writes `form` on its own somewhere (see `free_uses`)."""
    return free_uses(form, whole, terms) > 0


def variant_written_once(
    instance: Located, final: Document, section: Section | None, renames: Sequence[tuple[str, str]] = ()
) -> str | None:
    """The evidence rule on the assembled document: the term is still defined, and neither the variant
    this instance wrote nor the same word swap on another term stands on its own before it. Two errors
    making one slip in one document are one slip told twice (and a stock phrase): the first is kept, the
    repeat dropped."""
    reason = term_still_defined(instance, final, section, renames)
    if reason:
        return reason
    taken = {v for e in defined_terms(final) for v in e.variants}
    if section is None:  # the default premise reports it first; kept for the type checker
        return f"location {instance.location} no longer exists"
    at = next(k for k, s in enumerate(final.sections) if s is section or s.number == section.number)
    for r in instance.edit.replacements:
        if r.field != "text" or not r.new.strip():
            continue
        # what a reader has read before this use: the first of two uses is the slip, the second its repeat
        earlier = (part for s in final.sections[:at] for part in (s.title, s.text))
        whole = JOIN.join(
            compact_key(p) for p in (*earlier, section.title, section.text[: section.text.find(r.new)])
        )
        # the same swap on any defined term ("提供者" → "提供方" in two role terms) is the same slip
        swap = _swapped_word(r.old, r.new)
        variants = {r.new}
        if swap is not None:
            variants |= {t.replace(swap[0], swap[1]) for t in taken if swap[0] in t}
        if sum(free_uses(v, whole, taken) for v in variants) > 0:
            return f"the variant {r.new!r} (or the same swap on another term) is written before it too"
    return None


def _swapped_word(old: str, new: str) -> tuple[str, str] | None:
    """The near-synonym swap that made a variant ("提供者" → "提供方"), None for another variant."""
    for word, synonyms in NEAR_SYNONYMS.items():
        for synonym in synonyms:
            if word in old and old.replace(word, synonym, 1) == new:
                return word, synonym
    return None


class InconsistentTermUse(TerminologyInjector):
    """TER-03: one body occurrence of a defined term (used 3+ times) becomes a near-synonym.

    The occurrence is word-aligned (jieba boundaries, the longest defined term wins), so "温度记录仪"
    inside "一次性温度记录仪" is never touched; the term stays in use elsewhere, so the document now
    names one concept in two ways.

    Evidence rule: the corrupted document's only free-standing use of the near-synonym is the one the
    edit writes. A short form the document already writes on its own (outside the full term: "区域边界"
    beside "网络区域边界") is the document's own usage, and a reviewer could not tell the injected use
    from the drafter's, so that form is never chosen; and once a document's errors are assembled, a
    variant another of its errors also wrote drops one of them (`variant_written_once`).
    """

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "3c91aceff4e18324"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        entries = defined_terms(document)
        taken = {v for e in entries for v in e.variants}
        found = occurrences(document, entries)
        counts = body_counts(found)
        whole = document_text(document)
        # slip → the occurrences where it can be made (a slip: a variant of one term, or one word swap
        # made on any term, "提供者" → "提供方")
        places: dict[tuple[str, str], list[tuple[int, int, str, str, str]]] = {}
        for o in found:
            if counts[o.entry.term] < MIN_USES or o.form != compact_key(o.entry.term):
                continue
            for synonym in near_synonyms(o.form, taken):
                if not own_usage(synonym, whole, taken):
                    slip = _swapped_word(o.form, synonym) or (o.entry.term, synonym)
                    places.setdefault(slip, []).append((o.position, o.start, o.form, o.entry.term, synonym))
        # each slip at one of its places (the middle one): a second error making it would be the same slip
        # told twice, which the joint check drops (`variant_written_once`)
        chosen: dict[tuple[int, int, str, str], list[str]] = {}
        for where in places.values():
            position, start, form, term, synonym = where[len(where) // 2]
            chosen.setdefault((position, start, form, term), []).append(synonym)
        by_section: dict[int, list[Substitution]] = {}
        for (position, start, form, term), synonyms in sorted(chosen.items()):
            by_section.setdefault(position, []).append(Substitution(start, form, tuple(synonyms), term))
        return [Site(position, tuple(subs)) for position, subs in sorted(by_section.items())]

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No entry; no term the body uses three times; no near-synonym of such a term; or only variants
        the document already writes on its own (its own usage, never an injected slip)."""
        entries = defined_terms(document)
        if not entries:
            return "no_entries"
        taken = {v for e in entries for v in e.variants}
        counts = body_counts(occurrences(document, entries))
        used = [e for e in entries if counts.get(e.term, 0) >= MIN_USES]
        if not used:
            return "no_term_used_thrice"
        if any(near_synonyms(compact_key(e.term), taken) for e in used):
            return "variants_are_own_usage"
        return "no_variant"

    def draft(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        choice: Substitution = rng.choice(site.detail)
        synonym = rng.choice(choice.synonyms)
        edit = Edit("modify", site.target, (Replacement("text", choice.start, choice.form, synonym),))
        return Proposal(
            edit,
            error=f"{chapter_name(document)}界定的术语“{choice.term}”在此处写作“{synonym}”，与全文用语不一致",
            fix=f"将“{synonym}”改为“{choice.term}”，全文统一使用界定的术语",
        )


def _inconsistent_term(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None or not r.old:
        return None
    return {"term": r.old, "synonym": r.new}


def _ter03(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.language.terms import occurrences

    term = case.material["term"]

    def uses(document: Document) -> int:
        return sum(1 for o in occurrences(document) if o.position == case.position and o.form == term)

    if uses(case.with_text(answer.rewritten_text)) >= uses(case.document):
        return failure(
            "condition", f"本条中的术语“{term}”没有被改写为其他说法", "the defined term was not replaced"
        )
    return None


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _inconsistent_term,
        lambda m: (
            f"把本条中一处已界定的术语“{m['term']}”改写为意思相近但未经界定的说法（例如“{m['synonym']}”），"
            "其他出现处保持不变，使同一概念在文件中有两种叫法。"
        ),
        terms_context,
    ),
    budget=Budget(24, 0.35, 0.8, 1.4),
    condition=_ter03,
)


DEFINITION = TypeDefinition(ERROR_TYPE, InconsistentTermUse, llm=LLM, premise=variant_written_once)
