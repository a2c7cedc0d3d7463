"""SCP-03 正文超出范围 (Body exceeds the Scope)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping

import regex

from injectors.base import Injector, Proposal, Site
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from injectors.language.sentences import provisions, sentences
from injectors.llm.constraints import (
    Answer,
    Budget,
    Failure,
    RewriteCase,
    failure,
    has_provision,
    new_sentences,
    outside_scope,
)
from injectors.llm.prompts import (
    PromptInput,
    PromptSpec,
    quoted_in,
    scope_text,
    text_replacement,
)
from injectors.llm.spec import LLMSpec
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from injectors.types.scp.analysis import EXCLUSION, scope_chapter, statement_sentences
from injectors.types.scp.editing import (
    ACT,
    ALL_HAN,
    applicability_qualifiers,
    body_sections,
    cite,
    is_plain,
    paragraph_spans,
)
from parsers.model import Document, Section

ERROR_TYPE = ErrorType(
    "SCP-03",
    "SCP",
    "正文超出范围",
    "Body exceeds the Scope",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "L",
    "J",
    ("E-SC-01",),
)


def _clause_name(section: Section) -> str:
    return cite(section.number)


@functools.lru_cache(maxsize=16)
def _requirement_paragraph_ends(section: Section) -> tuple[int, ...]:
    """Ends of plain paragraphs whose last sentence is a 应/不应 requirement ending with 。."""
    out = []
    for start, end in paragraph_spans(section.text):
        line = section.text[start:end]
        if not is_plain(line) or not line.endswith("。"):
            continue
        last = sentences(line)[-1].text
        if any(p.word in ("应", "不应") for p in provisions(last)):
            out.append(end)
    return tuple(out)


def scope_objects(text: str) -> list[str]:
    """Objects a scope covers: what follows 规定了/确立了/给出了 up to 的, and the head of 适用于."""
    out = []
    m = regex.search(r"(?:规定了|确立了|给出了)([^，。、；的]{2,16})的", text)
    if m and ALL_HAN.match(m.group(1)):
        out.append(m.group(1))
    for sentence in statement_sentences(text):
        for begin, qualifier in applicability_qualifiers(sentence.text):
            rest = sentence.text[begin + len(qualifier) :]
            head = regex.split(r"[，。；]|的(?:" + ACT + ")", rest, maxsplit=1)[0]
            head = regex.sub(r"^(?:各类|各种|各级|相关|所有)|[（(][^）)]*[）)]", "", head)
            if 5 <= len(head) <= 16 and ALL_HAN.match(head) and "的" not in head:
                out.append(head)
    return list(dict.fromkeys(out))


def excluded_objects(text: str) -> list[str]:
    """What a scope's "……不适用于……" sentences exclude, one item per coordinated object."""
    out = []
    for sentence in statement_sentences(text):
        for m in EXCLUSION.finditer(sentence.text):
            rest = regex.split(r"[，。；]", sentence.text[m.end() :], maxsplit=1)[0]
            for item in regex.split(r"以及|和|、", rest):
                item = item.strip()
                if 3 <= len(item) <= 30 and ALL_HAN.match(item.replace("的", "")):
                    out.append(item)
    return list(dict.fromkeys(out))


def _bigrams(text: str) -> set[str]:
    """Han character pairs: a cheap measure of how close two scopes' fields are."""
    return {text[i : i + 2] for i in range(len(text) - 1) if ALL_HAN.match(text[i : i + 2])}


def _full_text(document: Document) -> str:
    return "\n".join(f"{s.title}\n{s.text}" for s in document.sections)


_NEAREST = 4  # foreign objects are drawn from the scopes closest to this document's field


_BEYOND_TEMPLATES = (
    "{o}也应符合{here}的规定。",
    "{o}也应按{here}的要求执行。",
    "对{o}，也应满足{here}的要求。",
)


@functools.lru_cache(maxsize=16)
def out_of_scope_objects(
    document: Document, context: InjectionContext
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Objects this scope does not cover: the ones it excludes, and those of the closest other scopes."""
    found = scope_chapter(document)
    own = excluded_objects(found[1].text) if found else []
    everything = _full_text(document)
    mine = _bigrams(document.title + (found[1].text if found else ""))
    scopes = sorted(context.scopes_for(document), key=lambda c: -len(mine & _bigrams(c.text)))
    foreign = [o for scope in scopes for o in scope_objects(scope.text) if o not in everything]
    return tuple(own), tuple(dict.fromkeys(foreign))[:_NEAREST]


class BodyBeyondScope(Injector):
    """SCP-03. Why: every provision of the body lies inside the boundary that 范围 draws (GB/T 1.1—2020);
    a clause that also regulates another object silently widens the document. How: after a body
    requirement, a sentence extends it to an object the scope does not cover — one this scope explicitly
    excludes, or the object of another corpus document's scope ("移动式储能车也应符合本条的规定。")."""

    error_type = ERROR_TYPE.id

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        if scope_chapter(document) is None or not any(out_of_scope_objects(document, context)):
            return []
        return [Site(i, end) for i, s in body_sections(document) for end in _requirement_paragraph_ends(s)]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        own, foreign = out_of_scope_objects(document, context)
        use_own = bool(own) and (not foreign or rng.random() < 0.5)
        obj = rng.choice(own if use_own else foreign)
        here = "本章" if section.level == 1 else "本条"
        sentence = rng.choice(_BEYOND_TEMPLATES).format(o=obj, here=here)
        edit = Edit("modify", site.target, (Replacement("text", site.detail, "", sentence),))
        why = "范围明确排除的" if use_own else "范围未涵盖的"
        return Proposal(
            edit,
            error=f"{_clause_name(section)}增加了“{sentence}”，对{why}“{obj}”提出了要求，正文超出了范围的界限",
            fix=f"删除该句；如确需规定“{obj}”，先修改范围使其涵盖该对象",
            generator="rule-template",
        )


def _out_of_scope_object(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None or i.template is None:
        return None
    scope = scope_text(i.document)
    obj = quoted_in(i.template, r.new, lambda q: outside_scope(q, scope))
    return {"object": obj} if obj else None


def _scope_context(i: PromptInput, m: Mapping[str, str]) -> dict[str, str]:
    return {"scope": scope_text(i.document)}


def _scp03(case: RewriteCase, answer: Answer) -> Failure | None:
    obj = case.material["object"]
    scope = "\n".join(s.text for s in case.document.sections if s.kind == "scope")
    new = [s for s in new_sentences(case.section.text, answer.rewritten_text) if obj in s]
    if not outside_scope(obj, scope):
        return failure("condition", f"“{obj}”在范围之内", "the object is inside the scope")
    if not new or not has_provision(new):
        return failure(
            "condition",
            f"改写后的句子没有对“{obj}”提出要求（须出现“{obj}”和“应”）",
            "the out-of-scope object is not regulated by a new sentence",
        )
    return None


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "1",
        _out_of_scope_object,
        lambda m: (
            f"在本条中增加或改写一句，使本条对“{m['object']}”提出要求（须出现“{m['object']}”和“应”）；"
            f"“{m['object']}”不在<scope>所述的范围之内。不要改动范围。"
        ),
        _scope_context,
    ),
    budget=Budget(120, 0.6, 0.9, 3.0),
    condition=_scp03,
)


DEFINITION = TypeDefinition(ERROR_TYPE, BodyBeyondScope, llm=LLM)
