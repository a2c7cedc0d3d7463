"""The constraint validator that stands between every LLM answer and the dataset.

`validate` returns the list of failed constraints, each with a short code (counted per build) and a reason
in Chinese and English that the rewriter sends back to the model as feedback. An answer ships only when
the list is empty: valid JSON of the schema; a change confined to the target section and to the span it
declares, within the type's edit budget; no heading, clause number or 【…】 prefix added; no refusal or
apology; Chinese text; the type's own condition (the out-of-scope object really appears and is outside the
scope, the modal verb really changed, the defined term is really gone from that place …); and, through the
`confirm` callback, the type's deterministic checker and the absence of side effects.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import regex

from parsers.model import Document, Section


@dataclass(frozen=True)
class Failure:
    code: str  # short machine code: json, leaked_heading, refusal, budget, condition …
    message: str  # "中文说明（English）": the feedback the model gets


@dataclass(frozen=True)
class Answer:
    rewritten_text: str
    original_span: str
    rewritten_span: str
    description: str


@dataclass(frozen=True)
class Budget:
    """How much one error may change: characters, share of the text, and the length ratio."""

    max_changed: int
    max_distance: float  # changed characters / length of the longer text
    min_ratio: float
    max_ratio: float


# An insertion of a sentence (SCP-01/03, NMS-05 前言) needs room; a word swap (NMS-01/02, TER-03) none.
BUDGETS: dict[str, Budget] = {
    "SCP-01": Budget(120, 0.7, 0.9, 3.0),
    "SCP-03": Budget(120, 0.6, 0.9, 3.0),
    "SCP-04": Budget(60, 0.45, 0.9, 2.0),
    "SCP-05": Budget(80, 0.5, 0.5, 2.0),
    "NMS-01": Budget(20, 0.25, 0.8, 1.25),
    "NMS-02": Budget(20, 0.25, 0.8, 1.25),
    "NMS-05": Budget(90, 0.6, 0.9, 3.0),
    "TER-01": Budget(30, 0.35, 0.8, 1.6),
    "TER-02": Budget(300, 1.0, 0.3, 3.0),
    "TER-03": Budget(24, 0.35, 0.8, 1.4),
    "TER-04": Budget(40, 0.6, 0.7, 2.0),
}
DEFAULT_BUDGET = Budget(60, 0.4, 0.7, 1.8)


@dataclass(frozen=True)
class RewriteCase:
    """What an answer is judged against."""

    error_type: str
    document: Document
    position: int  # the target's position (TER-02: the entry the new one follows)
    section: Section  # the target before the rewrite
    material: Mapping[str, str]
    context_texts: tuple[str, ...] = ()
    inserted: bool = False  # TER-02: the target is a new section inserted after `position`

    def with_text(self, text: str) -> Document:
        """The document with the rewritten target in place (or inserted)."""
        sections = list(self.document.sections)
        new = replace(self.section, text=text)
        if self.inserted:
            sections.insert(self.position + 1, new)
        else:
            sections[self.position] = new
        return replace(self.document, sections=tuple(sections))


# --- patterns -------------------------------------------------------------------------------------------
_HEADING_LINE = regex.compile(
    r"^\s*(?:"
    r"\[\s*(?:\d+|[A-Z])(?:\.\d+)*\s*\]"  # [5.1] markers of LLM extractions
    r"|(?:\d+|[A-Z])(?:\.\d+)+\s+\S"  # 5.2.1 标题 / A.1 标题
    r"|\d{1,2}\s+\p{Han}{2,12}\s*$"  # 6 检验规则
    r"|第\s*[\d一二三四五六七八九十]+\s*[章条节]\s"
    r"|附录\s*[A-Z]\s*[（(]"
    r"|#{1,6}\s"
    r")"
)
_BRACKETED = regex.compile(r"【[^】\n]{0,40}】")
_REFUSAL = regex.compile(
    r"抱歉|对不起|很遗憾|我(?:不能|无法|不会|没法)|无法(?:帮助|协助|完成|提供|满足)|不能(?:帮助|协助|提供)"
    r"|作为(?:一个|一名)?(?:AI|人工智能|语言模型|助手)|我是(?:一个)?(?:AI|人工智能|语言模型)"
    r"|(?i:\bsorry\b|\bapolog|\bI\s+(?:can(?:no|')t|am\s+unable|won't|'m\s+unable)|\bas\s+an\s+AI\b|language\s+model)"
)
_ENGLISH_RUN = regex.compile(r"(?:\b[A-Za-z][A-Za-z'\-]*\b[\s,.;:]+){5,}\b[A-Za-z][A-Za-z'\-]*\b")
_HAN = regex.compile(r"\p{Han}")
_LATIN = regex.compile(r"[A-Za-z]")
_FENCE = regex.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", regex.S)


def _f(code: str, zh: str, en: str) -> Failure:
    return Failure(code, f"{zh}（{en}）")


# --- parsing ---------------------------------------------------------------------------------------------
def parse_answer(content: str) -> tuple[Answer | None, list[Failure]]:
    """The answer object, tolerating a ```json fence around it; anything else is a schema failure."""
    fenced = _FENCE.match(content)
    raw = fenced.group(1) if fenced else content.strip()
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, ValueError):
        if _REFUSAL.search(raw[:2000]):  # "抱歉，我无法…" in plain text is a refusal, not a format slip
            return None, [_f("refusal", "回答是拒绝或道歉，不是JSON对象；请直接完成改写", "a plain refusal")]
        return None, [_f("json", "回答不是有效的JSON对象", "the answer is not valid JSON")]
    span = data.get("changed_span") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("rewritten_text"), str)
        or not isinstance(data.get("description"), str)
        or not isinstance(span, dict)
        or not isinstance(span.get("original"), str)
        or not isinstance(span.get("rewritten"), str)
    ):
        return None, [
            _f(
                "schema",
                "JSON缺少字段或类型不对：需要rewritten_text、changed_span.original、changed_span.rewritten、description",
                "JSON does not match the schema",
            )
        ]
    return Answer(
        data["rewritten_text"], span["original"], span["rewritten"], data["description"].strip()
    ), []


# --- measures --------------------------------------------------------------------------------------------
def changed_region(before: str, after: str) -> tuple[int, int, int]:
    """(common prefix, end of the change in `before`, end of the change in `after`)."""
    limit = min(len(before), len(after))
    prefix = 0
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    return prefix, len(before) - suffix, len(after) - suffix


def diff_distance(before: str, after: str) -> int:
    """Characters changed (an upper bound of the edit distance, from difflib's opcodes)."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal")


def _new_lines(before: str, after: str) -> list[str]:
    old = {line.strip() for line in before.split("\n")}
    return [line for line in after.split("\n") if line.strip() and line.strip() not in old]


def _han_share(text: str) -> float:
    han = len(_HAN.findall(text))
    letters = han + len(_LATIN.findall(text))
    return han / letters if letters else 1.0


# --- the generic constraints ---------------------------------------------------------------------------
def check_text(case: RewriteCase, answer: Answer) -> list[Failure]:
    """Everything that does not depend on the error type."""
    before, after = case.section.text, answer.rewritten_text
    failures: list[Failure] = []
    if after == before:
        return [_f("unchanged", "正文没有任何改动", "the text is unchanged")]
    prefix, end_before, end_after = changed_region(before, after)
    added = after[prefix:end_after]
    new_lines = _new_lines(before, after)
    new_text = "\n".join([added, answer.rewritten_span, *new_lines])

    heading = case.section.heading.strip()
    if (
        any(_HEADING_LINE.match(line) for line in new_lines)
        or _BRACKETED.search(new_text)
        or (heading and after.lstrip().startswith(heading) and not before.lstrip().startswith(heading))
        or (case.section.title and after.lstrip().startswith(case.section.title + "\n"))
    ):
        failures.append(
            _f(
                "leaked_heading",
                "改写后的正文中加入了标题、章条编号或“【…】”前缀；只输出正文本身",
                "a heading, clause number or bracketed prefix was added",
            )
        )

    if _REFUSAL.search(new_text) or _REFUSAL.search(answer.description):
        failures.append(
            _f("refusal", "回答中含有拒绝或道歉的话语；请直接完成改写", "refusal or apology in the answer")
        )

    outside = [c for c in case.context_texts if answer.original_span and answer.original_span in c]
    copied = [
        line
        for line in new_lines
        if len(line.strip()) >= 8 and any(line.strip() in c for c in case.context_texts)
    ]
    if (answer.original_span and answer.original_span not in before and outside) or copied:
        failures.append(
            _f(
                "outside_target",
                "改动的不是目标章条（<target>）的正文，而是提供作参考的其他章条；只能修改<target>中的文字",
                "the edit is outside the target section",
            )
        )
    elif answer.original_span and answer.original_span not in before:
        failures.append(
            _f(
                "span_mismatch",
                "changed_span.original不是目标正文中的原文片段",
                "changed_span.original is not in the target text",
            )
        )
    elif answer.rewritten_span not in after:
        failures.append(
            _f(
                "span_mismatch",
                "changed_span.rewritten没有出现在rewritten_text中",
                "changed_span.rewritten is not in the rewritten text",
            )
        )
    elif not _covers(before, after, answer, prefix, end_before, end_after):
        failures.append(
            _f(
                "span_mismatch",
                "除changed_span声明的一处改动外，正文的其他地方也被改动了；其余文字须逐字保留",
                "text outside the declared span changed",
            )
        )

    budget = BUDGETS.get(case.error_type, DEFAULT_BUDGET)
    distance = diff_distance(before, after)
    longest = max(len(before), len(after), 1)
    ratio = len(after) / max(len(before), 1)
    if (
        distance > budget.max_changed
        or distance / longest > budget.max_distance
        or not budget.min_ratio <= ratio <= budget.max_ratio
    ):
        failures.append(
            _f(
                "budget",
                f"改动过大（改动{distance}字，长度比{ratio:.2f}；上限{budget.max_changed}字）；只做一处小的改动",
                "edit budget exceeded",
            )
        )

    if _ENGLISH_RUN.search(added) or (
        len(_HAN.findall(added)) + len(_LATIN.findall(added)) >= 8 and _han_share(added) < 0.5
    ):
        failures.append(_f("not_chinese", "改写的文字不是中文", "the rewritten text is not Chinese"))
    description = answer.description
    if not 4 <= len(description) <= 300 or not _HAN.search(description) or _han_share(description) < 0.5:
        failures.append(
            _f(
                "description",
                "description须是一句4～300字的中文说明",
                "description must be one Chinese sentence",
            )
        )
    elif not _names_change(description, before[prefix:end_before] + "\n" + added):
        failures.append(
            _f(
                "description",
                "description须引述改动的词语（改了什么、改成什么）",
                "description must quote the change",
            )
        )
    if "```" in after or regex.search(r'"\s*(?:rewritten_text|changed_span|description)"\s*:', after):
        failures.append(
            _f("format_residue", "rewritten_text中混入了JSON或代码块标记", "JSON or code fence in the text")
        )
    return failures


