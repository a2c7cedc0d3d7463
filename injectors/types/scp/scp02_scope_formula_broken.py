"""SCP-02 范围表述格式不规范 (Scope formula broken)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import regex

from injectors.authoring import (
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Replacement,
    Site,
    TypeDefinition,
    Violation,
)
from injectors.language.sentences import Sentence
from injectors.language.words import boundaries
from injectors.types.scp.analysis import (
    APPLICABILITY,
    SELF_REFERENCE,
    scope_chapter,
    self_reference,
    statement_sentences,
)
from injectors.types.scp.editing import scope_name

ERROR_TYPE = ErrorType(
    "SCP-02",
    "SCP",
    "范围表述格式不规范",
    "Scope formula broken",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "R",
    "D",
    (),
)


# Verbs a textbook or report would use; a standard's scope does not "introduce" or "expound" anything.
NONSTANDARD_VERB = regex.compile(
    rf"(?:(?<={SELF_REFERENCE.pattern}(?:还|也|主要|重点|着重|简要|系统地?)?)"
    r"(?:主要|重点|着重|简要|系统地?|全面)?(?:介绍|阐述|讲述|论述|叙述|讨论|讲解|概述|阐明|探讨|梳理|总结|提出|明确|涵盖|阐释|说明)了?"
    r"|(?<=[，；])(?:主要|重点|着重|简要)?(?:介绍|阐述|讲述|论述|叙述|讨论|讲解|概述|阐明|探讨|梳理|总结|提出|明确|涵盖|阐释|说明)了)"
)


# "本文件对……作了规定": the content named as the object of a circumlocution instead of "规定了……".
PASSIVE_FORMULA = regex.compile(
    rf"(?<={SELF_REFERENCE.pattern}(?:还|也)?)对[^。；\n]{{2,120}}?(?:作了|作出了|做了|做出了|进行了)规定"
)


# "本文件旨在规范……": the purpose (引言's matter) stated where the scope says what the document covers.
PURPOSE_FORMULA = regex.compile(rf"(?<={SELF_REFERENCE.pattern}(?:还|也)?)旨在")


# Looser applicability wording a real scope may use instead ("本文件可供……使用", "适合于"): not reported.
_APPLICABILITY_VARIANT = regex.compile(rf"(?<!不)适合于|{SELF_REFERENCE.pattern}(?:也|还)?(?:可)?(?:用于|供)")


def states_applicability(sentence: str) -> bool:
    """Whether a sentence says where the document applies ("适用于……", or a looser "本文件可供……")."""
    return bool(APPLICABILITY.search(sentence) or _APPLICABILITY_VARIANT.search(sentence))


def scope_formula(document: Document) -> list[Violation]:
    """范围 without a "……适用于……" sentence, or with 介绍/阐述/讲述 in place of 规定了/确立了/给出了."""
    out = []
    chapters = [s for s in document.sections if s.kind == "scope" and s.level == 1]
    for chapter in chapters:
        members = [chapter] + [
            s for s in document.sections if s.kind == "scope" and s.number.startswith(chapter.number + ".")
        ]
        statements = [(s, st) for s in members for st in statement_sentences(s.text)]
        if not statements:
            continue  # an empty scope is a parsing or structure matter, not a broken formula
        if not any(states_applicability(st.text) for _, st in statements):
            word = self_reference(document)
            out.append(
                Violation(
                    chapter.number,
                    "SCP-02",
                    f"范围缺少界定适用界限的陈述（“{word}适用于……”）",
                )
            )
        for section, sentence in statements:
            for m in PASSIVE_FORMULA.finditer(sentence.text):
                word = _self_sentence_start(sentence.text) or self_reference(document)
                out.append(
                    Violation(
                        section.number,
                        "SCP-02",
                        f"范围使用了不规范的表述“{word}对……{m.group(0)[-4:]}”，应写作“{word}规定了……”",
                    )
                )
            for _ in PURPOSE_FORMULA.finditer(sentence.text):
                word = _self_sentence_start(sentence.text) or self_reference(document)
                out.append(
                    Violation(
                        section.number,
                        "SCP-02",
                        f"范围使用了不规范的表述“{word}旨在……”（文件的目的），应写作“{word}规定了……”",
                    )
                )
            for m in NONSTANDARD_VERB.finditer(sentence.text):
                subject = SELF_REFERENCE.search(sentence.text, max(0, m.start() - 12), m.start())
                prefix = subject.group(0) if subject and subject.end() >= m.start() - 2 else ""
                out.append(
                    Violation(
                        section.number,
                        "SCP-02",
                        f"范围使用了不规范的表述“{prefix}{m.group(0)}”，应使用“规定了”“确立了”“给出了”等",
                    )
                )
    return out


def _self_sentence_start(sentence: str) -> str:
    m = SELF_REFERENCE.match(sentence)
    return m.group(0) if m else ""


# The verbs drafters actually write in a scope in place of the formula's: textbook and report verbs
# (介绍了, 阐述了 …), and those a draft takes from official prose (提出了, 明确了, 涵盖了, 说明了), with
# the adverbs they come with; drawn from the whole set so that no one phrase marks the type.
_NONSTANDARD_VERBS = (
    "介绍了",
    "阐述了",
    "讲述了",
    "论述了",
    "叙述了",
    "概述了",
    "阐明了",
    "讨论了",
    "探讨了",
    "梳理了",
    "总结了",
    "讲解了",
    "提出了",
    "明确了",
    "涵盖了",
    "说明了",
    "阐释了",
)
_ADVERBS = ("", "", "", "", "", "主要", "重点", "简要", "系统", "着重")
# the verbs of official prose take none: "着重涵盖了", "重点明确了" read as nobody writes
_NO_ADVERB = ("提出了", "明确了", "涵盖了")
_VERB_SWAPS = {
    "规定了": (*_NONSTANDARD_VERBS, "旨在规范"),
    "确立了": ("阐述了", "阐明了", "论述了", "介绍了", "概述了", "梳理了", "提出了", "明确了", "旨在确立"),
    "给出了": ("介绍了", "讲述了", "叙述了", "概述了", "讲解了", "提出了", "说明了", "涵盖了", "旨在提供"),
}


# The content after "规定了" up to the end of its clause: what "对……作了规定" would wrap.
_PASSIVE_CONTENT = regex.compile(r"[^，。；,;\n]{2,60}(?=[，。；,;])")
_PASSIVE_VERBS = ("作了", "作出了", "进行了", "做了")


_SWAPPABLE = regex.compile(
    rf"(?:(?<={SELF_REFERENCE.pattern}(?:还|也)?)|(?<=[，；]))(?:规定了|确立了|给出了)"
)


_RUN = regex.compile(r"[A-Za-z0-9./\-]")  # a Latin or number run ("ITU-T", "1.5") is one word


def _lead_words(text: str, limit: int = 8) -> str:
    """The first whole words of a clause, at most about `limit` characters ("公共图书馆", not
    "公共图书馆数字资"), so that the description quotes the scope as a reader would."""
    clause = regex.match(r"[^，。；、,;\n]*", text).group(0)
    if len(clause) <= limit:
        return clause
    edges = sorted(
        at
        for at in boundaries(clause)
        if 0 < at < len(clause) and not (_RUN.match(clause[at - 1]) and _RUN.match(clause[at]))
    )
    shorter = [at for at in edges if at <= limit]
    if shorter and shorter[-1] >= 2:
        return clause[: shorter[-1]]
    return clause[: edges[0] if edges else len(clause)]


class ScopeFormulaBroken(Injector):
    """SCP-02. Why: GB/T 1.1—2020 fixes the scope formula "本文件规定了……"/"本文件适用于……"; readers
    look for the applicability statement, and the verb says what kind of document it is. How: the only
    "……适用于……" sentence is deleted; or "规定了X" becomes "对X作了规定"; or 规定了/确立了/给出了
    becomes one of the textbook verbs (介绍了, 阐述了, 论述了, 概述了 …), with or without the adverb
    a drafter puts before it (主要, 重点, 简要, 系统)."""

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "eff6fe9e09a5db4f"

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No scope chapter; a formula already broken; or no formula verb nor lone 适用于 sentence."""
        if scope_chapter(document) is None:
            return "no_scope"
        return "formula_already_broken" if scope_formula(document) else "no_formula_sentence"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or scope_formula(document):
            return []
        target, section = found
        out = []
        statements = statement_sentences(section.text)
        applicable = [s for s in statements if states_applicability(s.text)]
        if (
            len(applicable) == 1
            and len(statements) > 1
            and not any(v in applicable[0].text for v in ("规定了", "确立了", "给出了"))
        ):
            out.append(Site(target, ("remove", applicable[0])))
        for sentence in statements:
            for m in _SWAPPABLE.finditer(sentence.text):
                out.append(Site(target, ("verb", sentence.start + m.start(), m.group(0))))
                content = _PASSIVE_CONTENT.match(sentence.text, m.end())
                if m.group(0) == "规定了" and SELF_REFERENCE.search(sentence.text, 0, m.start()) and content:
                    out.append(Site(target, ("passive", sentence.start + m.start(), content.group(0))))
        return out

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        text = section.text
        if site.detail[0] == "passive":
            _, start, content = site.detail
            verb = rng.choice(_PASSIVE_VERBS)
            new = f"对{content}{verb}规定"
            edit = Edit("modify", site.target, (Replacement("text", start, "规定了" + content, new),))
            return Proposal(
                edit,
                error=f"{scope_name(section)}将“规定了{content}”写成了“{new}”，"
                f"范围应直接陈述文件规定了哪些内容，“对……{verb}规定”不是范围的规范表述",
                fix=f"改回“规定了{content}”",
                generator="rule",
                form="对……作了规定",
            )
        if site.detail[0] == "verb":
            _, start, verb = site.detail
            subject = regex.search(
                rf"(?:{SELF_REFERENCE.pattern}(?:还|也)?)$", text[max(0, start - 12) : start]
            )
            before = subject.group(0) if subject else ""
            # "旨在……" states the document's purpose: only right after the document names itself
            swap = rng.choice([v for v in _VERB_SWAPS[verb] if before or not v.startswith("旨在")])
            plain = swap.startswith("旨在") or swap in _NO_ADVERB
            new = swap if plain else rng.choice(_ADVERBS) + swap
            after = _lead_words(text[start + len(verb) :])
            edit = Edit("modify", site.target, (Replacement("text", start, verb, new),))
            return Proposal(
                edit,
                error=f"{scope_name(section)}将“{before}{verb}{after}……”写成了“{before}{new}{after}……”，"
                + (
                    "范围陈述文件规定了什么，文件的目的不在范围中陈述"
                    if swap.startswith("旨在")
                    else f"“{new}”不是范围的规范表述"
                ),
                fix=f"改回“{before}{verb}”（范围用“规定了”“确立了”“给出了”等陈述文件的内容）",
                generator="rule",
                form=swap,
            )
        sentence: Sentence = site.detail[1]
        start, end = sentence.start, sentence.end
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end) if "\n" in text[end:] else len(text)
        if text[line_start:start].strip() == "" and text[end:line_end].strip() == "":
            start, end = line_start, line_end  # the sentence is a whole paragraph: remove the line
            if start > 0:
                start -= 1
            elif end < len(text):
                end += 1
        edit = Edit("modify", site.target, (Replacement("text", start, text[start:end], ""),))
        word = _self_sentence_start(sentence.text) or self_reference(document)
        return Proposal(
            edit,
            error=f"{scope_name(section)}删去了适用界限的陈述“{sentence.text}”，范围中没有“{word}适用于……”",
            fix=f"补回适用界限的陈述：“{sentence.text}”",
            generator="rule",
            form="删去适用界限",
        )


DEFINITION = TypeDefinition(ERROR_TYPE, ScopeFormulaBroken, checks=(scope_formula,))
