"""SCP-01 范围中含有要求 (Provision inside the Scope)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import regex

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
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Section,
    Site,
    TypeDefinition,
    Violation,
    failure,
    has_provision,
    new_sentences,
    no_material,
)
from injectors.language.novelty import stock_ngrams
from injectors.language.punctuation import match_style
from injectors.language.quotes import shorten
from injectors.language.sentences import CLAUSE_SPLIT, provisions
from injectors.language.words import words
from injectors.types.scp.analysis import APPLICABILITY, scope_chapter, self_reference, statement_sentences
from injectors.types.scp.editing import ACT, ALL_HAN, body_sections, paragraph_spans, scope_name
from injectors.types.scp.scope_objects import scope_objects

ERROR_TYPE = ErrorType(
    "SCP-01",
    "SCP",
    "范围中含有要求",
    "Provision inside the Scope",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "R+L",
    "D",
    ("E-SC-03",),
)


def scope_sections(document: Document) -> list[Section]:
    """The 范围 chapter(s) and any sub-clauses of it."""
    return [s for s in document.sections if s.kind == "scope"]


def _quote(text: str, limit: int = 60) -> str:
    return shorten(text, limit)


def _clause_around(sentence: str, at: int) -> str:
    """The comma-delimited clause at offset `at`: what a message quotes (stable under edits elsewhere)."""
    start = max((m.end() for m in CLAUSE_SPLIT.finditer(sentence, 0, at)), default=0)
    end = CLAUSE_SPLIT.search(sentence, at)
    return sentence[start : end.start() if end else len(sentence)].rstrip("。")


def provision_in_scope(document: Document) -> list[Violation]:
    """A 应/宜/可 (or 必须/不得 …) provision in 范围: the scope states, it does not require."""
    out = []
    for section in scope_sections(document):
        for sentence in statement_sentences(section.text):
            found = provisions(sentence.text)
            if found:
                words = "、".join(dict.fromkeys(p.word for p in found))
                clause = _clause_around(sentence.text, found[0].start)
                out.append(
                    Violation(
                        section.number,
                        "SCP-01",
                        f"范围中含有条款（能愿动词“{words}”）：“{_quote(clause)}”；"
                        "范围只陈述文件的对象和适用界限，要求应写入正文",
                    )
                )
    return out


def _statement_paragraph_ends(text: str) -> list[int]:
    """Ends of scope paragraphs that close a statement sentence (insertion points for a new sentence)."""
    out = []
    for start, end in paragraph_spans(text):
        line = text[start:end]
        if line.endswith("。") and statement_sentences(line):
            out.append(end)
    return out


# "（以下简称终端）": the short name a scope gives its object, the name its own provisions use.
_SHORT_NAME = regex.compile(r"[（(]以下简称[“\"]?([\p{Han}A-Za-z]{2,10})[”\"]?[）)]")


_OBJECT_NOISE = regex.compile(r"[（(][^）)]*[）)]|^(?:各类|各种|各级|相关|所有)")


# "……的设计、制造和检验" closing an 适用于 clause: the activities the boundary names (whole words only).
_ACTIVITY_LIST = regex.compile(rf"的((?:{ACT})(?:(?:[、和及与]|以及)(?:{ACT}))*)(?:等)?(?:工作|活动)?$")


# Words after which a scope object is a phrase about the document, not a thing ("……上", "编制和开发等").
_NOT_AN_OBJECT = regex.compile(rf"(?:等|上|中|化|方面|内容|工作|(?:{ACT}))$")


@dataclass(frozen=True)
class ScopeMaterial:
    """What a drafter has at hand when a requirement slips into the scope: the scope's own objects, the
    activities its boundary names, and the body chapters' titles of requirements and test methods."""

    objects: tuple[str, ...]
    activities: tuple[str, ...]
    requirements: tuple[str, ...]  # body chapter titles ending with 要求 ("功能要求")
    methods: tuple[str, ...]  # body chapter titles ending with 方法 ("试验方法")