def _names_change(description: str, changed: str) -> bool:
    """The description quotes the change: it shares a word (two Han characters, or a Latin token) with it."""
    han = regex.findall(r"\p{Han}{2,}", changed)
    pairs = {w[i : i + 2] for w in han for i in range(len(w) - 1)}
    latin = set(regex.findall(r"[A-Za-z]{2,}", changed))
    if not pairs and not latin:  # a change of punctuation or a single character: nothing to quote
        return True
    return any(p in description for p in pairs) or any(t in description for t in latin)


def _covers(before: str, after: str, answer: Answer, prefix: int, end_before: int, end_after: int) -> bool:
    """The whole change lies inside one occurrence of the declared span (two characters of slack)."""
    slack = 2
    if answer.original_span:
        spans = [(m.start(), m.end()) for m in regex.finditer(regex.escape(answer.original_span), before)]
        return any(a - slack <= prefix and end_before <= b + slack for a, b in spans)
    spans = [(m.start(), m.end()) for m in regex.finditer(regex.escape(answer.rewritten_span), after)]
    return bool(answer.rewritten_span) and any(
        a - slack <= prefix and end_after <= b + slack for a, b in spans
    )


# --- the type's own condition --------------------------------------------------------------------------
Condition = Callable[[RewriteCase, Answer], "Failure | None"]


