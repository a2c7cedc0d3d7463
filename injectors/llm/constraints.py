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

from injectors.language.modal_diff import STRENGTH, modal_changes
from injectors.language.patterns import HAN, REFUSAL
from injectors.language.sentences import provisions, sentences
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
    # the type's own edit budget and condition on answers (its `LLMSpec`, handed down by the rewriter)
    budget: Budget = DEFAULT_BUDGET
    condition: Condition | None = None

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
_ENGLISH_RUN = regex.compile(r"(?:\b[A-Za-z][A-Za-z'\-]*\b[\s,.;:]+){5,}\b[A-Za-z][A-Za-z'\-]*\b")
_LATIN = regex.compile(r"[A-Za-z]")
_FENCE = regex.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", regex.S)


def failure(code: str, zh: str, en: str) -> Failure:
    return Failure(code, f"{zh}（{en}）")


# --- parsing ---------------------------------------------------------------------------------------------
def parse_answer(content: str) -> tuple[Answer | None, list[Failure]]:
    """The answer object, tolerating a ```json fence around it; anything else is a schema failure."""
    fenced = _FENCE.match(content)
    raw = fenced.group(1) if fenced else content.strip()
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, ValueError):
        if REFUSAL.search(raw[:2000]):  # "抱歉，我无法…" in plain text is a refusal, not a format slip
            return None, [
                failure("refusal", "回答是拒绝或道歉，不是JSON对象；请直接完成改写", "a plain refusal")
            ]
        return None, [failure("json", "回答不是有效的JSON对象", "the answer is not valid JSON")]
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
            failure(
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
    han = len(HAN.findall(text))
    letters = han + len(_LATIN.findall(text))
    return han / letters if letters else 1.0


def _apologises(text: str, section: str) -> bool:
    """A refusal or apology the section itself does not say: "距离无法满足时" in a clause is its own wording,
    and an answer that keeps or quotes it has not refused."""
    return any(m.group(0) not in section for m in REFUSAL.finditer(text))


# --- the generic constraints ---------------------------------------------------------------------------
def check_text(case: RewriteCase, answer: Answer) -> list[Failure]:
    """Everything that does not depend on the error type."""
    before, after = case.section.text, answer.rewritten_text
    failures: list[Failure] = []
    if after == before:
        return [failure("unchanged", "正文没有任何改动", "the text is unchanged")]
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
            failure(
                "leaked_heading",
                "改写后的正文中加入了标题、章条编号或“【…】”前缀；只输出正文本身",
                "a heading, clause number or bracketed prefix was added",
            )
        )

    if _apologises(new_text, before) or _apologises(answer.description, before):
        failures.append(
            failure(
                "refusal", "回答中含有拒绝或道歉的话语；请直接完成改写", "refusal or apology in the answer"
            )
        )

    outside = [c for c in case.context_texts if answer.original_span and answer.original_span in c]
    copied = [
        line
        for line in new_lines
        if len(line.strip()) >= 8 and any(line.strip() in c for c in case.context_texts)
    ]
    if (answer.original_span and answer.original_span not in before and outside) or copied:
        failures.append(
            failure(
                "outside_target",
                "改动的不是目标章条（<target>）的正文，而是提供作参考的其他章条；只能修改<target>中的文字",
                "the edit is outside the target section",
            )
        )
    elif answer.original_span and answer.original_span not in before:
        failures.append(
            failure(
                "span_mismatch",
                "changed_span.original不是目标正文中的原文片段",
                "changed_span.original is not in the target text",
            )
        )
    elif answer.rewritten_span not in after:
        failures.append(
            failure(
                "span_mismatch",
                "changed_span.rewritten没有出现在rewritten_text中",
                "changed_span.rewritten is not in the rewritten text",
            )
        )
    elif not _covers(before, after, answer, prefix, end_before, end_after):
        failures.append(
            failure(
                "span_mismatch",
                "除changed_span声明的一处改动外，正文的其他地方也被改动了；其余文字须逐字保留",
                "text outside the declared span changed",
            )
        )

    budget = case.budget
    distance = diff_distance(before, after)
    longest = max(len(before), len(after), 1)
    ratio = len(after) / max(len(before), 1)
    if (
        distance > budget.max_changed
        or distance / longest > budget.max_distance
        or not budget.min_ratio <= ratio <= budget.max_ratio
    ):
        failures.append(
            failure(
                "budget",
                f"改动过大（改动{distance}字，长度比{ratio:.2f}；上限{budget.max_changed}字）；只做一处小的改动",
                "edit budget exceeded",
            )
        )

    if _ENGLISH_RUN.search(added) or (
        len(HAN.findall(added)) + len(_LATIN.findall(added)) >= 8 and _han_share(added) < 0.5
    ):
        failures.append(failure("not_chinese", "改写的文字不是中文", "the rewritten text is not Chinese"))
    description = answer.description
    if not 4 <= len(description) <= 300 or not HAN.search(description) or _han_share(description) < 0.5:
        failures.append(
            failure(
                "description",
                "description须是一句4～300字的中文说明",
                "description must be one Chinese sentence",
            )
        )
    elif not _names_change(description, before[prefix:end_before] + "\n" + added):
        failures.append(
            failure(
                "description",
                "description须引述改动的词语（改了什么、改成什么）",
                "description must quote the change",
            )
        )
    if "```" in after or regex.search(r'"\s*(?:rewritten_text|changed_span|description)"\s*:', after):
        failures.append(
            failure(
                "format_residue", "rewritten_text中混入了JSON或代码块标记", "JSON or code fence in the text"
            )
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


def new_sentences(before: str, after: str) -> list[str]:
    old = {s.text for s in sentences(before)}
    return [s.text for s in sentences(after) if s.text not in old]


def has_provision(sentence_texts: list[str]) -> bool:
    return any(provisions(s) for s in sentence_texts)


def outside_scope(obj: str, scope: str) -> bool:
    """The scope does not cover `obj`: it never names it, or names it only to exclude it (不适用于)."""
    return all("不适用" in s.text for s in sentences(scope) if obj in s.text)


def body_text(document: Document) -> str:
    return "\n".join(
        f"{s.title}\n{s.text}"
        for s in document.sections
        if s.kind not in ("foreword", "introduction", "scope")
    )


def modal_shift(case: RewriteCase, answer: Answer, weaker: bool) -> Failure | None:
    changes = list(modal_changes(case.section.text, answer.rewritten_text))
    deltas = [STRENGTH[new] - STRENGTH[old] for _, old, _, new, _ in changes]
    wanted = [d for d in deltas if (d < 0 if weaker else d > 0)]
    if wanted and len(wanted) == len(deltas):
        return None
    if weaker:
        return failure(
            "condition", "没有把“应/不应”改为“宜/可/不宜”（能愿动词未被弱化）", "no modal verb was weakened"
        )
    return failure(
        "condition", "没有把“宜/可/不宜”改为“应/不应”（能愿动词未被强化）", "no modal verb was strengthened"
    )


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
    failed = case.condition(case, answer) if case.condition else None
    if failed is not None:
        return answer, [failed]
    if confirm is not None:
        return answer, confirm(answer)
    return answer, []


def feedback(failures: list[Failure]) -> str:
    """The retry message: which constraints failed, in the model's language."""
    lines = "\n".join(f"- {f.message}" for f in failures)
    return f"上一次的回答未通过检查：\n{lines}\n请按原要求重新改写，只输出JSON对象。"