@functools.lru_cache(maxsize=1024)
def _objects_and_activities(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The objects a scope text names (its short names first) and the activities its boundary names."""
    objects = [m.group(1) for m in _SHORT_NAME.finditer(text)]
    named = [_OBJECT_NOISE.sub("", o) for o in scope_objects(text)]
    for obj in named:
        # "非涉及国家秘密的等级保护对象": what comes before 的 qualifies the object, it is none itself
        qualifier = obj.startswith("非") or any(f"{obj}的{other}" in text for other in named if other != obj)
        if 2 <= len(obj) <= 16 and ALL_HAN.match(obj) and not _NOT_AN_OBJECT.search(obj) and not qualifier:
            objects.append(obj)
    activities: list[str] = []
    for sentence in statement_sentences(text):
        m = APPLICABILITY.search(sentence.text)
        if m:
            clause = regex.split(r"[，。；]", sentence.text[m.end() :], maxsplit=1)[0]
            tail = _ACTIVITY_LIST.search(clause)
            if tail:
                activities += [a for a in regex.split(r"以及|[、和及与]", tail.group(1)) if a]
    return tuple(dict.fromkeys(objects)), tuple(dict.fromkeys(activities))


@functools.lru_cache(maxsize=16)
def scope_material(document: Document) -> ScopeMaterial:
    found = scope_chapter(document)
    text = found[1].text if found else ""
    objects, activities = _objects_and_activities(text)
    titles = [s.title.strip() for _, s in body_sections(document) if s.level == 1 and s.title]
    requirements = [t for t in titles if t.endswith("要求") and 4 <= len(t) <= 10 and ALL_HAN.match(t)]
    methods = [
        t
        for t in titles
        if t.endswith("方法") and regex.search("试验|检验|测试|检测", t) and len(t) <= 8 and ALL_HAN.match(t)
    ]
    return ScopeMaterial(
        tuple(dict.fromkeys(objects)),
        tuple(dict.fromkeys(activities)),
        tuple(dict.fromkeys(requirements)),
        tuple(dict.fromkeys(methods)),
    )


# Activities an organisation carries out on an object ("从事记录仪制造的单位"), not what it does (通信).
_WORK_TEXT = """
    设计 制造 生产 安装 检验 检测 研制 开发 建设 运营 运维 维护 测试 验收 施工 集成 改造
    """


_WORK = frozenset(_WORK_TEXT.split())


def _joined(items: tuple[str, ...]) -> str:
    """ "设计、制造和检验": how a drafter lists two or three items."""
    items = items[:3]
    return items[0] if len(items) == 1 else "、".join(items[:-1]) + "和" + items[-1]


def scope_provisions(material: ScopeMaterial, word: str) -> list[tuple[str, str]]:
    """(form, sentence) for each provision a drafter plausibly writes into a scope with this material: that
    the object, or those who work on it, shall follow the document ("记录仪的设计、制造和检验应符合本标准的
    规定。", "从事服务器研制的单位应遵守本标准。"), follow it and other standards besides (the opening
    provision of many codes), meet its requirement chapters or be tested by its method chapters. None
    copies a body sentence: each speaks of the document as a whole."""
    out: list[tuple[str, str]] = []
    acts = material.activities
    for obj in material.objects[:2]:
        out.append(("符合", f"{obj}应符合{word}的规定。"))
        out.append(("执行", f"{obj}应按{word}执行。"))
        # the opening provision of many codes, which drafters carry into a scope
        out.append(("除…外", f"{obj}除遵守{word}外，尚应符合国家现行有关标准的规定。"))
        out.append(("除…外", f"{obj}除执行{word}外，还应遵守国家有关法律法规和标准。"))
        if acts:
            out.append(("符合", f"{obj}的{_joined(acts)}应符合{word}的规定。"))
            out.append(("执行", f"{obj}在{_joined(acts)}过程中，应执行{word}。"))
            out.append(("依据", f"{obj}的{_joined(acts)}应以{word}为依据。"))
            if acts[0] in _WORK:
                out.append(("遵守", f"从事{obj}{acts[0]}的单位应遵守{word}。"))
        if material.requirements:
            out.append(("满足", f"{obj}应满足{word}规定的{_joined(material.requirements[:2])}。"))
        if material.methods:
            out.append(("检验", f"{obj}应按{word}规定的{material.methods[0]}进行检验。"))
    return out


FORMS = ("符合", "执行", "除…外", "依据", "遵守", "满足", "检验")


@functools.lru_cache(maxsize=1024)
def _scope_forms(text: str) -> tuple[str, ...]:
    """The forms a scope text allows, as far as the scope shows it: its objects and activities, and the
    requirements and test methods it says the document gives (which its body's chapter titles usually
    name); none where it names no object or already holds a provision."""
    objects, activities = _objects_and_activities(text)
    if not objects or any(provisions(s.text) for s in statement_sentences(text)):
        return ()
    forms = ["符合", "执行", "除…外"]
    if activities:
        forms += ["依据", "遵守"] if activities[0] in _WORK else ["依据"]
    if regex.search(r"(?:规定|给出)了[^。]*要求", text):
        forms.append("满足")
    if regex.search(r"(?:试验|检验|测试|检测)方法", text):
        forms.append("检验")
    return tuple(forms)


def _turn(document: Document, context: InjectionContext, available: set[str]) -> str:
    """The form this document takes: the one the documents before it in the release (`context.scopes`,
    in order) took least, each of them having taken by the same rule the least taken of the forms its
    scope allows (`_scope_forms`: what every document can tell of every other); ties go to the earlier
    form of `FORMS`. A form the body allows but the scope does not show is taken only where the scope
    shows none of the others."""
    taken: Counter[str] = Counter()
    for doc_id, text in dict((s.doc_id, s.text) for s in context.scopes).items():
        if doc_id == document.doc_id:
            break
        forms = _scope_forms(text)
        if forms:
            taken[min(forms, key=lambda f: (taken[f], FORMS.index(f)))] += 1
    found = scope_chapter(document)
    shown = available.intersection(_scope_forms(found[1].text) if found else ()) or available
    return min(shown, key=lambda f: (taken[f], FORMS.index(f)))


def _unfit(document: Document) -> str | None:
    """Why a document's scope takes no provision (None: it may): no scope chapter; a scope that already
    holds one (a new one would not be told from it); or a scope that names no object of its own to require
    anything of."""
    if scope_chapter(document) is None:
        return "no_scope"
    if provision_in_scope(document):
        return "provision_already_in_scope"
    return None if scope_material(document).objects else "no_scope_object"


class ProvisionInScope(Injector):
    """SCP-01. Why: 范围 is made of statements (GB/T 1.1—2020); a requirement there is outside the body
    where provisions are numbered and cited. How: a provision a drafter plausibly writes into a scope,
    about the document as a whole, is appended to a scope paragraph: that the scope's own object (or its
    short name, "以下简称终端") shall conform to the document (alone, or besides other standards), be
    made or used as it says, meet its requirement chapters or be tested by its method chapters
    (`scope_provisions`), the forms taking turns over the release (`_turn`). It never copies a body
    sentence, so no duplicate-sentence finder solves the type. Evidence: the inserted sentence carries
    应 inside 范围, which the checker reports at the scope. A document whose scope names no object of its
    own is skipped (no site)."""

    error_type = ERROR_TYPE.id
    version = "6"
    digest = "5111b48bea024746"
    forms = FORMS

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        return _unfit(document) or "no_scope_object"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None or _unfit(document):
            return ()  # the reason is `no_site_reason`'s
        target, section = found
        return [Site(target, end) for end in _statement_paragraph_ends(section.text)]

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        text = section.text
        options = scope_provisions(scope_material(document), self_reference(document))
        if not options:
            return None
        line_start = text.rfind("\n", 0, site.detail) + 1
        own = [w for obj in scope_material(document).objects for w in words(obj)]
        # a sentence whose new wording is all the document's own words first: the rest recur in every release
        fresh = [
            (form, match_style(sentence, text))
            for form, sentence in options
            if not stock_ngrams(text[line_start : site.detail] + sentence, document, own)
        ]
        # the forms take turns over the documents of the release (`_turn`): a random one per document gave
        # one form to four of nine scopes; of the form's sentences, one of the document's own words where
        # there is one
        form = _turn(document, context, {f for f, _ in options})
        pool = [s for f, s in fresh if f == form] or [match_style(s, text) for f, s in options if f == form]
        sentence = rng.choice(pool)
        edit = Edit("modify", site.target, (Replacement("text", site.detail, "", sentence),))
        return Proposal(
            edit,
            error=f"{scope_name(section)}中加入了要求型条款“{sentence}”（能愿动词“应”），范围中不应含有要求",
            fix="删除该句，范围只陈述文件的对象和适用界限；要求在正文相应条款中表述",
            generator="rule-template",
            form=form,
        )


def _scp01(case: RewriteCase, answer: Answer) -> Failure | None:
    if has_provision(new_sentences(case.section.text, answer.rewritten_text)):
        return None
    return failure(
        "condition", "范围中没有出现新的要求型条款（含“应”的句子）", "no new provision in the scope"
    )


LLM = LLMSpec(
    prompt=PromptSpec(
        ERROR_TYPE.id,
        "2",
        no_material,
        lambda m: (
            "在范围中加入一句起草者可能误写进范围的要求型条款（含“应”的句子，例如要求范围所述对象符合本文件，"
            "不照抄正文的句子），使范围中含有要求。"
        ),
        works_without_template=True,
    ),
    budget=Budget(120, 0.7, 0.9, 3.0),
    condition=_scp01,
)


DEFINITION = TypeDefinition(ERROR_TYPE, ProvisionInScope, checks=(provision_in_scope,), llm=LLM)
