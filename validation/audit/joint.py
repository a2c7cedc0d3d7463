"""Joint validity: every instance still holds on its final document, with all the others applied.

Each instance was verified alone; assembled, another instance may delete the term it is about, move its
clause or repair what it broke. On the final corrupted document:

- a deterministic (D) type's checker fires at the instance's location; a D∆ type's diff checker (against
  the original) does;
- any other type's premise still stands: its location exists and still carries the text the instance
  wrote; the term a term error is about is still defined (TER-03) or still undefined (TER-01); a scope
  error still has a scope to contradict.
"""

from __future__ import annotations

from dataclasses import dataclass

from injectors.checking import Violation, lint, lint_diff
from injectors.language.terms import compact_key, defined_terms
from injectors.registry import definition
from parsers.model import Document, Section
from validation.audit.release import AuditDocument, AuditInstance, Release
from validation.audit.replay import replay_document


@dataclass(frozen=True)
class JointFailure:
    instance_id: str
    doc_id: str
    error_type: str
    location: str
    reason: str


@dataclass(frozen=True)
class JointResult:
    instances: int
    failures: tuple[JointFailure, ...]

    @property
    def valid_share(self) -> float:
        return 1.0 if not self.instances else round(1 - len(self.failures) / self.instances, 4)

    def failures_of(self, error_type: str) -> list[JointFailure]:
        return [f for f in self.failures if f.error_type == error_type]


def _defined(document: Document) -> set[str]:
    return {compact_key(v) for t in defined_terms(document) for v in t.variants}


def premise_failure(
    instance: AuditInstance, original: Document, final: Document, section: Section | None
) -> str | None:
    """Why an instance of a non-deterministic type no longer holds on the final document (None: it holds).

    `section` is where the instance's target stands in the final document (None: nowhere).
    """
    edit = instance.edit
    if edit.op == "remove":
        return None if original.section(instance.location) is not None else "removed section unknown"
    if section is None or section.number != instance.location:
        return f"location {instance.location} no longer exists"
    for r in edit.replacements:
        value = getattr(section, r.field, "")
        if r.new.strip() and r.new not in value:
            return f"its text {r.new[:20]!r} is no longer at {instance.location}"
    if instance.error_type.startswith("SCP") and not final.sections_of_kind("scope"):
        return "the document no longer has a scope"
    if instance.error_type == "TER-03":
        terms = [r.old for r in edit.replacements if r.field == "text" and r.old.strip()]
        defined = _defined(final)
        missing = [t for t in terms if compact_key(t) not in defined]
        if missing:
            return f"the term {missing[0]!r} is no longer defined"
    if instance.error_type == "TER-01":
        added = [r.new for r in edit.replacements if r.field == "text" and r.new.strip()]
        defined = _defined(final)
        now_defined = [a for a in added if compact_key(a) in defined]
        if now_defined:
            return f"the term {now_defined[0]!r} is now defined"
    return None


def check_instance(
    instance: AuditInstance,
    original: Document,
    final: Document,
    found: list[Violation],
    section: Section | None,
    diff: list[Violation] | None = None,
) -> str | None:
    """`diff` (if given) is `lint_diff(original, final)` for at least this instance's type, computed once
    per document (a diff of every changed section is the audit's most expensive step)."""
    spec = definition(instance.error_type).error_type
    if spec.deterministic:
        if not any(v.error_type == instance.error_type and v.location == instance.location for v in found):
            return f"its checker no longer fires at {instance.location}"
        return None
    if spec.diff_detectable:
        if diff is None:
            diff = lint_diff(original, final, [instance.error_type])
        if not any(v.error_type == instance.error_type and v.location == instance.location for v in diff):
            return f"its diff checker no longer fires at {instance.location}"
        return None
    return premise_failure(instance, original, final, section)


def _diff_detectable(error_type: str) -> bool:
    try:
        spec = definition(error_type).error_type
    except KeyError:  # reported per instance below
        return False
    return spec.diff_detectable and not spec.deterministic


def check_document(document: AuditDocument) -> list[JointFailure]:
    final = document.corrupted
    types = {i.error_type for i in document.instances}
    found = lint(final, types) if types else []
    diff_types = sorted(t for t in types if _diff_detectable(t))
    diff = lint_diff(document.original, final, diff_types) if diff_types else []
    replayed = replay_document(document)
    failures = []
    for n, instance in enumerate(document.instances):
        section = replayed.section_of(n) if replayed.ok else final.section(instance.location)
        try:
            reason = check_instance(instance, document.original, final, found, section, diff)
        except KeyError:
            reason = f"unknown error type {instance.error_type}"
        if reason:
            failures.append(
                JointFailure(
                    instance.instance_id, instance.doc_id, instance.error_type, instance.location, reason
                )
            )
    return failures


def audit_joint(release: Release) -> JointResult:
    failures = [f for d in release.documents for f in check_document(d)]
    return JointResult(len(release.instances), tuple(failures))
