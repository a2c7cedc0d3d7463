"""SCP-05 范围界限模糊或矛盾 (Scope boundary vague or contradicted)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    Injector,
    LLMSpec,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Section,
    Site,
    TypeDefinition,
    failure,
    new_sentences,
    text_replacement,
)
from injectors.language.novelty import stock_ngrams
from injectors.language.punctuation import match_style
from injectors.language.words import words
from injectors.types.scp.analysis import (
    APPLICABILITY,
    EXCLUSION,
    scope_chapter,
    self_reference,
    statement_sentences,
)
from injectors.types.scp.editing import applicability_qualifiers, cite, scope_name
from injectors.types.scp.kinds import same_kind
from injectors.types.scp.qualifiers import qualifier_evidence, still_bounded
from injectors.types.scp.regulation import regulated_objects
from injectors.types.scp.scope_objects import scope_objects
from injectors.types.scp.spread import place_in_release

ERROR_TYPE = ErrorType(
    "SCP-05",
    "SCP",
    "范围界限模糊或矛盾",
    "Scope boundary vague or contradicted",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "L",
    "J",
    (),
)


# How drafters word an exclusion: a sentence after the boundary statement, or a clause inside it. Varied so
# that no one phrase ("本文件不适用于", "的适用范围") marks the type: no two wordings add the same new
# phrase (only one opens with the document's name), and each says plainly that X is outside the scope.
_SENTENCE_FORMS = (
    "{word}{also}不适用于{obj}。",
    "{obj}不在{word}的适用范围之内。",
    "{obj}未纳入{word}范围。",
    "{obj}另有规定，{word}{also}不适用。",
    "{obj}的要求由其他标准规定。",
    "{obj}不包括在内。",
    "{obj}不受{word}约束。",
    "{obj}另行规定。",
    "有关{obj}的内容不属于{word}。",
    "{obj}排除在外。",
    "{obj}由专门标准规范。",
    "{obj}不属此列。",
)


# A boundary of actors ("适用于……从事……的机构。"): a thing left out of it reads as nonsense unless the
# exclusion speaks of the requirements or content about the thing.
_BOUNDS_ACTORS = re.compile(r"适用于[^。\n]*(?:机构|单位|企业|组织|部门|人员)。$")


_CONTENT_FORMS = (
    "{obj}的要求由其他标准规定。",
    "{obj}另行规定。",
    "有关{obj}的内容不属于{word}。",
    "{obj}由专门标准规范。",
)


def _form_name(template: str) -> str:
    """ "{obj}不在{word}的适用范围之内。" → "…不在…的适用范围之内": the wording an instance took."""
    return re.sub(r"(?:\{\w+\})+", "…", template).strip("。，（）")


_INNER_FORMS = ("（{obj}除外）", "，但{obj}除外", "，{obj}不在此列", "，不含{obj}")


FORMS = (
    "删去限定语",
    "排除列表增项",
    *(_form_name(f) for f in _SENTENCE_FORMS),
    *(_form_name(f) for f in _INNER_FORMS),
)


# sections besides the scope naming an object a drafter could still exclude (its term, its clause, a test)
MAX_MENTIONS = 4


def named_in(document: Document, obj: str) -> list[Section]:
    """The sections besides the scope that name `obj`."""
    return [s for s in document.sections if s.kind != "scope" and (obj in s.text or obj in s.title)]


def mentions(document: Document, obj: str) -> list[str]:
    """The body clauses and annex sections that name `obj`: what a fix that keeps the exclusion deletes."""
    return [s.number for s in named_in(document, obj) if s.kind in ("clause", "annex")]


# Equipment of the test methods ("试验设备"): a scope excluding it contradicts nothing the body requires of
# the document's object.
_TEST_GEAR = re.compile(r"^(?:试验|测试|检验|检测|校准)")


class ScopeBoundaryVague(Injector):
    """SCP-05. Why: the boundary of 范围 decides who must comply (GB/T 1.1—2020); without its
    qualifiers it claims more than the body was written for, and an exclusion that the body contradicts
    leaves users with two answers. How: a qualifier right after "适用于" is dropped
    ("额定电压不大于1 kV的") where the document shows the boundary widened, or X, an object a body clause
    regulates (a clause title or a term), is excluded: as the first item of an existing "不适用于" list, or
    as a sentence right after the boundary statement inside its paragraph (not a last line of its own:
    position gives nothing away), in one of many wordings that add no common phrase, taking turns over the
    documents of the release; a scope that already excludes is offered both, so that not every such scope
    grows its list.

    Evidence rule: a dropped qualifier is an error only where the boundary really widens, which the
    corrupted document alone shows: what the qualifier said is not still stated by the title or the
    scope's other sentences (`lost_words`: then the remaining text bounds the subject the same way), the
    scope's reference clauses or the body still show the restriction (`qualifier_evidence`), and no
    defined term nor exclusion still bounds the object to it (`still_bounded`). An exclusion is an error
    where a body clause (named in the description) requires or recommends something of the excluded
    object (`regulates`); a clause that only permits fitting it ("可配置……") is no evidence. Only a side
    matter is excluded: an object no more than `MAX_MENTIONS` sections besides the scope name; the fix
    that keeps the exclusion names every body clause that speaks of it."""

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "f720a470393ecce6"
    forms = FORMS
    alternatives = 3  # the list item, a sentence of its own or a dropped qualifier, where a scope offers them

    def _exclusions(self, document: Document, section: Section) -> list[tuple[str, str]]:
        """Regulated objects the scope does not name yet (nor their head noun: 协作工作单元 ~ 工作单元), and
        only side matters (`named_in`): a drafter excludes one and forgets a clause or two about it, never
        an object the document is built on (named in its foreword, references, terms and many clauses)."""
        return [
            (o, c)
            for o, c in regulated_objects(document)
            if o[-4:] not in section.text
            and not _TEST_GEAR.match(o)
            and len(named_in(document, o)) <= MAX_MENTIONS
        ]

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No qualifier whose loss the document shows (the title or another scope sentence still states
        it, or nothing shows it: a dropped one would go unnoticed; or a defined term or an exclusion still
        bounds it), and no object that a body clause requires or recommends something of to exclude."""
        return "no_scope" if scope_chapter(document) is None else "no_visible_boundary"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None:
            return []
        target, section = found
        out = [
            Site(target, ("qualifier", sentence.start, begin, qualifier))
            for sentence in statement_sentences(section.text)
            for begin, qualifier in applicability_qualifiers(sentence.text)
            if qualifier_evidence(document, section, sentence.text, qualifier)
            and not still_bounded(document, section, sentence.text, qualifier)
        ]
        if not self._exclusions(document, section):
            return out
        statements = statement_sentences(section.text)
        excluding = [st for st in statements if EXCLUSION.search(st.text)]
        for st in excluding:  # a new first item of an existing exclusion list
            m = EXCLUSION.search(st.text)
            assert m is not None
            out.append(Site(target, ("exclusion-item", st.start + m.end())))
        if out and not excluding:
            return out  # a dropped qualifier adds no wording of its own
        # where the scope already excludes, a sentence of its own (or "（X除外）") is the other way drafters
        # add one more exclusion: offered beside the list item, so that not every such scope grows its list
        # otherwise a new sentence right after a boundary statement, inside its paragraph (a paragraph of
        # its own would always be the scope's last line)
        ends = [s.end for s in statements if APPLICABILITY.search(s.text)]
        out.extend(
            Site(target, ("exclusion", end, "")) for end in ends if self._wordings(document, section, end)
        )
        return out

    def _wordings(
        self, document: Document, section: Section, at: int
    ) -> list[tuple[str, str, int, str, str]]:
        """(object, clause, offset, exclusion, form) for each wording of a new exclusion at `at` that adds no
        n-gram the document lacks beyond the object's own words: a phrase this document never writes
        ("。本文件不涉及") would recur from one instance of the release to the next. Where every wording
        adds some, all of them (the varied forms, and the planner's choice, keep them from recurring):
        an exclusion is the scope's own formula, and a type that real scopes never offer vanishes."""
        text = section.text
        word = self_reference(document)
        also = "也" if EXCLUSION.search(text) else ""
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at) if "\n" in text[at:] else len(text)
        out: list[tuple[str, str, int, str, str]] = []
        stock: list[tuple[str, str, int, str, str]] = []
        # before the scope's own "不适用于" sentence, a "也不适用" would answer a sentence not yet read
        first = EXCLUSION.search(text)
        before_exclusion = first is not None and at <= first.start()
        templates = [f for f in _SENTENCE_FORMS if not (before_exclusion and "{also}" in f)]
        if _BOUNDS_ACTORS.search(text[:at]):  # "……的机构。CA证书排除在外。" excludes a thing from actors
            templates = [f for f in templates if f in _CONTENT_FORMS]
        for obj, clause in self._exclusions(document, section):
            options = [(at, match_style(f.format(word=word, also=also, obj=obj), text), f) for f in templates]
            # inside the boundary statement itself ("……（X除外）。"), only for a thing of the kind the
            # boundary names: "……的机构，操作系统不在此列" excludes nothing the sentence listed
            if text[at - 1 : at] in "。." and any(same_kind(obj, o) for o in scope_objects(text)):
                options += [(at - 1, match_style(f.format(obj=obj), text), f) for f in _INNER_FORMS]
            for offset, added, form in options:
                line = text[line_start:offset] + added + text[offset:line_end]
                own = not stock_ngrams(line, document, words(obj))
                (out if own else stock).append((obj, clause, offset, added, _form_name(form)))
        return out or stock

    def _spread(
        self, document: Document, context: InjectionContext, wordings: list[tuple[str, str, int, str, str]]
    ) -> list[tuple[str, str, int, str, str]]:
        """Where every wording adds new words, the wordings of one form, a form that turns with the
        document's place in the corpus: documents next to each other never take the same new phrase (a
        random choice gave two documents in a release of eight "不受本文件约束")."""
        if any(not self._stock(document, w) for w in wordings):
            return wordings
        start, _ = place_in_release(document, context)
        cycle = [_form_name(f) for f in (*_SENTENCE_FORMS, *_INNER_FORMS)]
        for k in range(len(cycle)):
            form = cycle[(start + k) % len(cycle)]
            picked = [w for w in wordings if w[4] == form]
            if picked:
                return picked
        return wordings

    @staticmethod
    def _stock(document: Document, wording: tuple[str, str, int, str, str]) -> bool:
        obj, _, _, added, _ = wording
        return bool(stock_ngrams(added, document, words(obj)))

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        text = section.text
        if site.detail[0] == "qualifier":
            _, sentence_start, begin, qualifier = site.detail
            start = sentence_start + begin
            sentence = next(s for s in statement_sentences(text) if s.start == sentence_start)
            after = sentence.text[:begin] + sentence.text[begin + len(qualifier) :]
            evidence = qualifier_evidence(document, section, sentence.text, qualifier)
            if evidence is None:
                return None
            edit = Edit("modify", site.target, (Replacement("text", start, qualifier, ""),))
            return Proposal(
                edit,
                error=f"{scope_name(section)}的适用界限删去了限定语“{qualifier.rstrip('，')}”，"
                f"成为“{after}”，而{evidence}，适用界限比文件的内容宽，边界模糊",
                fix=f"恢复限定语“{qualifier.rstrip('，')}”，明确适用界限",
                generator="rule-template",
                form="删去限定语",
            )
        if site.detail[0] == "exclusion-item":
            obj, clause = rng.choice(self._exclusions(document, section))
            at = site.detail[1]
            added = match_style(obj + "、", text)
            edit = Edit("modify", site.target, (Replacement("text", at, "", added),))
            st = next(st for st in statement_sentences(text) if st.start <= at <= st.end)
            exclusion = st.text[: at - st.start] + added + st.text[at - st.start :]
            form = "排除列表增项"
        else:
            wordings = self._spread(document, context, self._wordings(document, section, site.detail[1]))
            if not wordings:
                return None
            obj, clause, at, exclusion, form = rng.choice(wordings)
            edit = Edit("modify", site.target, (Replacement("text", at, "", exclusion),))
        return Proposal(
            edit,
            error=f"{scope_name(section)}增加了排除陈述“{exclusion}”，而正文{cite(clause)}对{obj}规定了要求，"
            "范围与正文矛盾",
            fix=f"从范围中删去对{obj}的排除，或同时删去正文"
            f"{'、'.join(cite(n) for n in mentions(document, obj)) or cite(clause)}中关于{obj}的规定",
            generator="rule-template",
            form=form,
        )


