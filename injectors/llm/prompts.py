"""Versioned prompts for the semantic error types: the target section plus the least context the type needs.

A prompt never carries the whole document: only the section to rewrite, and per type the scope text
(SCP-03), the list of defined terms (TER-01/02/03) or the document title (TER-02). The rule template
proposed for the same site is shown as a mechanical example, and it also fixes the type's material (the
out-of-scope object, the promised aspect, the undefined term …) that the validator then requires.
The answer is one JSON object: {"rewritten_text", "changed_span": {"original", "rewritten"}, "description"}.
A prompt id carries the version of the shared system text and of the type's task; the id enters the
cache key and the instance provenance, so changing a prompt never reuses an old answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from injectors.base import Proposal, Site
from injectors.context import InjectionContext
from injectors.edit import Replacement
from injectors.language.terms import defined_terms
from parsers.model import Document, Section

SYSTEM_VERSION = "1"
MAX_TARGET_CHARS = 3000  # a longer section keeps its rule template: the answer would repeat all of it

SYSTEM = "\n".join(
    (
        "你在为标准审查能力评测制作数据：在一份中国标准的一个章条中，按要求引入一处指定类型的起草错误，"
        "使它读起来像起草人无意中犯下的错误。",
        "规则：",
        "1. 只改写<target>中的正文；不改动章条编号和标题，不添加任何标题、章条编号或方括号前缀。",
        "2. 只做一处改动（一个词到一句话），其余文字逐字保留，包括换行和标点。",
        "3. 使用规范的中文书面语，与原文风格一致。",
        "4. 只输出一个JSON对象，不输出其他任何内容：",
        '{"rewritten_text": "改写后的完整正文", '
        '"changed_span": {"original": "被改动的原文片段（纯插入时为空字符串）", '
        '"rewritten": "改写后的对应片段"}, '
        '"description": "一句中文：在哪里把什么改成了什么，错在哪里"}',
    )
)

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "rewritten_text": {"type": "string"},
        "changed_span": {
            "type": "object",
            "properties": {"original": {"type": "string"}, "rewritten": {"type": "string"}},
            "required": ["original", "rewritten"],
            "additionalProperties": False,
        },
        "description": {"type": "string"},
    },
    "required": ["rewritten_text", "changed_span", "description"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class PromptInput:
    """What a prompt is built from: the site and the rule template proposed there (None: none fits)."""

    document: Document
    site: Site
    template: Proposal | None
    context: InjectionContext


@dataclass(frozen=True)
class Prompt:
    error_type: str
    prompt_id: str
    messages: tuple[dict[str, str], ...]
    section: Section  # the target as it stands before the rewrite (TER-02: the template's new entry)
    position: int  # its position in the document (TER-02: the entry after which it is inserted)
    material: Mapping[str, str]  # what the type's condition requires (object, aspect, term …)
    context_texts: tuple[str, ...] = ()  # passages of other sections shown to the model


@dataclass(frozen=True)
class PromptSpec:
    """One type's prompt: its task text from the material, and the material from the site and template."""

    error_type: str
    version: str
    material: Callable[[PromptInput], dict[str, str] | None]
    task: Callable[[Mapping[str, str]], str]
    context: Callable[[PromptInput, Mapping[str, str]], dict[str, str]] = field(default=lambda i, m: {})
    works_without_template: bool = False  # the material can be found without a template's edit
    rewrites_insertion: bool = False  # the target is the section the template inserts (a new term entry)

    @property
    def prompt_id(self) -> str:
        return f"{self.error_type}@s{SYSTEM_VERSION}.t{self.version}"


# --- helpers -------------------------------------------------------------------------------------------
_QUOTED = re.compile(r"“([^”]{1,40})”")
_STOPS = "。；！？\n"


def text_replacement(template: Proposal | None) -> Replacement | None:
    """The template's first replacement in the section text (the edit a rule template makes)."""
    if template is None or template.edit.op != "modify":
        return None
    return next((r for r in template.edit.replacements if r.field == "text"), None)


