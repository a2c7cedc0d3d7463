"""Expert review: what each agent family is asked, as prompts built from data and the parsed sections.

The prompts are Chinese templates beside this module (`prompts/<family>.md`, plus the output schema they all
state). Each LLM agent sees the document's own sections and the taxonomy's rows for its scope:

- direct: the whole document, every dimension (one call per part of the document);
- dimension: the whole document, one dimension's types (one call per dimension and part);
- type: for each type that a checker cannot decide on the corrupted document alone (the taxonomy's
  non-deterministic rows), only that type's high-risk points and the document's outline;
- rules: no LLM: the project's linter, whose checkers are the computable cues (modal verbs, the term index,
  numbering, reference relations) — see `scanner_candidates`.

A long document is cut into parts at section boundaries so that no prompt exceeds `max_chars` of document.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from string import Template

from evaluation.reviewer.fusion import FAMILIES, Candidate
from injectors.edition import edition
from injectors.taxonomy import DIMENSIONS, ErrorType, types
from parsers.model import Document, Section
from parsers.render import render_text
from validation.linter import lint

PROMPTS = Path(__file__).with_name("prompts")
PROMPT_VERSION = "2"  # a new prompt text gets a new version, hence new cache keys
DEFAULT_MAX_CHARS = 10_000
LLM_FAMILIES = ("direct", "dimension", "type")


class AgentsError(ValueError):
    """An --agents value naming no known family."""


def parse_families(value: str) -> tuple[str, ...]:
    """ "direct,rules" → ("direct", "rules") in the canonical order; every name must be a family."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [n for n in names if n not in FAMILIES]
    if unknown or not names:
        raise AgentsError(f"--agents takes a comma-separated subset of {','.join(FAMILIES)}, not {value!r}")
    return tuple(f for f in FAMILIES if f in names)


@dataclass(frozen=True)
class AgentCall:
    """One LLM call of one agent on one part of one document."""

    doc_id: str
    family: str
    agent: str  # "direct", "dimension:NMS", "type:SCP-03"
    part: str  # "1/1", "2/3": which part of the document the prompt holds
    prompt: str

    @property
    def prompt_id(self) -> str:
        return f"gbtbench-reviewer@{PROMPT_VERSION}:{self.agent}"


@functools.cache
def _template(name: str) -> Template:
    return Template((PROMPTS / f"{name}.md").read_text(encoding="utf-8").strip())


def _type_lines(rows: Iterable[ErrorType], drafting_rules: str) -> str:
    return "\n".join(f"{t.id} {t.name_zh}（{t.rule_for(drafting_rules)}）" for t in rows)


def _parts(document: Document, sections: Sequence[Section], max_chars: int) -> list[str]:
    """The sections rendered in consecutive parts of at most `max_chars` (a longer section is cut)."""
    parts: list[str] = []
    current: list[Section] = []
    size = 0
    for section in sections:
        length = len(section.heading) + len(section.text) + 2
        if current and size + length > max_chars:
            parts.append(render_text(replace(document, sections=tuple(current))))
            current, size = [], 0
        current.append(section)
        size += length
    if current:
        parts.append(render_text(replace(document, sections=tuple(current))))
    return [p if len(p) <= max_chars else p[:max_chars] + "\n（以下从略）" for p in parts]


_MODAL = re.compile(r"应|宜|可以|可|不得|不应|不宜|必须|需要|需|能够|能")
_STANDARD_NUMBER = re.compile(r"\b(?:GB|GB/T|GB/Z|[A-Z]{1,4}/[TZ]|[A-Z]{2,4})\s*\d")


def _terms(document: Document) -> list[str]:
    return [
        s.title for s in document.sections if s.kind == "terms" and s.level > 1 and len(s.title or "") >= 2
    ]


def high_risk_points(document: Document, kind: ErrorType) -> tuple[Section, ...]:
    """Where an error of `kind` would most likely sit: the sections its dimension's rules concern."""
    sections = document.sections
    if kind.dimension == "SCP":
        picked = [s for s in sections if s.kind in ("scope", "introduction")]
    elif kind.dimension == "NMS":
        quiet = ("terms", "normative_references")
        picked = [s for s in sections if s.kind not in quiet and _MODAL.search(s.text)]
    elif kind.dimension == "TER":
        names = _terms(document)
        picked = [s for s in sections if s.kind in ("terms", "symbols") or any(n in s.text for n in names)]
    elif kind.dimension == "NREF":
        picked = [s for s in sections if s.kind == "normative_references" or _STANDARD_NUMBER.search(s.text)]
    else:
        picked = list(sections)
    return tuple(picked)


def _schema() -> str:
    return _template("schema").template


def plan_calls(
    document: Document, families: Sequence[str], *, max_chars: int = DEFAULT_MAX_CHARS
) -> list[AgentCall]:
    """Every LLM call the chosen families make on `document`, in a fixed order."""
    rules = edition(document)  # the edition every description of this document cites
    dimensions_line = "、".join(f"{code}（{zh}）" for code, (zh, _) in DIMENSIONS.items())
    whole = _parts(document, document.sections, max_chars)
    calls: list[AgentCall] = []

    def add(family: str, agent: str, parts: list[str], **fields: str) -> None:
        """One call per part, the family's template filled with `fields`, the part and its label."""
        for n, part in enumerate(parts, 1):
            label = f"{n}/{len(parts)}"
            prompt = _template(family).substitute(
                fields, part=f"第{label}部分", schema=_schema(), document=part
            )
            calls.append(AgentCall(document.doc_id, family, agent, label, prompt))

    if "direct" in families:
        add("direct", "direct", whole, dimensions=dimensions_line, types=_type_lines(types(), rules))
    if "dimension" in families:
        for code, (zh, _) in DIMENSIONS.items():
            scoped = _type_lines((t for t in types() if t.dimension == code), rules)
            add("dimension", f"dimension:{code}", whole, dimension=code, dimension_name=zh, types=scoped)
    if "type" in families:
        outline = "\n".join(s.heading for s in document.sections)[: max_chars // 4]
        for kind in types():
            if kind.deterministic:
                continue  # the scanners decide it on the corrupted document alone
            points = high_risk_points(document, kind)
            if points:
                add(
                    "type",
                    f"type:{kind.id}",
                    _parts(document, points, max_chars),
                    type_id=kind.id,
                    type_name=kind.name_zh,
                    rule=kind.rule_for(rules),
                    outline=outline,
                )
    return calls


def scanner_candidates(document: Document) -> list[Candidate]:
    """The rule scanners: every violation the project's linter finds on the document, as candidates."""
    return [
        Candidate("rules", f"rules:{v.dimension}", v.location, v.error_type, v.message, 1.0)
        for v in lint(document)
    ]