def _new_sentences(before: str, after: str) -> list[str]:
    from validation.rules.scope import sentences

    old = {s.text for s in sentences(before)}
    return [s.text for s in sentences(after) if s.text not in old]


def _has_provision(sentence_texts: list[str]) -> bool:
    from validation.rules.scope import provisions

    return any(provisions(s) for s in sentence_texts)


def _scp01(case: RewriteCase, answer: Answer) -> Failure | None:
    if _has_provision(_new_sentences(case.section.text, answer.rewritten_text)):
        return None
    return _f("condition", "范围中没有出现新的要求型条款（含“应”的句子）", "no new provision in the scope")


def outside_scope(obj: str, scope: str) -> bool:
    """The scope does not cover `obj`: it never names it, or names it only to exclude it (不适用于)."""
    from validation.rules.scope import sentences

    return all("不适用" in s.text for s in sentences(scope) if obj in s.text)


def _scp03(case: RewriteCase, answer: Answer) -> Failure | None:
    obj = case.material["object"]
    scope = "\n".join(s.text for s in case.document.sections if s.kind == "scope")
    new = [s for s in _new_sentences(case.section.text, answer.rewritten_text) if obj in s]
    if not outside_scope(obj, scope):
        return _f("condition", f"“{obj}”在范围之内", "the object is inside the scope")
    if not new or not _has_provision(new):
        return _f(
            "condition",
            f"改写后的句子没有对“{obj}”提出要求（须出现“{obj}”和“应”）",
            "the out-of-scope object is not regulated by a new sentence",
        )
    return None


