"""SCP-03 正文超出范围 (Body exceeds the Scope)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar

import regex

from injectors.authoring import (
    Answer,
    Attempt,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    Injector,
    LLMSpec,
    Original,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Rewriter,
    Section,
    Site,
    TypeDefinition,
    failure,
    has_provision,
    new_sentences,
    outside_scope,
    quoted_in,
    scope_text,
    text_replacement,
)
from injectors.language.punctuation import match_style
from injectors.types.scp.analysis import APPLICABILITY, scope_chapter, self_reference, statement_sentences
from injectors.types.scp.editing import body_sections, cite
from injectors.types.scp.levels import LevelRequirement, level_bound, level_requirements
from injectors.types.scp.outsiders import Outsider, can_coordinate, objects_and_outsiders
from injectors.types.scp.requirements import (
    ScopedRequirement,
    head_end,
    negated_requirements,
    scoped_requirements,
)
from injectors.types.scp.scope_objects import object_heads

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


def _connectors(document: Document, follows: str) -> tuple[list[str], list[str]]:
    """Coordinators, and "all" adverbs the document itself writes before the words that follow the subject
    ("均应能" where the clause goes on with 应能): an adverb the document never writes there would be the
    same new phrase in every instance that took it."""
    body = "\n".join(s.text for _, s in body_sections(document))
    joins = [c for c in ("和", "及", "与", "以及", "、") if c in body] or ["和"]
    alls = [""] + [a for a in ("均", "都") if f"{a}{follows}" in body]
    return joins, alls


# What the instances already placed in the document being injected added (the planner's `taken`), for
# the duration of one `inject` call: a second instance names another outsider, or none.
_ADDED: ContextVar[tuple[str, ...]] = ContextVar("scp03_added", default=())


class BodyBeyondScope(Injector):
    """SCP-03. Why: every provision of the body lies inside the boundary that 范围 draws (GB/T 1.1—2020);
    a clause that also regulates an object the scope excludes silently widens the document. How: a body
    requirement about the scope's own object ("集中充电柜应……", "工作单元的电气设备应……") takes in, as a
    coordinated object, one this scope says it does not apply to (or lets use the document only by
    reference, or keeps out by a "非X" qualifier: "非涉密对象"): "集中充电柜和用于电池租赁的换电柜应……",
    written with the coordinators the document itself
    uses, and named as a clause names a thing, not with the scope's participles ("塑料大棚环境监测系统"
    for the scope's "塑料大棚中使用的环境监测系统", `clause_name`); the error shows only when the clause
    is read against the scope. Only things of one kind are
    coordinated (`kinds`): "报警系统和电池室均应设置主电源" is a sentence no drafter writes; a place may
    join only as a second owner ("报警系统及电池室的设计文件应……"). Where the scope puts nothing
    outside, the outsider may be a product of the scope object's own kind that a standard the document
    cites is about ("汽车GPS导航系统" beside "汽车行驶记录仪") and that neither the scope nor the body
    treats (`sibling_objects`), or a product with the scope object's own head word (服务器, 记录仪: never
    a generic 系统 or 数据) that the document itself names in its definitions, introduction or annexes
    and never in its body ("OCSP服务器" beside "签名验签服务器", `named_siblings`): the scope names its
    one object, so the widened clause shows against it. The evidence rule for both: the corrupted
    document's scope names its object, the added one is not that object (nor a kind of it, nor it
    shortened, nor a class it belongs to), and no body clause treats the added one. Where the scope
    bounds its object by a range of levels ("第一级到第四级等级保护对象") and the document itself names
    the level above it (a table of 定级结果 listing 第五级), a requirement about the top level takes in
    the next one, named as the document names its levels ("应为第四级和第五级业务应用系统……",
    `level_requirements`); never a "第三级及以上", which is no level of its own. A "非X" outsider may also
    join a sentence that states a guide's procedure without a modal but applies the document itself to the
    head noun ("……的等级保护对象，其网络运营者依据本标准组织……"): naming the document puts the added
    object within its reach as surely as 应 does, and the description says so ("纳入了本标准的规定").
    Other documents are skipped (no site): an object from another document would come from another field,
    and a life-cycle stage the scope does not list ("改造前后均应……") read as padding to the reviewers,
    not as a drafting error."""

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "1ba3eb89a4abe585"
    forms = ("不适用于", "参照使用", "非X", "同类对象", "范围外等级")
    alternatives = 3  # a document offering two forms (an exclusion, a sibling product) offers both

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """The scope puts nothing outside in its own words (不适用于, 参照使用, 非X), the document names no
        product of its object's kind that it leaves out (in its references, definitions, introduction or
        annexes), and no level above the scope's range of levels: no_outsider_in_scope; or it does, but no
        body requirement has a subject of the outsider's kind, nor one that owns something the outsider
        could own too (an odd coordination is worse than none), nor one about the top level:
        no_subject_of_its_kind."""
        if scope_chapter(document) is None:
            return "no_scope"
        outside = objects_and_outsiders(document)[1] or level_bound(document) is not None
        return "no_subject_of_its_kind" if outside else "no_outsider_in_scope"

    def inject(
        self,
        baseline: Original,
        rng: random.Random,
        context: InjectionContext,
        taken: Sequence[Edit] = (),
        seed: int = 0,
        stats: Counter[str] | None = None,
        rewriter: Rewriter | None = None,
    ) -> Attempt:
        """A second instance in one document never names the outsider of the first again: the same
        "和涉密对象" in two clauses is a phrase repeated across the release, a pattern instead of an error
        to find."""
        token = _ADDED.set(tuple(r.new for e in taken for r in e.replacements if r.new))
        try:
            return super().inject(baseline, rng, context, taken, seed, stats, rewriter)
        finally:
            _ADDED.reset(token)

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        bound = level_bound(document)
        levels = (
            [Site(i, r) for i, s in body_sections(document) for r in level_requirements(s, bound)]
            if bound
            else []
        )
        objects, outside = objects_and_outsiders(document)
        if not objects:
            return levels
        if not outside:  # nothing the scope puts outside: an extension would have to be invented
            return levels
        nouns = tuple(dict.fromkeys(z.head for z in outside if z.negated))
        own = [Site(i, r) for i, s in body_sections(document) for r in scoped_requirements(s, objects)]
        negated = [
            Site(i, r) for i, s in body_sections(document) for h in nouns for r in negated_requirements(s, h)
        ]
        own_heads = object_heads(objects)
        return levels + [  # only where an outsider reads as of the subject's kind (else no site)
            x
            for x in {(x.target, x.detail.start): x for x in own + negated}.values()
            if any(can_coordinate(z, x.detail, own_heads, objects) for z in outside)
        ]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        if isinstance(site.detail, LevelRequirement):
            return _level_proposal(document, site.target, site.detail)
        requirement: ScopedRequirement = site.detail
        objects, outside = objects_and_outsiders(document)
        own_heads = object_heads(objects)
        before = _ADDED.get()
        candidates = [
            z
            for z in outside
            if can_coordinate(z, requirement, own_heads, objects) and not any(z.word in a for a in before)
        ]
        if not candidates:
            return None
        outsider = rng.choice(candidates)
        obj = outsider.word
        subject = requirement.subject
        at = head_end(subject, requirement.head)
        assert at is not None
        joins, alls = _connectors(document, requirement.sentence[at : at + 2])
        # not the coordinator the subject already has ("火灾探测与报警系统与……"): it would read as one list;
        # nor, where the document has another, the one an earlier instance here added ("……记录仪以及……"
        # twice is a phrase the two instances share, a pattern instead of two errors)
        usable = [j for j in joins if j not in subject[:at]] or joins
        # nor a bare 、 before an object with its own 的-qualifier ("……的等级保护对象、涉及国家秘密的等级保护
        # 对象"): the qualifier then reads as shared by both, and a drafter writes 和 or 以及 there
        usable = [j for j in usable if j != "、" or "的" not in obj] or ["和"]
        join = rng.choice([j for j in usable if not any(a.startswith(j) for a in before)] or usable)
        added = match_style(join + obj, section.text)
        every = rng.choice(alls) if at == len(subject) else ""
        new_sentence = subject[:at] + added + every + requirement.sentence[at:]
        edit = Edit(
            "modify",
            site.target,
            (Replacement("text", requirement.start + at, "", added + every),),
        )
        word = self_reference(document)
        if outsider.negated:
            where = f"范围写明{word}适用于“{outsider.negated}”"
        elif outsider.sibling:
            where = f"范围只涉及{outsider.sibling}，未涵盖{obj}"
            bound = _applicability_words(document, outsider.sibling.split("、"))
            if bound:
                where += f"；{word}“{bound}”"
        elif outsider.excluded:
            where = f"范围写明{word}不适用于{outsider.name}"
        else:
            where = f"范围只允许{outsider.name}参照使用{word}"
        # a sentence without 应 that applies the document itself ("依据本标准") regulates by naming it
        reach, keep = (f"{word}的规定", "只涉及") if requirement.applies else ("要求", "只对")
        keep += f"{outsider.negated or requirement.head}" + ("" if requirement.applies else "提出要求")
        return Proposal(
            edit,
            error=f"{_clause_name(section)}“{new_sentence}”把范围之外的“{obj}”也纳入了{reach}，"
            f"正文超出了范围的界限（{where}）",
            fix=f"删去“{added}”，本条{keep}；如确需规定“{obj}”，先修改范围使其涵盖该对象",
            generator="rule-template",
            form=_form(outsider),
        )


def _level_proposal(document: Document, target: int, requirement: LevelRequirement) -> Proposal | None:
    """ "应为第四级业务应用系统……" → "应为第四级和第五级业务应用系统……" under a scope of 第一级到第四级."""
    bound = level_bound(document)
    if bound is None or any(bound.beyond in a for a in _ADDED.get()):
        return None
    section = document.sections[target]
    joins, _ = _connectors(document, "")
    join = "和" if "和" in joins else joins[0]
    added = join + bound.beyond
    at = requirement.at
    new_sentence = requirement.sentence[:at] + added + requirement.sentence[at:]
    new_sentence = regex.sub(r"^(?:[a-z][)）]|\d{1,2}[)）])\s*", "", new_sentence)
    word = self_reference(document)
    return Proposal(
        Edit("modify", target, (Replacement("text", requirement.start + at, "", added),)),
        error=f"{_clause_name(section)}“{new_sentence}”把范围之外的{bound.beyond}也纳入了要求，"
        f"正文超出了范围的界限（{word}范围只规定了“{bound.words}”的要求）",
        fix=f"删去“{added}”，本条只对{bound.top}提出要求；如确需规定{bound.beyond}，先修改范围使其涵盖该等级",
        generator="rule-template",
        form="范围外等级",
    )


_LONGEST_QUOTE = 40  # past it, the quote ends at the comma after the object


def _applicability_words(document: Document, kin: Sequence[str]) -> str:
    """The scope's own words that bound it to the object ("适用于签名验签服务器的研制和使用"): from its
    适用于 to the end of that sentence, or to the first comma after the object when longer; "" where no
    applicability sentence names the object."""
    found = scope_chapter(document)
    if found is None:
        return ""
    for sentence in statement_sentences(found[1].text):
        m = APPLICABILITY.search(sentence.text)
        if m is None:
            continue
        rest = sentence.text[m.start() :].rstrip("。；;")
        at = min((rest.find(k) for k in kin if k in rest), default=-1)
        if at < 0:
            continue
        if len(rest) > _LONGEST_QUOTE:
            comma = rest.find("，", at)
            rest = rest[:comma] if comma > 0 else rest
        return rest
    return ""


def _form(outsider: Outsider) -> str:
    if outsider.negated:
        return "非X"
    if outsider.sibling:
        return "同类对象"
    return "不适用于" if outsider.excluded else "参照使用"


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
