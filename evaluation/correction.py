"""Verified correction: a corrected section is scored by the error type's own checker, not by string match.

Exact match against the original section punishes every valid rewording and rewards nothing a checker could
verify. Here the model's section replaces its target in the corrupted document, then:

- fixed: the instance no longer holds on that document, judged exactly as the build judges its instances
  (`injectors.joint.failure`: the type's checker, its diff checker against the original, or its premise);
- clean: nothing new fires: the linter and the diff checkers find no (location, type) on the corrected
  document that they did not find on the corrupted one;
- kept: the answer still says what the section says (chrF ≥ KEPT against the original section), so that
  emptying the section, which removes any error, is no correction;
- verified = fixed and clean and kept.

Beside it, chrF against the original section (sacrebleu's, character n-grams: a fair closeness measure for
Chinese) and exact match, so that the three can be compared.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from injectors.checking import Violation, lint, lint_at, lint_diff
from injectors.edit import followed_renames
from injectors.joint import failure
from injectors.registry import definition, definitions
from parsers.model import Section
from parsers.numbering import parse_heading
from validation.audit.release import AuditDocument, AuditInstance, load_release
from validation.audit.replay import replay_document

# the least chrF against the original section an answer keeps: a valid rewording and a no-op sit near 1,
# a section emptied or replaced by other text near 0
KEPT = 0.5
_EDGE = "\x00"  # marks a field's start and end when a wording is looked up with its context
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n(.*?)\n?```\s*$", re.S)


@dataclass(frozen=True)
class CorrectionScore:
    instance_id: str
    error_type: str
    fixed: bool  # the instance no longer holds
    introduced: tuple[str, ...]  # "location error_type" of what newly fires
    exact: bool
    chrf: float  # 0..1

    @property
    def kept(self) -> bool:
        """The answer still says what the section says: an answer that throws the section away, or writes
        something else, removes the error too, and is no correction."""
        return self.chrf >= KEPT

    @property
    def verified(self) -> bool:
        return self.fixed and not self.introduced and self.kept

    def to_dict(self) -> dict[str, Any]:
        return {
            "instance_id": self.instance_id,
            "error_type": self.error_type,
            "verified": self.verified,
            "fixed": self.fixed,
            "introduced": list(self.introduced),
            "kept": self.kept,
            "exact_match": self.exact,
            "chrf": self.chrf,
        }


def chrf(hypothesis: str, reference: str) -> float:
    """sacrebleu's sentence chrF (character 6-grams, β = 2) on a 0..1 scale."""
    from sacrebleu.metrics import CHRF

    return float(CHRF().sentence_score(hypothesis, [reference]).score) / 100.0


def _plain(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines() if line.strip())


def answer_section(target: Section, answer: str) -> Section:
    """The model's answer as the section it rewrites: the first line its heading (number and title, read as
    the parser reads headings, so a corrected number counts), the rest its text. An answer whose first line
    is no heading keeps the target's heading: all of it is text, or the first line is the bare title."""
    text = answer.strip()
    fenced = _FENCE.match(text)
    if fenced is not None:
        text = fenced.group(1).strip()
    lines = text.splitlines()
    if not lines:
        return replace(target, text="")
    body = "\n".join(lines[1:]).strip()
    heading = parse_heading(lines[0])
    if heading is not None:
        title = heading.title or (heading.number if heading.number == target.title else "")
        if heading.rest and _squeezed(heading.rest) == _squeezed(target.title):
            title = heading.rest.strip()  # a title longer than the parser's (a term with its English name)
        elif heading.rest:  # an untitled clause number with its first sentence on the same line
            body = f"{heading.rest}\n{body}".strip()
        marker = heading.annex_marker or target.annex_marker if heading.is_annex else target.annex_marker
        return replace(target, number=heading.number, title=title, text=body, annex_marker=marker)
    if lines[0].strip() == target.title:
        return replace(target, text=body)
    return replace(target, text=text)


def _keys(violations: Iterable[Violation]) -> Counter[tuple[str, str]]:
    return Counter((v.location, v.error_type) for v in violations)


def _diff_types() -> list[str]:
    return [d.error_type.id for d in definitions() if d.diff_checks]


def _windows(instance: AuditInstance) -> list[tuple[str, str]]:
    """(field, the wording the instance wrote with enough context that the original does not hold it)."""
    before, after = instance.original_section, instance.corrupted_section
    if before is None or after is None:
        return []
    out = []
    for r in instance.edit.replacements:
        if r.field not in ("title", "text"):
            continue
        # the field's ends count as context: an edit at the very start is told from the original by it
        original, corrupted = (
            _EDGE + getattr(before, r.field, "") + _EDGE,
            _EDGE + getattr(after, r.field, "") + _EDGE,
        )
        start = r.start + len(_EDGE)
        for k in (4, 8, 16, 32):
            window = corrupted[max(0, start - k) : start + len(r.new) + k]
            if window and window not in original:
                out.append((r.field, window))
                break
    return out


def _wording_gone(instance: AuditInstance, corrected: Section) -> bool:
    """A judgement type (no checker decides it on the document): the instance's own wording, with its
    context, is no longer in the section. A no-op keeps it; the original wording, or any rewording of the
    place, drops it."""
    windows = _windows(instance)
    if not windows:
        return False
    return all(_squeezed(w) not in _squeezed(_EDGE + getattr(corrected, f, "") + _EDGE) for f, w in windows)