def _body_text(document: Document) -> str:
    return "\n".join(
        f"{s.title}\n{s.text}"
        for s in document.sections
        if s.kind not in ("foreword", "introduction", "scope")
    )


def _scp04(case: RewriteCase, answer: Answer) -> Failure | None:
    aspect = case.material["aspect"]
    name = aspect.removesuffix("要求")
    if answer.rewritten_text.count(name) <= case.section.text.count(name):
        return _f("condition", f"范围中没有加入“{aspect}”", "the promised aspect was not added")
    if name in _body_text(case.document):
        return _f("condition", f"正文已经涉及“{name}”", "the body already treats the aspect")
    return None


def _scp05(case: RewriteCase, answer: Answer) -> Failure | None:
    from validation.rules.scope import APPLICABILITY

    before, after = case.section.text, answer.rewritten_text
    if case.material["variant"] == "qualifier":
        qualifier = case.material["qualifier"]
        if after.count(qualifier) >= before.count(qualifier):
            return _f("condition", f"限定语“{qualifier}”仍在", "the qualifier is still there")
        if not APPLICABILITY.search(after):
            return _f(
                "condition", "删掉了整个适用界限陈述，只应删去限定语", "the applicability sentence is gone"
            )
        return None
    obj = case.material["object"]
    new = [s for s in _new_sentences(before, after) if "不适用于" in s and obj in s]
    if not new:
        return _f("condition", f"没有新增排除“{obj}”的“不适用于”陈述", "no new exclusion of the object")
    return None


def _modal_shift(case: RewriteCase, answer: Answer, weaker: bool) -> Failure | None:
    from validation.rules.modality import PERMISSION, RECOMMENDATION, REQUIREMENT, modal_changes

    strength = {REQUIREMENT: 3, RECOMMENDATION: 2, PERMISSION: 1}
    changes = list(modal_changes(case.section.text, answer.rewritten_text))
    deltas = [strength[new] - strength[old] for _, old, _, new, _ in changes]
    wanted = [d for d in deltas if (d < 0 if weaker else d > 0)]
    if wanted and len(wanted) == len(deltas):
        return None
    if weaker:
        return _f(
            "condition", "没有把“应/不应”改为“宜/可/不宜”（能愿动词未被弱化）", "no modal verb was weakened"
        )
    return _f(
        "condition", "没有把“宜/可/不宜”改为“应/不应”（能愿动词未被强化）", "no modal verb was strengthened"
    )