def example_spans(text: str, replacement: Replacement) -> tuple[str, str]:
    """The template's change widened to its sentence, so that the example is unique in the target text."""
    start, end = replacement.start, replacement.start + len(replacement.old)
    left, right = start, end
    while left > 0 and text[left - 1] not in _STOPS and start - left < 40:
        left -= 1
    while right < len(text) and text[right] not in _STOPS and right - end < 40:
        right += 1
    if right < len(text) and text[right] in "。；！？":
        right += 1
    if left == right:  # an insertion at a paragraph end: show the sentence before it
        left = max(0, start - 1)
        while left > 0 and text[left - 1] not in _STOPS and start - left < 60:
            left -= 1
    original = text[left:right]
    rewritten = text[left:start] + replacement.new + text[end:right]
    return original, rewritten


def quoted_in(template: Proposal, inside: str, accept: Callable[[str], bool] = bool) -> str | None:
    """A word the template's description quotes that its edit wrote in (the object, aspect, term …)."""
    for q in _QUOTED.findall(template.error):
        if q in inside and q.strip() != inside.strip() and accept(q):
            return q
    return None


def scope_text(document: Document) -> str:
    scope = next(
        (s for s in document.sections if s.kind == "scope" and s.level == 1 and s.text.strip()), None
    )
    return scope.text if scope else ""


def defined_term_list(document: Document) -> str:
    return "、".join(dict.fromkeys(e.term for e in defined_terms(document)))


def informative_place(section: Section, at: int | None) -> str:
    """Where an NMS-05 provision goes: 前言, the 注 or 示例 holding offset `at`, else 资料性附录."""
    if section.kind == "foreword":
        return "前言"
    lines = section.text.split("\n")
    offset = 0
    kinds = []
    for line in lines:
        kind = (
            "注" if re.match(r"^\s*注\s*\d*\s*[：:]", line) else "示例" if re.match(r"^\s*示例", line) else ""
        )
        if at is not None and offset <= at <= offset + len(line):
            return kind or "资料性附录"
        if kind:
            kinds.append(kind)
        offset += len(line) + 1
    return kinds[0] if kinds else "资料性附录"


# --- material per type ---------------------------------------------------------------------------------
def no_material(_: PromptInput) -> dict[str, str]:
    return {}


def terms_context(i: PromptInput, m: Mapping[str, str]) -> dict[str, str]:
    return {"terms": defined_term_list(i.document)}


def _block(tag: str, text: str) -> str:
    return f"<{tag}>\n{text}\n</{tag}>"


def build_prompt(spec: PromptSpec, data: PromptInput, type_name: str) -> Prompt | None:
    """The messages for one site (`type_name`: the type's Chinese name, from its taxonomy row); None when the
    type's material cannot be found there."""
    material = spec.material(data)
    if material is None or (data.template is None and not spec.works_without_template):
        return None
    document = data.document
    if spec.rewrites_insertion:
        assert data.template is not None and data.template.edit.inserted is not None
        section = data.template.edit.inserted
        position = data.template.edit.target
    else:
        section = document.sections[data.site.target]
        position = data.site.target
    if not section.text.strip() or len(section.text) > MAX_TARGET_CHARS:
        return None
    context = spec.context(data, material)
    parts = [
        f"错误类型：{spec.error_type} {type_name}",
        f"要求：{spec.task(material)}",
    ]
    for tag, text in context.items():
        if text:
            parts.append(_block(tag, text))
    replacement = text_replacement(data.template)
    if replacement is not None:
        original, rewritten = example_spans(section.text, replacement)
        parts.append("参考改法（机械示例，可以写得更自然，但须满足同样的要求）：")
        parts.append(_block("example_original", original))
        parts.append(_block("example_rewritten", rewritten))
    parts.append(f"目标章条：{section.heading}")
    parts.append(_block("target", section.text))
    messages = ({"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(parts)})
    context_texts = tuple(t for tag, t in context.items() if tag == "scope" and t)
    return Prompt(spec.error_type, spec.prompt_id, messages, section, position, material, context_texts)
