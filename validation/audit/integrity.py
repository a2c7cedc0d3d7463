"""Cross-reference integrity of the corrupted documents: nothing an instance did not mean to break is broken.

The instances' edits are replayed on the original with each section tagged by its original position, so
for every reference in a corrupted section we know whether it was already in the original section and
what it pointed at then. A reference is broken when

- it points at nothing in the corrupted document ("见5.3" after 5.3 was deleted), or
- it was carried over unchanged while the section it pointed at was renumbered or removed ("按8.4测得"
  after chapter 6 was deleted and 8 became 7: it now points at the wrong clause, or at none).

A broken reference is *explained* when an instance broke it on purpose: it stands in text that instance
wrote, or it points at a section or caption whose number that instance changed by editing the heading or
caption itself (a numbering error). It is *pre-existing* when the original already had it unresolved.
Everything else is unexplained; the goal is none.
"""

from __future__ import annotations

from dataclasses import dataclass

from injectors.language.crossrefs import captions, section_crossrefs, targets
from validation.audit.release import AuditDocument, Release
from validation.audit.replay import replay_document

NUMBERED_KINDS = ("clause", "chapter", "annex")


@dataclass(frozen=True)
class BrokenReference:
    doc_id: str
    section: str  # number of the corrupted section it stands in
    quote: str
    target: str
    problem: str  # "unresolved" | "renumbered to X" | "target removed"
    status: str  # unexplained | explained | pre-existing
    instance_id: str = ""  # the instance that explains it


@dataclass(frozen=True)
class IntegrityResult:
    references: int
    broken: tuple[BrokenReference, ...]
    replay_failures: tuple[str, ...]  # documents whose edits did not replay to the published text

    def by_status(self, status: str) -> list[BrokenReference]:
        return [b for b in self.broken if b.status == status]


def _written_spans(document: AuditDocument) -> tuple[dict[str, list[tuple[int, int, str]]], dict[str, str]]:
    """Where each instance's own text stands in the corrupted sections, and the numbers it changed itself.

    Spans are offsets in the corrupted section's text: the replacements of all instances in one section
    are applied left to right, each shifting the ones after it.
    """
    written: dict[str, list[tuple[int, int, str]]] = {}
    renumbered: dict[str, str] = {}
    by_target: dict[int, list[tuple[int, int, int, str, str]]] = {}
    for instance in document.instances:
        edit = instance.edit
        if edit.op == "insert":
            written.setdefault(instance.location, []).append((0, 10**9, instance.instance_id))
            continue
        if edit.op == "remove":
            continue
        for r in edit.replacements:
            if r.field == "text":
                item = (r.start, len(r.old), len(r.new), instance.instance_id, instance.location)
                by_target.setdefault(edit.target, []).append(item)
        # a modify edit's renames are a numbering error (references stay as written); a structural
        # edit's renames are followed by the references, so they explain nothing
        changed = [old for old, _ in edit.renames] if edit.op == "modify" else []
        if any(r.field == "number" for r in edit.replacements) and instance.original_section is not None:
            changed.append(instance.original_section.number)
        if edit.op == "modify":  # a caption whose number the instance changed (an annex numbering error)
            text = document.original.sections[edit.target].text
            for target, start, end in captions(text):
                for r in edit.replacements:
                    if r.field == "text" and start <= r.start < end:
                        changed.append(target)
        for number in changed:
            renumbered[number] = instance.instance_id
    for items in by_target.values():
        shift = 0
        for start, old, new, instance_id, location in sorted(items):
            written.setdefault(location, []).append((start + shift, start + shift + new, instance_id))
            shift += new - old
    return written, renumbered


def _renumbered_by(target: str, renumbered: dict[str, str]) -> str:
    """The instance that renumbered a reference's target on purpose: the number itself, or a clause or
    chapter it stands under (a wrong "5.4" renumbers 5.3.1 to 5.4.1 with it); "" when none did."""
    for number, instance_id in renumbered.items():
        if target == number or target.startswith(number + "."):
            return instance_id
    return ""


def check_document(document: AuditDocument) -> tuple[int, list[BrokenReference], bool]:
    """References counted, broken ones, and whether the edits replayed to the published corrupted text."""
    original = document.original
    replayed = replay_document(document)
    if replayed.applied is not None:
        corrupted, numbers = replayed.applied.document, replayed.applied.numbers
    else:  # judge the published text; origins are unknown
        corrupted, numbers = document.corrupted, {}
    known, known_before = targets(corrupted), targets(original)
    written, renumbered_on_purpose = _written_spans(document)
    count = 0
    broken: list[BrokenReference] = []
    for section in corrupted.sections:
        origin = replayed.origin(section)
        source = original.sections[origin] if origin is not None else None
        old_refs = section_crossrefs(source) if source is not None else []
        before = {(r.kind, r.target) for r in old_refs}
        unchanged = source is not None and (source.text, source.kind) == (section.text, section.kind)
        refs = old_refs if unchanged else section_crossrefs(section)  # most sections are as they were
        # the same references in the same order: each is judged against the one it was ("按第5章…按第4章"
        # renumbered to "按第4章…按第3章" carries no "第4章" over); otherwise by what the section had
        paired = [r.kind for r in refs] == [r.kind for r in old_refs]
        for k, ref in enumerate(refs):
            count += 1
            problem = ""
            carried = ref.target == old_refs[k].target if paired else (ref.kind, ref.target) in before
            if carried and ref.kind in NUMBERED_KINDS and ref.target in numbers:
                now = numbers[ref.target]
                if now is None:
                    problem = "target removed"
                elif now != ref.target:
                    problem = f"renumbered to {now}"
            if not problem and ref.target not in known:
                problem = "unresolved"
            if not problem:
                continue
            status, by = "unexplained", ""
            for start, end, instance_id in written.get(section.number, ()):
                if start <= ref.start < end or start < ref.end <= end:
                    status, by = "explained", instance_id
            was = old_refs[k].target if paired else ref.target
            if status == "unexplained":
                on_purpose = _renumbered_by(was, renumbered_on_purpose)
                if on_purpose:
                    status, by = "explained", on_purpose
            # it stood in the original (perhaps renumbered since), or an inserted section copies it
            already = (
                paired or carried or (origin is None and any(ref.quote in s.text for s in original.sections))
            )
            if status == "unexplained" and problem == "unresolved" and was not in known_before and already:
                status = "pre-existing"
            broken.append(
                BrokenReference(original.doc_id, section.number, ref.quote, ref.target, problem, status, by)
            )
    return count, broken, replayed.ok


def audit_integrity(release: Release) -> IntegrityResult:
    count = 0
    broken: list[BrokenReference] = []
    failures: list[str] = []
    for d in release.documents:
        n, found, replayed = check_document(d)
        count += n
        broken.extend(found)
        if not replayed:
            failures.append(d.original.doc_id)
    return IntegrityResult(count, tuple(broken), tuple(failures))
