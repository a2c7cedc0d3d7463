"""Joint validity: every instance still holds on its final document, with all the others applied.

The judgement is `injectors.joint.failure`, the one the planner re-checks its chosen instances with: the
checker (D), the diff checker (D∆) or the type's premise (the term, clause or section it is about still
exists with the text it wrote); and, as the planner's assembly does, its description quotes only what the
final document says (`injectors.final_descriptions.misquoted`), and what it quotes from another section
stands in that section (`misattributed`).
"""

from __future__ import annotations

from dataclasses import dataclass

from injectors.checking import lint_at, lint_diff
from injectors.edit import followed_renames
from injectors.final_descriptions import document_text, misattributed, misquoted
from injectors.joint import failure
from injectors.registry import definition
from validation.audit.release import AuditDocument, Release
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


def _diff_detectable(error_type: str) -> bool:
    try:
        spec = definition(error_type).error_type
    except KeyError:  # reported per instance below
        return False
    return spec.diff_detectable and not spec.deterministic


def check_document(document: AuditDocument) -> list[JointFailure]:
    final = document.corrupted
    types = {i.error_type for i in document.instances}
    # `failure` reads the checkers' findings where the instances stand, and nowhere else
    found = lint_at(final, types, {i.location for i in document.instances}) if types else []
    diff_types = sorted(t for t in types if _diff_detectable(t))
    diff = lint_diff(document.original, final, diff_types) if diff_types else []
    replayed = replay_document(document)
    renames = followed_renames(i.edit for i in document.instances)
    whole = document_text(final)
    failures = []
    for n, instance in enumerate(document.instances):
        section = replayed.section_of(n) if replayed.ok else final.section(instance.location)
        try:
            reason = failure(instance, document.original, final, found, section, renames, diff)
        except KeyError:
            reason = f"unknown error type {instance.error_type}"
        if not reason and instance.description:
            own = instance.original_section
            reason = misquoted(instance.description, whole, instance.edit, own, own) or misattributed(
                instance.description, final, instance.location
            )
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