def _nms05(case: RewriteCase, answer: Answer) -> Failure | None:
    from validation.rules.modality import provisions_in_informative_places

    def count(document: Document) -> int:
        number = case.section.number
        return sum(1 for s, *_ in provisions_in_informative_places(document) if s.number == number)

    if count(case.with_text(answer.rewritten_text)) > count(case.document):
        return None
    place = case.material.get("place", "注、示例或前言")
    return _f(
        "condition", f"{place}中没有出现新的“应/宜/可”条款", "no provision added to the informative place"
    )


def _ter01(case: RewriteCase, answer: Answer) -> Failure | None:
    from validation.rules.terminology import compact_key, document_text

    term = case.material["term"]
    if term not in answer.rewritten_text or term in case.section.text:
        return _f("condition", f"正文中没有用上术语“{term}”", "the undefined term is not used")
    if compact_key(term) in document_text(case.document):
        return _f(
            "condition", f"“{term}”在文件中已经出现或已界定", "the term already appears in the document"
        )
    return None


def _ter02(case: RewriteCase, answer: Answer) -> Failure | None:
    from validation.rules.terminology import compact_key, document_text

    term = case.material["term"]
    if compact_key(term) in document_text(case.document):
        return _f("condition", f"术语“{term}”在文件其他部分出现了", "the new term is used elsewhere")
    if term in answer.rewritten_text:
        return _f("condition", f"定义中重复了术语“{term}”", "the definition repeats the term")
    return None


def _ter03(case: RewriteCase, answer: Answer) -> Failure | None:
    from validation.rules.terminology import occurrences

    term = case.material["term"]

    def uses(document: Document) -> int:
        return sum(1 for o in occurrences(document) if o.position == case.position and o.form == term)

    if uses(case.with_text(answer.rewritten_text)) >= uses(case.document):
        return _f(
            "condition", f"本条中的术语“{term}”没有被改写为其他说法", "the defined term was not replaced"
        )
    return None


def _ter04(case: RewriteCase, answer: Answer) -> Failure | None:
    from validation.rules.terminology import defined_terms, definition_defects

    rewritten = case.with_text(answer.rewritten_text)
    entry = next((e for e in defined_terms(rewritten) if e.position == case.position), None)
    if entry is not None and definition_defects(entry):
        return None
    return _f(
        "condition",
        "定义中没有出现可检出的缺陷（以“是指/指”开头或重复术语）",
        "no detectable definition defect",
    )


CONDITIONS: dict[str, Condition] = {
    "SCP-01": _scp01,
    "SCP-03": _scp03,
    "SCP-04": _scp04,
    "SCP-05": _scp05,
    "NMS-01": lambda c, a: _modal_shift(c, a, weaker=True),
    "NMS-02": lambda c, a: _modal_shift(c, a, weaker=False),
    "NMS-05": _nms05,
    "TER-01": _ter01,
    "TER-02": _ter02,
    "TER-03": _ter03,
    "TER-04": _ter04,
}


def validate(
    case: RewriteCase, content: str, confirm: Callable[[Answer], list[Failure]] | None = None
) -> tuple[Answer | None, list[Failure]]:
    """All failed constraints of one answer (empty: it may ship); `confirm` runs the type's checker last."""
    answer, failures = parse_answer(content)
    if answer is None:
        return None, failures
    failures = check_text(case, answer)
    if failures:
        return answer, failures
    condition = CONDITIONS.get(case.error_type)
    failed = condition(case, answer) if condition else None
    if failed is not None:
        return answer, [failed]
    if confirm is not None:
        return answer, confirm(answer)
    return answer, []


def feedback(failures: list[Failure]) -> str:
    """The retry message: which constraints failed, in the model's language."""
    lines = "\n".join(f"- {f.message}" for f in failures)
    return f"上一次的回答未通过检查：\n{lines}\n请按原要求重新改写，只输出JSON对象。"