def _vague_boundary(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None:
        return None
    if r.old and not r.new:
        return {"variant": "qualifier", "qualifier": r.old.rstrip("，")}
    m = re.search(r"不适用于([^。；，\n]{2,40})", r.new)
    return {"variant": "exclusion", "object": m.group(1)} if m else None


def _scp05_task(m: Mapping[str, str]) -> str:
    if m["variant"] == "qualifier":
        return (
            f"删去或泛化适用界限中的限定语“{m['qualifier']}”，使适用对象的边界变得模糊"
            "（结果中不再出现这一限定语），其余陈述保持不变。"
        )
    return (
        f"在范围中增加一句排除陈述，说明本文件不适用于“{m['object']}”（须出现“不适用于”和“{m['object']}”），"
        f"而正文对{m['object']}规定了要求，使范围与正文矛盾。"
    )


def _scp05(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.types.scp.analysis import APPLICABILITY

    before, after = case.section.text, answer.rewritten_text
    if case.material["variant"] == "qualifier":
        qualifier = case.material["qualifier"]
        if after.count(qualifier) >= before.count(qualifier):
            return failure("condition", f"限定语“{qualifier}”仍在", "the qualifier is still there")
        if not APPLICABILITY.search(after):
            return failure(
                "condition", "删掉了整个适用界限陈述，只应删去限定语", "the applicability sentence is gone"
            )
        return None
    obj = case.material["object"]
    new = [s for s in new_sentences(before, after) if "不适用于" in s and obj in s]
    if not new:
        return failure("condition", f"没有新增排除“{obj}”的“不适用于”陈述", "no new exclusion of the object")
    return None


LLM = LLMSpec(
    prompt=PromptSpec(ERROR_TYPE.id, "1", _vague_boundary, _scp05_task),
    budget=Budget(80, 0.5, 0.5, 2.0),
    condition=_scp05,
)


DEFINITION = TypeDefinition(ERROR_TYPE, ScopeBoundaryVague, llm=LLM)
