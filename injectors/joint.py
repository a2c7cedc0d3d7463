"""Whether an instance still holds on its final document, with all the document's other errors applied.

Each instance is verified alone; assembled, another instance may delete the term it is about, move its
clause or repair what it broke. On the final corrupted document

- a deterministic (D) type's checker fires at the instance's location; a D∆ type's diff checker (against
  the original) does;
- any other type's premise still stands: by default its location exists and still carries the text the
  instance wrote (a scope error also needs a scope); a type declares its own in its definition
  (`TypeDefinition.premise`, e.g. TER-03: the term it is about is still defined);
- its description, rendered on the final document, quotes only what that document says or what the
  instance itself replaced (`injectors.final_descriptions`).

The planner re-checks every chosen instance with `failure` and replaces the ones that no longer hold; the
audit's joint-validity check calls the same function, so there is one definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from injectors.checking import Violation, lint_at, lint_diff
from injectors.content_memo import ContentMemo
from injectors.edit import Applied, Edit, apply_edits, rename_all
from injectors.final_descriptions import finalized
from injectors.instance import ErrorInstance
from injectors.language.crossrefs import follow_renames
from injectors.language.terms import compact_key, defined_terms
from injectors.registry import definition
from parsers.model import Document, Section


class Located(Protocol):
    """What the re-check reads of an instance (an `ErrorInstance`, or one the audit read back)."""

    @property
    def error_type(self) -> str: ...
    @property
    def location(self) -> str: ...
    @property
    def edit(self) -> Edit: ...


def defined(document: Document) -> set[str]:
    """The compact keys of every term the document defines (with its synonyms and abbreviations)."""
    return {compact_key(v) for t in defined_terms(document) for v in t.variants}


def default_premise(
    instance: Located,
    final: Document,
    section: Section | None,
    renames: Sequence[tuple[str, str]] = (),
) -> str | None:
    """Why the instance no longer holds (None: it holds): its location is gone, or no longer carries
    the text the instance wrote (references in that text follow the document's structural renumbering,
    `renames`: `injectors.edit.followed_renames`)."""
    edit = instance.edit
    if edit.op == "remove":
        return None
    if section is None or section.number != instance.location:
        return f"location {instance.location} no longer exists"
    for r in edit.replacements:
        value = getattr(section, r.field, "")
        written = follow_renames(r.new, renames, rename_all) if r.field == "text" else r.new
        if written.strip() and written not in value:
            return f"its text {r.new[:20]!r} is no longer at {instance.location}"
    if instance.error_type.startswith("SCP") and not final.sections_of_kind("scope"):
        return "the document no longer has a scope"
    return None


def term_still_defined(
    instance: Located, final: Document, section: Section | None, renames: Sequence[tuple[str, str]] = ()
) -> str | None:
    """TER-03: the term whose form the instance changed is still defined (a chapter deletion may drop it)."""
    reason = default_premise(instance, final, section, renames)
    if reason:
        return reason
    terms = [r.old for r in instance.edit.replacements if r.field == "text" and r.old.strip()]
    known = defined(final)
    missing = [t for t in terms if compact_key(t) not in known]
    return f"the term {missing[0]!r} is no longer defined" if missing else None


def term_still_undefined(
    instance: Located, final: Document, section: Section | None, renames: Sequence[tuple[str, str]] = ()
) -> str | None:
    """TER-01: the term the instance introduced is still not defined (an added entry may define it)."""
    reason = default_premise(instance, final, section, renames)
    if reason:
        return reason
    added = [r.new for r in instance.edit.replacements if r.field == "text" and r.new.strip()]
    known = defined(final)
    now = [a for a in added if compact_key(a) in known]
    return f"the term {now[0]!r} is now defined" if now else None


def reads_diff(error_type: str) -> bool:
    """Whether `failure` judges this type by its diff checker (`diff`), not its checker or premise."""
    spec = definition(error_type).error_type
    return spec.diff_detectable and not spec.deterministic


def failure(
    instance: Located,
    original: Document,
    final: Document,
    found: Sequence[Violation],
    section: Section | None,
    renames: Sequence[tuple[str, str]] = (),
    diff: Sequence[Violation] | None = None,
) -> str | None:
    """Why an instance does not hold on its final document (None: it holds).

    `found` is the linter's output on `final` (at least for the instance's type), `section` where the
    instance's target now stands (None: removed), `renames` the renumbering references follow
    (`Applied.followed`); `diff`, when
    given, is `lint_diff(original, final)` for at least this type, computed once per document (diffing
    every changed section is the most expensive step).
    """
    spec = definition(instance.error_type)
    if spec.error_type.deterministic:
        if not any(v.error_type == instance.error_type and v.location == instance.location for v in found):
            return f"its checker no longer fires at {instance.location}"
        return None
    if spec.error_type.diff_detectable:
        if diff is None:
            diff = lint_diff(original, final, [instance.error_type])
        if not any(v.error_type == instance.error_type and v.location == instance.location for v in diff):
            return f"its diff checker no longer fires at {instance.location}"
        return None
    premise = spec.premise or default_premise
    return premise(instance, final, section, renames)


# Which of a set of instances no longer hold together, by their instance ids: the planner's corpus-wide
# choice may pass over the corpus several times, re-checking mostly the same sets, and linting each
# assembled document again was most of the choice.
_LOST: ContentMemo[tuple[str, ...], tuple[int, ...]] = ContentMemo(1 << 14)


def lost_in(original: Document, instances: Sequence[ErrorInstance]) -> list[ErrorInstance]:
    """Those of the instances that no longer hold on the document they make together, with the edits
    applied only when the set is new: the choice asks again for sets it has seen, and applying is most of
    an answer."""
    key = tuple(i.instance_id for i in instances)
    lost = _LOST.get(
        key, lambda: _failing(original, instances, apply_edits(original, [i.edit for i in instances]))
    )
    return [instances[k] for k in lost]


def kept_together(original: Document, instances: Sequence[ErrorInstance]) -> list[ErrorInstance]:
    """The instances left once those that no longer hold together are dropped, again until all hold."""
    kept = list(instances)
    while lost := lost_in(original, kept):
        kept = [i for i in kept if i not in lost]
    return kept


def _failing(original: Document, instances: Sequence[ErrorInstance], applied: Applied) -> tuple[int, ...]:
    # `failure` reads the checker's output for the deterministic types alone: lint only those
    # and only where those instances now stand
    deterministic = {i.error_type for i in instances if definition(i.error_type).error_type.deterministic}
    at = {loc for i, loc in zip(instances, applied.locations, strict=True) if i.error_type in deterministic}
    found = lint_at(applied.document, deterministic, at) if deterministic else []
    by_diff = {t for t in (i.error_type for i in instances) if reads_diff(t)}
    diff = lint_diff(original, applied.document, by_diff) if by_diff else []  # once per document
    _, stale = finalized(original, instances, applied)  # a description must hold as well as the error
    return tuple(
        k
        for k, (instance, location, section) in enumerate(
            zip(instances, applied.locations, applied.sections, strict=True)
        )
        if stale[k]
        or failure(
            replace(instance, location=location),
            original,
            applied.document,
            found,
            section,
            applied.followed,
            diff,
        )
    )