def _squeezed(text: str) -> str:
    return "".join(text.split())


def verify(
    document: AuditDocument, index: int, answer: str, reference: str, target: Section | None = None
) -> CorrectionScore:
    """Score the model's `answer` for the `index`-th instance of `document` (`reference`: the task's
    answer, the original section as the reader should see it)."""
    instance = document.instances[index]
    final = document.corrupted
    if target is None:
        replayed = replay_document(document)
        target = replayed.section_of(index) if replayed.ok else final.section(instance.location)
    exact = _plain(answer) == _plain(reference)
    closeness = chrf(_plain(answer), _plain(reference))
    if target is None:  # the instance's section is gone (never for a correction row)
        return CorrectionScore(instance.instance_id, instance.error_type, False, (), exact, closeness)
    position = final.sections.index(target)
    corrected_section = answer_section(target, answer)
    sections = list(final.sections)
    sections[position] = corrected_section
    corrected = replace(final, sections=tuple(sections))
    kind = definition(instance.error_type).error_type
    if kind.deterministic or kind.diff_detectable:
        renames = followed_renames(i.edit for i in document.instances)
        found = lint_at(corrected, [instance.error_type], {corrected_section.number})
        fixed = failure(instance, document.original, corrected, found, corrected_section, renames) is not None
    else:
        fixed = _wording_gone(instance, corrected_section)
    diff_types = _diff_types()
    before = _keys(lint(final)) + _keys(lint_diff(document.original, final, diff_types))
    after = _keys(lint(corrected)) + _keys(lint_diff(document.original, corrected, diff_types))
    new = sorted(f"{loc} {kind}" for loc, kind in (after - before).elements())
    return CorrectionScore(instance.instance_id, instance.error_type, fixed, tuple(new), exact, closeness)


class CorrectionInputError(ValueError):
    """A release or an answers file the correction scorer cannot read; the message names it."""


@dataclass(frozen=True)
class _Case:
    document: AuditDocument
    index: int
    reference: str


def _cases(release_dir: Path) -> dict[str, _Case]:
    """Every correction row of the release (instance id → its document, instance and reference answer)."""

    rows_file = release_dir / "instructions" / "correction_zero_shot.jsonl"
    if not rows_file.is_file():
        raise CorrectionInputError(f"{release_dir}: no correction task ({rows_file.name} missing)")
    references: dict[str, str] = {}
    for line in rows_file.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            references[_instance_key(str(row["id"]))] = str(row["answer"])
    cases: dict[str, _Case] = {}
    for document in load_release(release_dir).documents:
        for index, instance in enumerate(document.instances):
            if instance.instance_id in references:
                cases[instance.instance_id] = _Case(document, index, references[instance.instance_id])
    return cases


def _instance_key(row_id: str) -> str:
    """A correction row's id ("correction_zero_shot_<instance id>") → the instance id."""
    return re.sub(r"^correction_(?:zero|one)_shot_", "", row_id)


@functools.lru_cache(maxsize=4)
def release_cases(release_dir: Path) -> Mapping[str, _Case]:
    """A release's correction cases, read once per process (lm-eval scores its rows one at a time)."""
    return _cases(release_dir)


def verify_row(release_dir: Path | str, row_id: str, answer: str) -> CorrectionScore:
    """One correction row (by its id) of the release in `release_dir`; KeyError for an unknown row."""
    case = release_cases(Path(release_dir).resolve())[_instance_key(row_id)]
    return verify(case.document, case.index, answer, case.reference)


def score_corrections(release_dir: Path | str, answers: Mapping[str, str]) -> dict[str, Any]:
    """Verified, fixed, clean, exact-match and chrF figures over the answered correction rows, overall and
    by type; `answers` maps a row id or instance id to the model's text. Rows not answered are counted."""
    cases = release_cases(Path(release_dir).resolve())
    unknown = sorted(k for k in answers if _instance_key(k) not in cases)
    scored = [
        verify(cases[key].document, cases[key].index, text, cases[key].reference)
        for key, text in ((_instance_key(k), v) for k, v in answers.items())
        if key in cases
    ]
    kinds = sorted({s.error_type for s in scored})
    return {
        "rows": len(cases),
        "answered": len(scored),
        "missing": len(cases) - len(scored),
        "unknown": unknown,
        "overall": _summary(scored),
        "by_type": {t: _summary([s for s in scored if s.error_type == t]) for t in kinds},
        "items": [s.to_dict() for s in scored],
    }


def _summary(scores: Sequence[CorrectionScore]) -> dict[str, float | int]:
    n = len(scores)
    if not n:
        return {"n": 0, "verified": 0.0, "fixed": 0.0, "clean": 0.0, "exact_match": 0.0, "chrf": 0.0}
    return {
        "n": n,
        "verified": sum(s.verified for s in scores) / n,
        "fixed": sum(s.fixed for s in scores) / n,
        "clean": sum(not s.introduced for s in scores) / n,
        "exact_match": sum(s.exact for s in scores) / n,
        "chrf": sum(s.chrf for s in scores) / n,
    }
